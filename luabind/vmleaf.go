package luabind

import (
	"math"
	"unsafe"

	lua "github.com/yuin/gopher-lua"
)

// Calls of small Lua functions without a call frame.
//
// A player that calls small helpers (`add(a, b)`, `cell(view, i)`,
// `clamp(x, lo, hi)`) pays, for every call, for a frame pushed onto
// gopher-lua's call stack and popped again, and for fastLoop reloading its
// frame, code, constants and register base on the way in and again on
// the way out. Yet while such a helper runs nothing can look at its
// frame: a frame is read only by an error (its position, the traceback),
// by the budget's refill (a census, a timeout), by a Go function and by
// the instructions that call, return through gopher-lua or close
// upvalues.
//
// So fastLoop's CALL first offers a Lua callee to leafRun. leafRun sets up
// the callee's registers exactly as gopher-lua's CALL does but pushes no frame, and
// runs the callee's instructions in a loop of its own, with its pc in a
// local, for as long as they are of the kinds it takes (loads, moves,
// upvalues and globals read, table reads and stores, arithmetic and
// comparisons of numbers, tests and jumps) with the operands fastLoop's
// cases take. When the callee returns a fixed number of values, leafRun
// copies them down as returnLua does, and fastLoop goes on in the caller
// as if nothing had happened: no frame to pop, nothing to reload.
//
// Before anything else — an instruction or an operand it does not take,
// an instruction the budget has no count left for — leafRun leaves that
// instruction untaken and uncounted, pushes the frame the CALL would have
// pushed, with the pc at that instruction, and hands it to fastLoop,
// which takes it as it takes any other. So whatever could look at the
// frame finds the one it would have found, the registers and their top
// are written as fastLoop writes them, and the count and every refill
// fall on the same instructions. The differential tests (corediff_test.go,
// vmleaf_test.go) hold it to the previous core.

// How leafRun ended.
const (
	leafDeclined = iota // nothing changed: the call is gopher-lua's
	leafReturned        // the callee returned; the caller goes on
	leafPushed          // the callee's frame is pushed and current, for fastLoop
)

