package luabind

import (
	"reflect"
	"sync/atomic"
	"unsafe"

	lua "github.com/yuin/gopher-lua"
)

// The counted main loop.
//
// gopher-lua offers one way to stop a running script: a context set with
// LState.SetContext, after which every VM instruction goes through
// mainLoopWithContext, which calls ctx.Done() through an interface and
// then does a non-blocking select on the channel it returns. That costs
// about a fifth of the time of a typical player call, for what is only a
// counter decrement.
//
// countedLoop is the same loop as gopher-lua's own mainLoop with the
// counter decrement written in. A team's state keeps the budget as its
// context (SetContext, so that nothing changes for code that looks at it)
// and then gets countedLoop in place of mainLoopWithContext. The meaning
// of one instruction is exactly the one the context gives: one count
// before each VM instruction, the same instructions in the same order.
//
// The loop reaches four unexported parts of gopher-lua v1.1.2: the
// instruction table jumpTable (through go:linkname), and the LState fields
// currentFrame, mainLoop and reg (through offsets found by reflection). At
// init the layout of LState, of its call frame and of its register file is
// checked field by field against frame and registry below; if anything
// differs (a gopher-lua upgrade), the
// fast loop is left off and teams run under the plain context loop, slower
// but identical. TestCountedLoopInstalled fails in that case, so that an
// upgrade does not lose the speed unnoticed.

// frame mirrors gopher-lua's unexported callFrame (state.go); init checks
// that the two agree.
type frame struct {
	Idx        int
	Fn         *lua.LFunction
	Parent     *frame
	Pc         int
	Base       int
	LocalBase  int
	ReturnBase int
	NArgs      int
	NRet       int
	TailCall   int
}

// registry mirrors the first two fields of gopher-lua's unexported
// registry (state.go): the register array and the index above the last
// register in use. Only these two are read or written here.
type registry struct {
	array []lua.LValue
	top   int
}

// instFunc has the shape of gopher-lua's instFunc, with *frame for its
// *callFrame: the same machine signature.
type instFunc func(L *lua.LState, inst uint32, baseframe *frame) int

// jumpTable is gopher-lua's table of instruction implementations, indexed
// by opcode (OP_NOP is its last opcode).
//
//go:linkname jumpTable github.com/yuin/gopher-lua.jumpTable
var jumpTable [lua.OP_NOP + 1]instFunc

// loopFunc has the shape of LState.mainLoop.
type loopFunc func(L *lua.LState, baseframe *frame)

// Offsets of LState.currentFrame, LState.mainLoop and LState.reg;
// countedLoopOK says whether the layout check passed.
var offCurrentFrame, offMainLoop, offReg, countedLoopOK = checkLayout()

func checkLayout() (cur, loop, reg uintptr, ok bool) {
	st := reflect.TypeFor[lua.LState]()
	cf, ok1 := st.FieldByName("currentFrame")
	ml, ok2 := st.FieldByName("mainLoop")
	rg, ok3 := st.FieldByName("reg")
	if !ok1 || !ok2 || !ok3 || cf.Type.Kind() != reflect.Pointer || ml.Type.Kind() != reflect.Func {
		return 0, 0, 0, false
	}
	if !sameLayout(cf.Type.Elem(), reflect.TypeFor[frame](), map[reflect.Type]reflect.Type{reflect.TypeFor[*frame](): cf.Type}) {
		return 0, 0, 0, false
	}
	if !registryLayout(rg.Type) {
		return 0, 0, 0, false
	}
	mt := ml.Type
	if mt.NumIn() != 2 || mt.NumOut() != 0 || mt.In(0) != reflect.TypeFor[*lua.LState]() || mt.In(1) != cf.Type {
		return 0, 0, 0, false
	}
	for _, f := range jumpTable {
		if f == nil {
			return 0, 0, 0, false
		}
	}
	return cf.Offset, ml.Offset, rg.Offset, true
}

