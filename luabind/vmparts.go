package luabind

import (
	"unsafe"

	lua "github.com/yuin/gopher-lua"
)

// The pieces of fastLoop's in-place instructions (vmfast.go) that are not
// the loop itself: each is what gopher-lua, or the team's dispatch table,
// does for the same operands.

// nextJump runs the instruction after a test or comparison that did not
// skip it, when it is a JMP (as Lua's compiler always makes it), as the
// loop would run it: counted first, then the jump. It takes and returns
// the loop's count, and reports false when the budget stopped the call
// there (the error is raised; the loop must return). Any other
// instruction is left to the loop.
func (b *budget) nextJump(L *lua.LState, cf *frame, code []uint32, n int64) (int64, bool) {
	if cf.Pc >= len(code) {
		return n, true
	}
	next := code[cf.Pc]
	if int(next>>26) != lua.OP_JMP {
		return n, true
	}
	cf.Pc++
	if n--; n < 0 {
		var ok bool
		if n, ok = b.chunkSpent(L, n); !ok {
			return n, false
		}
	}
	cf.Pc += int(next&0x3ffff) - opMaxArgSbx
	return n, true
}

// compared finishes a comparison whose outcome is holds: the next
// instruction is skipped when holds is not what A asks, else the jump
// after it is taken (nextJump). It takes and returns the loop's count, and
// reports false when the budget stopped the call there.
func (b *budget) compared(L *lua.LState, cf *frame, code []uint32, n int64, holds bool, inst uint32) (int64, bool) {
	if holds != (inst>>18&0xff != 0) {
		cf.Pc++
		return n, true
	}
	return b.nextJump(L, cf, code, n)
}

// quickCompare is the outcome of EQ, LT or LE (op) on x and y when it is
// decided without a metamethod and without a charge, as the team's table
// would decide it: two numbers; two strings short enough that compareOp
// charges nothing for them; and for EQ, values of different types (never
// equal in Lua 5.1), nils, booleans, the same table or userdata twice,
// and functions, threads and channels (equal only when they are the
// same). ok is false for anything else: two different tables or
// userdata, whose __eq may decide, long strings, and LT or LE on mixed
// types or on anything but numbers and strings.
func quickCompare(op int, x, y lua.LValue) (holds, ok bool) {
	if xn, ok := x.(lua.LNumber); ok {
		if yn, ok := y.(lua.LNumber); ok {
			return compare(op, xn, yn), true
		}
	}
	if xs, ok := x.(lua.LString); ok {
		if ys, ok := y.(lua.LString); ok {
			if compareCost(op, len(xs), len(ys)) != 0 {
				return false, false
			}
			return compare(op, xs, ys), true
		}
	}
	if op != lua.OP_EQ {
		return false, false
	}
	switch xt := x.Type(); {
	case xt != y.Type():
		return false, true
	case xt == lua.LTNil:
		return true, true
	case xt == lua.LTBool:
		return x.(lua.LBool) == y.(lua.LBool), true
	case xt == lua.LTTable || xt == lua.LTUserData:
		if x == y {
			return true, true
		}
		return false, false
	case xt == lua.LTString:
		return false, false // two strings, one charged: left to compareOp
	default: // functions, threads, channels (two numbers were taken above)
		return x == y, true
	}
}

// chunkSpent is what the loop does when its local count n goes below
// zero: the count is written back and the budget refills its chunk (the
// count to go on with is returned) or is spent, and then the error is
// raised (false: the loop must return).
func (b *budget) chunkSpent(L *lua.LState, n int64) (int64, bool) {
	b.n = n
	if b.slow() != nil {
		L.RaiseError("%s", b.Err().Error())
		return n, false
	}
	return b.n, true
}

// intMod is x % y for whole numbers below 2^52 in magnitude, y not zero,
// computed on integers. It is the same number luaMod gives: the quotient
// x/y is then rounded by less than its distance to the nearest integer
// (at least 1/|y|), so floor(x/y) is the true floor, and floor(x/y)*y
// and the difference are exact; a zero result is +0 either way.
func intMod(op int, x, y lua.LNumber) (float64, bool) {
	const bound = 1 << 52
	if op != lua.OP_MOD || !(x > -bound && x < bound && y > -bound && y < bound) || y == 0 {
		return 0, false
	}
	a, d := int64(x), int64(y)
	if lua.LNumber(a) != x || lua.LNumber(d) != y {
		return 0, false
	}
	switch {
	case d > 0 && d&(d-1) == 0:
		// A power of two, as in most players' `% 2`, `% 8`, `% 64`: the
		// low bits, which are the floored remainder in two's complement
		// whatever a's sign.
		return float64(a & (d - 1)), true
	case uint64(a)|uint64(d) < 1<<32:
		// Both in [0, 2^32): a 32-bit division, much quicker than a 64-bit
		// one on older x86 cores, and no sign to mend.
		return float64(uint32(a) % uint32(d)), true
	}
	m := a % d
	if m != 0 && (m^d) < 0 {
		m += d
	}
	return float64(m), true
}

