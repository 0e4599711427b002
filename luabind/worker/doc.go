// Package worker runs team VMs in worker processes: the outer wall of the
// sandbox (docs/sandbox.md, "Defence in depth" in the design). The sandbox
// in luabind charges every script deterministically and decides every
// normal timeout and memory error; what it misses — a builtin that spins,
// a fatal out-of-memory, a Go stack overflow, a crash — kills one worker
// and costs one team instead of the whole process.
//
// The parent side is a Pool of worker processes (the same binary, run as
// the hidden subcommand "__worker") and a Seat per team, an
// engine.Controller that sends each Turn and Settle to its worker as one
// framed request (protocol.go; a turn's squares and intents are packed in
// turn.go) and reads one answer. A Seat is also an engine.Dispatcher: the
// battle sends every team its request before it reads any answer, so the
// teams' workers decide at the same time whatever the battle's number of
// workers. Each worker runs on one processor (GOMAXPROCS=1) and the pipes
// block, so a request costs a write and a read on each side. The child side is
// Main and Serve: a luabind.Team per team per battle, behind OS limits
// (engine/oslimit, shared with external bots) it sets on itself before
// reading a request. A worker that dies or runs past its wall-clock bound is reported to the engine as
// an engine.Backstop event (seat.go), which the replay keeps so that
// replay --verify can play it back as it happened.
package worker
