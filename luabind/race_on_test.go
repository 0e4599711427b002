//go:build race

package luabind

// raceEnabled: the race detector slows the VM several times over, and
// TestDifferentialLua51 runs one goroutine, so under -race it runs a
// quarter of its cases.
const raceEnabled = true
