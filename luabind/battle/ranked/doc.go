// Package ranked plays the ladder's battles: it asks the ladder
// (engine/ladder) which players meet next, sets their battle up from the
// sources the ladder stored (luabind/battle), plays it behind the walls the
// caller gives, keeps its replay within a disk budget and hands the
// outcome back to be rated.
//
// A ladder battle is a pure function of its game, its seats' sources, its
// configuration (copied into the battle when it is planned) and its seed:
// a SquareBattle battle's catalog holds its seats' sources and nothing
// else, so a class a player replicates into is one of the battle's, and
// whoever has those sources can verify the replay.
//
// Concurrency: Run plays Options.Workers battles at once, each on its own
// goroutine; Replays may be used from any goroutine.
package ranked
