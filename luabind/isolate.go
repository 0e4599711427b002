package luabind

import lua "github.com/yuin/gopher-lua"

// Isolation between the classes of one Lua state.
//
// Every class gets an environment of its own, copied from the team's base
// table, so one class cannot clobber another's globals. That copy alone
// would still share the library tables inside it: a class that set
// string.format or table.insert, or hung a field on math, would change them
// for every class of the team (and, at load, for every file of a folder).
// So each environment also gets its own shallow copies of the library
// tables. Copying is cheap (a few dozen entries per class and team) and the
// functions themselves are shared: a function has no fields a script can
// change.
//
// The libraries copied per class; team_memory stays shared on purpose (it is
// the team's common memory).
var classLibraries = []string{"string", "table", "math"}

// ownLibraries replaces the library tables of a fresh class environment
// with copies that only this class can see.
func ownLibraries(L *lua.LState, env, base *lua.LTable) {
	for _, name := range classLibraries {
		lib, ok := base.RawGetString(name).(*lua.LTable)
		if !ok {
			continue
		}
		env.RawSetString(name, copyLibrary(L, lib))
	}
}

// copyLibrary makes a shallow copy of a library table, in the library's own
// key order. A __index entry is left out: gopher-lua's own string library
// has one pointing at itself, which Lua's string library has not.
func copyLibrary(L *lua.LState, lib *lua.LTable) *lua.LTable {
	cp := L.CreateTable(0, 32)
	for k, v := lib.Next(lua.LNil); k != lua.LNil; k, v = lib.Next(k) {
		if k == lua.LString("__index") {
			continue
		}
		cp.RawSet(k, v)
	}
	return cp
}

// protectStringMetatable gives strings a metatable no script can reach or
// change. It runs once the string library is built, and replaces the
// metatable Lua 5.1 would give strings ({__index = string}): with that one,
// `getmetatable("").__index` handed a script the very table behind every
// `s:method()` call of every class in the state, and one class replacing a
// method there changed it for all.
//
// Here the metatable is a fresh table whose __index is a private copy of the
// library, reachable from no script, and whose __metatable field makes
// getmetatable("") return false, as Lua does for a protected metatable.
// Methods called on strings (`s:rep(3)`) are therefore always the pristine
// ones; what a class writes into its own `string` table affects only calls
// through that table. The private copy holds only the library's functions
// and never changes, so the memory census need not walk it.
func protectStringMetatable(L *lua.LState, strlib *lua.LTable) {
	mt := L.CreateTable(0, 2)
	mt.RawSetString("__index", copyLibrary(L, strlib))
	mt.RawSetString("__metatable", lua.LFalse)
	L.SetMetatable(lua.LString(""), mt)
}
