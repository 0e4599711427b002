package luabind

import (
	"strings"
	"unsafe"

	lua "github.com/yuin/gopher-lua"
)

// Table length and the table library.
//
// lua.MaxArrayIndex is kept small (see memory.go) so that one write far past
// the end of an array, and one `#` over a long run of nils, cost a bounded
// amount of Go work. Integer keys at or above it live in the hash part,
// where gopher-lua's own length operator and table library do not look. So
// LEN is wrapped (lenOp), and insert, remove, sort and getn are
// reimplemented on top of border, which also searches the hash part, the way
// Lua's own luaH_getn does.

// border returns a border of t: an n with t[n] ~= nil and t[n+1] == nil (0
// if t[1] is nil), the value Lua's `#` returns. Its work is charged to b
// as it goes, each step before it is taken, so that no table, however
// crafted, makes it cost more than was charged: the walk back over the
// nils that end the array part at keysPerInstruction slots an instruction
// (at most lua.MaxArrayIndex of them), then the probes of the search that
// goes on in the hash part at probesPerInstruction a charge (about a
// hundred at most). The first slots and probes are covered by the
// instruction that asked. b is nil only for the engine reading a list a
// script returned, whose work the same two bounds limit.
func border(L *lua.LState, b *budget, t *lua.LTable) int {
	n := arrayBorder(L, b, t)
	probes := 1
	if listAt(t, n+1) == lua.LNil {
		return n
	}
	// Unbound search: double j until t[j] is nil, then bisect.
	i, j := n+1, 2*(n+1)
	for {
		if probes++; b != nil && probes%probesPerInstruction == 0 {
			b.take(L, 1)
		}
		if listAt(t, j) == lua.LNil {
			break
		}
		i, j = j, j*2
		if j > 1<<52 {
			break
		}
	}
	for j-i > 1 {
		if probes++; b != nil && probes%probesPerInstruction == 0 {
			b.take(L, 1)
		}
		m := i + (j-i)/2
		if listAt(t, m) == lua.LNil {
			j = m
		} else {
			i = m
		}
	}
	return i
}

// arrayBorder is the last non-nil slot of t's array part (0 when there is
// none), as LTable.Len finds it, with the walk back over trailing nils
// charged to b before each slot it reads past the first few.
func arrayBorder(L *lua.LState, b *budget, t *lua.LTable) int {
	if !tableLayoutOK {
		return t.Len() // at most lua.MaxArrayIndex slots
	}
	a := (*lTable)(unsafe.Pointer(t)).array
	n := len(a)
	for read := 1; n > 0 && a[n-1] == lua.LNil; read++ {
		if b != nil && read%keysPerInstruction == 0 {
			b.take(L, 1)
		}
		n--
	}
	return n
}

// listLen is the length of a list the engine reads from Lua: LTable.Len
// alone stops at lua.MaxArrayIndex, where the hash part takes over, and
// would cut a long list short without a word.
func listLen(t *lua.LTable) int {
	return border(nil, nil, t)
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
	if i >= 1 && i < lua.MaxArrayIndex {
		return t.RawGetInt(i)
	}
	return t.RawGet(lua.LNumber(i))
}

// What reading a list's entries costs. Entries below lua.MaxArrayIndex sit
// in the array part: a slice read, valuesPerInstruction of them an
// instruction. The rest of a long list sits in the hash part, where each
// entry is a map lookup with a boxed number key: 24 ns measured on a list
// of 4,000 (more on huge ones, as for GETTABLE), about a VM instruction's
// time, and hashEntriesPer16 is how many sixteenths of an instruction one
// costs.
const (
	hashEntriesPer16     = 16
	probesPerInstruction = 8 // border's probes, array or hash
)

// listReadCost is the charge for reading entries i..j of a list.
func listReadCost(i, j int) int64 {
	if j < i {
		return 0
	}
	lo, hi := max(int64(i), 1), min(int64(j), int64(lua.MaxArrayIndex-1))
	inArray := max(hi-lo+1, 0)
	inHash := int64(j) - int64(i) + 1 - inArray
	return (inArray + inHash*hashEntriesPer16) / valuesPerInstruction
}

// listMoveCost is the charge for moving entries i..j of a list by one
// place: each is read and written.
func listMoveCost(i, j int) int64 {
	return 2 * listReadCost(i, j)
}

// ipairs replaces the base library's, whose iterator reads with RawGetInt
// and so stops at lua.MaxArrayIndex: a list of 3,000 entries would end at
// 1,023 without a word.
func ipairs(L *lua.LState) *lua.LFunction {
	next := L.NewFunction(func(L *lua.LState) int {
		t := checkTable(L, 1)
		i := intArg(L, 2) + 1
		v := listAt(t, i)
		if v == lua.LNil {
			return 0
		}
		L.Push(lua.LNumber(i))
		L.Push(v)
		return 2
	})
	return L.NewFunction(func(L *lua.LState) int {
		t := checkTable(L, 1) // before anything is pushed: argument 1 is the caller's
		L.Push(next)
		L.Push(t)
		L.Push(lua.LNumber(0))
		return 3
	})
}

