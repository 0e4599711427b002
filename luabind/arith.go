package luabind

import (
	"github.com/squarebattle/squarebattle/luabind/detmath"
	"math"
	"unsafe"

	lua "github.com/yuin/gopher-lua"
)

// Arithmetic the same on every machine, and string operands charged.
//
// gopher-lua computes `a ^ b` with math.Pow, whose kernels differ between
// amd64, arm64 and GOAMD64 levels, and `a % b` with math.Mod, whose loop
// runs once per binary order of magnitude between the operands (about 2,000
// times for 1e308 % 5e-324, in one instruction). Here `%` is Lua 5.1's own
// definition, a - floor(a/b)*b, in constant time, with the product wrapped
// in an explicit float64 conversion: the Go spec forbids fusing an
// explicitly converted product into a fused multiply-add, which arm64 and
// GOAMD64=v3 builds would otherwise be free to do. `^` goes through pow.
//
// An operand that is a string is converted as Lua 5.1's tonumber reads it
// (parseNumber in numbers.go), after charging its length at the numeral
// rate (cost.go). Anything else
// that is not a number (a metamethod, or an error) is left to gopher-lua.

// pow is the power function of the VM and of the constant folder in
// compile.go: detmath's, which gives the same bits on every architecture
// (Go's math.Pow holds products the compiler may fuse on arm64).
var pow = detmath.Pow

// luaMod is Lua 5.1's a % b: a - floor(a/b)*b.
func luaMod(a, b float64) float64 {
	return a - float64(math.Floor(a/b)*b)
}

// arith is the result of one of the six binary arithmetic opcodes.
func arith(op int, x, y float64) float64 {
	switch op {
	case lua.OP_ADD:
		return x + y
	case lua.OP_SUB:
		return x - y
	case lua.OP_MUL:
		return x * y
	case lua.OP_DIV:
		return x / y
	case lua.OP_MOD:
		return luaMod(x, y)
	default:
		return pow(x, y)
	}
}

// arithOp computes ADD, SUB, MUL, DIV, MOD and POW.
func (b *budget) arithOp(op int, orig instFunc, nums *numAlloc) instFunc {
	return func(L *lua.LState, inst uint32, baseframe *frame) int {
		cf, r := current(L), regs(L)
		RA := cf.LocalBase + argA(inst)
		lhs, rhs := rk(cf, r, argB(inst)), rk(cf, r, argC(inst))
		x, ok1 := lhs.(lua.LNumber)
		y, ok2 := rhs.(lua.LNumber)
		if !ok1 || !ok2 {
			x, ok1 = b.coerce(L, lhs)
			y, ok2 = b.coerce(L, rhs)
			if !ok1 || !ok2 {
				noArith(L, arithEvents[op-lua.OP_ADD], lhs, rhs)
				return orig(L, inst, baseframe) // the metamethod
			}
		}
		if RA >= len(r.array) {
			return orig(L, inst, baseframe) // the register file must grow: gopher-lua's job
		}
		r.array[RA] = nums.box(arith(op, float64(x), float64(y)))
		if RA >= r.top {
			r.top = RA + 1
		}
		return 0
	}
}

// unaryMinusOp negates a string operand of UNM as Lua 5.1 reads it, after
// charging its length; numbers and metamethods are gopher-lua's.
func (b *budget) unaryMinusOp(orig instFunc, nums *numAlloc) instFunc {
	return func(L *lua.LState, inst uint32, baseframe *frame) int {
		cf, r := current(L), regs(L)
		v := rk(cf, r, argB(inst))
		s, ok := v.(lua.LString)
		RA := cf.LocalBase + argA(inst)
		if !ok || RA >= len(r.array) {
			if _, isNum := v.(lua.LNumber); !isNum {
				if mm := L.GetMetaField(v, "__unm"); mm != lua.LNil && !callable(L, mm) {
					L.RaiseError("attempt to call a %s value", mm.Type().String()) // as Lua 5.1 calls it
				}
			}
			return orig(L, inst, baseframe)
		}
		x, ok := b.coerce(L, s)
		if !ok {
			// A string has no __unm (its metatable is the sandbox's):
			// gopher-lua's entry would read it with Go's syntax instead.
			L.RaiseError("__unm undefined")
		}
		r.array[RA] = nums.box(-float64(x))
		if RA >= r.top {
			r.top = RA + 1
		}
		return 0
	}
}

