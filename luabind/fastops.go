package luabind

import (
	"strings"
	"unsafe"

	lua "github.com/yuin/gopher-lua"
)

// Fast paths of the wrapped opcodes a typical player runs most: reading
// and writing a table by a number or a short key (GETTABLE, SETTABLE), the
// length of a string or a list (LEN), joining strings and numbers with
// `..` (the CALL it is compiled into), comparing numbers (EQ, LT, LE) and
// adding, subtracting, multiplying or dividing numbers. Each is a
// closure made for one opcode, so nothing is decided at run time that the
// opcode already says; anything but the plain case goes to the general
// wrapper (opcost.go, index.go, arith.go), which charges and checks.
// BenchmarkSquareStep is what these are for.

// fastGetTable is GETTABLE for a table without a metatable and a key that
// is a number or a string shorter than the charged length; general is the
// full wrapper.
func fastGetTable(general instFunc) instFunc {
	return func(L *lua.LState, inst uint32, baseframe *frame) int {
		cf, r := current(L), regs(L)
		base := cf.LocalBase
		RA := base + argA(inst)
		if t, ok := r.array[base+argB(inst)].(*lua.LTable); ok && isNil(t.Metatable) && RA < len(r.array) {
			var v lua.LValue
			switch k := rk(cf, r, argC(inst)).(type) {
			case lua.LNumber:
				i := int(k)
				if a := (*lTable)(unsafe.Pointer(t)).array; tableLayoutOK && i >= 1 && i <= len(a) && lua.LNumber(i) == k {
					v = a[i-1]
				} else {
					v = t.RawGet(k)
				}
			case lua.LString:
				if len(k) >= bytesPerInstruction/2 {
					return general(L, inst, baseframe)
				}
				v = t.RawGetString(string(k))
			default:
				return general(L, inst, baseframe)
			}
			r.array[RA] = v
			if RA >= r.top {
				r.top = RA + 1
			}
			return 0
		}
		return general(L, inst, baseframe)
	}
}

// fastSetTable is SETTABLE on a table without a metatable, for a key that
// is a string shorter than the charged length or an integer that lands
// inside the array part or just past its end: exactly the stores the
// general wrapper (indexOp, index.go) charges nothing for. A longer key
// pays per byte there, and a number further out may fill a gap with nils
// (chargeGap, gap.go): both go to general, as does every other key.
func fastSetTable(general instFunc) instFunc {
	return func(L *lua.LState, inst uint32, baseframe *frame) int {
		cf, r := current(L), regs(L)
		if t, ok := r.array[cf.LocalBase+argA(inst)].(*lua.LTable); ok && isNil(t.Metatable) {
			switch k := rk(cf, r, argB(inst)).(type) {
			case lua.LNumber:
				i := int(k)
				if a := (*lTable)(unsafe.Pointer(t)).array; tableLayoutOK && i >= 1 && i <= len(a) && lua.LNumber(i) == k {
					a[i-1] = rk(cf, r, argC(inst))
					return 0
				} else if tableLayoutOK && i == len(a)+1 && i < lua.MaxArrayIndex && lua.LNumber(i) == k {
					t.RawSet(k, rk(cf, r, argC(inst))) // an append, as gopher-lua makes it
					return 0
				}
			case lua.LString:
				if len(k) < bytesPerInstruction/2 {
					t.RawSetString(string(k), rk(cf, r, argC(inst)))
					return 0
				}
			}
		}
		return general(L, inst, baseframe)
	}
}

// fastConcat is the CALL that compileScript makes of `a .. b .. c`
// (compile.go) when every operand is a string or a number: the chain is
// joined here as luaConcat would join it (its length checked and charged
// by checkLength first), without pushing a Go function's call frame. The
// registers are left as gopher-lua leaves them after a call of a Go
// function with one result: the result in R(A), the top just above it,
// the argument registers and the result's slot cleared. Anything else (a
// table or nil operand, a result count other than one, a call stack one
// frame from full, where the real call would overflow) is the real call.
func (tm *Team) fastConcat(general instFunc) instFunc {
	return func(L *lua.LState, inst uint32, baseframe *frame) int {
		cf, r := current(L), regs(L)
		RA, nargs := cf.LocalBase+argA(inst), argB(inst)-1
		if nargs < 2 || argC(inst) != 2 || RA+nargs+2 > len(r.array) || r.array[RA] != lua.LValue(tm.concat) || cf.Idx+1 >= tm.limits.CallDepth {
			return general(L, inst, baseframe)
		}
		args := r.array[RA+1 : RA+1+nargs]
		var total int64
		for _, v := range args {
			switch v := v.(type) {
			case lua.LString:
				total += int64(len(v))
			case lua.LNumber:
				total += int64(len(numberString(v)))
			default:
				return general(L, inst, baseframe)
			}
		}
		tm.checkLength(L, total)
		var sb strings.Builder
		sb.Grow(int(total))
		for _, v := range args {
			s, _ := concatOperand(v)
			sb.WriteString(s)
		}
		r.array[RA] = lua.LString(sb.String())
		clear(r.array[RA+1 : RA+nargs+2])
		r.top = RA + 1
		return 0
	}
}