// leafRun calls the Lua function in R(A) of cf (RA, with B-1 arguments
// and C-1 results wanted, as gopher-lua's CALL takes them) without a frame while it
// can, starting with the count n; the count it returns is in b.n.
func (b *budget) leafRun(L *lua.LState, cur **frame, stack *frameStack, r *registry, cf *frame, RA, B, C int, nums *numAlloc, n int64) int {
	fn, ok := r.array[RA].(*lua.LFunction)
	if !ok || fn.IsG || fn.Proto.IsVarArg != 0 || stack.sp >= len(stack.array) {
		return leafDeclined
	}
	proto := fn.Proto
	nargs := B - 1
	lbase := RA + 1
	np := int(proto.NumParameters)
	used := int(proto.NumUsedRegisters)
	arr := r.array
	// Inside, no instruction can name a register past the end of the
	// register file, and none needs checking; near the end the frame is
	// pushed at once, as the CALL pushes it.
	inside := lbase+0x100 <= len(arr) && nargs <= 0xff
	if !inside && lbase+max(np, nargs, used) > len(arr) {
		return leafDeclined
	}
	// The CALL's set-up of the registers (initCallFrame): missing arguments, and every
	// register the function uses beyond its parameters, are nil.
	// (Arguments beyond the parameters too.)
	for i := min(nargs, np); i < max(nargs, np, used); i++ {
		arr[lbase+i] = lua.LNil
	}
	r.top = lbase + used
	code, consts := proto.Code, proto.Constants
	tables := tableLayoutOK && fastPaths
	// With upvalues open on the callee's registers (none can be: nothing
	// in the caller's frame is there; but should one be), its return
	// would close them: the frame is pushed at once, as the CALL pushes it.
	end := len(code)
	if !inside || openFrom(L, lbase) {
		end = 0
	}
	pc := 0
	var v float64 // an arithmetic result, to box
	for pc < end {
		inst := code[pc]
		if n--; n < 0 {
			n++
			break // the refill is fastLoop's, on the pushed frame
		}
		pc++
		op := int(inst >> 26)
		A := lbase + int(inst>>18)&0xff
		switch op {
		case lua.OP_MOVE:
			setReg(r, A, arr[lbase+int(inst&0x1ff)])
			continue
		case lua.OP_MOVEN:
			// A MOVE and the C moves after it, counted as one
			// instruction, as gopher-lua runs them.
			setReg(r, A, arr[lbase+int(inst&0x1ff)])
			for range int(inst>>9) & 0x1ff {
				next := code[pc]
				pc++
				setReg(r, lbase+int(next>>18)&0xff, arr[lbase+int(next&0x1ff)])
			}
			continue
		case lua.OP_LOADK:
			setReg(r, A, consts[int(inst&0x3ffff)])
			continue
		case lua.OP_LOADBOOL:
			if inst&0x1ff != 0 {
				setReg(r, A, lua.LTrue)
			} else {
				setReg(r, A, lua.LFalse)
			}
			if (inst>>9)&0x1ff != 0 {
				pc++
			}
			continue
		case lua.OP_LOADNIL:
			for i := A; i <= lbase+int(inst&0x1ff); i++ {
				setReg(r, i, lua.LNil)
			}
			continue
		case lua.OP_GETUPVAL:
			setReg(r, A, fn.Upvalues[int(inst&0x1ff)].Value())
			continue
		case lua.OP_GETGLOBAL:
			if k, ok := consts[int(inst&0x3ffff)].(lua.LString); ok {
				if v := fn.Env.RawGetString(string(k)); !isNil(v) {
					setReg(r, A, v)
					continue
				}
			}
		case lua.OP_GETTABLEKS:
			if t, ok := arr[lbase+int(inst&0x1ff)].(*lua.LTable); ok {
				if k, ok := rkLocal(consts, arr, lbase, int(inst>>9)&0x1ff).(lua.LString); ok {
					if v := t.RawGetString(string(k)); !isNil(v) || isNil(t.Metatable) {
						setReg(r, A, v)
						continue
					}
				}
			}
		case lua.OP_GETTABLE:
			if tables {
				if t, ok := arr[lbase+int(inst&0x1ff)].(*lua.LTable); ok && isNil(t.Metatable) {
					if v, ok := quickGet(t, rkLocal(consts, arr, lbase, int(inst>>9)&0x1ff)); ok {
						setReg(r, A, v)
						continue
					}
				}
			}
		case lua.OP_SETTABLEKS:
			if t, ok := arr[A].(*lua.LTable); ok {
				if k, ok := rkLocal(consts, arr, lbase, int(inst&0x1ff)).(lua.LString); ok {
					if isNil(t.Metatable) || !isNil(t.RawGetString(string(k))) {
						setString(t, string(k), rkLocal(consts, arr, lbase, int(inst>>9)&0x1ff))
						continue
					}
				}
			}
		case lua.OP_SETTABLE:
			if tables {
				if t, ok := arr[A].(*lua.LTable); ok && isNil(t.Metatable) && quickSet(t, rkLocal(consts, arr, lbase, int(inst&0x1ff)), rkLocal(consts, arr, lbase, int(inst>>9)&0x1ff)) {
					continue
				}
			}
		case lua.OP_ADD:
			if x, y, ok := numbers(consts, arr, lbase, inst); ok {
				v = float64(x) + float64(y)
				goto boxed
			}
		case lua.OP_SUB:
			if x, y, ok := numbers(consts, arr, lbase, inst); ok {
				v = float64(x) - float64(y)
				goto boxed
			}
		case lua.OP_MUL:
			if x, y, ok := numbers(consts, arr, lbase, inst); ok {
				v = float64(x) * float64(y)
				goto boxed
			}
		case lua.OP_DIV:
			if x, y, ok := numbers(consts, arr, lbase, inst); ok {
				v = float64(x) / float64(y)
				goto boxed
			}
		case lua.OP_MOD, lua.OP_POW:
			if x, y, ok := numbers(consts, arr, lbase, inst); ok {
				var ok bool
				if v, ok = modPow2(op, x, y); !ok {
					if v, ok = intMod(op, x, y); !ok {
						v = arith(op, float64(x), float64(y))
					}
				}
				goto boxed
			}
		case lua.OP_NOT:
			if isFalsy(arr[lbase+int(inst&0x1ff)]) {
				setReg(r, A, lua.LTrue)
			} else {
				setReg(r, A, lua.LFalse)
			}
			continue
		case lua.OP_JMP:
			pc += int(inst&0x3ffff) - opMaxArgSbx
			continue
		case lua.OP_LT:
			// Two numbers decided here; the rest as quickCompare decides.
			if x, y, ok := numbers(consts, arr, lbase, inst); ok {
				if (x < y) != (inst>>18&0xff != 0) {
					pc++
				}
				continue
			}
			if holds, ok := quickCompare(op, rkLocal(consts, arr, lbase, int(inst&0x1ff)), rkLocal(consts, arr, lbase, int(inst>>9)&0x1ff)); ok {
				if holds != (inst>>18&0xff != 0) {
					pc++
				}
				continue
			}
		case lua.OP_EQ, lua.OP_LE:
			if holds, ok := quickCompare(op, rkLocal(consts, arr, lbase, int(inst&0x1ff)), rkLocal(consts, arr, lbase, int(inst>>9)&0x1ff)); ok {
				// The jump that follows, when the outcome asks for it,
				// is the next instruction, counted as fastLoop counts it.
				if holds != (inst>>18&0xff != 0) {
					pc++
				}
				continue
			}
		case lua.OP_TEST:
			if !isFalsy(arr[A]) == ((inst>>9)&0x1ff == 0) {
				pc++
			}
			continue
		case lua.OP_TESTSET:
			if v := arr[lbase+int(inst&0x1ff)]; !isFalsy(v) != ((inst>>9)&0x1ff == 0) {
				setReg(r, A, v) // and the jump after it is the next instruction
			} else {
				pc++
			}
			continue
		case lua.OP_RETURN:
			if B := int(inst & 0x1ff); B == 2 && (C == 2 || C == 0) && A < r.top {
				// One value, one wanted (or all, which is one): the
				// common return, copyResults' work for it alone.
				arr[RA] = arr[A]
				old := r.top
				r.top = RA + 1
				for i := RA + 1; i < old; i++ {
					arr[i] = nil
				}
				b.n = n
				return leafReturned
			}
			if leafReturn(r, RA, A, int(inst&0x1ff), C) {
				b.n = n
				return leafReturned
			}
		}
		// Not taken here: fastLoop takes it, counted again there.
		pc--
		n++
		break
	boxed:
		// An arithmetic result: a small whole number without a call.
		if s, ok := smallNumber(v); ok {
			setReg(r, A, s)
		} else {
			setReg(r, A, nums.box(v))
		}
	}
	// The CALL's frame, at the instruction fastLoop takes next.
	sp := stack.sp
	f := &stack.array[sp]
	f.Idx, f.Fn, f.Parent = sp, fn, cf
	f.Pc, f.Base, f.LocalBase, f.ReturnBase = pc, RA, lbase, RA
	f.NArgs, f.NRet, f.TailCall = B-1, C-1, 0
	stack.sp++
	*cur = f
	b.n = n
	return leafPushed
}

