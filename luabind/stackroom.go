package luabind

import lua "github.com/yuin/gopher-lua"

// Room on the call stack for the handlers of an error raised at its top.
//
// gopher-lua calls a protected call's handler (the catcher, pcall's, and
// through it xpcall's) in a frame of its own, on top of the frames the
// error abandons. When those filled the call stack (a stack overflow, or
// any error raised at limits.call_depth) the handler's frame did not fit
// either, and gopher-lua, catching that second error inside PCall, built
// a traceback of every frame: GetStack walks from the top for each frame,
// so about a million steps at a depth of 1,000, for a caught error
// charged 8 instructions. `while true do pcall(f) end`, f recursing
// without end, ran 50 to 80 times longer than a full-budget call, and an
// xpcall handler that calls xpcall again 2,000 times longer.
//
// So a team's call stack holds stackReserve frames more than
// limits.call_depth, and its length is cut to limits.call_depth: every
// push (gopher-lua's and the VM core's, which both test the length)
// stops there as before, with the same message. When an error is raised
// with the stack full, the team's panic function (installed by the main
// loop at every call, see install) first lengthens it by handlerRoom, so
// that the handlers run; an xpcall handler may use that room, as Lua 5.1
// lets a handler run past LUAI_MAXCALLS. An error raised at the top of
// that room lengthens it to the end, where only the sandbox's own handler
// frames go: xpcall's handler is not called there (Lua 5.1's "error in
// error handling"). Once a protected call has returned below a room, the
// length is cut back (narrowStack). Neither handler raises while it runs
// (a spent budget is charged without raising, and raised by the next
// instruction), since an error raised inside a handler gets gopher-lua's
// traceback too.
const (
	handlerRoom  = 8
	stackReserve = 2 * handlerRoom
)

// stackSize is the size of a team's call stack: limits.call_depth and the
// reserve when the VM core can reach the stack (vmcall.go).
func stackSize(depth int) int {
	if callsOK {
		return depth + stackReserve
	}
	return depth
}

// cutStack gives a new state's call stack its length of limits.call_depth.
func (tm *Team) cutStack(L *lua.LState) {
	if st := fixedStack(L); st != nil && tm.limits.CallDepth > 0 && cap(st.array) >= tm.limits.CallDepth {
		st.array = st.array[:tm.limits.CallDepth]
	}
}

// stackFull reports whether no frame can be pushed on L's call stack.
func stackFull(L *lua.LState) bool {
	st := fixedStack(L)
	return st != nil && st.sp >= len(st.array)
}

// widenStack lengthens a full call stack by the next room, and reports
// whether it could.
func (tm *Team) widenStack(L *lua.LState) bool {
	st := fixedStack(L)
	if st == nil || st.sp < len(st.array) || len(st.array) >= cap(st.array) {
		return false
	}
	st.array = st.array[:min(len(st.array)+handlerRoom, cap(st.array))]
	return true
}

// lastRoom reports whether the call stack is lengthened to its end: only
// the sandbox's handlers may run then.
func (tm *Team) lastRoom(L *lua.LState) bool {
	st := fixedStack(L)
	return st != nil && len(st.array) > tm.limits.CallDepth+handlerRoom
}

// narrowStack cuts the call stack back to the shortest length that still
// holds its frames: limits.call_depth, or the handlers' room.
func (tm *Team) narrowStack(L *lua.LState) {
	st := fixedStack(L)
	base := tm.limits.CallDepth
	if st == nil || len(st.array) <= base {
		return
	}
	n := base
	for st.sp > n && n < cap(st.array) {
		n = min(n+handlerRoom, cap(st.array))
	}
	if n < len(st.array) {
		st.array = st.array[:n]
	}
}

// raisePanic is the team's LState.Panic: gopher-lua's panic without a
// traceback, after lengthening a full call stack so that the handler's
// frame fits.
func (tm *Team) raisePanic(L *lua.LState) {
	tm.widenStack(L)
	panic(&lua.ApiError{Type: lua.ApiErrorRun, Object: L.Get(-1)})
}

// overflowMessage is gopher-lua's message for a push on a full stack
// from the current frame: the position of the innermost Lua frame.
func overflowMessage(L *lua.LState) string {
	for f := current(L); f != nil; f = f.Parent {
		if f.Fn != nil && !f.Fn.IsG && f.Fn.Proto != nil {
			return framePosition(f) + ": stack overflow"
		}
	}
	return " stack overflow"
}
