package luabind

import (
	"fmt"
	"slices"
	"strings"
	"unsafe"

	lua "github.com/yuin/gopher-lua"
)

// The library a script sees. Everything not listed here is left out: io, os,
// debug, package/require, coroutines, channels, load/loadstring/dofile/
// loadfile, getfenv/setfenv, collectgarbage and newproxy. Coroutines are left
// out because gopher-lua gives each coroutine its own context, which would
// escape the instruction budget.
//
// safeBase lists the base functions taken from gopher-lua, in the order
// pairs visits them; the rest of the base library is the project's own
// (baselib.go), which then replaces all but _VERSION (getmetatable and
// type in openBase, pcall and xpcall in openPCall) in place.
var safeBase = []string{"getmetatable", "pcall", "type", "xpcall", "_VERSION"}

var unsafeGlobals = []string{
	"dofile", "loadfile", "load", "loadstring", "require", "module", "getfenv",
	"setfenv", "collectgarbage", "newproxy", "_printregs", "print", "unpack",
	"tostring", "package", "coroutine", "channel", "os", "io", "debug",
}

var safeMath = []string{
	"abs", "acos", "asin", "atan", "atan2", "ceil", "cos", "cosh", "deg",
	"exp", "floor", "fmod", "frexp", "huge", "ldexp", "log", "log10", "max",
	"min", "modf", "pi", "pow", "rad", "sin", "sinh", "sqrt", "tan", "tanh",
}

// Game constants. Directions are numbers so that view[N] works; actions are
// strings, so returning MOVE and returning "move" are the same thing.
var directionNames = [8]string{"NW", "N", "NE", "E", "SE", "S", "SW", "W"}

// They are set in this order, which is the order pairs(_G) visits them in:
// a list, not a map, so that the order is the same in every state.
var actionConstants = [...]struct{ name, value string }{
	{"WAIT", "wait"}, {"MOVE", "move"}, {"ATTACK", "attack"}, {"REPLICATE", "replicate"},
}

// openLibraries loads the standard libraries into a fresh state, strips what
// a script must not reach, wraps the builtins whose cost does not show in
// the instruction count, and returns the table every class environment is
// copied from.
func (tm *Team) openLibraries(L *lua.LState) *lua.LTable {
	for _, lib := range []struct {
		name string
		open lua.LGFunction
	}{{lua.BaseLibName, lua.OpenBase}, {lua.TabLibName, lua.OpenTable}, {lua.StringLibName, lua.OpenString}, {lua.MathLibName, lua.OpenMath}} {
		L.Push(L.NewFunction(lib.open))
		L.Push(lua.LString(lib.name))
		L.Call(1, 0)
	}
	g := L.G.Global
	base := L.NewTable()
	for _, name := range safeBase {
		base.RawSetString(name, g.RawGetString(name))
	}
	for _, name := range unsafeGlobals {
		g.RawSetString(name, lua.LNil)
	}

	strlib := tm.stringLibrary(L)
	g.RawSetString("string", strlib)
	base.RawSetString("string", strlib)
	protectStringMetatable(L, strlib)

	tablib := g.RawGetString("table").(*lua.LTable)
	sortKeys(tablib)
	tm.wrapTables(L, tablib)
	base.RawSetString("table", tablib)

	mathlib := tm.mathLibrary(L) // mathlib.go: the same bits on every machine
	tm.wrapArgCounts(L, mathlib, "max", "min")
	base.RawSetString("math", mathlib)
	g.RawSetString("math", mathlib)

	tm.openBase(L, base)
	for _, name := range []string{"getmetatable", "type"} {
		// gopher-lua's globals hold the replacements too, so the state
		// holds as many functions as before (the memory census counts
		// them).
		g.RawSetString(name, base.RawGetString(name))
	}
	tm.openCompat51(L, base, tablib, mathlib) // compat51.go

	for i, name := range directionNames {
		base.RawSetString(name, lua.LNumber(i+1))
	}
	for _, c := range actionConstants {
		base.RawSetString(c.name, lua.LString(c.value))
	}
	base.RawSetString("EMPTY", lua.LNumber(-1))
	base.RawSetString("WALL", lua.LNumber(-2))
	base.RawSetString("round", L.NewFunction(tm.luaRound))
	base.RawSetString("board_size", L.NewFunction(tm.luaBoardSize))
	base.RawSetString("team_count", L.NewFunction(tm.luaTeamCount))
	base.RawSetString("stats", L.NewFunction(tm.luaStats))
	base.RawSetString("classes", L.NewFunction(tm.luaClasses))
	base.RawSetString("become", L.NewFunction(tm.luaBecome))
	base.RawSetString("team_memory", L.NewTable())
	base.RawSetString("turn", L.NewFunction(luaTurn))
	base.RawSetString("opposite", L.NewFunction(luaOpposite))
	base.RawSetString("neighbour", L.NewFunction(tm.luaNeighbour))
	base.RawSetString("plan", L.NewFunction(tm.luaPlan))
	base.RawSetString("planned", L.NewFunction(tm.luaPlanned))
	base.RawSetString("free", L.NewFunction(tm.luaFree))
	return base
}

func (tm *Team) luaRound(L *lua.LState) int {
	L.Push(lua.LNumber(tm.facts.Round))
	return 1
}

func (tm *Team) luaBoardSize(L *lua.LState) int {
	L.Push(lua.LNumber(tm.facts.Size))
	return 1
}

