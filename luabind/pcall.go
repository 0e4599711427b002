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
	charge  func(L *lua.LState, n int64)
}

// caughtErrorCost is what catching an error is charged, in instructions:
// raising and catching one unwinds through a Go panic and recover, about
// ten plain instructions' worth of work, more from deep in the stack.
const caughtErrorCost = 8

type protected struct {
	base    int
	handler *lua.LFunction
}

// openPCall puts the project's pcall and xpcall into base when the layout
// check passed.
func openPCall(L *lua.LState, base *lua.LTable, charge func(L *lua.LState, n int64)) {
	if !pcallOK {
		return
	}
	p := &protector{charge: charge}
	p.handler = L.NewFunction(p.handle)
	base.RawSetString("pcall", L.NewFunction(func(L *lua.LState) int {
		v := L.CheckAny(1)
		if v.Type() != lua.LTFunction && L.GetMetaField(v, "__call").Type() != lua.LTFunction {
			L.Push(lua.LFalse)
			L.Push(lua.LString("attempt to call a " + v.Type().String() + " value"))
			return 2
		}
		return p.call(L, L.GetTop()-1, nil)
	}))
	base.RawSetString("xpcall", L.NewFunction(func(L *lua.LState) int {
		fn := L.CheckFunction(1)
		handler := L.CheckFunction(2)
		L.SetTop(0)
		L.Push(fn)
		return p.call(L, 0, handler)
	}))
}

// handle is the handler PCall calls with the error object: it closes the
// upvalues of the failed frames and, for xpcall, passes the error through
// the script's handler.
func (p *protector) handle(L *lua.LState) int {
	c := p.calls[len(p.calls)-1]
	closeUpvalues(L, c.base)
	v := L.Get(1)
	if s, ok := v.(lua.LString); ok {
		v = lua.LString(reword(L, current(L).Parent, string(s))) // Lua's words (errwhere.go)
	}
	if c.handler == nil {
		L.Push(v)
		return 1
	}
	L.Push(c.handler)
	L.Push(v)
	L.Call(1, 1)
	return 1
}

// call calls the function at stack position 1, followed by its nargs
// arguments, and returns as pcall does: true and the results, or false and
// the error (passed through handler when there is one).
func (p *protector) call(L *lua.LState, nargs int, handler *lua.LFunction) int {
	cf := *(**frame)(unsafe.Add(unsafe.Pointer(L), offCurrentFrame))
	flag := (*bool)(unsafe.Add(unsafe.Pointer(L), offHasErrorFunc))
	outer := *flag
	p.calls = append(p.calls, protected{base: cf.LocalBase, handler: handler})
	err := L.PCall(nargs, lua.MultRet, p.handler)
	p.calls = p.calls[:len(p.calls)-1]
	*flag = outer // an outer protected call's handler is still there
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
