package luabind

import (
	"slices"
	"strings"
	"unsafe"

	lua "github.com/yuin/gopher-lua"
)

// The census: what a team really holds, roughly in bytes.
//
// It starts from every root through which the team's data stays alive:
// the Lua state's own (globals, registry, the register array of every
// active frame, the string metatable) and every Lua value the Go side keeps
// for the team (class environments, returned tables and the cached run and
// eliminated functions, selves, pending child data, the reused view table,
// plans, kept constant tables, a rules VM's extra roots), plus Go-side data
// the team made grow (the pattern cache, printed lines, a rules VM's plain
// copies). It follows tables (keys, values, metatables), functions (their
// environment and upvalues, Go closures included) and userdata, counting
// each object once.
//
// Strings are counted by the bytes they occupy, once: a string of at least
// shareMin bytes is recorded as the byte range it points at, and the ranges
// are merged at the end, so seventy references to one string, or a string
// and its substrings that share its bytes, count the bytes once. (The
// string library copies a substring that would pin a much larger parent,
// so what a substring keeps alive stays within a small factor of what it
// spans.) Whether two strings share bytes depends only on the operations
// that made them, never on where they live, so the total is deterministic.
// Shorter strings are counted per reference: deduplicating them would cost
// more than it saves.
//
// The census also counts its visits (slots walked, objects weighted by
// objectVisits), which is what it is charged: see memory.go.

// objectVisits is what a new object costs the census beyond a slot: the
// insertion into its seen set takes about as long as sixteen slots walked
// (measured: ~3 ns a slot, ~50 ns a new table), so that the census is
// charged, at keysPerInstruction visits an instruction, about what it takes.
const objectVisits = 15

// shareMin is the length from which strings are counted once by range.
const shareMin = 64

// ownString is s as a string of the team's own: a copy when it is long
// enough for the census to count it by range. Counting by range makes the
// census depend on which strings share bytes, so a string that comes into
// a team from outside its Lua state (another state's, the Go side's, one
// decoded from a worker's pipe) must not bring its sharing with it: in
// this process a string repeated in a rule mod's view, or the name of a
// player fielded twice, is one string, where a worker process decodes
// every occurrence into bytes of its own, and gcinfo() and the memory
// bound would differ from the same seed. Every such string is therefore
// given storage of its own where it enters the state, the same in every
// process; a short one is counted per reference anyway and kept as it is.
func ownString(s string) lua.LString {
	if len(s) >= shareMin {
		return lua.LString(strings.Clone(s))
	}
	return lua.LString(s)
}

// stateBytes stands for a Lua state's fixed overhead (call frames,
// registry, base tables), counted once per census.
const stateBytes = 16 << 10

// census measures the team: bytes held and slots visited.
func (tm *Team) census() (live, visits int64) {
	c := &tm.walk
	c.reset()
	L := tm.L
	c.bytes += stateBytes
	c.value(L.G.Global)
	c.value(L.G.Registry)
	if L.Env != nil {
		c.value(L.Env)
	}
	if regs := registers(L); regs != nil {
		c.bytes += 16 * int64(cap(regs))
		c.visits += int64(len(regs))
		c.values(regs)
	} else {
		for i := 1; i <= L.GetTop(); i++ {
			c.value(L.Get(i))
		}
	}
	// The string metatable is protected (getmetatable("") is false, see
	// isolate.go); its __index, read raw, is what it holds.
	if idx, ok := L.GetMetaField(lua.LString(""), "__index").(*lua.LTable); ok {
		c.value(idx)
	}
	c.value(tm.base)
	c.value(tm.view)
	c.value(tm.concat)
	c.value(tm.length)
	if tm.statsTable != nil {
		c.value(tm.statsTable)
	}
	for _, cl := range tm.classes {
		for _, v := range [...]*lua.LTable{cl.env, cl.table} {
			if v != nil {
				c.value(v)
			}
		}
		for _, f := range [...]*lua.LFunction{cl.run, cl.eliminated} {
			if f != nil {
				c.value(f)
			}
		}
	}
	c.bytes += 8 * int64(cap(tm.selves))
	for _, s := range tm.selves {
		if s != nil {
			c.value(s)
		}
	}
	// Maps are walked in Go's random order, which changes nothing: each
	// object is counted once whatever the order, and the sum is the same.
	for _, p := range tm.pending {
		c.value(p)
	}
	for _, v := range tm.plans {
		c.bytes += 48
		c.value(v)
	}
	// A kept constant's plain original belongs to the rules, which count
	// it; the team holds the Lua copy.
	for _, t := range tm.kept {
		c.bytes += 32
		c.value(t)
	}
	// The compiled-pattern cache keeps its own count of the bytes it holds
	// (strpattern.go), bounded there.
	c.bytes += int64(tm.patterns.bytes) + 64*int64(len(tm.patterns.m))
	c.visits += int64(len(tm.patterns.m))
	for _, line := range tm.log {
		c.bytes += 16 + int64(len(line))
	}
	for _, v := range tm.roots {
		c.value(v)
	}
	c.bytes += tm.goBytes
	c.visits += int64(len(tm.log)) + int64(len(tm.plans)) + int64(len(tm.selves))
	live = c.total()
	tm.lastVisits = c.visits
	return live, c.visits
}

