package luabind

import (
	lua "github.com/yuin/gopher-lua"

	"github.com/squarebattle/squarebattle/luabind/detmath"
)

// Lua 5.1's deprecated functions, which gopher-lua leaves out and code
// written for 5.1 (and its test suite) still calls: math.mod, table.foreach,
// table.foreachi, table.setn and gcinfo. Each is charged like its modern
// counterpart: foreach walks with the project's next (charged per slot),
// foreachi probes the border and pays one instruction a call it makes, so
// that a zero-cost builtin as the function cannot make a free loop.

// openCompat51 adds the deprecated functions to the base, table and math
// tables of the library being built.
func (tm *Team) openCompat51(L *lua.LState, base, tablib, mathlib *lua.LTable) {
	mathlib.RawSetString("mod", L.NewFunction(func(L *lua.LState) int {
		y := tm.mathArg(L, 2) // first, as math.fmod (mathlib.go)
		L.Push(lua.LNumber(binaryResult(detmath.Fmod, tm.mathArg(L, 1), y)))
		return 1
	}))
	tablib.RawSetString("foreach", L.NewFunction(tm.tableForeach))
	tablib.RawSetString("foreachi", L.NewFunction(tm.tableForeachi))
	tablib.RawSetString("setn", L.NewFunction(func(L *lua.LState) int {
		checkTable(L, 1)
		raise(L, "'setn' is obsolete")
		return 0
	}))
	base.RawSetString("gcinfo", L.NewFunction(tm.luaGCInfo))
}

// tableForeach is table.foreach(t, f): f(k, v) for every entry in next's
// order, stopping at (and returning) the first non-nil result.
func (tm *Team) tableForeach(L *lua.LState) int {
	t := checkTable(L, 1)
	f := checkFunction(L, 2)
	k := lua.LValue(lua.LNil)
	for {
		var v lua.LValue
		k, v = tm.next(L, t, k)
		if k == lua.LNil {
			return 0
		}
		tm.charge(L, 1)
		L.Push(f)
		L.Push(k)
		L.Push(v)
		L.Call(2, 1)
		if r := L.Get(-1); r != lua.LNil {
			return 1
		}
		L.Pop(1)
	}
}

// tableForeachi is table.foreachi(t, f): f(i, t[i]) for i from 1 to #t,
// stopping at (and returning) the first non-nil result.
func (tm *Team) tableForeachi(L *lua.LState) int {
	t := checkTable(L, 1)
	f := checkFunction(L, 2)
	n := tm.checkedBorder(L, t)
	for i := 1; i <= n; i++ {
		tm.charge(L, 1)
		L.Push(f)
		L.Push(lua.LNumber(i))
		L.Push(t.RawGetInt(i))
		L.Call(2, 1)
		if r := L.Get(-1); r != lua.LNil {
			return 1
		}
		L.Pop(1)
	}
	return 0
}

// luaGCInfo is gcinfo(): the kilobytes the team holds as the sandbox
// counts them (the last memory census plus the bytes charged since), not
// the collector's figure, which would differ from run to run.
func (tm *Team) luaGCInfo(L *lua.LState) int {
	L.Push(lua.LNumber((tm.lastLive + tm.charged) / 1024))
	return 1
}
