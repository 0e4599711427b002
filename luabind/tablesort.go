package luabind

import (
	lua "github.com/yuin/gopher-lua"
)

// table.sort, as Lua 5.1 sorts.
//
// The algorithm is Lua 5.1's own quicksort (ltablib.c, auxsort): the same
// comparisons in the same order, so a list with equal elements ends in the
// order Lua 5.1 leaves it, and an inconsistent comparator (one that says
// a < b and b < a) is caught the way Lua catches it, "invalid order
// function for sorting", instead of running off the list. It sorts a copy
// of the list and writes it back at the end.
//
// Charges: reading and writing the list, before starting; then each
// comparison before it is made: a call of the script's comparator costs an
// instruction for the call itself (its own instructions are counted as it
// runs), a built-in comparison costs 1/comparesPerInstruction, plus the
// bytes of the shorter string when two strings are compared.

const comparesPerInstruction = 8

// tableSort is table.sort(t [, comp]).
func (tm *Team) tableSort(L *lua.LState) int {
	t := checkTable(L, 1)
	var comp *lua.LFunction
	if L.Get(2) != lua.LNil {
		comp = checkFunction(L, 2)
	}
	n := tm.checkedBorder(L, t)
	if n < 2 {
		return 0
	}
	tm.charge(L, 2*listReadCost(1, n))
	// a[0] and a[n+1] stay nil: Lua's loops may read one place past either
	// end before they notice a broken comparator.
	a := make([]lua.LValue, n+2)
	a[0], a[n+1] = lua.LNil, lua.LNil
	for k := 1; k <= n; k++ {
		a[k] = listAt(t, k)
	}
	s := &luaSorter{L: L, comp: comp, a: a, m: meter{tm: tm, L: L}}
	s.sort(1, n)
	for k := 1; k <= n; k++ {
		t.RawSetInt(k, a[k])
	}
	return 0
}

type luaSorter struct {
	L    *lua.LState
	comp *lua.LFunction
	a    []lua.LValue // 1-based, with a nil at each end
	m    meter
}

// less is a < b, by the comparator or by Lua's < (metamethods included).
func (s *luaSorter) less(a, b lua.LValue) bool {
	L := s.L
	if s.comp != nil {
		s.m.instructions(1)
		L.Push(s.comp)
		L.Push(a)
		L.Push(b)
		L.Call(2, 1)
		r := lua.LVAsBool(L.Get(-1))
		L.Pop(1)
		return r
	}
	s.m.add(1, comparesPerInstruction)
	switch x := a.(type) {
	case lua.LNumber:
		if y, ok := b.(lua.LNumber); ok {
			return x < y
		}
	case lua.LString:
		if y, ok := b.(lua.LString); ok {
			s.m.add(int64(min(len(x), len(y))), bytesPerInstruction)
			return x < y // Go's comparison: bytewise, and far faster than gopher-lua's
		}
	}
	return orderLess(L, a, b)
}

// orderLess is Lua 5.1's luaV_lessthan on two values that are not both
// numbers or both strings: values of one type with the same __lt
// metamethod are compared by it, anything else is Lua's order error. It
// runs inside table.sort, a C function in Lua 5.1, where luaG_runerror
// adds no position; gopher-lua's LessThan would say "attempt to compare
// table with table" and prefix the calling line.
func orderLess(L *lua.LState, a, b lua.LValue) bool {
	if a.Type() == b.Type() {
		mm := L.GetMetaField(a, "__lt")
		if mm != lua.LNil && mm == L.GetMetaField(b, "__lt") {
			if _, ok := mm.(*lua.LFunction); !ok && L.GetMetaField(mm, "__call") == lua.LNil {
				runError(L, "attempt to call a %s value", mm.Type().String())
			}
			L.Push(mm)
			L.Push(a)
			L.Push(b)
			L.Call(2, 1)
			r := lua.LVAsBool(L.Get(-1))
			L.Pop(1)
			return r
		}
	}
	runError(L, "%s", orderErrorText(a, b))
	return false
}

// orderErrorText is luaG_ordererror's message: "attempt to compare two
// table values" for two values whose type names share their third letter
// (in practice, the same type), else "attempt to compare number with nil".
func orderErrorText(a, b lua.LValue) string {
	t1, t2 := a.Type().String(), b.Type().String()
	if t1[2] == t2[2] {
		return "attempt to compare two " + t1 + " values"
	}
	return "attempt to compare " + t1 + " with " + t2
}

func (s *luaSorter) swap(i, j int) { s.a[i], s.a[j] = s.a[j], s.a[i] }

// sort is auxsort: it sorts a[l..u], recursing into the smaller part and
// looping on the larger, so the Go stack grows as log n at most.
func (s *luaSorter) sort(l, u int) {
	a := s.a
	for l < u {
		// Order a[l], a[(l+u)/2] and a[u]; the middle one is the pivot.
		if s.less(a[u], a[l]) {
			s.swap(l, u)
		}
		if u-l == 1 {
			return
		}
		i := (l + u) / 2
		if s.less(a[i], a[l]) {
			s.swap(i, l)
		} else if s.less(a[u], a[i]) {
			s.swap(i, u)
		}
		if u-l == 2 {
			return
		}
		p := a[i]
		s.swap(i, u-1)
		// a[l] <= p == a[u-1] <= a[u]: partition a[l+1..u-2].
		j := u - 1
		i = l
		for {
			for i++; s.less(a[i], p); i++ {
				if i > u {
					raise(s.L, "invalid order function for sorting")
				}
			}
			for j--; s.less(p, a[j]); j-- {
				if j < l {
					raise(s.L, "invalid order function for sorting")
				}
			}
			if j < i {
				break
			}
			s.swap(i, j)
		}
		s.swap(u-1, i)
		if i-l < u-i {
			j, i, l = l, i-1, i+1
		} else {
			j, i, u = i+1, u, i-1
		}
		s.sort(j, i)
	}
}
