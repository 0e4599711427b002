package luabind

import (
	"unsafe"

	lua "github.com/yuin/gopher-lua"
)

// Array gaps. gopher-lua stores t[k] for an integer k below
// lua.MaxArrayIndex in the array part, and when k is past the end it first
// appends a nil for every missing slot: `t = {} t[1023] = 1` allocates
// 16 KiB in two instructions, five hundred times what an instruction is
// assumed to allocate (bytesPerInstr). A script doing that in a loop would
// grow by tens of MiB per call unseen until its next census. So every
// write that can fill a gap (the SETTABLE opcode, see indexOp in index.go,
// and rawset) charges the
// slots it fills as values stored, before the write: budget and memory,
// the same as any other Go-side growth (chargeValues), which takes a
// census when the team's charges pass its headroom.

// chargeGap charges the nils a raw write of t[key] would append.
func (tm *Team) chargeGap(L *lua.LState, t *lua.LTable, key lua.LValue) {
	k, ok := key.(lua.LNumber)
	if !ok || !(k > 1 && k < lua.LNumber(lua.MaxArrayIndex)) || !tableLayoutOK {
		return
	}
	n := int64(k) - 1 - int64(len((*lTable)(unsafe.Pointer(t)).array))
	if n > 0 {
		// A slot appended one at a time, with the array regrown as it
		// goes, costs about what an instruction does: one a slot.
		tm.charge(L, n)
		tm.chargeValues(L, n)
	}
}

// rawsetGap wraps the base library's rawset so that it charges the gap it
// may fill before writing.
func (tm *Team) rawsetGap(orig *lua.LFunction) *lua.LFunction {
	return tm.L.NewFunction(func(L *lua.LState) int {
		if t, ok := L.Get(1).(*lua.LTable); ok {
			tm.chargeGap(L, t, L.Get(2))
		}
		return orig.GFunction(L)
	})
}
