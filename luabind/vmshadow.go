package luabind

import (
	"math"
	"math/bits"
	"unsafe"

	lua "github.com/yuin/gopher-lua"
)

// Loops of number work, with the numbers unboxed.
//
// gopher-lua's registers hold interface values, so every arithmetic
// result that is not a small whole number is boxed: an allocation, and
// the collector's work later. In a loop of arithmetic most results are
// read once, by one of the next few instructions, and never seen again;
// the profiles of BenchmarkHeavyCall put boxing at a quarter to a third
// of the compute-heavy player's time.
//
// So when fastLoop turns a numeric for loop whose body is all number
// work — arithmetic, moves, constants, upvalues read, reads and stores of
// tables without metatables, numeric comparisons, jumps, inner numeric
// for loops — it hands the loop to numberRun. numberRun runs
// instructions of those kinds for as long as it meets them and their
// operands are what fastLoop's cases take, and keeps number results in a
// shadow of the frame's first 64 registers: a float64 each, and a bit
// saying that the register's value is the float, not what the register
// file holds. A running total is then never boxed while the loop turns.
//
// Why it is invisible. Nothing runs inside numberRun but its own cases
// and the budget's refill (no Go function, no metamethod, no library),
// and before the budget is asked for more (it may take a census, or stop
// the call) every register is boxed. A case that reads a register whose
// bit is set reads the float, or boxes it first (a value
// stored into a table); a case that writes a register clears its bit.
// When numberRun stops, before any instruction it does not take, every
// register whose bit is set is boxed into the register file. So anything
// that can look at registers sees exactly the values the previous core
// left there, and a boxed number is the same whenever it is boxed (box
// makes every NaN one NaN; any NaN read back from the shadow gives a NaN
// again wherever it goes). The counts are the same too: an instruction
// is counted when it is taken, one at a time, and the budget is refilled
// or runs out on the same instruction as in fastLoop.
//
// Why a loop of its own, entered only for such loops: a shadow carried
// through all of fastLoop's cases cost more than it saved wherever
// there is little arithmetic (measured: the mods' CPU +5 to +8%, the
// call-heavy player +5%: the loop's locals no longer fitted its
// registers), and handing over at any arithmetic instruction paid for
// the hand-over on short runs (`r * n + c + 1` and a call). The
// differential tests (corediff_test.go, vmshadow_test.go) hold both loops
// to the previous core's results, counts, charges and errors.

// shadowRegs is how many of a frame's registers the shadow covers: the
// bits of one word. A shift of a uint64 by 64 or more is 0 in Go, so
// bit(r) is the bit of register r, and no bit at all past the 64th (or
// for a constant operand, whose RK index is 256 or more).
const shadowRegs = 64

// bit is the shadow bit of register (or RK operand) x.
func bit(x uint) uint64 { return 1 << x }

// numberOps are the instructions numberRun may take.
var numberOps = func() (ops [64]bool) {
	for _, op := range []int{lua.OP_ADD, lua.OP_SUB, lua.OP_MUL, lua.OP_DIV, lua.OP_MOD, lua.OP_POW,
		lua.OP_MOVE, lua.OP_LOADK, lua.OP_GETUPVAL, lua.OP_GETTABLE, lua.OP_GETTABLEKS, lua.OP_SETTABLE,
		lua.OP_SETTABLEKS, lua.OP_EQ, lua.OP_LT, lua.OP_LE, lua.OP_JMP, lua.OP_FORLOOP} {
		ops[op] = true
	}
	return
}()

// loopHint remembers whether the body of one numeric for loop is
// number work: what numberLoop found when it last looked.
type loopHint struct {
	code *uint32 // the prototype's first instruction
	pc   int     // the FORLOOP's
	ok   bool
}