// arithEvents are the metamethods of ADD .. POW, in opcode order.
var arithEvents = [...]string{"__add", "__sub", "__mul", "__div", "__mod", "__pow"}

// noArith raises the error of arithmetic on lhs and rhs, one of which does
// not read as a number, unless one of them has a metamethod for event
// (looked for as gopher-lua's entry looks: lhs first, a function only),
// which the caller then leaves to gopher-lua. Never gopher-lua's entry
// without a metamethod: it would read a string operand again with Go's
// syntax ("0b101", "1_000", "0o17") and compute with it. The message is
// gopher-lua's, which reword (errwhere.go) turns into Lua 5.1's.
func noArith(L *lua.LState, event string, lhs, rhs lua.LValue) {
	mm := L.GetMetaField(lhs, event)
	if mm == lua.LNil {
		mm = L.GetMetaField(rhs, event)
	}
	switch mm.(type) {
	case *lua.LFunction:
		return
	case *lua.LNilType:
		L.RaiseError("cannot perform %s operation between %s and %s", event[2:], lhs.Type().String(), rhs.Type().String())
	}
	if !callable(L, mm) {
		// Lua 5.1 calls whatever the metamethod is.
		L.RaiseError("attempt to call a %s value", mm.Type().String())
	}
}

// coerce is v as an arithmetic operand: a number, or a string that reads
// as one, charged by its length (twice: gopher-lua reads it again when it
// is not a number after all).
//
//go:noinline
func (b *budget) coerce(L *lua.LState, v lua.LValue) (lua.LNumber, bool) {
	switch v := v.(type) {
	case lua.LNumber:
		return v, true
	case lua.LString:
		b.take(L, 2*int64(len(v))/numeralBytesPerInstruction)
		f, ok := parseNumber(string(v))
		return lua.LNumber(f), ok
	}
	return 0, false
}

// numAlloc boxes numbers into LValues the way gopher-lua's own allocator
// does, so that arithmetic here costs no more than gopher-lua's: the small
// whole numbers are boxed once, and the others are written into blocks of
// float64s that the interface values point into, one allocation a block
// instead of one a result. A block is freed once no value points into it.
type numAlloc struct {
	block []float64
	// val is numberRun's shadow of the registers (vmshadow.go), here
	// rather than on its stack so that a run does not start by clearing
	// it: only the floats whose bits a run has set are ever read.
	val [shadowRegs]float64
	// hints are numberLoop's answers for the loops met lately.
	hints [hintSlots]loopHint
}

// eface is the two words of an interface value.
type eface struct {
	tab, data unsafe.Pointer
}

// numberTab is the type word of an LNumber held in an LValue.
var numberTab = func() unsafe.Pointer {
	var v lua.LValue = lua.LNumber(0.5)
	return (*eface)(unsafe.Pointer(&v)).tab
}()

// smallNumbers are the whole numbers 0 to smallLimit-1, boxed once: a
// player's counters, coordinates and indices rarely leave that range, and
// a number found there costs no allocation. (gopher-lua shares 0..127 and
// also hands out its boxed 0 for -0; here -0 stays -0, as in Lua 5.1, so
// that a folded constant and the same operation at run time agree.)
var smallNumbers = func() (s [smallLimit]lua.LValue) {
	for i := range s {
		s[i] = lua.LNumber(i)
	}
	return
}()

const smallLimit = 1024

func (a *numAlloc) box(v float64) lua.LValue {
	// int conversion of a number in [0, smallLimit) is exact on every
	// machine, and of anything else (NaN, out of range) gives on each an
	// int that either falls outside [0, smallLimit) or does not convert
	// back to v; -0 converts to 0 and is told apart by its sign bit.
	if i := uint(int(v)); i < smallLimit && float64(i) == v && math.Float64bits(v) != 1<<63 {
		return smallNumbers[i]
	}
	return a.boxBlock(v)
}

// boxBlock is box for a number that is not a small whole one.
func (a *numAlloc) boxBlock(v float64) lua.LValue {
	if v != v {
		v = negNaN // nan.go: the same sign on every machine
	}
	if len(a.block) == cap(a.block) {
		a.block = make([]float64, 0, 256)
	}
	a.block = append(a.block, v)
	var out lua.LValue
	e := (*eface)(unsafe.Pointer(&out))
	e.tab, e.data = numberTab, unsafe.Pointer(&a.block[len(a.block)-1])
	return out
}
