package luabind

import (
	lua "github.com/yuin/gopher-lua"
)

// Opcodes whose Go work grows with their operands.
//
// The VM core (fastLoop, vmfast.go) charges one instruction before each
// VM instruction. Most of gopher-lua's 38 opcodes do a bounded amount of Go
// work, so one count is a fair price; a few do work that grows with what
// a script hands them, and a script could buy seconds with one count. Each
// team's loop therefore dispatches through its own copy of gopher-lua's
// jumpTable in which those few entries are wrapped: the wrapper works out
// the size of the job from the operands, charges it to the budget (raising
// the budget error when it is not there) and only then runs gopher-lua's
// entry. Every other entry is gopher-lua's own. fastLoop runs in place
// only the operands these wrappers would charge nothing for, and hands
// every other instruction to this table.
//
// Wrapped here, and why:
//   - VARARG with B=0 copies every extra argument; CALL and TAILCALL with
//     B=0 pass every value up to the top of the stack (and a vararg callee
//     copies them again into its `arg` table); RETURN with B=0 moves every
//     value up to the top; SETLIST stores B values, or everything up to the
//     top when B=0. Charged per value moved (valuesPerInstruction).
//   - EQ, LT and LE on two strings compare up to the shorter length
//     (equal lengths only, for EQ). Charged per byte (bytesPerInstruction).
//   - GETTABLE, SETTABLE and SELF hash a string key once per table they
//     look in (and SETTABLE twice: look up, then store). Charged per byte of
//     key and table visited. They also refuse, in Lua's words, to index a
//     value that cannot be indexed: gopher-lua's own message prints the key
//     with String(), a Go address for a table or function key (index.go).
//   - LEN walks back over the nils that end a table's array part and
//     searches its hash part for the border: charged per slot and per
//     probe as it goes (lenOp and border, tables.go).
//   - ADD, SUB, MUL, DIV, MOD, POW and UNM parse a string operand as a
//     number, linear in its length; MOD and POW are also computed here so
//     that every architecture gets the same bits (arith.go).
//
// Bounded, and left alone:
//   - MOVE, LOADK, LOADBOOL, GETUPVAL, SETUPVAL, JMP, TEST, TESTSET, NOT,
//     FORLOOP, NOP: a fixed number of loads and stores. (FORPREP is wrapped
//     only to convert numeric strings as Lua 5.1 does, forprep.go.)
//   - MOVEN: at most C (9 bits) further MOVEs that the compiler emitted.
//   - LOADNIL: at most 256 registers of one frame.
//   - NEWTABLE: preallocates at most 511 slots of each part (B and C are
//     9-bit fields, used raw).
//   - GETGLOBAL, SETGLOBAL, GETTABLEKS, SETTABLEKS: their key is a string
//     constant of the script, and compileScript refuses constants used as
//     keys that are longer than bytesPerInstruction (compile.go).
//   - TFORLOOP: calls the iterator (counted itself, or a builtin that
//     charges for itself) and copies at most C results.
//   - CLOSURE, CLOSE (and RETURN, TAILCALL, which close too): walk the list
//     of open upvalues; it only grows by CLOSURE instructions, each adding
//     at most its own upvalues, so the walks are bounded by the registers a
//     script can hold open (see the report of issue 12 for the measured
//     worst case).
//   - CONCAT: never emitted; compileScript rewrites `..` into a call of a
//     checked builtin.
//   - A call of a Go function copies its results into place inside CALL;
//     the builtins that can return many values charge for them.

// opTable is a dispatch table with gopher-lua's instFunc entries.
type opTable [lua.OP_NOP + 1]instFunc

// dispatch builds the team's dispatch table: gopher-lua's, with the
// opcodes above wrapped.
func (b *budget) dispatch() *opTable {
	ops := opTable(jumpTable)
	nums := &numAlloc{}
	for _, op := range []int{lua.OP_VARARG, lua.OP_CALL, lua.OP_TAILCALL, lua.OP_RETURN, lua.OP_SETLIST} {
		ops[op] = b.movesOp(op, jumpTable[op])
	}
	for _, op := range []int{lua.OP_EQ, lua.OP_LT, lua.OP_LE} {
		ops[op] = b.compareOp(op, jumpTable[op])
	}
	ops[lua.OP_GETTABLE] = b.indexOp(lua.OP_GETTABLE, jumpTable[lua.OP_GETTABLE])
	ops[lua.OP_SETTABLE] = b.indexOp(lua.OP_SETTABLE, jumpTable[lua.OP_SETTABLE])
	ops[lua.OP_SELF] = b.indexOp(lua.OP_SELF, jumpTable[lua.OP_SELF])
	for op := lua.OP_ADD; op <= lua.OP_POW; op++ {
		ops[op] = b.arithOp(op, jumpTable[op], nums)
	}
	ops[lua.OP_UNM] = b.unaryMinusOp(jumpTable[lua.OP_UNM], nums)
	ops[lua.OP_FORPREP] = b.forPrepOp(jumpTable[lua.OP_FORPREP]) // forprep.go
	ops[lua.OP_LEN] = b.lenOp(jumpTable[lua.OP_LEN], nums)       // tables.go
	withFastPaths(&ops, nums, b.team)
	return &ops
}