// noteReturn notes the line of the instruction by which the loop hands
// control back to Go (budget.returned).
func (b *budget) noteReturn(cf *frame) {
	if pc := cf.Pc - 1; pc >= 0 && pc < len(cf.Fn.Proto.DbgSourcePositions) {
		b.returned = cf.Fn.Proto.DbgSourcePositions[pc]
	}
}

// opMaxArgSbx is the bias of a signed Bx operand (gopher-lua's
// opMaxArgSbx: an 18-bit field).
const opMaxArgSbx = (1<<18 - 1) >> 1

// rkLocal reads an RK operand: a constant when its high bit is set, else
// a register (of arr, the register file) of the frame at lbase.
func rkLocal(consts []lua.LValue, arr []lua.LValue, lbase, x int) lua.LValue {
	if x&0x100 != 0 {
		return consts[x&0xff]
	}
	return arr[lbase+x]
}

// numbers reads the B and C operands of an arithmetic instruction when
// both are numbers.
func numbers(consts []lua.LValue, arr []lua.LValue, lbase int, inst uint32) (x, y lua.LNumber, ok bool) {
	if x, ok = rkLocal(consts, arr, lbase, int(inst&0x1ff)).(lua.LNumber); ok {
		y, ok = rkLocal(consts, arr, lbase, int(inst>>9)&0x1ff).(lua.LNumber)
	}
	return
}

// setTop is gopher-lua's registry.SetTop for a top inside the register
// file: the slots it uncovers become nil values, those it drops Go nils.
func setTop(r *registry, top int) {
	old := r.top
	r.top = top
	for i := old; i < top; i++ {
		r.array[i] = lua.LNil
	}
	for i := top; i < old; i++ {
		r.array[i] = nil
	}
}

// boxLikeGopherLua boxes v to the value gopher-lua's allocator gives
// where the loop takes the place of its FORLOOP: -0 becomes 0 (gopher-lua
// hands out its shared 0), and a NaN keeps its sign.
func (a *numAlloc) boxLikeGopherLua(v float64) lua.LValue {
	if v >= 0 && v < smallLimit {
		if i := int(v); float64(i) == v {
			return smallNumbers[i] // -0 too, as gopher-lua boxes it
		}
	}
	if v != v {
		return lua.LNumber(v)
	}
	return a.box(v)
}

// setString is t.RawSetString(k, v), with one map operation instead of
// two when k is already a key: gopher-lua stores the value, then looks the
// key up again in the table's key order (an interface-keyed map, hashed
// anew) to append it when new. A key in the string part is always in the
// key order (RawSetString puts it there; compact, nextkeys.go, rebuilds
// both together), so a store that leaves the string part's size as it was
// replaced a value, and the order needs nothing. Anything else goes the
// way RawSetString goes.
func setString(t *lua.LTable, k string, v lua.LValue) {
	m := (*lTable)(unsafe.Pointer(t))
	if !tableLayoutOK || isNil(v) || m.strdict == nil || m.keys == nil {
		t.RawSetString(k, v)
		return
	}
	n := len(m.strdict)
	m.strdict[k] = v
	if len(m.strdict) == n {
		return
	}
	key := lua.LString(k)
	if _, ok := m.k2i[key]; !ok {
		m.k2i[key] = len(m.keys)
		m.keys = append(m.keys, key)
	}
}

// nilWords are the two words of lua.LNil.
var nilWords = *(*eface)(unsafe.Pointer(&lua.LNil))

// isNil is v == lua.LNil. Comparing two interfaces that hold the same type
// is a call into the runtime (ifaceeq), and the fast paths ask it of every
// table's metatable: here it is two word compares, inlined.
func isNil(v lua.LValue) bool {
	e := (*eface)(unsafe.Pointer(&v))
	return e.data == nilWords.data && e.tab == nilWords.tab
}

// isFalsy is v == lua.LNil || v == lua.LFalse, without the runtime's
// interface comparisons (an LBool's goes on to compare the byte).
func isFalsy(v lua.LValue) bool {
	if b, ok := v.(lua.LBool); ok {
		return !bool(b)
	}
	return isNil(v)
}
