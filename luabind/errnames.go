package luabind

import (
	lua "github.com/yuin/gopher-lua"
)

// Naming the value an error is about, as Lua 5.1 does.
//
// Lua 5.1 says "attempt to call global 'roundz' (a nil value)" where
// gopher-lua says "attempt to call a non-function object": it finds, in
// the compiled function, the instruction that last wrote the register
// holding the bad value (ldebug.c's symbexec, a forward pass that follows
// forward jumps) and names the value after it: a global (GETGLOBAL), a
// field (a table read by a constant string key), an upvalue, a method
// (SELF), or a local variable of the function (from its debug
// information). The same is done here, on gopher-lua's instructions,
// only once an error has been raised: nothing of this runs on the hot
// path. The search reads the function's code from its start, so its work
// grows with the function (a script may pcall an error at the end of a
// long function that it mostly skips, over and over): it is charged to the
// running call, by the instructions and locals it read, and it gives up,
// leaving the value unnamed, past maxNameSteps.

// maxNameSteps bounds the instructions and locals one naming reads.
const maxNameSteps = 1 << 16

// variableName names what register reg holds at the running instruction
// of cf: ("local", "p"), ("global", "roundz"), ("field", "row"),
// ("upvalue", "cfg"), ("method", "foo"), or two empty strings when Lua
// would not name it either.
func variableName(L *lua.LState, cf *frame, reg int) (kind, name string) {
	if cf == nil || cf.Fn == nil || cf.Fn.IsG || cf.Pc < 1 {
		return "", ""
	}
	steps := maxNameSteps
	kind, name = objName(cf.Fn.Proto, cf.Pc-1, reg, 0, &steps)
	if b, ok := L.Context().(*budget); ok {
		// Not raising here (this may run in an error handler): a budget
		// now spent stops the script at its next instruction.
		b.charge(int64(maxNameSteps-steps) / probesPerInstruction)
	}
	if steps < 0 {
		return "", ""
	}
	return kind, name
}

// argumentName names argument n of the running builtin as its Lua caller
// wrote it: the variable in the register the caller's CALL passed it in.
// A builtin called any other way (by pcall, as a metamethod) gets no name.
func argumentName(L *lua.LState, n int) (kind, name string) {
	g := current(L)
	if g == nil || g.Parent == nil || !countedLoopOK {
		return "", ""
	}
	c := g.Parent
	if c.Fn == nil || c.Fn.IsG || c.Pc < 1 {
		return "", ""
	}
	inst := c.Fn.Proto.Code[c.Pc-1]
	if op := int(inst >> 26); op != lua.OP_CALL && op != lua.OP_TAILCALL {
		return "", ""
	}
	r := regs(L)
	if i := c.LocalBase + argA(inst); i >= len(r.array) || r.array[i] != lua.LValue(g.Fn) {
		return "", ""
	}
	return variableName(L, c, argA(inst)+n)
}

// objName is Lua 5.1's getobjname: the name of register reg at
// instruction pc of p. depth bounds the MOVE chain it follows; steps is
// what is left of maxNameSteps (negative: the search gave up).
func objName(p *lua.FunctionProto, pc, reg, depth int, steps *int) (kind, name string) {
	if n := localName(p, reg, pc, steps); n != "" && n[0] != '(' {
		return "local", n
	}
	last := lastWriter(p, pc, reg, steps)
	if last < 0 || depth > 8 {
		return "", ""
	}
	inst := p.Code[last]
	switch int(inst >> 26) {
	case lua.OP_GETGLOBAL:
		if bx := int(inst & 0x3ffff); bx < len(p.Constants) {
			if s, ok := p.Constants[bx].(lua.LString); ok {
				return "global", string(s)
			}
		}
	case lua.OP_MOVE, lua.OP_MOVEN:
		if b := argB(inst); b < argA(inst) {
			return objName(p, pc, b, depth+1, steps)
		}
	case lua.OP_GETTABLE, lua.OP_GETTABLEKS:
		if s, ok := rkConst(p, argC(inst)).(lua.LString); ok {
			return "field", string(s)
		}
	case lua.OP_GETUPVAL:
		if b := argB(inst); b < len(p.DbgUpvalues) {
			return "upvalue", p.DbgUpvalues[b]
		}
	case lua.OP_SELF:
		if s, ok := rkConst(p, argC(inst)).(lua.LString); ok {
			return "method", string(s)
		}
	}
	return "", ""
}

