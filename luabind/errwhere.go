package luabind

import (
	"strconv"
	"strings"

	lua "github.com/yuin/gopher-lua"
)

// Where an error happened, and Lua 5.1's wording of gopher-lua's runtime
// errors.
//
// A top-level call of a script (a team's run or hook) is made with a
// handler (catcher). gopher-lua calls the handler while the failed frames
// are still on the stack, so the handler can see what Lua 5.1 would report
// and gopher-lua does not: which instruction of which function was
// running (the error's file:line, for a timeout too, where the budget ran
// out), the frames that led there (a short traceback), and the operand
// the instruction failed on (to name it, errnames.go). All of this runs
// only when an error is raised.

// traceDepth is the number of frames a traceback keeps.
const traceDepth = 5

// catcher is the error handler of one state's top-level calls. A state
// runs one call at a time; so does its catcher.
type catcher struct {
	fn    *lua.LFunction
	b     *budget  // the state's budget, whose Go nesting a call restores (cstack.go)
	base  int      // register of the called function: frames at or above it are the call's
	where string   // "file:line" of the innermost Lua frame of the last error
	trace []string // the last error's frames, innermost first
}

func newCatcher(L *lua.LState, b *budget) *catcher {
	c := &catcher{b: b}
	c.fn = L.NewFunction(c.handle)
	return c
}

// pcall is L.PCall of the function and nargs arguments on the stack, with
// the catcher as handler when the state's layout is known (vmloop.go,
// pcall.go); where and trace are then set by the error, if any.
func (c *catcher) pcall(L *lua.LState, nargs, nret int) error {
	c.where, c.trace = "", nil
	if !pcallOK {
		return L.PCall(nargs, nret, nil)
	}
	c.base = regs(L).top - nargs - 1
	nest := c.b.nest
	err := L.PCall(nargs, nret, c.fn)
	c.b.nest = nest
	return err
}

// at prefixes msg with where the last error happened, when known: for
// the errors that carry no position of their own (the budget's, memory).
func (c *catcher) at(msg string) string {
	if c.where == "" {
		return msg
	}
	return c.where + ": " + msg
}

// handle is called with the error object while the failed frames are
// still there. It closes their upvalues (gopher-lua leaves them open when
// there is a handler, pcall.go), notes where the error happened and
// rewords a runtime error of the failed instruction as Lua 5.1 does.
func (c *catcher) handle(L *lua.LState) int {
	closeUpvalues(L, c.base)
	failed := current(L).Parent // the handler runs in a frame of its own
	c.where, c.trace = traceback(L, failed, c.base)
	v := L.Get(1)
	if s, ok := v.(lua.LString); ok {
		v = lua.LString(reword(L, failed, string(s)))
	}
	L.Push(v)
	return 1
}

// traceback lists the Lua frames of f and its callers down to the frame
// at register base, innermost first, at most traceDepth of them, as
// "file:line: in function 'name'"; where is the innermost one's
// "file:line". Go frames (builtins) are left out: what a player can fix is
// in the Lua frames.
func traceback(L *lua.LState, f *frame, base int) (where string, trace []string) {
	for ; f != nil && f.Base >= base && len(trace) < traceDepth; f = f.Parent {
		if f.Fn == nil || f.Fn.IsG || f.Fn.Proto == nil {
			continue
		}
		pos := framePosition(f)
		if where == "" {
			where = pos
		}
		trace = append(trace, pos+": in "+functionName(L, f))
	}
	return where, trace
}

// framePosition is the "file:line" of the instruction f is running.
func framePosition(f *frame) string {
	p := f.Fn.Proto
	line := p.LineDefined
	if pc := f.Pc - 1; pc >= 0 && pc < len(p.DbgSourcePositions) {
		line = p.DbgSourcePositions[pc]
	}
	return p.SourceName + ":" + strconv.Itoa(line)
}

// functionName names the function f runs as Lua 5.1's traceback does:
// after the variable its caller called ("function 'helper'"), else by
// where it is defined ("function <file:3>"); a file's top level is its
// "main chunk".
func functionName(L *lua.LState, f *frame) string {
	p := f.Fn.Proto
	if p.LineDefined == 0 {
		return "main chunk"
	}
	if kind, name := callerName(L, f); kind != "" {
		return "function '" + name + "'"
	}
	return "function <" + p.SourceName + ":" + strconv.Itoa(p.LineDefined) + ">"
}