// setReg stores v in register i (an absolute index) and raises the top
// above it, as every instruction that writes one register does.
func setReg(r *registry, i int, v lua.LValue) {
	r.array[i] = v
	if i >= r.top {
		r.top = i + 1
	}
}

// smallNumber is box(v) when v is a small whole number (not -0), and
// small enough to be inlined where box is not.
func smallNumber(v float64) (lua.LValue, bool) {
	if i := uint(int(v)); i < smallLimit && float64(i) == v && math.Float64bits(v) != 1<<63 {
		return smallNumbers[i], true
	}
	return nil, false
}

// smallWhole is boxLikeGopherLua(v) when v is a small whole number, -0
// included (gopher-lua boxes it as 0), and small enough to be inlined.
func smallWhole(v float64) (lua.LValue, bool) {
	if i := uint(int(v)); i < smallLimit && float64(i) == v {
		return smallNumbers[i], true
	}
	return nil, false
}

// modPow2 is x % y (op is MOD) when y is a power of two and x a whole
// number below 2^52 in magnitude: the low bits, which are the floored
// remainder in two's complement whatever x's sign (intMod's first case,
// small enough to be inlined).
func modPow2(op int, x, y lua.LNumber) (float64, bool) {
	const bound = 1 << 52
	if a, d := int64(x), int64(y); op == lua.OP_MOD && x > -bound && x < bound && lua.LNumber(a) == x && d > 0 && d&(d-1) == 0 && lua.LNumber(d) == y {
		return float64(a & (d - 1)), true
	}
	return 0, false
}