// lastWriter is the instruction before lastpc that last wrote register
// reg on the straight path to lastpc, or -1: ldebug.c's symbexec, reduced
// to what naming needs. A forward jump that lands at or before lastpc is
// followed (the code it skips cannot be what ran), a backward one is not.
func lastWriter(p *lua.FunctionProto, lastpc, reg int, steps *int) int {
	last := -1
	code := p.Code
	for pc := 0; pc < lastpc && pc < len(code); pc++ {
		if *steps--; *steps < 0 {
			return -1
		}
		inst := code[pc]
		op, a := int(inst>>26), argA(inst)
		switch op {
		case lua.OP_LOADNIL:
			if a <= reg && reg <= argB(inst) {
				last = pc
			}
		case lua.OP_CALL, lua.OP_TAILCALL:
			if reg >= a {
				last = pc
			}
		case lua.OP_VARARG:
			if b := argB(inst); reg >= a && (b == 0 || reg <= a+b-2) {
				last = pc
			}
		case lua.OP_TFORLOOP:
			if reg >= a+2 {
				last = pc
			}
		case lua.OP_SELF:
			if reg == a || reg == a+1 {
				last = pc
			}
		case lua.OP_CLOSURE:
			if reg == a {
				last = pc
			}
			if bx := int(inst & 0x3ffff); bx < len(p.FunctionPrototypes) {
				pc += int(p.FunctionPrototypes[bx].NumUpvalues) // its upvalues' pseudo-instructions
			}
		case lua.OP_JMP, lua.OP_FORPREP, lua.OP_FORLOOP:
			if op != lua.OP_JMP && reg == a {
				last = pc
			}
			sbx := int(inst&0x3ffff) - 0x3ffff>>1
			if dest := pc + 1 + sbx; pc < dest && dest <= lastpc {
				pc += sbx
			}
		default:
			if writesA[op] && reg == a {
				last = pc
			}
		}
	}
	return last
}

// writesA are the other opcodes that write register A.
var writesA = func() (s [lua.OP_NOP + 1]bool) {
	for _, op := range []int{lua.OP_MOVE, lua.OP_MOVEN, lua.OP_LOADK, lua.OP_LOADBOOL, lua.OP_GETUPVAL,
		lua.OP_GETGLOBAL, lua.OP_GETTABLE, lua.OP_GETTABLEKS, lua.OP_NEWTABLE, lua.OP_ADD, lua.OP_SUB,
		lua.OP_MUL, lua.OP_DIV, lua.OP_MOD, lua.OP_POW, lua.OP_UNM, lua.OP_NOT, lua.OP_LEN, lua.OP_CONCAT,
		lua.OP_TESTSET} {
		s[op] = true
	}
	return
}()

// localName is the local variable in register reg at instruction pc: the
// locals active there hold the registers in the order they were declared.
// gopher-lua records a local as active from StartPc to EndPc, both
// included (its own LocalName leaves out the last instruction of a block).
func localName(p *lua.FunctionProto, reg, pc int, steps *int) string {
	for _, l := range p.DbgLocals {
		if *steps--; *steps < 0 {
			return ""
		}
		if l.StartPc > pc {
			break
		}
		if pc <= l.EndPc {
			if reg == 0 {
				return l.Name
			}
			reg--
		}
	}
	return ""
}

// rkConst is an RK operand when it names a constant, else nil.
func rkConst(p *lua.FunctionProto, x int) lua.LValue {
	if x&0x100 != 0 && x&0xff < len(p.Constants) {
		return p.Constants[x&0xff]
	}
	return nil
}

// typeError words a type error as Lua 5.1's luaG_typeerror: "attempt to
// <what> <kind> '<name>' (a <type> value)", or without the name when the
// value has none.
func typeErrorText(what, kind, name string, v lua.LValue) string {
	t := "a " + v.Type().String() + " value"
	if name == "" {
		return "attempt to " + what + " " + t
	}
	return "attempt to " + what + " " + kind + " '" + name + "' (" + t + ")"
}
