package luabind

import (
	"reflect"
	"unsafe"

	lua "github.com/yuin/gopher-lua"
)

// pcall and xpcall without gopher-lua's stack traceback.
//
// gopher-lua's pcall catches an error with LState.PCall and no handler,
// and PCall then formats a stack traceback of every frame into the error,
// which pcall throws away: about 8 µs at the top of the stack, 235 µs at a
// depth of 190 frames, for one instruction. `pcall(error)` in a loop ran a
// thousand times longer than its count said. Given a handler, PCall skips
// the traceback; so the project's pcall passes one that returns the error
// unchanged.
//
// With a handler PCall also skips closing the upvalues of the frames the
// error abandons (gopher-lua leaves them open for the handler to look at,
// and never closes them afterwards), so a closure made in the failed call
// would read whatever later reuses its registers. Without a handler it
// closes the upvalues of every frame, the caller's too, so that after
// `pcall(error)` a closure no longer sees its enclosing function's local
// change. Both are wrong; the project's pcall closes exactly the upvalues
// at or above the called function, as Lua does. That needs two unexported
// parts of the LState: its list of open upvalues (uvcache, whose Upvalue
// type is mirrored below) and its hasErrorFunc flag, which an inner PCall
// clears on its way out. Their layout is checked at init like the others
// (vmloop.go); if it differs, pcall and xpcall stay gopher-lua's.

// upvalue mirrors gopher-lua's Upvalue (function.go).
type upvalue struct {
	next   *upvalue
	reg    unsafe.Pointer
	index  int
	value  lua.LValue
	closed bool
}

var offUpvalues, offHasErrorFunc, pcallOK = checkPCallLayout()

func checkPCallLayout() (uvs, flag uintptr, ok bool) {
	if !countedLoopOK { // the current frame's offset comes from there
		return 0, 0, false
	}
	st := reflect.TypeFor[lua.LState]()
	uc, ok1 := st.FieldByName("uvcache")
	hf, ok2 := st.FieldByName("hasErrorFunc")
	ut := reflect.TypeFor[lua.Upvalue]()
	reg, ok3 := ut.FieldByName("reg")
	if !ok1 || !ok2 || !ok3 || uc.Type != reflect.TypeFor[*lua.Upvalue]() || hf.Type.Kind() != reflect.Bool || reg.Type.Kind() != reflect.Pointer {
		return 0, 0, false
	}
	alias := map[reflect.Type]reflect.Type{
		reflect.TypeFor[*upvalue]():       reflect.TypeFor[*lua.Upvalue](),
		reflect.TypeFor[unsafe.Pointer](): reg.Type,
	}
	if !sameLayout(ut, reflect.TypeFor[upvalue](), alias) {
		return 0, 0, false
	}
	return uc.Offset, hf.Offset, true
}

// protector runs a state's protected calls. PCall calls the handler
// while the failed frames still hold their registers (it clears them
// after), so the handler is where their upvalues are closed: calls holds,
// for each protected call in progress, innermost last, the register of
// the called function and the script's handler (xpcall's; nil for pcall).
type protector struct {
	calls   []protected
	handler *lua.LFunction
	tm      *Team
}

func (p *protector) charge(L *lua.LState, n int64) { p.tm.charge(L, n) }

// chargeQuietly charges n instructions without raising, for the handlers,
// which must not raise (stackroom.go): false when the budget is spent (or
// the memory bound tripped), and the next instruction will stop the call.
func (p *protector) chargeQuietly(n int64) bool {
	return p.tm.budget.charge(n) && !p.tm.memTripped
}

// caughtErrorCost is what catching an error is charged, in instructions:
// raising and catching one unwinds through a Go panic and recover and
// builds the message with its position. Since the VM core of issue 29 a
// plain instruction costs a few nanoseconds and a caught error some
// hundreds: at 8, a loop of `pcall` around indexing nil ran 14 times as
// long as a full-budget call of additions, past the sandbox's 10×
// guarantee; at 32 it runs 5.5 times (BenchmarkHostileCall, sandbox.md).
// Deeper raises pay unwindCost per Go level on top (cstack.go).
const caughtErrorCost = 32

type protected struct {
	base    int
	handler *lua.LFunction // xpcall's, when a function
	xpcall  bool
	nest    int // the Go nesting (budget.nest) the protected call was made at
}

