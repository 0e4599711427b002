package luabind

import (
	"fmt"

	lua "github.com/yuin/gopher-lua"
)

// Argument errors worded as Lua 5.1's luaL_argerror words them:
// "bad argument #2 to 'format' (number expected, got table)". gopher-lua's
// own ArgError leaves the quotes out and says "got nil" for a missing
// argument; a coder searching the manual or the web for the message finds
// Lua's wording.

// Where a builtin's error happened. Lua 5.1's library functions raise
// their errors with luaL_error, which prefixes luaL_where(L, 1): the
// "file:line: " of the function that called the library function when
// that is Lua code, and nothing when it is a C function (pcall, xpcall,
// table.sort calling its comparator, gsub calling its replacement, ...):
// pcall(string.rep) fails with "bad argument #1 to '?' (string expected,
// got no value)" and no position. gopher-lua's RaiseError instead walks
// down to the nearest Lua frame, however many Go frames lie between. The
// core's own errors raised while a C function runs (luaG_runerror: a
// comparison inside table.sort, an invalid key to next, a nil index given
// to rawset) carry no position at all.

// raise raises a builtin's error as luaL_error does: the message prefixed
// with the position of the running builtin's caller when that is Lua code.
// Raised from an opcode's own code (the running frame is Lua), the prefix
// is the running instruction's position, as luaG_runerror gives it.
func raise(L *lua.LState, format string, args ...any) {
	if !countedLoopOK {
		L.RaiseError(format, args...)
		return
	}
	msg := format
	if len(args) > 0 {
		msg = fmt.Sprintf(format, args...)
	}
	L.Error(lua.LString(callerWhere(L)+msg), 0)
}

// runError raises msg with no position: Lua 5.1's luaG_runerror while a C
// function is running.
func runError(L *lua.LState, format string, args ...any) {
	msg := format
	if len(args) > 0 {
		msg = fmt.Sprintf(format, args...)
	}
	L.Error(lua.LString(msg), 0)
}

// callerWhere is luaL_where(L, 1) seen from a builtin: "file:line: " of the
// frame that called the running Go function when that frame is Lua code,
// else "". From Lua code itself (an opcode's wrapper), the running
// instruction's position.
func callerWhere(L *lua.LState) string {
	f := current(L)
	if f != nil && f.Fn != nil && f.Fn.IsG {
		f = f.Parent
	}
	if f == nil || f.Fn == nil || f.Fn.IsG || f.Fn.Proto == nil {
		return ""
	}
	return framePosition(f) + ": "
}

// argError raises "bad argument #n to 'name' (msg)", where name is what the
// calling code called the function (a global, a field, a method or a local,
// as Lua reports it), or '?' when that is unknown. Called as a method
// (`s:sub(x)`), the self argument is not counted, as in Lua: the error in
// self itself reads "calling 'sub' on bad self (msg)".
func argError(L *lua.LState, n int, msg string) {
	name := "?"
	kind := ""
	if countedLoopOK {
		kind, name = callerName(L, current(L))
	}
	if kind == "" {
		name = "?"
	}
	if kind == "method" {
		n--
		if n == 0 {
			raise(L, "calling '%s' on bad self (%s)", name, msg)
		}
	}
	raise(L, "bad argument #%d to '%s' (%s)", n, name, msg)
}

// typeError raises the argument error for argument n when a value of the
// type want was expected; an argument past the last one is "no value".
func typeError(L *lua.LState, n int, want string) {
	got := "no value"
	if n <= L.GetTop() {
		got = L.Get(n).Type().String()
	}
	argError(L, n, fmt.Sprintf("%s expected, got %s", want, got))
}

// checkTable is argument n as a table, or Lua's argument error.
func checkTable(L *lua.LState, n int) *lua.LTable {
	if t, ok := L.Get(n).(*lua.LTable); ok {
		return t
	}
	typeError(L, n, "table")
	return nil
}

// checkFunction is argument n as a function, or Lua's argument error.
func checkFunction(L *lua.LState, n int) *lua.LFunction {
	if f, ok := L.Get(n).(*lua.LFunction); ok {
		return f
	}
	typeError(L, n, "function")
	return nil
}

// checkAny is argument n, which must be present (nil counts).
func checkAny(L *lua.LState, n int) lua.LValue {
	if n > L.GetTop() {
		argError(L, n, "value expected")
	}
	return L.Get(n)
}
