package luabind

import (
	"math/bits"
	"sort"

	lua "github.com/yuin/gopher-lua"
)

// Table length and the table library.
//
// lua.MaxArrayIndex is kept small (see memory.go) so that one write far past
// the end of an array, and one `#` over a long run of nils, cost a bounded
// amount of Go work. Integer keys at or above it live in the hash part,
// where gopher-lua's own length operator and table library do not look. So
// `#` is rewritten into luaLen, and insert, remove, sort and getn are
// reimplemented on top of border, which also searches the hash part, the way
// Lua's own luaH_getn does.

// border returns a border of t: an n with t[n] ~= nil and t[n+1] == nil (0
// if t[1] is nil), the value Lua's `#` returns. The second result is the
// number of probes, for charging.
func border(t *lua.LTable) (int, int) {
	n := t.Len()
	if t.RawGet(lua.LNumber(n+1)) == lua.LNil {
		return n, 1
	}
	// Unbound search: double j until t[j] is nil, then bisect.
	i, j, probes := n+1, 2*(n+1), 1
	for t.RawGet(lua.LNumber(j)) != lua.LNil {
		i, j = j, j*2
		probes++
		if j > 1<<52 {
			break
		}
	}
	for j-i > 1 {
		m := i + (j-i)/2
		if t.RawGet(lua.LNumber(m)) == lua.LNil {
			j = m
		} else {
			i = m
		}
		probes++
	}
	return i, probes
}

// listLen is the length of a list the engine reads from Lua: LTable.Len
// alone stops at lua.MaxArrayIndex, where the hash part takes over, and
// would cut a long list short without a word.
func listLen(t *lua.LTable) int {
	n, _ := border(t)
	return n
}

// listLenOrZero is listLen of a list that may be missing (nil).
func listLenOrZero(t *lua.LTable) int {
	if t == nil {
		return 0
	}
	return listLen(t)
}

// listAt is t[i] for a list the engine reads from Lua. LTable.RawGetInt
// looks only in the array part, which ends at lua.MaxArrayIndex.
func listAt(t *lua.LTable, i int) lua.LValue {
	if i < lua.MaxArrayIndex {
		return t.RawGetInt(i)
	}
	return t.RawGet(lua.LNumber(i))
}

// ipairs replaces the base library's, whose iterator reads with RawGetInt
// and so stops at lua.MaxArrayIndex: a list of 3,000 entries would end at
// 1,023 without a word.
func ipairs(L *lua.LState) *lua.LFunction {
	next := L.NewFunction(func(L *lua.LState) int {
		t := L.CheckTable(1)
		i := L.CheckInt(2) + 1
		v := listAt(t, i)
		if v == lua.LNil {
			return 0
		}
		L.Push(lua.LNumber(i))
		L.Push(v)
		return 2
	})
	return L.NewFunction(func(L *lua.LState) int {
		L.Push(next)
		L.Push(L.CheckTable(1))
		L.Push(lua.LNumber(0))
		return 3
	})
}

// luaLen implements `#x` for rewritten scripts.
func (tm *Team) luaLen(L *lua.LState) int {
	switch v := L.Get(1).(type) {
	case lua.LString:
		L.Push(lua.LNumber(len(v)))
	case *lua.LTable:
		n, probes := border(v)
		tm.charge(L, int64(probes/8))
		L.Push(lua.LNumber(n))
	default:
		L.RaiseError("attempt to get length of a %s value", v.Type().String())
	}
	return 1
}