// openPCall puts the project's pcall and xpcall into base when the layout
// check passed.
func openPCall(L *lua.LState, base *lua.LTable, tm *Team) {
	if !pcallOK {
		return
	}
	p := &protector{tm: tm}
	p.handler = L.NewFunction(p.handle)
	tm.protect = p
	base.RawSetString("pcall", L.NewFunction(func(L *lua.LState) int {
		v := checkAny(L, 1)
		if !callable(L, v) {
			L.Push(lua.LFalse)
			L.Push(notCallable(v))
			return 2
		}
		return p.call(L, L.GetTop()-1, nil, false)
	}))
	// xpcall(f, handler) as Lua 5.1's: any handler is accepted (only a
	// function is ever called: with anything else an error ends in "error
	// in error handling", as does an error in the handler itself), and a
	// value f that cannot be called fails inside the protected call, so
	// the handler gets the message.
	base.RawSetString("xpcall", L.NewFunction(func(L *lua.LState) int {
		checkAny(L, 2)
		fn := L.Get(1)
		handler, _ := L.Get(2).(*lua.LFunction)
		L.SetTop(0)
		if !callable(L, fn) {
			p.charge(L, caughtErrorCost)
			L.Push(lua.LFalse)
			L.Push(p.handled(L, handler, notCallable(fn)))
			return 2
		}
		L.Push(fn)
		return p.call(L, 0, handler, true)
	}))
}

// callable reports whether v can be called: a function, or a value whose
// metatable has a function as __call.
func callable(L *lua.LState, v lua.LValue) bool {
	return v.Type() == lua.LTFunction || L.GetMetaField(v, "__call").Type() == lua.LTFunction
}

// notCallable is Lua's message for calling v.
func notCallable(v lua.LValue) lua.LValue {
	return lua.LString("attempt to call a " + v.Type().String() + " value")
}

// errorInHandling is what Lua 5.1's xpcall returns when its handler is no
// function, or keeps failing (LUA_ERRERR).
const errorInHandling = lua.LString("error in error handling")

// maxHandlerErrors is how many times in a row a failing xpcall handler is
// called again: Lua 5.1 calls the handler with the error the handler
// itself raised, and so on, nested, until the C stack's limit
// (LUAI_MAXCCALLS, 200 C calls, and the 25 more it leaves to error
// handling: cstack.go) ends it with "error in error handling".
const maxHandlerErrors = 200

// handled is the error object v passed through xpcall's handler h, as Lua
// 5.1's luaG_errormsg passes it: h's first result; when h raises an error,
// h called again with that error, up to maxHandlerErrors times or until
// the C stack's limit; and errorInHandling when h is nil (the handler
// given was no function) or never stops failing. xpcall(error,
// string.len) is false, 49: len(nil) fails, and len of its message is 49.
// Each call runs protected, with the project's handler (no traceback,
// upvalues closed), and each failure is charged as a caught error.
func (p *protector) handled(L *lua.LState, h *lua.LFunction, v lua.LValue) lua.LValue {
	if h == nil {
		return errorInHandling
	}
	flag := (*bool)(unsafe.Add(unsafe.Pointer(L), offHasErrorFunc))
	outer := *flag
	b := &p.tm.budget
	nest := b.nest
	defer func() { *flag, b.nest = outer, nest }()
	for i := range maxHandlerErrors {
		if b.spent || p.tm.memTripped {
			return v // the call stops at its next instruction
		}
		// Lua 5.1 calls h again from inside the failed call's error, one C
		// level deeper each time: the C stack's limit ends the calls
		// (cstack.go) when it comes before maxHandlerErrors, as it does
		// for an error raised at that limit.
		if b.nest = nest + i; b.nest+1 >= handlerNesting {
			return errorInHandling
		}
		if p.tm.lastRoom(L) {
			return errorInHandling // no room left for h (stackroom.go)
		}
		if stackFull(L) { // h's frame does not fit: the overflow is h's error
			p.tm.widenStack(L)
			v = lua.LString(reword(L, current(L), overflowMessage(L)))
			if !p.chargeQuietly(caughtErrorCost) {
				return v
			}
			continue
		}
		p.calls = append(p.calls, protected{base: regs(L).top, nest: b.nest})
		L.Push(h)
		L.Push(v)
		err := L.PCall(1, 1, p.handler)
		p.calls = p.calls[:len(p.calls)-1]
		p.tm.narrowStack(L)
		if err == nil {
			r := L.Get(-1)
			L.Pop(1)
			return r
		}
		if !p.chargeQuietly(caughtErrorCost) {
			return v
		}
		if ae, ok := err.(*lua.ApiError); ok {
			v = ae.Object
		} else {
			v = lua.LString(err.Error())
		}
	}
	return errorInHandling
}