// censusWalk is kept by the team between censuses so that its maps and
// slices are reused rather than rebuilt.
type censusWalk struct {
	tables map[*lua.LTable]struct{}
	funcs  map[*lua.LFunction]struct{}
	users  map[*lua.LUserData]struct{}
	bytes  int64
	visits int64
	stack  []lua.LValue
	spans  []span // long strings, merged at the end
}

// span is the byte range of a long string's data.
type span struct{ start, end uintptr }

func (c *censusWalk) reset() {
	if c.tables == nil {
		c.tables = map[*lua.LTable]struct{}{}
		c.funcs = map[*lua.LFunction]struct{}{}
		c.users = map[*lua.LUserData]struct{}{}
	}
	clear(c.tables)
	clear(c.funcs)
	clear(c.users)
	c.bytes, c.visits = 0, 0
	c.spans = c.spans[:0]
}

// total adds the merged string ranges to the bytes counted.
func (c *censusWalk) total() int64 {
	s := c.spans
	if len(s) == 0 {
		return c.bytes
	}
	slices.SortFunc(s, func(a, b span) int {
		switch {
		case a.start < b.start:
			return -1
		case a.start > b.start:
			return 1
		}
		return 0
	})
	c.visits += int64(len(s))
	n := c.bytes
	cur := s[0]
	for _, x := range s[1:] {
		if x.start < cur.end {
			cur.end = max(cur.end, x.end)
			continue
		}
		n += int64(cur.end - cur.start)
		cur = x
	}
	return n + int64(cur.end-cur.start)
}

func (c *censusWalk) value(v lua.LValue) {
	c.stack = append(c.stack[:0], v)
	c.drain()
}

// values walks a slice of roots.
func (c *censusWalk) values(vs []lua.LValue) {
	c.stack = c.stack[:0]
	for _, v := range vs {
		c.push(v)
	}
	c.drain()
}

func (c *censusWalk) drain() {
	for len(c.stack) > 0 {
		v := c.stack[len(c.stack)-1]
		c.stack = c.stack[:len(c.stack)-1]
		c.visit(v)
	}
}

func (c *censusWalk) push(v lua.LValue) {
	switch s := v.(type) {
	case lua.LString:
		c.str(string(s))
	case *lua.LTable, *lua.LFunction, *lua.LUserData:
		c.stack = append(c.stack, v)
	}
}

// str counts one reference to a string.
func (c *censusWalk) str(s string) {
	if len(s) < shareMin {
		c.bytes += int64(len(s)) + 16
		return
	}
	c.bytes += 16
	p := uintptr(unsafe.Pointer(unsafe.StringData(s)))
	c.spans = append(c.spans, span{p, p + uintptr(len(s))})
}

