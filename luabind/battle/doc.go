// Package battle sets up and plays one battle from player names and a
// configuration: the library that the command line, the SSH arena's hall
// and the ladder share, so that a battle is set up the same way wherever
// it is played and its replay verifies the same way.
//
// It joins what the other packages hold apart: the configuration
// (package config) turned into engine and sandbox options, the teams
// picked among Lua players and external bots (engine/bot/process), the
// battle built in luabind behind whatever walls the caller gives
// (luabind.Seater, luabind.RulesSeater: this process or worker
// processes), and the replay written as the rounds are played
// (engine/replay).
//
// Where the walls come from stays the caller's: a worker process is the
// program itself re-run, which only package main knows how to start.
//
// Errors that are the user's to fix (an unknown player, a bad map, a bad
// game folder) wrap ErrBadInput.
package battle
