// Package barelua calls a player's run function through plain gopher-lua:
// no sandbox, no instruction count, prepared arguments. It is the floor
// that benchmarks measure the engine's cost per square-step against
// (luabind's BenchmarkSquareStep, luabind/worker's BenchmarkWorkers); only
// tests import it.
package barelua

import (
	lua "github.com/yuin/gopher-lua"
)

// Caller loads src (a player: a chunk returning a table with run) into a
// fresh gopher-lua state and returns call, which runs run for square k of
// a full size×size board of teams teams (k%teams is its team, k/size and
// k%size its row and column, every square with a self table of its own and
// one shared view), and done, which closes the state. prepare, when not
// nil, is applied to the state before the player loads (to install an
// instruction count, say). newSelf, when not nil, makes the squares' self
// tables (L.NewTable otherwise). Like the engine's, the arguments are
// boxed once: a call allocates nothing of its own.
func Caller(src string, size, teams int, prepare func(*lua.LState), newSelf func(*lua.LState) *lua.LTable) (call func(k int) error, done func(), err error) {
	L := lua.NewState()
	if prepare != nil {
		prepare(L)
	}
	L.SetGlobal("WAIT", lua.LString("wait"))
	L.SetGlobal("EMPTY", lua.LNumber(-1))
	if err := L.DoString(src); err != nil {
		L.Close()
		return nil, nil, err
	}
	run := L.Get(-1).(*lua.LTable).RawGetString("run")
	L.Pop(1)
	if newSelf == nil {
		newSelf = (*lua.LState).NewTable
	}
	selves := make([]*lua.LTable, size*size)
	for i := range selves {
		selves[i] = newSelf(L)
	}
	view := L.NewTable()
	for d := 1; d <= 8; d++ {
		view.RawSetInt(d, lua.LNumber(d%teams))
	}
	nums := make([]lua.LValue, max(size, teams))
	for i := range nums {
		nums[i] = lua.LNumber(i)
	}
	call = func(k int) error {
		L.Push(run)
		L.Push(selves[k])
		L.Push(nums[k%teams])
		L.Push(view)
		L.Push(nums[k/size])
		L.Push(nums[k%size])
		if err := L.PCall(5, 4, nil); err != nil {
			return err
		}
		L.Pop(4)
		return nil
	}
	return call, L.Close, nil
}
