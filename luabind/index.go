package luabind

import (
	lua "github.com/yuin/gopher-lua"
)

// Indexing: GETTABLE, SETTABLE and SELF.
//
// Two things are done before gopher-lua's entry runs. A string key is
// hashed (and, on a hit, compared) in every table the lookup visits, so a
// long key is charged per byte and per table. And a lookup that would end
// on a value that cannot be indexed (nil, a boolean, a number, a function,
// or a table's __index that is one of these) is refused here with Lua
// 5.1's message: gopher-lua's own ("attempt to index a non-table
// object(nil) with key 'table: 0x…'") prints the key with String(), which
// for a table or function key is a Go heap address, different from run to
// run: the same seed would give a different battle once a script pcalls
// it and keys on the text.

// indexOp wraps GETTABLE, SETTABLE or SELF.
func (b *budget) indexOp(op int, orig instFunc) instFunc {
	return func(L *lua.LState, inst uint32, baseframe *frame) int {
		cf, r := current(L), regs(L)
		var obj, key lua.LValue
		if op == lua.OP_SETTABLE {
			obj, key = r.array[cf.LocalBase+argA(inst)], rk(cf, r, argB(inst))
		} else {
			obj, key = r.array[cf.LocalBase+argB(inst)], rk(cf, r, argC(inst))
		}
		if op == lua.OP_SETTABLE && b.team != nil {
			if t, ok := obj.(*lua.LTable); ok {
				if _, ok := key.(lua.LNumber); ok {
					b.team.chargeGap(L, t, key) // see gap.go
				}
			}
		}
		// The common case: a table of its own, no metatable.
		if t, ok := obj.(*lua.LTable); ok && isNil(t.Metatable) {
			if s, ok := key.(lua.LString); ok && len(s) >= bytesPerInstruction/2 {
				b.take(L, 2*int64(len(s))/bytesPerInstruction)
			}
			if RA := cf.LocalBase + argA(inst); op == lua.OP_GETTABLE && RA < len(r.array) {
				// What gopher-lua would do, without reading the operands again.
				r.array[RA] = t.RawGet(key)
				if RA >= r.top {
					r.top = RA + 1
				}
				return 0
			}
			return orig(L, inst, baseframe)
		}
		b.checkIndex(L, op, inst, obj, key)
		return orig(L, inst, baseframe)
	}
}

// checkIndex walks the lookup gopher-lua is about to make, charging a long
// key per table visited, and raises Lua's error when the lookup would end
// on a value that cannot be indexed.
//
//go:noinline
func (b *budget) checkIndex(L *lua.LState, op int, inst uint32, obj, key lua.LValue) {
	event := "__index"
	if op == lua.OP_SETTABLE {
		event = "__newindex"
	}
	var perTable int64 // bytes hashed or compared per table visited, twice over: here and in gopher-lua
	if s, ok := key.(lua.LString); ok {
		perTable = 4 * int64(len(s))
		if op == lua.OP_SETTABLE {
			perTable += 2 * int64(len(s))
		}
	}
	cur := obj
	for range lua.MaxTableGetLoop { // as many tables as gopher-lua follows

		if cur == nil {
			cur = lua.LNil
		}
		t, isTable := cur.(*lua.LTable)
		if isTable {
			b.take(L, perTable/bytesPerInstruction)
			if t.RawGet(key) != lua.LNil {
				return
			}
		}
		next := L.GetMetaField(cur, event)
		if next == lua.LNil {
			if !isTable {
				L.RaiseError("%s", indexError(L, op, inst, obj, cur))
			}
			return
		}
		if next.Type() == lua.LTFunction {
			return
		}
		cur = next
	}
}

// indexError words the refusal as Lua 5.1 does: "attempt to index local
// 'p' (a nil value)" when the indexed value is a named local, global,
// field or upvalue, else "attempt to index a nil value". The value's type
// is named, never the value itself.
func indexError(L *lua.LState, op int, inst uint32, obj, bad lua.LValue) string {
	what := "a " + bad.Type().String() + " value"
	if bad != obj {
		return "attempt to index " + what // a metatable's __index, not a variable
	}
	reg := argB(inst)
	if op == lua.OP_SETTABLE {
		reg = argA(inst)
	}
	if kind, name := variableName(L, current(L), reg); name != "" {
		return "attempt to index " + kind + " '" + name + "' (" + what + ")"
	}
	return "attempt to index " + what
}
