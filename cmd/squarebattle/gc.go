package main

import "runtime/debug"

// battleGCPercent is the garbage collector's GOGC for the commands that
// play battles flat out (run, tournament, ladder work), unless the user
// set GOGC: 0 for every other command.
//
// A battle keeps little alive (a few MB of Lua states and arenas) and
// allocates fast (every Lua table, string and number result), so at Go's
// default of 100 the collector runs every few milliseconds and took a
// quarter of an in-process tournament's CPU. At 400 a KOTH tournament of
// 60 battles used 12% less CPU for 25 MB more resident memory
// (docs/performance.md, "Tournaments"). Worker processes already run at
// their own setting (luabind/worker). The terminal UI and the arena are
// left at the default: they hold viewers' screens, and their memory is
// bounded by what they hold.
func battleGCPercent(args []string, getenv func(string) string) int {
	if len(args) == 0 || getenv("GOGC") != "" {
		return 0
	}
	switch args[0] {
	case "run", "tournament":
		return 400
	case "ladder":
		if len(args) > 1 && args[1] == "work" {
			return 400
		}
	}
	return 0
}

// setBattleGC applies battleGCPercent to this process.
func setBattleGC(args []string, getenv func(string) string) {
	if p := battleGCPercent(args, getenv); p > 0 {
		debug.SetGCPercent(p)
	}
}
