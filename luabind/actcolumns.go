package luabind

import (
	"fmt"
	"unsafe"

	lua "github.com/yuin/gopher-lua"

	"github.com/squarebattle/squarebattle/engine"
)

// Acts as columns: a squarebattle-protocol rules table that declares
// acts = "columns" gets resolve's acts as one table of six lists, square,
// team, cell, action, target and child, entry i of each being act i's
// (child is false for an act that does not replicate), instead of a table
// per act.
//
// Why: a rules script reads two to four fields of every act each round,
// and a field of a table is a lookup in a Go map while an entry of a list
// is an index into a slice; the engine, for its part, fills six slices
// instead of six map entries per act. squarebattle-lua spends most of its
// round on exactly this (docs/performance.md, "The VM core").
//
// The lists follow engineList's rule, and the table holding them the act
// tables' rule (acts.go): reused while the script leaves them as made,
// replaced by fresh ones otherwise.

// ActsTables and ActsColumns are the two values a rules table's acts field
// may have (left out, it is ActsTables).
const (
	ActsTables  = "tables"
	ActsColumns = "columns"
)

// actsForm reads the acts field of the rules table t (file names it in
// the error): whether resolve takes its acts as columns.
func actsForm(t *lua.LTable, file string) (columns bool, err error) {
	switch v := t.RawGetString("acts").(type) {
	case *lua.LNilType:
		return false, nil
	case lua.LString:
		switch string(v) {
		case ActsTables:
			return false, nil
		case ActsColumns:
			return true, nil
		}
	}
	return false, fmt.Errorf("%s: acts must be %q or %q, or left out", file, ActsTables, ActsColumns)
}

// actColumns holds the columns handed out last round.
type actColumns struct {
	outer pooledAct
	lists [len(actKeys)]engineList
	vals  [len(actKeys)][]lua.LValue
}

// fill returns the columns of acts; p boxes the numbers, actNames and
// childNames are the action and class names as Lua strings.
func (c *actColumns) fill(L *lua.LState, p *actPool, acts []engine.Act, actNames *[4]lua.LValue, childNames []lua.LValue) *lua.LTable {
	for k := range c.vals {
		c.vals[k] = c.vals[k][:0]
	}
	for _, a := range acts {
		var child lua.LValue = lua.LFalse
		if a.Child != engine.NoClass {
			child = childNames[a.Child]
		}
		c.vals[0] = append(c.vals[0], p.num(int(a.Square)))
		c.vals[1] = append(c.vals[1], p.num(a.Team))
		c.vals[2] = append(c.vals[2], p.num(a.Cell))
		c.vals[3] = append(c.vals[3], actNames[a.Action])
		c.vals[4] = append(c.vals[4], p.num(a.Target))
		c.vals[5] = append(c.vals[5], child)
	}
	var lists [len(actKeys)]lua.LValue
	for k := range lists {
		lists[k] = c.lists[k].fill(L, c.vals[k])
	}
	if c.outer.t != nil && intactAct(c.outer, len(actKeys)) {
		m := (*lTable)(unsafe.Pointer(c.outer.t))
		for k, key := range actKeys {
			m.strdict[key] = lists[k]
		}
		return c.outer.t
	}
	t := L.CreateTable(0, len(actKeys))
	for k, key := range actKeys {
		t.RawSetString(key, lists[k])
	}
	c.outer = pooledAct{t: t}
	if tableLayoutOK {
		c.outer.keys = unsafe.SliceData((*lTable)(unsafe.Pointer(t)).keys)
	}
	return t
}