// lenOp wraps LEN, Lua 5.1's `#`: a string's length, a table's border
// (border, which charges its walk before taking it, and searches the hash
// part too; a table's __len is not consulted, as in Lua 5.1), anything
// else refused in Lua's words, naming the variable. gopher-lua's own entry
// would walk the array part uncharged, stop at lua.MaxArrayIndex and call
// __len. The plain cases take fastLen (fastops.go) first.
func (b *budget) lenOp(orig instFunc, nums *numAlloc) instFunc {
	return func(L *lua.LState, inst uint32, baseframe *frame) int {
		cf, r := current(L), regs(L)
		RA := cf.LocalBase + argA(inst)
		if RA >= len(r.array) {
			// Never seen: a frame's registers are allocated when it is
			// entered. gopher-lua's entry grows the register file.
			return orig(L, inst, baseframe)
		}
		var n int
		switch v := r.array[cf.LocalBase+argB(inst)].(type) {
		case lua.LString:
			n = len(v)
		case *lua.LTable:
			n = border(L, b, v)
		default:
			kind, name := variableName(L, cf, argB(inst)) // errnames.go
			L.RaiseError("%s", typeErrorText("get length of", kind, name, v))
		}
		r.array[RA] = nums.box(float64(n))
		if RA >= r.top {
			r.top = RA + 1
		}
		return 0
	}
}

// luaLen implements `#x` for scripts compiled with `#` rewritten into a
// call (compile.go), which happens only when the counted loop, and so the
// LEN opcode's own wrapper (lenOp), is off.
func (tm *Team) luaLen(L *lua.LState) int {
	switch v := L.Get(1).(type) {
	case lua.LString:
		L.Push(lua.LNumber(len(v)))
	case *lua.LTable:
		L.Push(lua.LNumber(tm.checkedBorder(L, v)))
	default:
		kind, name := argumentName(L, 1) // errnames.go
		L.RaiseError("%s", typeErrorText("get length of", kind, name, v))
	}
	return 1
}

// wrapTables replaces the table library's functions with the project's:
// each charged by the entries it reads or moves, the comparisons it makes
// and the bytes it copies, before doing it.
func (tm *Team) wrapTables(L *lua.LState, lib *lua.LTable) {
	lib.RawSetString("insert", L.NewFunction(tm.tableInsert))
	lib.RawSetString("remove", L.NewFunction(tm.tableRemove))
	lib.RawSetString("sort", L.NewFunction(tm.tableSort))
	lib.RawSetString("getn", L.NewFunction(tm.tableGetN))
	lib.RawSetString("concat", L.NewFunction(tm.tableConcat))
	lib.RawSetString("maxn", L.NewFunction(tm.tableMaxN))
}

// checkedBorder is border(t), its work charged.
func (tm *Team) checkedBorder(L *lua.LState, t *lua.LTable) int {
	return border(L, &tm.budget, t)
}

func (tm *Team) tableGetN(L *lua.LState) int {
	L.Push(lua.LNumber(tm.checkedBorder(L, checkTable(L, 1))))
	return 1
}

// tableInsert is table.insert(t, [pos,] value) as in Lua 5.1: a position
// past the end just sets t[pos]; one before 1 moves the whole list up, as
// Lua 5.1's loop does (and is charged for it).
func (tm *Team) tableInsert(L *lua.LState) int {
	t := checkTable(L, 1)
	e := tm.checkedBorder(L, t) + 1
	switch L.GetTop() {
	case 2:
		t.RawSetInt(e, L.Get(2))
	case 3:
		pos := intArg(L, 2)
		if pos < e {
			tm.charge(L, listMoveCost(pos, e-1))
			shiftUp(t, pos, e)
		}
		t.RawSetInt(pos, L.Get(3))
	default:
		raise(L, "wrong number of arguments to 'insert'")
	}
	return 0
}

// tableRemove is table.remove(t [, pos]).
func (tm *Team) tableRemove(L *lua.LState) int {
	t := checkTable(L, 1)
	e := tm.checkedBorder(L, t)
	pos := optIntArg(L, 2, e)
	if pos < 1 || pos > e {
		return 0
	}
	tm.charge(L, listMoveCost(pos+1, e))
	v := listAt(t, pos)
	shiftDown(t, pos, e)
	t.RawSetInt(e, lua.LNil)
	if tableLayoutOK {
		// Drop the emptied last slot of the array part, as gopher-lua's own
		// remove does: trailing nils would make every later `#` walk back
		// over them, and a queue emptied by remove(t, 1) quadratic.
		if m := (*lTable)(unsafe.Pointer(t)); e == len(m.array) {
			m.array = m.array[:e-1]
		}
	}
	L.Push(v)
	return 1
}

