package luabind

import (
	"unsafe"

	lua "github.com/yuin/gopher-lua"
)

// The Go stack a script can fill: Lua 5.1's C stack limit.
//
// A Lua function calling a Lua function runs in the same main loop, on the
// same Go frames. Everything else that runs Lua code from Go enters the main
// loop again, one level deeper on the Go stack: a metamethod (__index,
// __newindex, arithmetic, __eq, __lt, __le, __concat, __unm), a builtin's
// callback (table.sort's comparator, string.gsub's replacement function or
// its table's __index, tostring's __tostring, table.foreach's function), a
// Lua iterator of a generic for, and every protected call. Each level is
// about ten Go frames (the loop, the instruction's entry, getField or the
// arithmetic, LState.Call, callR, the install closure, the loop again).
//
// Only limits.call_depth bounded that nesting (each level pushes one Lua
// frame), so `__index = function(t, k) return t[k] end` nested 1,000 main
// loops, 10,000 at the largest call_depth, for one instruction a level. The
// error that ended it unwound them all in one Go panic, and Go's panic walks
// every frame between the raise and the PCall that recovers, decoding each
// frame's PC tables (long for the loop's huge function): 0.3 ms or more at
// 1,000 levels. Uncaught, such an overflow cost 2–5 times a full-budget
// call (BenchmarkStackOverflow); in `while true do pcall(f) end`, where a
// caught error was charged 8 instructions, 8–40 times.
//
// So a team's Go nesting is counted (budget.nest: one per entry of the main
// loop, see install) and bounded as Lua 5.1 bounds the same nesting
// (nCcalls, LUAI_MAXCCALLS): entering level maxGoNesting raises "C stack
// overflow", with the position of the Lua code whose operation called the
// metamethod, and none when a builtin called it, as in Lua 5.1. Levels past
// it are left to error handling (a handler runs on top of the frames of the
// error it handles); from handlerNesting on, the error is Lua 5.1's "error in
// error handling". The sandbox's own handlers (the catcher's, the
// protector's) are never refused, since an error raised in a handler gets
// gopher-lua's traceback (stackroom.go). A caught error is charged for the
// Go levels it unwinds (unwindCost each, protector.handle), before they are
// unwound, so that a pcall loop pays for what its errors cost.
//
// The count is restored by every protected call when it returns (an error
// leaves the levels it unwound counted), and by the catcher of a top-level
// call.
const (
	maxGoNesting   = 200 // LUAI_MAXCCALLS
	handlerNesting = maxGoNesting + maxGoNesting>>3
)

// unwindCost is what a caught error is charged, in instructions, for each
// level of Go nesting it unwinds past the protected call's own (raising and
// catching an error in the called function itself is caughtErrorCost). A
// level entered and unwound costs about 40 plain instructions' worth of
// work (BenchmarkStackOverflow: 200 levels of `return t[k]` in __index,
// uncaught, about 0.85 of a full-budget call): the call from Go (callR,
// the frame, the loop's entry), which a level left by a return does not
// pay either, and the panic's walk over its ten Go frames. The level's own
// instructions pay a few; the error pays for the rest, so that a pcall
// loop of such errors costs about what a loop of plain instructions does.
const unwindCost = 32

// enter counts an entry of the main loop, and refuses it past the bound:
// the callee's frame, just pushed, is popped first, so that the error is
// raised from the frame that called it, as Lua 5.1 raises it before the
// call.
func (b *budget) enter(L *lua.LState) {
	b.nest++
	if b.nest < maxGoNesting || (b.nest > maxGoNesting && b.nest < handlerNesting) || b.team == nil {
		return
	}
	cf := current(L)
	if cf == nil || b.team.isHandler(cf.Fn) {
		return
	}
	if st := fixedStack(L); st != nil && st.sp > 0 && &st.array[st.sp-1] == cf {
		st.sp--
		*(**frame)(unsafe.Add(unsafe.Pointer(L), offCurrentFrame)) = cf.Parent
	}
	msg := "error in error handling"
	if b.nest == maxGoNesting {
		msg = b.team.operationWhere(cf.Parent) + "C stack overflow"
	}
	b.nest-- // the level is not entered
	L.Error(lua.LString(msg), 0)
}

// isHandler reports whether fn is one of the sandbox's own error handlers.
func (tm *Team) isHandler(fn *lua.LFunction) bool {
	return fn != nil && ((tm.catch != nil && fn == tm.catch.fn) || (tm.protect != nil && fn == tm.protect.handler))
}

// operationWhere is "file:line: " of the Lua code whose operation runs in
// f: f itself when it is Lua code, the code that called the sandbox's
// concatenation when f is that builtin (it stands for `..`); else "", a
// builtin's callback, which Lua 5.1 reports without a position.
func (tm *Team) operationWhere(f *frame) string {
	if f != nil && f.Fn != nil && f.Fn == tm.concat {
		f = f.Parent
	}
	if f == nil || f.Fn == nil || f.Fn.IsG || f.Fn.Proto == nil {
		return ""
	}
	return framePosition(f) + ": "
}