// fastLen is LEN of a string, or of a table whose array part ends in a
// value and holds fewer than lua.MaxArrayIndex-1 slots (so the border is
// its length, and no key past it can be in the hash part): no walk, no
// charge. Everything else goes to general (lenOp, tables.go), which walks
// and charges.
func fastLen(nums *numAlloc, general instFunc) instFunc {
	return func(L *lua.LState, inst uint32, baseframe *frame) int {
		cf, r := current(L), regs(L)
		RA := cf.LocalBase + argA(inst)
		if RA < len(r.array) {
			if n := quickLen(r.array[cf.LocalBase+argB(inst)]); n >= 0 {
				r.array[RA] = nums.box(float64(n))
				if RA >= r.top {
					r.top = RA + 1
				}
				return 0
			}
		}
		return general(L, inst, baseframe)
	}
}

// quickLen is the length of v when fastLen may answer it without a walk
// or a charge, else -1.
func quickLen(v lua.LValue) int {
	switch v := v.(type) {
	case lua.LString:
		return len(v)
	case *lua.LTable:
		if a := (*lTable)(unsafe.Pointer(v)).array; tableLayoutOK && len(a) > 0 && len(a) < lua.MaxArrayIndex-1 && !isNil(a[len(a)-1]) {
			return len(a)
		}
	}
	return -1
}

// fastCompare is EQ, LT or LE on two numbers.
func fastCompare(op int, general instFunc) instFunc {
	return func(L *lua.LState, inst uint32, baseframe *frame) int {
		cf, r := current(L), regs(L)
		if x, ok := rk(cf, r, argB(inst)).(lua.LNumber); ok {
			if y, ok := rk(cf, r, argC(inst)).(lua.LNumber); ok {
				var holds bool
				switch op { // the same branch every time: predicted
				case lua.OP_EQ:
					holds = x == y
				case lua.OP_LT:
					holds = x < y
				default:
					holds = x <= y
				}
				if holds != (argA(inst) != 0) {
					cf.Pc++
				}
				return 0
			}
		}
		return general(L, inst, baseframe)
	}
}

// fastArith is ADD, SUB, MUL or DIV on two numbers: single IEEE
// operations, the same bits on every machine.
func fastArith(op int, nums *numAlloc, general instFunc) instFunc {
	return func(L *lua.LState, inst uint32, baseframe *frame) int {
		cf, r := current(L), regs(L)
		RA := cf.LocalBase + argA(inst)
		if x, ok := rk(cf, r, argB(inst)).(lua.LNumber); ok && RA < len(r.array) {
			if y, ok := rk(cf, r, argC(inst)).(lua.LNumber); ok {
				var v float64
				switch op { // the same branch every time: predicted
				case lua.OP_ADD:
					v = float64(x + y)
				case lua.OP_SUB:
					v = float64(x - y)
				case lua.OP_MUL:
					v = float64(x * y)
				default:
					v = float64(x / y)
				}
				r.array[RA] = nums.box(v)
				if RA >= r.top {
					r.top = RA + 1
				}
				return 0
			}
		}
		return general(L, inst, baseframe)
	}
}

// fastPaths says whether dispatch puts the fast paths in front; only
// TestFastPathsChargeAsGeneral turns it off, to check that they charge,
// store and fail exactly as the general wrappers do. Read when a team's
// state is built, never while it runs.
var fastPaths = true

// withFastPaths puts the fast paths in front of the general wrappers of
// ops.
func withFastPaths(ops *opTable, nums *numAlloc, tm *Team) {
	if !fastPaths {
		return
	}
	if tm != nil && tm.concat != nil {
		ops[lua.OP_CALL] = tm.fastConcat(ops[lua.OP_CALL])
	}
	ops[lua.OP_GETTABLE] = fastGetTable(ops[lua.OP_GETTABLE])
	ops[lua.OP_SETTABLE] = fastSetTable(ops[lua.OP_SETTABLE])
	ops[lua.OP_LEN] = fastLen(nums, ops[lua.OP_LEN])
	for _, op := range []int{lua.OP_EQ, lua.OP_LT, lua.OP_LE} {
		ops[op] = fastCompare(op, ops[op])
	}
	for _, op := range []int{lua.OP_ADD, lua.OP_SUB, lua.OP_MUL, lua.OP_DIV} {
		ops[op] = fastArith(op, nums, ops[op])
	}
}
