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
			L.RaiseError("calling '%s' on bad self (%s)", name, msg)
		}
	}
	L.RaiseError("bad argument #%d to '%s' (%s)", n, name, msg)
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
