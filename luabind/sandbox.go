package luabind

import (
	"fmt"
	"strings"

	lua "github.com/yuin/gopher-lua"
)

// The library a script sees. Everything not listed here is left out: io, os,
// debug, package/require, coroutines, channels, load/loadstring/dofile/
// loadfile, getfenv/setfenv, collectgarbage and newproxy. Coroutines are left
// out because gopher-lua gives each coroutine its own context, which would
// escape the instruction budget.
var safeBase = []string{
	"assert", "error", "getmetatable", "ipairs", "next", "pairs", "pcall",
	"rawequal", "rawget", "rawset", "select", "setmetatable", "tonumber",
	"type", "xpcall", "_VERSION",
}

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

var actionConstants = map[string]string{
	"WAIT": "wait", "MOVE": "move", "ATTACK": "attack", "REPLICATE": "replicate",
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
	tm.wrapTables(L, tablib)
	base.RawSetString("table", tablib)

	mathlib := tm.mathLibrary(L) // mathlib.go: the same bits on every machine
	base.RawSetString("math", mathlib)
	g.RawSetString("math", mathlib)

	base.RawSetString("tostring", L.NewFunction(luaToString))
	base.RawSetString("print", L.NewFunction(tm.luaPrint))
	base.RawSetString("unpack", L.NewFunction(tm.luaUnpack))
	base.RawSetString("ipairs", ipairs(L))

	for i, name := range directionNames {
		base.RawSetString(name, lua.LNumber(i+1))
	}
	for name, value := range actionConstants {
		base.RawSetString(name, lua.LString(value))
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

// luaToString is tostring without memory addresses: a script that keyed its
// decisions on an address would make battles irreproducible.
func luaToString(L *lua.LState) int {
	v := L.CheckAny(1)
	L.Push(lua.LString(toString(L, v)))
	return 1
}

func toString(L *lua.LState, v lua.LValue) string {
	if mm := L.GetMetaField(v, "__tostring"); mm != lua.LNil {
		L.Push(mm)
		L.Push(v)
		L.Call(1, 1)
		r := L.Get(-1)
		L.Pop(1)
		if s, ok := r.(lua.LString); ok {
			return string(s)
		}
		if n, ok := r.(lua.LNumber); ok {
			return n.String()
		}
		L.RaiseError("'__tostring' must return a string")
	}
	switch v := v.(type) {
	case lua.LString:
		return string(v)
	case lua.LNumber:
		return v.String()
	case lua.LBool:
		return v.String()
	case *lua.LNilType:
		return "nil"
	default:
		return v.Type().String()
	}
}

func (tm *Team) luaPrint(L *lua.LState) int {
	var sb strings.Builder
	for i := 1; i <= L.GetTop(); i++ {
		if i > 1 {
			sb.WriteByte('\t')
		}
		sb.WriteString(toString(L, L.Get(i)))
		if sb.Len() > maxPrintLine {
			break
		}
	}
	line := sb.String()
	if len(line) > maxPrintLine {
		line = line[:maxPrintLine] + "…"
	}
	tm.chargeBytes(L, int64(len(line)))
	tm.printed(line)
	return 0
}

const maxPrintLine = 240

// luaUnpack is unpack with its result count bounded by the budget: a single
// unpack(t, 1, 1e8) would otherwise push a hundred million values.
func (tm *Team) luaUnpack(L *lua.LState) int {
	t := L.CheckTable(1)
	i := L.OptInt(2, 1)
	n0, _ := border(t)
	j := L.OptInt(3, n0)
	if i > j {
		return 0
	}
	n := int64(j) - int64(i) + 1
	if n > maxResults {
		L.RaiseError("too many results to unpack (%d)", n)
	}
	tm.charge(L, n/8)
	for k := i; k <= j; k++ {
		L.Push(t.RawGet(lua.LNumber(k)))
	}
	return int(n)
}

// maxResults bounds the values a builtin may push at once, well inside the
// Lua stack.
const maxResults = 4000

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
			e.RawSetString("player", lua.LString(tm.facts.Players[i]))
			t.RawSetInt(i, e)
		}
		tm.statsTable, tm.statsStamp = t, tm.phaseStamp
		tm.charge(L, int64(len(tm.facts.Stats))*10)
	}
	L.Push(tm.statsTable)
	return 1
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
	name := L.CheckString(1)
	id, ok := tm.cat.classID(name)
	if !ok {
		L.ArgError(1, fmt.Sprintf("unknown class %q", name))
	}
	if !tm.inRun {
		L.RaiseError("become can only be called from run")
	}
	tm.become = id
	return 0
}

// luaRandom is math.random on the team's own seeded stream.
func (tm *Team) luaRandom(L *lua.LState) int {
	switch L.GetTop() {
	case 0:
		L.Push(lua.LNumber(tm.rng.Float64()))
	case 1:
		m := wholeArg(L, 1)
		if m < 1 {
			L.ArgError(1, "interval is empty")
		}
		L.Push(lua.LNumber(1 + tm.rng.IntN(m)))
	default:
		lo, hi := wholeArg(L, 1), wholeArg(L, 2)
		if lo > hi {
			L.ArgError(2, "interval is empty")
		}
		L.Push(lua.LNumber(lo + tm.rng.IntN(hi-lo+1)))
	}
	return 1
}

// luaRandomSeed restarts the team's stream from a seed mixed with the
// battle seed, so a script can make its own choices repeatable.
func (tm *Team) luaRandomSeed(L *lua.LState) int {
	n := tm.mathIntArg(L, 1) // not Go's conversion: 1e300 differs by machine
	tm.rng.Seed(tm.seed^uint64(int64(n)), teamStream(tm.index))
	return 0
}
