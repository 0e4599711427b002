// Package luabind runs SquareBattle players written in Lua. It is the only
// package that touches gopher-lua.
//
// A Catalog loads every script of a folder once: each file is parsed,
// checked, rewritten so that string concatenation is bounded, and compiled to
// a prototype that every team of every battle shares. A Team is the
// engine.Controller of one team: it owns one Lua state for the whole battle,
// in which every class the team uses lives in its own environment, and it
// calls the squares' run functions one after another in ascending square id.
//
// Untrusted scripts are contained by three mechanisms, all deterministic:
// an instruction budget per call (a context whose Done method counts VM
// instructions), builtins that charge the budget for the work they do and
// refuse to build strings past a limit, and a census of the team's Lua heap
// that resets the team's memory when it grows past its bound.
package luabind
