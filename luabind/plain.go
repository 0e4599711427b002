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
type plainTable struct {
	keys, vals []any
}

// Bounds on one copied value, so a script cannot make the other side
// allocate without end or recurse forever.
const (
	maxPlainDepth   = 32
	maxPlainEntries = 1 << 20
)

var errNotPlain = errors.New("not plain data")

// plainCopier turns Lua values into plain Go values, counting entries.
type plainCopier struct {
	entries int
	seen    map[*lua.LTable]bool
}

func toPlain(v lua.LValue) (any, error) {
	c := plainCopier{seen: map[*lua.LTable]bool{}}
	return c.value(v, 0)
}

func (c *plainCopier) value(v lua.LValue, depth int) (any, error) {
	switch x := v.(type) {
	case *lua.LNilType:
		return nil, nil
	case lua.LBool:
		return bool(x), nil
	case lua.LNumber:
		return float64(x), nil
	case lua.LString:
		return string(x), nil
	case *lua.LTable:
		if depth >= maxPlainDepth {
			return nil, fmt.Errorf("%w: tables nested more than %d deep", errNotPlain, maxPlainDepth)
		}
		if c.seen[x] {
			return nil, fmt.Errorf("%w: a table contains itself", errNotPlain)
		}
		c.seen[x] = true
		defer delete(c.seen, x)
		t := &plainTable{}
		for k, val := x.Next(lua.LNil); k != lua.LNil; k, val = x.Next(k) {
			c.entries++
			if c.entries > maxPlainEntries {
				return nil, fmt.Errorf("%w: more than %d table entries", errNotPlain, maxPlainEntries)
			}
			pk, err := c.value(k, depth+1)
			if err != nil {
				return nil, err
			}
			pv, err := c.value(val, depth+1)
			if err != nil {
				return nil, err
			}
			t.keys = append(t.keys, pk)
			t.vals = append(t.vals, pv)
		}
		return t, nil
	default:
		return nil, fmt.Errorf("%w: a %s value", errNotPlain, v.Type())
	}
}

// fromPlain builds the Lua value of a plain value in L.
func fromPlain(L *lua.LState, v any) lua.LValue {
	switch x := v.(type) {
	case nil:
		return lua.LNil
	case bool:
		return lua.LBool(x)
	case float64:
		return lua.LNumber(x)
	case int:
		return lua.LNumber(x)
	case string:
		return lua.LString(x)
	case *plainTable:
		arr := 0
		for arr < len(x.keys) {
			if f, ok := x.keys[arr].(float64); !ok || f != float64(arr+1) {
				break
			}
			arr++
		}
		t := L.CreateTable(arr, len(x.keys)-arr)
		for i, k := range x.keys {
			t.RawSet(fromPlain(L, k), fromPlain(L, x.vals[i]))
		}
		return t
	}
	return lua.LNil
}

// plainSize estimates the entries of a plain value, to charge its copy.
func plainSize(v any) int {
	t, ok := v.(*plainTable)
	if !ok {
		return 1
	}
	n := 1
	for i := range t.keys {
		n += plainSize(t.keys[i]) + plainSize(t.vals[i])
	}
	return n
}
