// Package engine is the SquareBattle domain: the arena, teams, squares, rounds,
// the exact rules that resolve a round, statistics, snapshots and the seeded
// random streams that make a battle reproducible.
//
// The package is pure Go. It knows nothing about Lua, terminals or
// configuration files: who decides what a square does is hidden behind the
// Controller interface (package luabind implements it with Lua scripts), and
// whoever wants to look at a battle reads an immutable Snapshot.
//
// Determinism: a Battle is a pure function of its Options (seed included) and
// of what its controllers answer. Controllers of different teams may run in
// parallel, but everything they can observe is fixed before a phase starts and
// everything they return is merged in team order, so the number of workers
// never changes the outcome. Two inputs are not a function of the options.
// A backstop event (backstop.go): a controller whose team ran behind a wall
// that fired says so, the engine records it in the round's log, and a
// re-run takes it from the recording (ReplayBackstops, and
// ReplayModBackstops for a rule mod's caller). And the decisions of a team
// decided outside the battle, by an external bot or a person (answers.go):
// the engine records them in the round's log too, and a re-run hands them
// back (ReplayAnswers, ReplayModAnswers) instead of asking anyone.
package engine
