package luabind

import (
	"reflect"
	"unsafe"

	lua "github.com/yuin/gopher-lua"
)

// Calls and returns between Lua functions, done in fastLoop.
//
// gopher-lua's CALL entry builds a call frame on the Go stack, copies it
// into the call stack through an interface, and sets up the callee's
// registers; its RETURN entry walks the open upvalues, pops through the
// interface again and copies the results. On a player that calls small
// helpers (BenchmarkHeavyCall/calls) the two entries were a third of the
// samples. leafRun (vmleaf.go: it pushes the frame only when something
// could look at it) and returnLua do the same work for the plain case, on
// the same data (gopher-lua's own call stack and register file), in the
// same order, so that every frame, register and top is what gopher-lua
// would leave:
//   - leafRun: a Lua function (not a Go function, not a value called
//     through __call) with a fixed number of parameters (not vararg),
//     called with a fixed number of arguments or with fewer than
//     valuesPerInstruction up to the top (B=0, which movesOp charges
//     nothing for), on a fixed-size call stack with room for the frame,
//     and a register file that need not grow;
//   - returnLua: a fixed number of results, or fewer than
//     valuesPerInstruction up to the top, no open upvalues to close, not
//     the main function of a coroutine, and a register file that need not
//     grow.
//
// Anything else is left to gopher-lua's entry, which raises the errors
// (stack overflow, calling a non-function) in its own words.
//
// The call stack and the list of open upvalues are unexported fields of
// LState; their offsets, and the layout of gopher-lua's fixed-size call
// stack, are checked at init as vmloop.go checks the rest. When the check
// fails (a gopher-lua upgrade), callsOK is false and fastLoop leaves every
// call and return to gopher-lua.

// frameStack mirrors gopher-lua's fixedCallFrameStack (state.go).
type frameStack struct {
	array []frame
	sp    int
}

// iface is the two words of a non-empty interface value.
type iface struct {
	tab, data unsafe.Pointer
}

// offStack locates LState.stack; fixedStackTab is the interface table of
// a *fixedCallFrameStack held there, which tells a fixed-size stack from
// a growing one. (LState.uvcache is found by pcall.go's check.)
var offStack, fixedStackTab, callsOK = checkCallLayout()

func checkCallLayout() (stack uintptr, tab unsafe.Pointer, ok bool) {
	if !countedLoopOK || !pcallOK {
		return 0, nil, false
	}
	st := reflect.TypeFor[lua.LState]()
	sf, ok1 := st.FieldByName("stack")
	cf, ok2 := st.FieldByName("currentFrame")
	if !ok1 || !ok2 || sf.Type.Kind() != reflect.Interface {
		return 0, nil, false
	}
	// A state with a fixed-size stack (a team's: CallStackSize set, the
	// stack not minimised) shows the concrete type to check.
	probe := lua.NewState(lua.Options{SkipOpenLibs: true, CallStackSize: 4})
	defer probe.Close()
	v := reflect.ValueOf(probe).Elem().FieldByIndex(sf.Index)
	if v.IsNil() {
		return 0, nil, false
	}
	ct := v.Elem().Type() // the dynamic type, through reflect's view of the field
	if ct.Kind() != reflect.Pointer || ct.Elem().Name() != "fixedCallFrameStack" {
		return 0, nil, false
	}
	if !sameLayout(ct.Elem(), reflect.TypeFor[frameStack](), map[reflect.Type]reflect.Type{reflect.TypeFor[[]frame](): reflect.SliceOf(cf.Type.Elem())}) {
		return 0, nil, false
	}
	tab = (*iface)(unsafe.Add(unsafe.Pointer(probe), sf.Offset)).tab
	return sf.Offset, tab, true
}

// fixedStack is L's call stack when it is a fixed-size one, else nil.
func fixedStack(L *lua.LState) *frameStack {
	if !callsOK {
		return nil
	}
	i := (*iface)(unsafe.Add(unsafe.Pointer(L), offStack))
	if i.tab != fixedStackTab {
		return nil
	}
	return (*frameStack)(i.data)
}