// shiftDown does t[k] = t[k+1] for k = from .. to-1, in that order, with
// from >= 1. The part inside the array part is one copy.
func shiftDown(t *lua.LTable, from, to int) {
	k := from
	if tableLayoutOK {
		a := (*lTable)(unsafe.Pointer(t)).array
		if hi := min(to, len(a)); k < hi {
			copy(a[k-1:hi-1], a[k:hi])
			k = hi
		}
	}
	for ; k < to; k++ {
		t.RawSetInt(k, listAt(t, k+1))
	}
}

// shiftUp does t[i] = t[i-1] for i = to down to from+1, in that order.
// Once the remaining destinations are all inside the array part, the rest
// is one copy.
func shiftUp(t *lua.LTable, from, to int) {
	for i := to; i > from; i-- {
		if tableLayoutOK && from >= 1 {
			if a := (*lTable)(unsafe.Pointer(t)).array; i <= len(a) {
				copy(a[from:i], a[from-1:i-1])
				return
			}
		}
		t.RawSetInt(i, listAt(t, i-1))
	}
}

// tableConcat is table.concat(t [, sep [, i [, j]]]). The entries read are
// charged before any is read, numbers as they are formatted, and the bytes
// of the result, checked against limits.string_bytes, before it is built.
func (tm *Team) tableConcat(L *lua.LState) int {
	sep := "" // read before the table, as Lua 5.1's tconcat does
	if L.Get(2) != lua.LNil {
		s, ok := valueString(L.Get(2))
		if !ok {
			typeError(L, 2, "string")
		}
		sep = s
	}
	t := checkTable(L, 1)
	i := optIntArg(L, 3, 1)
	var j int
	if L.Get(4) == lua.LNil {
		j = tm.checkedBorder(L, t)
	} else {
		j = intArg(L, 4)
	}
	if i > j {
		L.Push(lua.LString(""))
		return 1
	}
	tm.charge(L, listReadCost(i, j))
	m := meter{tm: tm, L: L}
	var total int64
	var nums []string // numbers formatted in the first pass, in order
	for k := i; k <= j; k++ {
		switch v := listAt(t, k).(type) {
		case lua.LString:
			total += int64(len(v))
		case lua.LNumber:
			m.instructions(1)
			s := numberString(v)
			nums = append(nums, s)
			total += int64(len(s))
		default:
			// Debian's lua5.1 names the type too.
			raise(L, "invalid value (%s) at index %d in table for 'concat'", v.Type().String(), k)
		}
		if k < j {
			total += int64(len(sep))
		}
		if total > int64(tm.limits.StringBytes) {
			break
		}
	}
	tm.checkLength(L, total)
	var sb strings.Builder
	sb.Grow(int(total))
	for k := i; k <= j; k++ {
		switch v := listAt(t, k).(type) {
		case lua.LString:
			sb.WriteString(string(v))
		default:
			sb.WriteString(nums[0])
			nums = nums[1:]
		}
		if k < j {
			sb.WriteString(sep)
		}
	}
	L.Push(lua.LString(sb.String()))
	return 1
}

// tableMaxN is table.maxn(t): the largest positive number key, which means
// walking every key, live or dead; a table whose dead keys dominate is
// compacted first (nextkeys.go).
func (tm *Team) tableMaxN(L *lua.LState) int {
	t := checkTable(L, 1)
	best := 0.0
	if !tableLayoutOK {
		m := meter{tm: tm, L: L}
		for k, _ := t.Next(lua.LNil); k != lua.LNil; k, _ = t.Next(k) {
			m.add(1, walkSlotsPerInstruction)
			if n, ok := k.(lua.LNumber); ok && float64(n) > best {
				best = float64(n)
			}
		}
		L.Push(lua.LNumber(best))
		return 1
	}
	m := (*lTable)(unsafe.Pointer(t))
	if len(m.keys)-len(m.dict)-len(m.strdict) > len(m.dict)+len(m.strdict)+deadKeySlack {
		tm.compact(L, t, m)
	}
	tm.charge(L, int64(len(m.array)+len(m.keys))/walkSlotsPerInstruction)
	for i := len(m.array) - 1; i >= 0; i-- {
		if m.array[i] != lua.LNil {
			best = float64(i + 1)
			break
		}
	}
	for _, k := range m.keys {
		if n, ok := k.(lua.LNumber); ok && float64(n) > best && t.RawGetH(k) != lua.LNil {
			best = float64(n)
		}
	}
	L.Push(lua.LNumber(best))
	return 1
}