// numberLoop reports whether the numeric for loop whose FORLOOP is at pc
// of code is worth running in numberRun: every instruction of its body
// is of a kind numberRun takes, and one at least is arithmetic. fastLoop
// asks each time the loop starts, so the answers are kept in a small
// table; a hint is only ever about speed, and a wrong one (two loops in
// one slot, or a prototype gone and another in its place) changes nothing
// a script can see.
func (nums *numAlloc) numberLoop(code []uint32, pc int) bool {
	first := unsafe.SliceData(code)
	h := &nums.hints[(uintptr(unsafe.Pointer(first))>>4^uintptr(pc))&(hintSlots-1)]
	if h.code != first || h.pc != pc {
		from := pc + 1 + int(code[pc]&0x3ffff) - opMaxArgSbx // the body's first instruction
		ok, arith := from >= 0 && from <= pc, false
		for i := from; ok && i <= pc; i++ {
			op := int(code[i] >> 26)
			ok = numberOps[op]
			arith = arith || op >= lua.OP_ADD && op <= lua.OP_POW
		}
		*h = loopHint{first, pc, ok && arith}
	}
	return h.ok
}

// hintSlots is the size of numAlloc's table of loop hints (a power of
// two).
const hintSlots = 32

// forGoesOn reports whether a numeric for loop takes another turn with
// its index at i: FORLOOP's test, shared by every core's FORLOOP.
func forGoesOn(i, limit, step lua.LNumber) bool {
	return (step > 0 && i <= limit) || (step <= 0 && i >= limit)
}

// shadowNum reads operand x (an RK index) as a number: a constant, a
// shadowed register, or a boxed number.
func shadowNum(consts, arr []lua.LValue, lbase int, x uint, dirty uint64, val *[shadowRegs]float64) (float64, bool) {
	if x&0x100 != 0 {
		n, ok := consts[x&0xff].(lua.LNumber)
		return float64(n), ok
	}
	if dirty&bit(x) != 0 {
		return val[x&(shadowRegs-1)], true
	}
	n, ok := arr[lbase+int(x)].(lua.LNumber)
	return float64(n), ok
}

// flush boxes the shadowed registers of mask m into the register file.
func (a *numAlloc) flush(arr []lua.LValue, lbase int, m uint64) {
	for ; m != 0; m &= m - 1 {
		i := bits.TrailingZeros64(m)
		arr[lbase+i] = a.box(a.val[i])
	}
}

// runTable is R(x) as a table without a metatable, nil for anything
// else (a shadowed register holds a number).
func runTable(arr []lua.LValue, lbase int, x uint, dirty uint64) *lua.LTable {
	if dirty&bit(x) == 0 {
		if t, ok := arr[lbase+int(x)].(*lua.LTable); ok && isNil(t.Metatable) {
			return t
		}
	}
	return nil
}