// take charges n instructions of Go work to the running call and raises
// the budget error when they are not left.
func (b *budget) take(L *lua.LState, n int64) {
	if n > 0 && !b.charge(n) {
		L.RaiseError("%s", errBudget.Error())
	}
}

// Instruction fields, as gopher-lua encodes them (opcode.go).
func argA(inst uint32) int { return int(inst>>18) & 0xff }
func argB(inst uint32) int { return int(inst & 0x1ff) }
func argC(inst uint32) int { return int(inst>>9) & 0x1ff }

// rk reads an RK operand: a constant of the running function when its
// high bit is set, else a register of the frame.
func rk(cf *frame, r *registry, x int) lua.LValue {
	if x&0x100 != 0 {
		return cf.Fn.Proto.Constants[x&0xff]
	}
	return r.array[cf.LocalBase+x]
}

// movesOp wraps the opcodes that move a number of values chosen at run
// time: the count is read exactly as gopher-lua will read it.
func (b *budget) movesOp(op int, orig instFunc) instFunc {
	return func(L *lua.LState, inst uint32, baseframe *frame) int {
		if argB(inst) != 0 {
			// At most 510 values (50 for SETLIST), each put in its register
			// by an instruction of its own: a fixed cost.
			return orig(L, inst, baseframe)
		}
		if n := movedValues(L, op, inst); n >= valuesPerInstruction {
			if op == lua.OP_SETLIST && b.team != nil {
				b.team.chargeValues(L, int64(n)) // stored: memory as well
			} else {
				b.take(L, int64(n)/valuesPerInstruction)
			}
		}
		return orig(L, inst, baseframe)
	}
}

// movedValues is the number of values op moves; B=0 means "up to the top
// of the stack" (or, for VARARG, "all the extra arguments").
//
//go:noinline
func movedValues(L *lua.LState, op int, inst uint32) int {
	B := argB(inst)
	if B != 0 {
		if op == lua.OP_SETLIST {
			return B
		}
		return 0 // at most 510, a fixed cost of the instruction
	}
	cf := current(L)
	RA := cf.LocalBase + argA(inst)
	top := regs(L).top
	switch op {
	case lua.OP_VARARG:
		return cf.NArgs - int(cf.Fn.Proto.NumParameters)
	case lua.OP_RETURN:
		return top - RA
	default: // CALL, TAILCALL, SETLIST: the values above RA
		return top - RA - 1
	}
}

// compareOp wraps EQ, LT and LE on two strings: charged by the bytes
// compared, then compared here. Two numbers never reach it (fastCompare in
// fastops.go takes them first); anything else is gopher-lua's.
func (b *budget) compareOp(op int, orig instFunc) instFunc {
	return func(L *lua.LState, inst uint32, baseframe *frame) int {
		cf, r := current(L), regs(L)
		if x, ok := rk(cf, r, argB(inst)).(lua.LString); ok {
			if y, ok := rk(cf, r, argC(inst)).(lua.LString); ok {
				b.take(L, compareCost(op, len(x), len(y)))
				// Go's own string comparison (bytewise, as strcmp in the C
				// locale): gopher-lua's strCmp walks the strings a byte at a
				// time, ten times slower.
				skipUnless(cf, inst, compare(op, x, y))
				return 0
			}
		}
		return orig(L, inst, baseframe)
	}
}

// compare is the outcome of EQ, LT or LE on two numbers or two strings.
func compare[T lua.LNumber | lua.LString](op int, x, y T) bool {
	switch op {
	case lua.OP_EQ:
		return x == y
	case lua.OP_LT:
		return x < y
	default:
		return x <= y
	}
}

// skipUnless does what gopher-lua does after a comparison: it skips the
// next instruction (a jump) when the outcome differs from A.
func skipUnless(cf *frame, inst uint32, holds bool) {
	if holds != (argA(inst) != 0) {
		cf.Pc++
	}
}

// compareCost is the charge for comparing strings of lengths x and y:
// equality of different lengths is decided without reading them.
func compareCost(op, x, y int) int64 {
	if op == lua.OP_EQ && x != y {
		return 0
	}
	return int64(min(x, y)) / bytesPerInstruction
}