// handle is the handler PCall calls with the error object: it closes the
// upvalues of the failed frames and, for xpcall, passes the error through
// the script's handler.
func (p *protector) handle(L *lua.LState) int {
	c := p.calls[len(p.calls)-1]
	// The error is about to unwind the Go levels between the raise (one
	// below this handler's own) and the protected call's callee: each
	// past the callee's is charged before it is (cstack.go).
	if extra := p.tm.budget.nest - 1 - (c.nest + 1); extra > 0 {
		p.chargeQuietly(int64(extra) * unwindCost)
	}
	closeUpvalues(L, c.base)
	v := L.Get(1)
	if s, ok := v.(lua.LString); ok {
		v = lua.LString(reword(L, current(L).Parent, string(s))) // Lua's words (errwhere.go)
	}
	if c.xpcall {
		v = p.handled(L, c.handler, v)
	}
	L.Push(v)
	return 1
}

// call calls the function at stack position 1, followed by its nargs
// arguments, and returns as pcall does: true and the results, or false and
// the error (passed through handler when there is one).
func (p *protector) call(L *lua.LState, nargs int, handler *lua.LFunction, xpcall bool) int {
	if stackFull(L) {
		return p.overflowed(L, handler, xpcall)
	}
	cf := *(**frame)(unsafe.Add(unsafe.Pointer(L), offCurrentFrame))
	flag := (*bool)(unsafe.Add(unsafe.Pointer(L), offHasErrorFunc))
	outer := *flag
	nest := p.tm.budget.nest
	p.calls = append(p.calls, protected{base: cf.LocalBase, handler: handler, xpcall: xpcall, nest: nest})
	err := L.PCall(nargs, lua.MultRet, p.handler)
	p.calls = p.calls[:len(p.calls)-1]
	p.tm.budget.nest = nest
	*flag = outer // an outer protected call's handler is still there
	p.tm.narrowStack(L)
	if err != nil {
		p.charge(L, caughtErrorCost)
		L.Push(lua.LFalse)
		if ae, ok := err.(*lua.ApiError); ok {
			L.Push(ae.Object)
		} else {
			L.Push(lua.LString(err.Error()))
		}
		return 2
	}
	L.Insert(lua.LTrue, 1)
	return L.GetTop()
}

// overflowed is call when the called function's frame does not fit on
// the call stack: what PCall would return, without PCall, whose handler
// would not fit either (stackroom.go). The error is gopher-lua's stack
// overflow, raised from the pcall's frame, reworded and passed through
// xpcall's handler as handle does.
func (p *protector) overflowed(L *lua.LState, handler *lua.LFunction, xpcall bool) int {
	p.tm.widenStack(L)
	v := lua.LValue(lua.LString(reword(L, current(L), overflowMessage(L))))
	if xpcall {
		flag := (*bool)(unsafe.Add(unsafe.Pointer(L), offHasErrorFunc))
		outer := *flag
		v = p.handled(L, handler, v)
		*flag = outer
	}
	p.tm.narrowStack(L)
	p.charge(L, caughtErrorCost)
	L.Push(lua.LFalse)
	L.Push(v)
	return 2
}

// closeUpvalues closes the open upvalues of registers idx and above, as
// gopher-lua does when a function returns.
func closeUpvalues(L *lua.LState, idx int) {
	head := (**upvalue)(unsafe.Add(unsafe.Pointer(L), offUpvalues))
	var prev *upvalue
	for uv := *head; uv != nil; uv = uv.next {
		if uv.index >= idx {
			if prev != nil {
				prev.next = nil
			} else {
				*head = nil
			}
			for ; uv != nil; uv = uv.next {
				(*lua.Upvalue)(unsafe.Pointer(uv)).Close()
			}
			return
		}
		prev = uv
	}
}