func (c *censusWalk) visit(v lua.LValue) {
	c.visits++
	switch v := v.(type) {
	case *lua.LTable:
		if !firstVisit(c.tables, v) {
			return
		}
		c.visits += objectVisits
		c.push(v.Metatable)
		c.table(v)
	case *lua.LFunction:
		if !firstVisit(c.funcs, v) {
			return
		}
		c.visits += objectVisits
		c.bytes += 64 + 16*int64(len(v.Upvalues))
		if v.Env != nil {
			c.push(v.Env)
		}
		// A Go closure made with NewClosure keeps its Lua data in
		// Upvalues too, so iterators built that way are seen.
		for _, uv := range v.Upvalues {
			if uv != nil {
				c.push(uv.Value())
			}
		}
	case *lua.LUserData:
		if !firstVisit(c.users, v) {
			return
		}
		c.visits += objectVisits
		c.bytes += 64
		c.push(v.Env)
		c.push(v.Metatable)
	}
}

// firstVisit adds o to the set seen and reports whether it was new: one
// map operation where a lookup and an insertion would be two.
func firstVisit[T comparable](seen map[T]struct{}, o T) bool {
	n := len(seen)
	seen[o] = struct{}{}
	return len(seen) > n
}

// table counts a table's own storage and its entries, and pushes its keys
// and values. Storage is estimated as 96 bytes, 16 per array slot and 64
// per key slot (key slot + index map entry + value map entry), by capacity:
// that includes the nil slots of a gap-filled array and the keys of deleted
// entries, which gopher-lua never forgets. Each entry adds 16 bytes.
//
// gopher-lua keeps all of this unexported, so the table is read through
// lTable, a mirror of its layout checked at init: the array part and the
// two maps of the hash part are walked directly, the same entries LTable.Next
// gives, without Next's two map lookups per key (Next was most of the
// census). Should the layout differ (a gopher-lua upgrade), the census
// counts entries only, through Next.
func (c *censusWalk) table(t *lua.LTable) {
	c.bytes += 96
	if !tableLayoutOK {
		c.entriesNext(t)
		return
	}
	m := (*lTable)(unsafe.Pointer(t))
	c.bytes += 16*int64(cap(m.array)) + 64*int64(cap(m.keys))
	c.visits += int64(len(m.array)) + int64(len(m.keys))
	if !censusSlices {
		c.entriesNext(t)
		return
	}
	for _, val := range m.array {
		if val != lua.LNil {
			c.bytes += 16
			c.push(val)
		}
	}
	// The two maps hold exactly the live hash entries (gopher-lua deletes
	// from them, while keys keeps dead keys too). Ranging over them is in
	// Go's random order, which does not change a sum of objects each
	// counted once.
	c.bytes += 16 * int64(len(m.dict)+len(m.strdict))
	if len(m.keys) <= keyWalkMax {
		c.entriesByKey(m)
		return
	}
	for k, val := range m.strdict {
		c.str(k)
		c.push(val)
	}
	for k, val := range m.dict {
		c.push(k)
		c.push(val)
	}
}

// keyWalkMax is the number of keys up to which a table's hash entries are
// found through its keys slice, one lookup per key, rather than by ranging
// over its two maps. gopher-lua makes every string map with room for 32
// entries, and ranging over it scans all of that room: for the small
// tables that are most of a team's data (a square's self with a field or
// two) a few lookups cost a fraction of it. Either way the same live
// entries are counted; only the time differs.
var keyWalkMax = 8

// entriesByKey counts a table's live hash entries by looking up each of
// its keys: keys holds every live key once (gopher-lua appends a key the
// first time it is set and never drops it; compaction keeps the live
// ones), dead keys find nothing.
func (c *censusWalk) entriesByKey(m *lTable) {
	for _, k := range m.keys {
		if s, ok := k.(lua.LString); ok {
			if val, ok := m.strdict[string(s)]; ok {
				c.str(string(s))
				c.push(val)
			}
		} else if val, ok := m.dict[k]; ok {
			c.push(k)
			c.push(val)
		}
	}
}

// censusSlices is off only in the test that checks that walking the slices
// counts what Next does.
var censusSlices = true

// entriesNext counts a table's entries in Next order.
func (c *censusWalk) entriesNext(t *lua.LTable) {
	for k, val := t.Next(lua.LNil); k != lua.LNil; k, val = t.Next(k) {
		c.bytes += 16
		c.push(k)
		c.push(val)
	}
}