// quickGet is t[k] for a table without a metatable when fastLoop's
// GETTABLE takes it (a number, or a string short enough to be free); ok
// is false for any other key.
func quickGet(t *lua.LTable, k lua.LValue) (lua.LValue, bool) {
	switch k := k.(type) {
	case lua.LNumber:
		i := int(k)
		if a := (*lTable)(unsafe.Pointer(t)).array; i >= 1 && i <= len(a) && lua.LNumber(i) == k {
			return a[i-1], true
		}
		return t.RawGet(k), true
	case lua.LString:
		if len(k) < bytesPerInstruction/2 {
			return t.RawGetString(string(k)), true
		}
	}
	return nil, false
}

// quickSet is fastLoop's SETTABLE of v at k in t, a table without a
// metatable: a number key in or just after the array part, or a string
// short enough to be free. It reports false, having changed nothing, for
// any other key.
func quickSet(t *lua.LTable, k, v lua.LValue) bool {
	switch k := k.(type) {
	case lua.LNumber:
		i := int(k)
		if a := (*lTable)(unsafe.Pointer(t)).array; i >= 1 && i <= len(a) && lua.LNumber(i) == k {
			a[i-1] = v
			return true
		} else if i == len(a)+1 && i < lua.MaxArrayIndex && lua.LNumber(i) == k {
			t.RawSet(k, v)
			return true
		}
	case lua.LString:
		if len(k) < bytesPerInstruction/2 {
			setString(t, string(k), v)
			return true
		}
	}
	return false
}

// leafReturn is a RETURN of B-1 values from register A (absolute) of a
// callee with no frame, called from register base with C-1 results
// wanted: the results copied down and the top set as returnLua sets them.
// It reports false, having changed nothing, where returnLua would not
// return (B=0 with too many values up to the top, or results that do not
// fit the register file).
func leafReturn(r *registry, base, A, B, C int) bool {
	nret := B - 1
	if B == 0 {
		if nret = r.top - A; nret < 0 || nret >= valuesPerInstruction {
			return false
		}
	}
	want := C - 1
	if want == lua.MultRet {
		want = nret
	}
	if base+want > len(r.array) {
		return false
	}
	copyResults(r, A, B, base, want)
	return true
}

// copyResults is gopher-lua's copyReturnValues and the pop after it: B-1
// values from register from (B=0: those up to the top) copied to to, nils
// for the n results wanted beyond them, the top just above the results
// and the registers above it cleared.
func copyResults(r *registry, from, B, to, n int) {
	limit := r.top
	for i := 0; i < n; i++ {
		if src := from + i; (B != 0 && i >= B-1) || src >= limit {
			r.array[to+i] = lua.LNil
		} else {
			r.array[to+i] = r.array[src]
		}
	}
	old := r.top
	r.top = to + n
	for i := r.top; i < old; i++ {
		r.array[i] = nil // a few slots: cheaper than clear's call into the runtime
	}
}

// openFrom reports whether L has an upvalue open on register idx or
// above. gopher-lua keeps the open upvalues in a list in ascending order
// of their registers, and closes those from a returning frame's base up.
func openFrom(L *lua.LState, idx int) bool {
	for uv := *(**upvalue)(unsafe.Add(unsafe.Pointer(L), offUpvalues)); uv != nil; uv = uv.next {
		if uv.index >= idx {
			return true
		}
	}
	return false
}