// registryLayout reports whether t is a pointer to a struct that starts
// as registry does.
func registryLayout(t reflect.Type) bool {
	if t.Kind() != reflect.Pointer || t.Elem().Kind() != reflect.Struct || t.Elem().NumField() < 2 {
		return false
	}
	want := reflect.TypeFor[registry]()
	for i := range 2 {
		g, w := t.Elem().Field(i), want.Field(i)
		if g.Name != w.Name || g.Type != w.Type || g.Offset != w.Offset {
			return false
		}
	}
	return true
}

// regs is L's register file.
func regs(L *lua.LState) *registry {
	return *(**registry)(unsafe.Add(unsafe.Pointer(L), offReg))
}

// current is L's running call frame.
func current(L *lua.LState) *frame {
	return *(**frame)(unsafe.Add(unsafe.Pointer(L), offCurrentFrame))
}

// oldCore makes install give a state the previous core (countedLoop)
// instead of the current one. Only the differential tests of the cores
// (corediff_test.go) set it, one test at a time, to run the same work on
// both; it is read when a team's state is built, never while one runs
// (atomic: other tests of the package build teams meanwhile, and may get
// either core, which play alike). It goes once those tests have passed in
// CI on every architecture.
var oldCore atomic.Bool

// install makes L count its instructions against b: b becomes L's
// context, and L's main loop becomes fastLoop (vmfast.go) when the layout
// check passed.
func (b *budget) install(L *lua.LState) {
	L.SetContext(b)
	if !countedLoopOK {
		return
	}
	ops := b.dispatch()
	slot := (*loopFunc)(unsafe.Add(unsafe.Pointer(L), offMainLoop))
	plain := *slot // mainLoopWithContext, for calls of Go functions
	if oldCore.Load() {
		*slot = func(L *lua.LState, baseframe *frame) {
			if b.team != nil {
				L.Panic = b.team.raisePanic
			}
			b.enter(L)
			b.countedLoop(L, baseframe, plain, ops)
			b.nest--
		}
		return
	}
	// Every call from Go enters here, a Go function's too: the team's
	// panic function is put back after a protected call set gopher-lua's
	// (stackroom.go), and the level of Go nesting is counted (cstack.go).
	var raise func(*lua.LState)
	if b.team != nil {
		raise = b.team.raisePanic
	}
	nums := &numAlloc{}
	*slot = func(L *lua.LState, baseframe *frame) {
		if raise != nil {
			L.Panic = raise
		}
		b.enter(L) // cstack.go
		b.fastLoop(L, baseframe, plain, ops, nums)
		b.nest--
	}
}

// countedLoop runs Lua code from the current frame until baseframe
// returns, as gopher-lua's mainLoopWithContext does, counting one
// instruction before each. Instructions go through the budget's own
// dispatch table (opcost.go): gopher-lua's entries, except for the opcodes
// whose Go work grows with their operands, which charge that work first.
//
// gopher-lua enters the main loop only from LState.callR, right after
// pushing the called function's frame, so currentFrame is that frame. A Go
// function is left to the plain loop, which calls it without running any
// instruction.
func (b *budget) countedLoop(L *lua.LState, baseframe *frame, plain loopFunc, ops *opTable) {
	cur := (**frame)(unsafe.Add(unsafe.Pointer(L), offCurrentFrame))
	if cf := *cur; cf == nil || cf.Fn.IsG {
		plain(L, baseframe)
		return
	}
	for {
		cf := *cur
		inst := cf.Fn.Proto.Code[cf.Pc]
		cf.Pc++
		b.n--
		if b.n < 0 && b.slow() != nil {
			L.RaiseError("%s", b.Err().Error())
			return
		}
		if ops[inst>>26](L, inst, baseframe) == 1 {
			if pc := cf.Pc - 1; pc >= 0 && pc < len(cf.Fn.Proto.DbgSourcePositions) {
				b.returned = cf.Fn.Proto.DbgSourcePositions[pc]
			}
			return
		}
	}
}
