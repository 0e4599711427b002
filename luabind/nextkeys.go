package luabind

import (
	"math"
	"unsafe"

	lua "github.com/yuin/gopher-lua"
)

// next and pairs, charged by the table slots they walk.
//
// gopher-lua keeps a table's hash keys in insertion order in a slice (keys)
// with an index map (k2i), and deleting an entry leaves its key in both for
// good. Its own next walks over every key ever deleted: a table that once
// held 300,000 keys and now holds none costs seconds per call, for one
// instruction. The project's next walks gopher-lua's slices through the
// lTable mirror (memory.go), charges each slot it walks and never walks
// further than the budget left pays for; and when dead keys
// outnumber live ones it compacts the table: keys, k2i and the two
// dictionaries rebuilt with the live entries only, in the same order.
//
// Compacting moves keys, and a traversal in progress stands on a key: Lua
// lets a loop clear the field it stands on, and an inner loop over the same
// table may then trigger a compaction that removes that dead key. So each
// compaction keeps, until the end of the call, the index map it replaced
// and where each old position went (a keyGeneration): next(t, k) with a key
// that compaction removed resumes exactly where it would have without the
// compaction. Across calls a deleted key kept by the script is not
// remembered, as in Lua after the table's keys were rehashed.
//
// New keys written after a compaction are appended as before: gopher-lua
// appends a key to keys and k2i whenever k2i lacks it, which is true of
// every key compaction dropped.

// deadKeySlack is how many more dead keys than live ones a table may carry
// before next compacts it. Each dead key was a deletion, so the compaction
// costs a bounded amount per deletion since the last one.
const deadKeySlack = 32

// walkSlotsPerInstruction is how many table slots next, maxn and a
// compaction may look up per instruction charged: a map lookup each, 3 ns
// when the map is in cache and 15 to 20 ns when it is not (a table walked
// once), against 20 to 40 ns for a VM instruction here. It is finer than
// keysPerInstruction, the census's rate for its own visits.
const walkSlotsPerInstruction = 4

// compactLiveCost is what a compaction is charged per live entry, which it
// inserts into two new maps and a slice (200 to 300 ns measured, GC
// included). Each slot, live or dead, is looked up once and is charged as
// a walked slot: a compaction costs what the walk it replaces would, plus
// the copy, so a call that can afford one walk over a dead-heavy table can
// afford to compact it.
const compactLiveCost = 6

// keyGeneration is what one compaction of a table replaced: its old index
// map and, for each old position i, rank[i], the number of live keys before
// it, which is where a walk resumes in the compacted list.
type keyGeneration struct {
	k2i  map[lua.LValue]int
	rank []int32
}

// keyGraves holds the generations of the tables compacted during the
// current call, oldest first. The budget forgets them when a call starts.
type keyGraves struct {
	tables map[*lua.LTable][]keyGeneration
}

func (g *keyGraves) forget() {
	if g.tables != nil {
		g.tables = nil
	}
}

// resume returns the position in t's keys where a walk continues after key,
// a key that a compaction during this call dropped.
func (g *keyGraves) resume(t *lua.LTable, key lua.LValue) (int, bool) {
	gens := g.tables[t]
	for i := len(gens) - 1; i >= 0; i-- {
		old, ok := gens[i].k2i[key]
		if !ok {
			continue
		}
		p := int(gens[i].rank[old])
		for _, later := range gens[i+1:] {
			p = int(later.rank[p])
		}
		return p, true
	}
	return 0, false
}

// luaNext is Lua's next(t [, key]).
func (tm *Team) luaNext(L *lua.LState) int {
	t := checkTable(L, 1)
	k, v := tm.next(L, t, L.Get(2))
	if k == lua.LNil {
		L.Push(lua.LNil)
		return 1
	}
	L.Push(k)
	L.Push(v)
	return 2
}

// pairs returns pairs(t), which gives next, t, nil: the same next function
// a script reaches as a global, as in Lua 5.1.
func pairs(L *lua.LState, next *lua.LFunction) *lua.LFunction {
	return L.NewFunction(func(L *lua.LState) int {
		t := checkTable(L, 1)
		L.Push(next)
		L.Push(t)
		L.Push(lua.LNil)
		return 3
	})
}

// arrayKey reports whether k is a key gopher-lua stores in a table's array
// part, and its 1-based index.
func arrayKey(k lua.LNumber) (int, bool) {
	f := float64(k)
	if f >= 1 && f < float64(lua.MaxArrayIndex) && f == math.Trunc(f) {
		return int(f), true
	}
	return 0, false
}