func (tm *Team) wrapTables(L *lua.LState, lib *lua.LTable) {
	lib.RawSetString("insert", L.NewFunction(tm.tableInsert))
	lib.RawSetString("remove", L.NewFunction(tm.tableRemove))
	lib.RawSetString("sort", L.NewFunction(tm.tableSort))
	lib.RawSetString("getn", L.NewFunction(tm.tableGetN))
	lib.RawSetString("concat", L.NewFunction(tm.tableConcat))
	maxn := lib.RawGetString("maxn").(*lua.LFunction)
	lib.RawSetString("maxn", L.NewFunction(func(L *lua.LState) int {
		t := L.CheckTable(1)
		tm.charge(L, int64(t.Len()/16))
		L.Push(maxn)
		L.Push(t)
		L.Call(1, 1)
		return 1
	}))
}

func (tm *Team) tableGetN(L *lua.LState) int {
	n, probes := border(L.CheckTable(1))
	tm.charge(L, int64(probes/8))
	L.Push(lua.LNumber(n))
	return 1
}

// tableInsert is table.insert(t, [pos,] value).
func (tm *Team) tableInsert(L *lua.LState) int {
	t := L.CheckTable(1)
	n, probes := border(t)
	switch L.GetTop() {
	case 2:
		tm.charge(L, int64(probes/8))
		t.RawSet(lua.LNumber(n+1), L.Get(2))
	case 3:
		pos := L.CheckInt(2)
		if pos < 1 || pos > n+1 {
			L.ArgError(2, "position out of bounds")
		}
		tm.charge(L, int64(probes/8+(n-pos)/16))
		for k := n; k >= pos; k-- {
			t.RawSet(lua.LNumber(k+1), t.RawGet(lua.LNumber(k)))
		}
		t.RawSet(lua.LNumber(pos), L.Get(3))
	default:
		L.RaiseError("wrong number of arguments to 'insert'")
	}
	return 0
}

// tableRemove is table.remove(t [, pos]).
func (tm *Team) tableRemove(L *lua.LState) int {
	t := L.CheckTable(1)
	n, probes := border(t)
	if n == 0 && L.GetTop() < 2 {
		return 0
	}
	pos := L.OptInt(2, n)
	if n == 0 || pos < 1 || pos > n {
		return 0
	}
	tm.charge(L, int64(probes/8+(n-pos)/16))
	v := t.RawGet(lua.LNumber(pos))
	for k := pos; k < n; k++ {
		t.RawSet(lua.LNumber(k), t.RawGet(lua.LNumber(k+1)))
	}
	t.RawSet(lua.LNumber(n), lua.LNil)
	L.Push(v)
	return 1
}

// tableSort is table.sort(t [, less]). The comparator runs as Lua code,
// under the budget; the Go-side sorting work is charged up front.
func (tm *Team) tableSort(L *lua.LState) int {
	t := L.CheckTable(1)
	var less *lua.LFunction
	if L.GetTop() >= 2 && L.Get(2) != lua.LNil {
		less = L.CheckFunction(2)
	}
	n, probes := border(t)
	if n < 2 {
		return 0
	}
	tm.charge(L, int64(probes/8)+int64(n)*int64(bits.Len64(uint64(n)))/4)
	vals := make([]lua.LValue, n)
	for k := range vals {
		vals[k] = t.RawGet(lua.LNumber(k + 1))
	}
	sort.Sort(&luaSorter{L: L, fn: less, vals: vals})
	for k, v := range vals {
		t.RawSet(lua.LNumber(k+1), v)
	}
	return 0
}

type luaSorter struct {
	L    *lua.LState
	fn   *lua.LFunction
	vals []lua.LValue
}

func (s *luaSorter) Len() int      { return len(s.vals) }
func (s *luaSorter) Swap(i, j int) { s.vals[i], s.vals[j] = s.vals[j], s.vals[i] }
func (s *luaSorter) Less(i, j int) bool {
	if s.fn == nil {
		return s.L.LessThan(s.vals[i], s.vals[j])
	}
	s.L.Push(s.fn)
	s.L.Push(s.vals[i])
	s.L.Push(s.vals[j])
	s.L.Call(2, 1)
	r := lua.LVAsBool(s.L.Get(-1))
	s.L.Pop(1)
	return r
}
