// Package ladder is the arena's memory: every starting player of a game is
// on its ladder, ranked battles are scheduled continuously between players
// of similar strength, and each result moves the players' OpenSkill
// ratings.
//
// The package holds the ladder's rules only — matchmaking, rating,
// probation, re-running battles the server failed — and knows no database,
// screen or network. What it remembers lives behind Store, a small
// interface with one package per database (engine/ladder/sqlite; an
// in-memory Store here for tests, NewMemory). What plays a battle is the
// caller's: the ladder hands out Plans (who plays, with which version of
// their source, on which seed) and takes back Outcomes.
//
// A ladder battle is a pure function of its game, its players' source
// hashes, its configuration and its seed. A battle interrupted by a crash
// or a shutdown is simply played again and counted once; the table can be
// re-derived from the stored results alone (Rerate), in the order the
// events happened (every new version and every finished battle takes the
// next number of one sequence).
//
// Concurrency: a Ladder may be used from any number of goroutines; the
// Store serialises writes (one writer), so no two battles are rated at
// once from stale ratings.
package ladder
