package luabind

import (
	"errors"
	"fmt"

	lua "github.com/yuin/gopher-lua"
)

// Values cross between Lua states (a rule mod's rules and its players) as
// plain data: nil, booleans, numbers, strings and tables of those, copied
// through Go. A table may not share a state with another (gopher-lua
// crashes when it does), so nothing is passed by reference.
//
// A plain table keeps its entries in the order Lua's next gave them, which
// is insertion order and so deterministic; the copy is rebuilt in that order.
//
// Plain scalars are the Lua values themselves (lua.LNumber, LString, LBool;
// LNil is nil at the top): they are immutable, so any state may hold them,
// and keeping them as they are spares boxing them again on both sides.
type plainTable struct {
	keys, vals []any // lua.LValue scalars or *plainTable
	arr        int   // keys[:arr] are 1, 2, ... arr: the array part
	strs       int   // string keys, to size the copy's hash part
	size       int   // plainSize of the table
	entries    int   // entries copied for it, nested tables included
	height     int   // tables nested in it, itself included
	// constant tables were declared unchanging by the rules
	// (game.constant): each team VM builds its copy once and keeps it.
	constant bool
}

// Bounds on one copied value, so a script cannot make the other side
// allocate without end or recurse forever.
const (
	maxPlainDepth   = 32
	maxPlainEntries = 1 << 20
)

var errNotPlain = errors.New("not plain data")

// plainCopier turns Lua values into plain Go values, counting entries. A
// table met again (the same canvas in four teams' views) is copied once:
// done keeps the copies made, which stay valid as long as the Lua tables
// are not changed, so one copier serves one batch of values read together.
//
// limit bounds the entries of one value (maxPlainEntries unless the caller
// has less budget to pay for them). A table met again counts all its
// entries again: the other side builds it again (fromPlain makes a tree of
// a shared table), so that is what it costs.
//
// consts, when not nil, holds tables copied once for good (the rules'
// game.constant tables): they are found there as in done, without being
// copied into done for every batch.
type plainCopier struct {
	entries int
	limit   int
	seen    map[*lua.LTable]bool
	done    map[*lua.LTable]*plainTable
	consts  map[*lua.LTable]*plainTable
}

func newPlainCopier() *plainCopier {
	return &plainCopier{limit: maxPlainEntries, seen: map[*lua.LTable]bool{}, done: map[*lua.LTable]*plainTable{}}
}

func toPlain(v lua.LValue) (any, error) {
	return newPlainCopier().plain(v)
}

// plain copies one value; its entries are counted afresh.
func (c *plainCopier) plain(v lua.LValue) (any, error) {
	c.entries = 0
	p, err := c.value(v, 0)
	if p == lua.LNil {
		p = nil
	}
	return p, err
}

func (c *plainCopier) value(v lua.LValue, depth int) (any, error) {
	switch x := v.(type) {
	case *lua.LNilType, lua.LBool, lua.LNumber, lua.LString:
		return v, nil
	case *lua.LTable:
		t, ok := c.done[x]
		if !ok && c.consts != nil {
			t, ok = c.consts[x]
		}
		if ok {
			if depth+t.height > maxPlainDepth {
				return nil, fmt.Errorf("%w: tables nested more than %d deep", errNotPlain, maxPlainDepth)
			}
			if c.entries += t.entries; c.entries > c.limit {
				return nil, c.tooMany()
			}
			return t, nil
		}
		if depth >= maxPlainDepth {
			return nil, fmt.Errorf("%w: tables nested more than %d deep", errNotPlain, maxPlainDepth)
		}
		if c.seen[x] {
			return nil, fmt.Errorf("%w: a table contains itself", errNotPlain)
		}
		c.seen[x] = true
		defer delete(c.seen, x)
		first := c.entries
		t = &plainTable{size: 1, height: 1}
		for k, val := x.Next(lua.LNil); k != lua.LNil; k, val = x.Next(k) {
			c.entries++
			if c.entries > c.limit {
				return nil, c.tooMany()
			}
			pk, err := c.value(k, depth+1)
			if err != nil {
				return nil, err
			}
			pv, err := c.value(val, depth+1)
			if err != nil {
				return nil, err
			}
			t.add(pk, pv)
		}
		t.entries = c.entries - first
		c.done[x] = t
		return t, nil
	default:
		return nil, fmt.Errorf("%w: a %s value", errNotPlain, v.Type())
	}
}

