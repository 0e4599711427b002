package luabind

import lua "github.com/yuin/gopher-lua"

// The charging primitives every builtin uses (rates in cost.go).

// charge takes n instructions from the running call's budget and raises the
// budget error when they are not there.
func (tm *Team) charge(L *lua.LState, n int64) {
	if n > 0 && !tm.budget.charge(n) {
		L.RaiseError("%s", errBudget.Error())
	}
}

// chargeBytes charges for n bytes of new string data: budget and memory.
func (tm *Team) chargeBytes(L *lua.LState, n int64) {
	tm.charge(L, n/bytesPerInstruction)
	tm.chargeMemory(L, n)
}

// chargeMemory counts n bytes of new data towards the next census; when the
// charges pass the headroom, a census right there decides whether the call
// may go on (memory.go).
func (tm *Team) chargeMemory(L *lua.LState, n int64) {
	tm.charged += n
	if tm.charged > tm.headroom {
		tm.overHeadroom(L)
	}
}

// checkLength refuses to build a string longer than limits.string_bytes,
// and charges its bytes otherwise.
func (tm *Team) checkLength(L *lua.LState, n int64) {
	if n > int64(tm.limits.StringBytes) {
		tm.tooLong(L, n)
	}
	tm.chargeBytes(L, n)
}

func (tm *Team) tooLong(L *lua.LState, n int64) {
	L.RaiseError("string of %d bytes is longer than the limit of %d (limits.string_bytes)", n, tm.limits.StringBytes)
}