// openUpvalues reports whether L has upvalues still open on its stack.
func openUpvalues(L *lua.LState) bool {
	return *(**upvalue)(unsafe.Add(unsafe.Pointer(L), offUpvalues)) != nil
}

// returnLua is gopher-lua's RETURN of B-1 values from R(A) of cf (B=0:
// every value up to the top), for the plain case above. It reports whether it did the return, and if so
// whether the main loop must hand control back (the frame returned to is
// the loop's base frame, a Go function's, or none).
func returnLua(L *lua.LState, cur **frame, stack *frameStack, r *registry, cf *frame, baseframe *frame, RA, B int) (done, exit bool) {
	if L.Parent != nil || openUpvalues(L) || stack.sp == 0 {
		return false, false
	}
	nret := B - 1
	if B == 0 {
		nret = r.top - RA
	}
	n := cf.NRet
	if n == lua.MultRet {
		n = nret
	}
	regv := cf.ReturnBase
	if regv+n > len(r.array) {
		return false, false
	}
	stack.sp--
	islast := baseframe == &stack.array[stack.sp] || stack.sp == 0
	copyResults(r, RA, B, regv, n)
	var next *frame
	if stack.sp > 0 {
		next = &stack.array[stack.sp-1]
	}
	*cur = next
	return true, islast || next == nil || next.Fn.IsG
}

// forGo is gopher-lua's TFORLOOP when the iterator is a Go function (the
// sandbox's next, or ipairs' step) on the main thread: the iterator and
// its two arguments are copied above the loop's registers, the iterator
// is called as callR calls it (a frame of its own, its C results copied
// down, the top set above them), and then, when its first result is not
// nil, the control variable takes it and the jump that follows is taken;
// either way that jump is not counted, as in gopher-lua. It reports
// false, having changed nothing, for anything else.
func forGo(L *lua.LState, cur **frame, stack *frameStack, r *registry, cf *frame, RA, C int) bool {
	fn, ok := r.array[RA].(*lua.LFunction)
	if !ok || !fn.IsG || L.Parent != nil || L.G.MainThread == nil || stack.sp >= len(stack.array) ||
		RA+6 > len(r.array) || RA+3+C > len(r.array) || cf.Pc >= len(cf.Fn.Proto.Code) {
		return false
	}
	setTop(r, RA+5)
	r.array[RA+5] = r.array[RA+2]
	r.array[RA+4] = r.array[RA+1]
	r.array[RA+3] = r.array[RA]
	r.top = RA + 6
	// callR(2, C, RA+3): the frame, then the Go function.
	sp := stack.sp
	f := &stack.array[sp]
	f.Idx, f.Fn, f.Parent = sp, fn, cf
	f.Pc, f.Base, f.LocalBase, f.ReturnBase = 0, RA+3, RA+4, RA+3
	f.NArgs, f.NRet, f.TailCall = 2, C, 0
	stack.sp++
	*cur = f
	n := fn.GFunction(L)
	if n < 0 {
		L.RaiseError("can not yield from outside of a coroutine")
	}
	// callGFunction: C results from the top down to RA+3, then the pop.
	// (The register file only grows, so RA+3+C still fits.)
	start, limit := r.top-n, r.top
	for i := 0; i < C; i++ {
		if src := start + i; src >= limit || src < 0 {
			r.array[RA+3+i] = lua.LNil
		} else {
			r.array[RA+3+i] = r.array[src]
		}
	}
	old := r.top
	r.top = RA + 3 + C
	for i := r.top; i < old; i++ {
		r.array[i] = nil
	}
	stack.sp--
	*cur = &stack.array[stack.sp-1]
	setTop(r, RA+3+C) // callR: the top above the results
	if v := r.array[RA+3]; !isNil(v) {
		r.array[RA+2] = v
		if RA+2 >= r.top {
			r.top = RA + 3
		}
		cf.Pc += int(cf.Fn.Proto.Code[cf.Pc]&0x3ffff) - opMaxArgSbx
	}
	cf.Pc++
	return true
}