// callerName names the function f runs after what its Lua caller called:
// the variable in the called register of the caller's CALL.
func callerName(L *lua.LState, f *frame) (kind, name string) {
	c := f.Parent
	if f.TailCall > 0 {
		return "", "" // the caller's frame is gone: Lua says "(tail call)"
	}
	if c == nil || c.Fn == nil || c.Fn.IsG || c.Pc < 1 {
		return "", ""
	}
	inst := c.Fn.Proto.Code[c.Pc-1]
	if op := int(inst >> 26); op != lua.OP_CALL && op != lua.OP_TAILCALL {
		return "", "" // a metamethod, an iterator: Lua does not name them either
	}
	return variableName(L, c, argA(inst))
}

// reword turns gopher-lua's message for a runtime error of the
// instruction f was running into Lua 5.1's, naming the operand. Any other
// message (error(), a builtin's, the budget's) is returned as it is.
func reword(L *lua.LState, f *frame, msg string) string {
	if f == nil || f.Fn == nil || f.Fn.IsG || f.Pc < 1 {
		return msg
	}
	prefix := framePosition(f) + ": "
	text, ok := strings.CutPrefix(msg, prefix)
	if !ok {
		return msg
	}
	inst := f.Fn.Proto.Code[f.Pc-1]
	r := regs(L)
	reg := func(i int) lua.LValue {
		if j := f.LocalBase + i; j < len(r.array) && r.array[j] != nil {
			return r.array[j]
		}
		return lua.LNil
	}
	// typeError names register i, holding v, as Lua names it.
	typeError := func(what string, i int) string {
		kind, name := variableName(L, f, i)
		return typeErrorText(what, kind, name, reg(i))
	}
	switch op := int(inst >> 26); op {
	case lua.OP_CALL, lua.OP_TAILCALL:
		if text == "attempt to call a non-function object" {
			return prefix + typeError("call", argA(inst))
		}
	case lua.OP_GETTABLEKS, lua.OP_SETTABLEKS:
		typ, ok := strings.CutPrefix(text, "attempt to index a non-table object(")
		if !ok {
			break
		}
		typ, _, _ = strings.Cut(typ, ")")
		obj := argB(inst)
		if op == lua.OP_SETTABLEKS {
			obj = argA(inst)
		}
		if reg(obj).Type().String() != typ { // a metatable's __index, not the variable
			return prefix + "attempt to index a " + typ + " value"
		}
		return prefix + typeError("index", obj)
	case lua.OP_ADD, lua.OP_SUB, lua.OP_MUL, lua.OP_DIV, lua.OP_MOD, lua.OP_POW, lua.OP_UNM:
		if !strings.HasPrefix(text, "cannot perform ") && text != "__unm undefined" {
			break
		}
		// Lua names the first operand that is not a number.
		x := argB(inst)
		if op != lua.OP_UNM && isArithOperand(rkValue(f, reg, x)) {
			x = argC(inst)
		}
		if x&0x100 != 0 {
			return prefix + typeErrorText("perform arithmetic on", "", "", rkValue(f, reg, x))
		}
		return prefix + typeError("perform arithmetic on", x)
	case lua.OP_LT, lua.OP_LE:
		a, b, ok := strings.Cut(strings.TrimPrefix(text, "attempt to compare "), " with ")
		if ok && a == b {
			return prefix + "attempt to compare two " + a + " values"
		}
	}
	return msg
}

// rkValue is an RK operand of f's instruction.
func rkValue(f *frame, reg func(int) lua.LValue, x int) lua.LValue {
	if v := rkConst(f.Fn.Proto, x); v != nil {
		return v
	}
	return reg(x)
}

// isArithOperand reports whether v takes part in arithmetic: a number or
// a string that reads as one.
func isArithOperand(v lua.LValue) bool {
	switch v := v.(type) {
	case lua.LNumber:
		return true
	case lua.LString:
		_, ok := parseNumber(string(v))
		return ok
	}
	return false
}