func (tm *Team) luaTeamCount(L *lua.LState) int {
	L.Push(lua.LNumber(tm.facts.TeamCount))
	return 1
}

// luaStats returns the statistics of every team, keyed by team index (0
// for the first team, as in views). The table is built once per phase and
// shared by the team's calls; writing to it affects only this team.
func (tm *Team) luaStats(L *lua.LState) int {
	if tm.statsTable == nil || tm.statsStamp != tm.phaseStamp {
		t := L.CreateTable(0, len(tm.facts.Stats))
		for i, s := range tm.facts.Stats {
			e := L.CreateTable(0, 9)
			e.RawSetString("squares", lua.LNumber(s.Squares))
			e.RawSetString("births", lua.LNumber(s.Births))
			e.RawSetString("kills", lua.LNumber(s.Kills))
			e.RawSetString("deaths", lua.LNumber(s.Deaths))
			e.RawSetString("collisions", lua.LNumber(s.Collisions))
			e.RawSetString("timeouts", lua.LNumber(s.Timeouts))
			e.RawSetString("errors", lua.LNumber(s.Errors))
			e.RawSetString("player", tm.playerName(i))
			t.RawSetInt(i, e)
		}
		tm.statsTable, tm.statsStamp = t, tm.phaseStamp
		tm.charge(L, int64(len(tm.facts.Stats))*10)
	}
	L.Push(tm.statsTable)
	return 1
}

// playerName is the display name of team i as the team's own string,
// made once per battle: in this process the names are the engine's, one
// string for a player fielded twice, where a worker decodes each name
// into bytes of its own (ownString, census.go).
func (tm *Team) playerName(i int) lua.LValue {
	players := tm.facts.Players
	if len(tm.players) != len(players) || len(players) > 0 && tm.playersFrom != unsafe.SliceData(players) {
		tm.players = make([]lua.LValue, len(players))
		for j, name := range players {
			tm.players[j] = ownString(name)
		}
		tm.playersFrom = unsafe.SliceData(players)
	}
	return tm.players[i]
}

// luaClasses returns a fresh sorted list of every class id, for players
// that replicate into classes they pick at run time.
func (tm *Team) luaClasses(L *lua.LState) int {
	ids := tm.cat.ids
	t := L.CreateTable(len(ids), 0)
	for _, id := range ids {
		t.Append(lua.LString(id))
	}
	tm.charge(L, int64(len(ids)))
	L.Push(t)
	return 1
}

// luaBecome switches the calling square to another class from the next
// round on. It only takes effect if the call then finishes without error.
func (tm *Team) luaBecome(L *lua.LState) int {
	name := strArg(L, 1)
	id, ok := tm.cat.classID(name)
	if !ok {
		argError(L, 1, fmt.Sprintf("unknown class %q", name))
	}
	if !tm.inRun {
		L.RaiseError("become can only be called from run")
	}
	tm.become = id
	return 0
}

// luaRandom is math.random on the team's own seeded stream.
func (tm *Team) luaRandom(L *lua.LState) int {
	lo, hi, whole := randomRange(L, func(n int) int { return tm.mathIntArg(L, n) })
	if !whole {
		L.Push(lua.LNumber(tm.rng.Float64()))
		return 1
	}
	L.Push(lua.LNumber(lo + tm.rng.IntN(hi-lo+1)))
	return 1
}

// randomRange reads math.random's arguments as Lua 5.1's math_random does:
// none (whole is false: a fraction in [0, 1) is wanted), m (1..m) or m and
// n (m..n), each read by arg as luaL_checkint reads it (a number or a
// numeric string, truncated), an empty interval refused, and any other
// count of arguments "wrong number of arguments", nil ones included.
func randomRange(L *lua.LState, arg func(n int) int) (lo, hi int, whole bool) {
	switch L.GetTop() {
	case 0:
		return 0, 0, false
	case 1:
		hi = arg(1)
		if hi < 1 {
			argError(L, 1, "interval is empty")
		}
		return 1, hi, true
	case 2:
		lo = arg(1)
		hi = arg(2)
		if lo > hi {
			argError(L, 2, "interval is empty")
		}
		return lo, hi, true
	}
	raise(L, "wrong number of arguments")
	return 0, 0, false
}

// luaRandomSeed restarts the team's stream from a seed mixed with the
// battle seed, so a script can make its own choices repeatable.
func (tm *Team) luaRandomSeed(L *lua.LState) int {
	n := tm.mathIntArg(L, 1) // not Go's conversion: 1e300 differs by machine
	tm.rng.Seed(tm.seed^uint64(int64(n)), teamStream(tm.index))
	return 0
}

// sortKeys puts the keys of a table whose keys are all strings in sorted
// order, the order pairs visits them in. gopher-lua registers a library
// from a Go map, whose order changes from one run to the next, and a
// script can see the order: one that walks table's functions would play
// differently from the same seed. Only the order moves (the keys slice
// permuted in place, its index map renumbered), so the table holds the
// same entries in the same storage and the memory census counts the same.
func sortKeys(t *lua.LTable) {
	if !tableLayoutOK {
		return
	}
	m := (*lTable)(unsafe.Pointer(t))
	for _, k := range m.keys {
		if _, ok := k.(lua.LString); !ok {
			return
		}
	}
	slices.SortFunc(m.keys, func(a, b lua.LValue) int { return strings.Compare(string(a.(lua.LString)), string(b.(lua.LString))) })
	for i, k := range m.keys {
		m.k2i[k] = i
	}
}