// numberRun runs the instructions of cf from its pc, as fastLoop would,
// for as long as they are of the kinds above, counting them in n (the
// loop's count, returned) and refilling it from the budget as fastLoop
// does. It stops before the first instruction it does not take, with
// every shadowed register boxed, or reports false when the budget
// stopped the call (the error is raised; fastLoop must return).
func (b *budget) numberRun(L *lua.LState, cf *frame, code []uint32, consts []lua.LValue, r *registry, lbase int, nums *numAlloc, n int64) (int64, bool) {
	arr := r.array
	val := &nums.val
	var dirty uint64
	tables := tableLayoutOK && fastPaths
run:
	for {
		if n < 1 {
			// The count runs out at this instruction: it is counted as
			// fastLoop counts it, with the shadow boxed first (the
			// budget may take a census, or stop the call here), and
			// then looked at again.
			nums.flush(arr, lbase, dirty)
			dirty = 0
			cf.Pc++
			var ok bool
			if n, ok = b.chunkSpent(L, n-1); !ok {
				return n, false
			}
			cf.Pc--
			n++
			arr = r.array
		}
		inst := code[cf.Pc]
		op := int(inst >> 26)
		a := uint(inst>>18) & 0xff
		RA := lbase + int(a)
		B, C := uint(inst&0x1ff), uint(inst>>9)&0x1ff
		switch op {
		case lua.OP_ADD:
			// Each operator its own case, as in fastLoop.
			x, ok1 := shadowNum(consts, arr, lbase, B, dirty, val)
			y, ok2 := shadowNum(consts, arr, lbase, C, dirty, val)
			if !ok1 || !ok2 || RA >= len(arr) {
				break run
			}
			cf.Pc, n = cf.Pc+1, n-1
			if v := x + y; a < shadowRegs {
				val[a], dirty = v, dirty|bit(a)
			} else {
				arr[RA] = nums.box(v)
			}
		case lua.OP_SUB:
			x, ok1 := shadowNum(consts, arr, lbase, B, dirty, val)
			y, ok2 := shadowNum(consts, arr, lbase, C, dirty, val)
			if !ok1 || !ok2 || RA >= len(arr) {
				break run
			}
			cf.Pc, n = cf.Pc+1, n-1
			if v := x - y; a < shadowRegs {
				val[a], dirty = v, dirty|bit(a)
			} else {
				arr[RA] = nums.box(v)
			}
		case lua.OP_MUL:
			x, ok1 := shadowNum(consts, arr, lbase, B, dirty, val)
			y, ok2 := shadowNum(consts, arr, lbase, C, dirty, val)
			if !ok1 || !ok2 || RA >= len(arr) {
				break run
			}
			cf.Pc, n = cf.Pc+1, n-1
			if v := x * y; a < shadowRegs {
				val[a], dirty = v, dirty|bit(a)
			} else {
				arr[RA] = nums.box(v)
			}
		case lua.OP_DIV:
			x, ok1 := shadowNum(consts, arr, lbase, B, dirty, val)
			y, ok2 := shadowNum(consts, arr, lbase, C, dirty, val)
			if !ok1 || !ok2 || RA >= len(arr) {
				break run
			}
			cf.Pc, n = cf.Pc+1, n-1
			if v := x / y; a < shadowRegs {
				val[a], dirty = v, dirty|bit(a)
			} else {
				arr[RA] = nums.box(v)
			}
		case lua.OP_MOD, lua.OP_POW:
			x, ok1 := shadowNum(consts, arr, lbase, B, dirty, val)
			y, ok2 := shadowNum(consts, arr, lbase, C, dirty, val)
			if !ok1 || !ok2 || RA >= len(arr) {
				break run
			}
			cf.Pc, n = cf.Pc+1, n-1
			v, whole := intMod(op, lua.LNumber(x), lua.LNumber(y))
			if !whole {
				v = arith(op, x, y)
			}
			if a < shadowRegs {
				val[a], dirty = v, dirty|bit(a)
			} else {
				arr[RA] = nums.box(v)
			}
		case lua.OP_MOVE:
			if RA >= len(arr) {
				break run
			}
			cf.Pc, n = cf.Pc+1, n-1
			if dirty&bit(B) != 0 {
				if v := val[B&(shadowRegs-1)]; a < shadowRegs {
					val[a], dirty = v, dirty|bit(a)
				} else {
					arr[RA] = nums.box(v)
				}
			} else {
				arr[RA] = arr[lbase+int(B)]
				dirty &^= bit(a)
			}
		case lua.OP_LOADK:
			if RA >= len(arr) {
				break run
			}
			cf.Pc, n = cf.Pc+1, n-1
			arr[RA] = consts[int(inst&0x3ffff)]
			dirty &^= bit(a)
		case lua.OP_GETUPVAL:
			if RA >= len(arr) {
				break run
			}
			cf.Pc, n = cf.Pc+1, n-1
			arr[RA] = cf.Fn.Upvalues[int(B)].Value()
			dirty &^= bit(a)
		case lua.OP_GETTABLE:
			// fastLoop's case: a table without a metatable, a number or
			// short string key. A number key in the shadow that indexes
			// the array part is used as it is; any other is boxed.
			t := runTable(arr, lbase, B, dirty)
			if !tables || t == nil || RA >= len(arr) {
				break run
			}
			var v lua.LValue
			if dirty&bit(C) != 0 {
				k := val[C&(shadowRegs-1)]
				if i, ta := int(k), (*lTable)(unsafe.Pointer(t)).array; i >= 1 && i <= len(ta) && float64(i) == k {
					v = ta[i-1]
				} else {
					v = t.RawGet(nums.box(k))
				}
			} else {
				switch k := rkLocal(consts, arr, lbase, int(C)).(type) {
				case lua.LNumber:
					i := int(k)
					if ta := (*lTable)(unsafe.Pointer(t)).array; i >= 1 && i <= len(ta) && lua.LNumber(i) == k {
						v = ta[i-1]
					} else {
						v = t.RawGet(k)
					}
				case lua.LString:
					if len(k) >= bytesPerInstruction/2 {
						break run
					}
					v = t.RawGetString(string(k))
				default:
					break run
				}
			}
			cf.Pc, n = cf.Pc+1, n-1
			arr[RA] = v
			dirty &^= bit(a)
		case lua.OP_GETTABLEKS:
			// fastLoop's case: a string key; a table with a metatable
			// answers only when the key is there.
			if dirty&(bit(B)|bit(C)) != 0 || RA >= len(arr) {
				break run
			}
			t, ok := arr[lbase+int(B)].(*lua.LTable)
			if !ok {
				break run
			}
			k, ok := rkLocal(consts, arr, lbase, int(C)).(lua.LString)
			if !ok {
				break run
			}
			v := t.RawGetString(string(k))
			if isNil(v) && !isNil(t.Metatable) {
				break run
			}
			cf.Pc, n = cf.Pc+1, n-1
			arr[RA] = v
			dirty &^= bit(a)
		case lua.OP_SETTABLEKS:
			// fastLoop's case: a string key, stored in place when the
			// table has no metatable or has the key.
			if dirty&(bit(a)|bit(B)) != 0 {
				break run
			}
			t, ok := arr[RA].(*lua.LTable)
			if !ok {
				break run
			}
			k, ok := rkLocal(consts, arr, lbase, int(B)).(lua.LString)
			if !ok || !isNil(t.Metatable) && isNil(t.RawGetString(string(k))) {
				break run
			}
			cf.Pc, n = cf.Pc+1, n-1
			if m := dirty & bit(C); m != 0 {
				nums.flush(arr, lbase, m) // the value, boxed: it goes into the table
				dirty &^= m
			}
			setString(t, string(k), rkLocal(consts, arr, lbase, int(C)))
			continue
		case lua.OP_SETTABLE:
			// fastLoop's case: a table without a metatable, a number key
			// inside the array part or just past it, or a short string.
			t := runTable(arr, lbase, a, dirty)
			if !tables || t == nil {
				break run
			}
			if m := dirty & (bit(B) | bit(C)); m != 0 {
				nums.flush(arr, lbase, m) // the key and the value, as fastLoop finds them
				dirty &^= m
			}
			switch k := rkLocal(consts, arr, lbase, int(B)).(type) {
			case lua.LNumber:
				i := int(k)
				ta := (*lTable)(unsafe.Pointer(t)).array
				switch {
				case i >= 1 && i <= len(ta) && lua.LNumber(i) == k:
					cf.Pc, n = cf.Pc+1, n-1
					ta[i-1] = rkLocal(consts, arr, lbase, int(C))
				case i == len(ta)+1 && i < lua.MaxArrayIndex && lua.LNumber(i) == k:
					cf.Pc, n = cf.Pc+1, n-1
					t.RawSet(k, rkLocal(consts, arr, lbase, int(C)))
				default:
					break run
				}
			case lua.LString:
				if len(k) >= bytesPerInstruction/2 {
					break run
				}
				cf.Pc, n = cf.Pc+1, n-1
				setString(t, string(k), rkLocal(consts, arr, lbase, int(C)))
			default:
				break run
			}
			continue
		case lua.OP_EQ, lua.OP_LT, lua.OP_LE:
			x, ok1 := shadowNum(consts, arr, lbase, B, dirty, val)
			y, ok2 := shadowNum(consts, arr, lbase, C, dirty, val)
			if !ok1 || !ok2 {
				break run
			}
			cf.Pc, n = cf.Pc+1, n-1
			// compared and nextJump: the jump is counted before it is
			// taken, as there.
			if compare(op, lua.LNumber(x), lua.LNumber(y)) != (a != 0) {
				cf.Pc++
			} else if cf.Pc < len(code) {
				if next := code[cf.Pc]; int(next>>26) == lua.OP_JMP {
					cf.Pc++
					if n--; n < 0 {
						nums.flush(arr, lbase, dirty)
						dirty = 0
						var ok bool
						if n, ok = b.chunkSpent(L, n); !ok {
							return n, false
						}
						arr = r.array
					}
					cf.Pc += int(next&0x3ffff) - opMaxArgSbx
				}
			}
			continue
		case lua.OP_JMP:
			cf.Pc, n = cf.Pc+1, n-1
			cf.Pc += int(inst&0x3ffff) - opMaxArgSbx
			continue
		case lua.OP_FORLOOP:
			if RA+3 >= len(arr) {
				break run
			}
			if a+3 < shadowRegs && dirty&(bit(a+1)|bit(a+2)) == 0 {
				// A turn that goes on keeps the index in the shadow: the
				// body reads it as a float, and it is boxed only if it is
				// still there when numberRun stops. box gives what
				// gopher-lua's boxing gives for any number but -0 and NaN,
				// and a turn that goes on has no NaN (it compares false).
				// Nor, from Lua source, -0: that needs an index of -0 and
				// a step of -0, and FORPREP leaves -0 only with a step of
				// +0; a -0 goes the boxed way below all the same.
				init, ok1 := lua.LNumber(val[a&(shadowRegs-1)]), true
				if dirty&bit(a) == 0 {
					init, ok1 = arr[RA].(lua.LNumber)
				}
				limit, ok2 := arr[RA+1].(lua.LNumber)
				step, ok3 := arr[RA+2].(lua.LNumber)
				if next := init + step; ok1 && ok2 && ok3 && forGoesOn(next, limit, step) && math.Float64bits(float64(next)) != 1<<63 {
					cf.Pc, n = cf.Pc+1+int(inst&0x3ffff)-opMaxArgSbx, n-1
					val[a&(shadowRegs-1)], val[(a+3)&(shadowRegs-1)] = float64(next), float64(next)
					dirty |= bit(a) | bit(a+3)
					if RA+3 >= r.top {
						r.top = RA + 4
					}
					continue
				}
			}
			if m := dirty & (0xf << a); m != 0 {
				nums.flush(arr, lbase, m)
				dirty &^= m
			}
			init, ok1 := arr[RA].(lua.LNumber)
			limit, ok2 := arr[RA+1].(lua.LNumber)
			step, ok3 := arr[RA+2].(lua.LNumber)
			if !ok1 || !ok2 || !ok3 {
				break run
			}
			// fastLoop's case, line for line (a call here is a tenth of
			// the loop's time).
			cf.Pc, n = cf.Pc+1, n-1
			init += step
			v, small := smallWhole(float64(init))
			if !small {
				v = nums.boxLikeGopherLua(float64(init))
			}
			arr[RA] = v
			if RA >= r.top {
				r.top = RA + 1
			}
			if forGoesOn(init, limit, step) {
				cf.Pc += int(inst&0x3ffff) - opMaxArgSbx
				arr[RA+3] = v
				if RA+3 >= r.top {
					r.top = RA + 4
				}
			} else {
				// The registers above R(A) are cleared, and so are their
				// bits.
				setTop(r, RA+1)
				dirty &= bit(a+1) - 1
			}
			continue
		default:
			break run
		}
		// The cases that fall through here wrote R(A); fastLoop's cases
		// raise the top the same way.
		if RA >= r.top {
			r.top = RA + 1
		}
	}
	nums.flush(arr, lbase, dirty)
	return n, true
}