// add appends an entry and keeps the table's summary up to date: its
// array part (keys 1, 2, ... from the first entry on), string keys, size
// and height.
func (t *plainTable) add(k, v any) {
	if n, ok := k.(lua.LNumber); ok && t.arr == len(t.keys) && n == lua.LNumber(t.arr+1) {
		t.arr++
	}
	if _, ok := k.(lua.LString); ok {
		t.strs++
	}
	t.size += sizeOf(k) + sizeOf(v)
	for _, x := range [2]any{k, v} {
		if pt, ok := x.(*plainTable); ok {
			t.height = max(t.height, pt.height+1)
		}
	}
	t.keys = append(t.keys, k)
	t.vals = append(t.vals, v)
}

func (c *plainCopier) tooMany() error {
	if c.limit < maxPlainEntries {
		return fmt.Errorf("%w: more than %d table entries (what is left of the budget pays for)", errNotPlain, c.limit)
	}
	return fmt.Errorf("%w: more than %d table entries", errNotPlain, maxPlainEntries)
}

// plainBytes estimates the Go memory a plain table holds: two interfaces
// per entry and the table's header, nested tables included.
func plainBytes(t *plainTable) int64 { return 64 + 40*int64(t.entries) }

// fromPlain builds the Lua value of a plain value in L.
func fromPlain(L *lua.LState, v any) lua.LValue { return fromPlainKept(L, v, nil, nil) }

// fromPlainKept is fromPlain that builds each constant table once: kept
// holds the copies already made in L (nil: no keeping). built, when not
// nil, counts the entries it built, for charging.
func fromPlainKept(L *lua.LState, v any, kept map[*plainTable]*lua.LTable, built *int64) lua.LValue {
	return fromPlainIn(L, v, kept, false, built)
}

// fromPlainShared is fromPlain that builds every table once, whatever the
// number of places it appears in: the copy keeps the sharing the original
// had. shared holds the tables built so far.
func fromPlainShared(L *lua.LState, v any, shared map[*plainTable]*lua.LTable, built *int64) lua.LValue {
	return fromPlainIn(L, v, shared, true, built)
}

// fromPlainIn builds v in L; a table found in kept is reused, and a table
// built is added to kept when it is constant or all is set. Each long
// string gets bytes of its own (ownString), so that the copy is the same
// to the census whether v was copied in this process or decoded.
func fromPlainIn(L *lua.LState, v any, kept map[*plainTable]*lua.LTable, all bool, built *int64) lua.LValue {
	switch x := v.(type) {
	case nil:
		return lua.LNil
	case *plainTable:
		keep := (x.constant || all) && kept != nil
		if keep {
			if t, ok := kept[x]; ok {
				return t
			}
		}
		t := L.CreateTable(min(x.arr, lua.MaxArrayIndex-1), x.strs)
		if built != nil {
			*built += 1 + int64(len(x.keys))
		}
		for i, k := range x.keys {
			val := x.vals[i]
			switch v := val.(type) {
			case *plainTable:
				val = fromPlainIn(L, v, kept, all, built)
			case lua.LString:
				val = ownString(string(v)) // census.go: not the sender's bytes
			}
			switch kk := k.(type) {
			case *plainTable:
				k = fromPlainIn(L, kk, kept, all, built)
			case lua.LString:
				k = ownString(string(kk))
			}
			t.RawSet(k.(lua.LValue), val.(lua.LValue))
		}
		if keep {
			kept[x] = t
		}
		return t
	case lua.LString:
		return ownString(string(x))
	case lua.LValue:
		return x
	case bool:
		return lua.LBool(x)
	case float64:
		return lua.LNumber(x)
	case int:
		return lua.LNumber(x)
	case string:
		return ownString(x)
	}
	return lua.LNil
}

// sizeOf is plainSize of an element of a plain table.
func sizeOf(v any) int {
	if t, ok := v.(*plainTable); ok {
		return t.size
	}
	return 1
}

// plainSize estimates the entries of a plain value, to charge its copy.
func plainSize(v any) int { return sizeOf(v) }