// next returns the entry that follows key in t (the first entry for nil),
// or nil, nil at the end: the array part in index order, then the hash
// part in insertion order.
func (tm *Team) next(L *lua.LState, t *lua.LTable, key lua.LValue) (lua.LValue, lua.LValue) {
	if !tableLayoutOK {
		// Without the mirror the walk cannot be seen, let alone bounded:
		// gopher-lua's own next, charged as one instruction.
		return t.Next(key)
	}
	m := (*lTable)(unsafe.Pointer(t))
	arrayPos, keyPos := 0, 0
	inArray, standing := true, true // standing: key is nil, in the array part or a live hash key
	if n, ok := key.(lua.LNumber); ok {
		if i, ok := arrayKey(n); ok {
			// Past the array part's end the key was in the array until
			// table.remove shrank it: the walk goes on in the hash part.
			arrayPos = min(i, len(m.array))
		} else {
			inArray = false
		}
	} else if key != lua.LNil {
		inArray = false
	}
	if !inArray {
		if s, ok := key.(lua.LString); ok {
			tm.charge(L, int64(len(s))/bytesPerInstruction) // hashing the key
		}
		if i, ok := m.k2i[key]; ok {
			keyPos = i + 1
			standing = t.RawGetH(key) != lua.LNil
		} else {
			p, ok := tm.graves.resume(t, key)
			if !ok {
				runError(L, "invalid key to 'next'") // luaG_runerror inside next: no position
			}
			keyPos, standing = p, false
		}
	}
	if standing && len(m.keys)-len(m.dict)-len(m.strdict) > len(m.dict)+len(m.strdict)+deadKeySlack {
		if tm.compact(L, t, m) && !inArray {
			keyPos = m.k2i[key] + 1
		}
	}

	// Walk no further than the budget left pays for; the first slots are
	// covered by the instruction that called next.
	// Saturating: a budget past MaxInt64/walkSlotsPerInstruction (only a
	// benchmark's) would overflow into a negative limit.
	limit := int64(math.MaxInt64)
	if rem := tm.budget.remaining(); rem < (math.MaxInt64-walkSlotsPerInstruction)/walkSlotsPerInstruction {
		limit = rem*walkSlotsPerInstruction + walkSlotsPerInstruction - 1
	}
	walked := int64(0)
	if inArray {
		for ; arrayPos < len(m.array); arrayPos++ {
			if walked++; walked > limit {
				tm.overBudget(L)
			}
			if v := m.array[arrayPos]; v != lua.LNil {
				tm.charge(L, walked/walkSlotsPerInstruction)
				return lua.LNumber(arrayPos + 1), v
			}
		}
	}
	for ; keyPos < len(m.keys); keyPos++ {
		if walked++; walked > limit {
			tm.overBudget(L)
		}
		k := m.keys[keyPos]
		if v := t.RawGetH(k); v != lua.LNil {
			tm.charge(L, walked/walkSlotsPerInstruction)
			return k, v
		}
	}
	tm.charge(L, walked/walkSlotsPerInstruction)
	return lua.LNil, lua.LNil
}

// overBudget spends what is left of the call's budget and raises the
// budget error: for work that would cost more than is left.
func (tm *Team) overBudget(L *lua.LState) {
	tm.charge(L, tm.budget.remaining()+1)
}

// compact rebuilds t's hash part with its live entries only, keeping their
// order, when the budget left pays for it; it reports whether it did. The
// replaced index map is kept for the rest of the call (keyGraves).
func (tm *Team) compact(L *lua.LState, t *lua.LTable, m *lTable) bool {
	live := len(m.dict) + len(m.strdict)
	cost := int64(len(m.keys))/walkSlotsPerInstruction + int64(live)*compactLiveCost
	if cost > tm.budget.remaining() {
		return false
	}
	tm.charge(L, cost)
	keys := make([]lua.LValue, 0, live)
	k2i := make(map[lua.LValue]int, live)
	var strdict map[string]lua.LValue
	var dict map[lua.LValue]lua.LValue
	if m.strdict != nil {
		strdict = make(map[string]lua.LValue, len(m.strdict))
	}
	if m.dict != nil {
		dict = make(map[lua.LValue]lua.LValue, len(m.dict))
	}
	rank := make([]int32, len(m.keys)+1)
	for i, k := range m.keys {
		rank[i] = int32(len(keys))
		v := t.RawGetH(k)
		if v == lua.LNil {
			continue
		}
		k2i[k] = len(keys)
		keys = append(keys, k)
		if s, ok := k.(lua.LString); ok {
			strdict[string(s)] = v
		} else {
			dict[k] = v
		}
	}
	rank[len(m.keys)] = int32(len(keys))
	g := &tm.graves
	if g.tables == nil {
		g.tables = map[*lua.LTable][]keyGeneration{}
	}
	g.tables[t] = append(g.tables[t], keyGeneration{k2i: m.k2i, rank: rank})
	m.keys, m.k2i, m.strdict, m.dict = keys, k2i, strdict, dict
	return true
}
