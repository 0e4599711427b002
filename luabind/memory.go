package luabind

import (
	"errors"
	"reflect"
	"runtime/metrics"
	"unsafe"

	lua "github.com/yuin/gopher-lua"
)

// errMemory is raised in a call that pushed the team past its memory bound.
var errMemory = errors.New("memory limit exceeded")

// Memory accounting. gopher-lua has no allocator hook, so a team's memory is
// bounded by three deterministic means and one backstop:
//
//   - Every builtin that creates string data charges its bytes (chargeBytes).
//   - Every VM instruction is assumed to allocate up to bytesPerInstr bytes
//     (tables, closures, table slots), charged when a call returns.
//   - When the charges since the last census reach half the headroom left,
//     a census walks everything the team's Lua state can reach and measures
//     it. Over the bound, the team's Lua state is rebuilt from scratch: a
//     counted error, a team with amnesia, and nobody else affected.
//   - A write far past the end of a Lua array fills the gap in one
//     instruction (bounded by lua.MaxArrayIndex). As a backstop against
//     that, every probeEvery instructions the process heap is read; when it
//     is above backstopBytes the team takes a census right there and stops
//     the call if it is over its bound. This path is only reachable by a
//     script already trying to exhaust memory.
const (
	bytesPerInstr = 32
	probeEvery    = 2048
	// maxArrayIndex bounds the Go work of one instruction on a table: a
	// write far past the end of the array part fills the gap with nils (at
	// most 16 KiB here) and `#` walks back over trailing nils (at most 1023
	// steps). Larger integer keys live in the hash part; see tables.go.
	maxArrayIndex = 1 << 10
)

// backstopBytes is the process heap size above which teams check themselves.
var backstopBytes int64 = 1 << 30

func init() {
	// A package-level setting of gopher-lua: writes to t[k] with k at or above
	// it go to the hash part instead of growing the array part.
	lua.MaxArrayIndex = maxArrayIndex
}

const heapMetric = "/memory/classes/heap/objects:bytes"

// processHeap reads the bytes of live and not yet swept heap objects of the
// whole process. s is the caller's sample buffer, so reading allocates nothing.
func processHeap(s []metrics.Sample) int64 {
	s[0].Name = heapMetric
	metrics.Read(s)
	if s[0].Value.Kind() != metrics.KindUint64 {
		return 0
	}
	return int64(s[0].Value.Uint64())
}

// memoryBackstop runs inside a call, from the budget's Done. It reports
// whether the call must stop.
func (tm *Team) memoryBackstop() bool {
	if tm.memTripped {
		return true
	}
	if processHeap(tm.heapSample[:]) < backstopBytes {
		return false
	}
	if tm.census() > int64(tm.limits.MemoryBytes) {
		tm.memTripped = true
		return true
	}
	return false
}

// beforeCall takes a census when the charges since the last one may have
// used half the headroom; it reports whether the team is over its bound.
func (tm *Team) beforeCall() (over bool) {
	if tm.charged <= tm.headroom/2 {
		return false
	}
	live := tm.census()
	if live > int64(tm.limits.MemoryBytes) {
		return true
	}
	tm.charged = 0
	tm.headroom = int64(tm.limits.MemoryBytes) - live
	tm.lastLive = live
	return false
}

// census measures what the team's Lua state can reach, roughly in bytes.
func (tm *Team) census() int64 {
	c := &tm.walk
	c.reset()
	c.value(tm.L.G.Global)
	c.value(tm.L.G.Registry)
	c.value(tm.base)
	for _, cl := range tm.classes {
		if cl.env != nil {
			c.value(cl.env)
		}
		// The table a script returned is reachable from no global, but
		// its functions keep the file's locals (upvalues) alive.
		if cl.table != nil {
			c.value(cl.table)
		}
	}
	for _, s := range tm.selves {
		if s != nil {
			c.value(s)
		}
	}
	for _, p := range tm.pending {
		c.value(p)
	}
	for _, t := range tm.kept {
		c.value(t)
	}
	if mt, ok := tm.L.GetMetatable(lua.LString("")).(*lua.LTable); ok {
		c.value(mt)
	}
	return c.bytes
}

// censusWalk is kept by the team between censuses so that its maps and
// stack are reused rather than rebuilt.
type censusWalk struct {
	tables map[*lua.LTable]struct{}
	funcs  map[*lua.LFunction]struct{}
	users  map[*lua.LUserData]struct{}
	bytes  int64
	stack  []lua.LValue
}

func (c *censusWalk) reset() {
	if c.tables == nil {
		c.tables = map[*lua.LTable]struct{}{}
		c.funcs = map[*lua.LFunction]struct{}{}
		c.users = map[*lua.LUserData]struct{}{}
	}
	clear(c.tables)
	clear(c.funcs)
	clear(c.users)
	c.bytes = 0
}

func (c *censusWalk) value(v lua.LValue) {
	c.stack = append(c.stack[:0], v)
	for len(c.stack) > 0 {
		v := c.stack[len(c.stack)-1]
		c.stack = c.stack[:len(c.stack)-1]
		c.visit(v)
	}
}

func (c *censusWalk) push(v lua.LValue) {
	switch s := v.(type) {
	case lua.LString:
		c.bytes += int64(len(s)) + 16
	case *lua.LTable, *lua.LFunction, *lua.LUserData:
		c.stack = append(c.stack, v)
	}
}

func (c *censusWalk) visit(v lua.LValue) {
	switch v := v.(type) {
	case *lua.LTable:
		if _, ok := c.tables[v]; ok {
			return
		}
		c.tables[v] = struct{}{}
		c.push(v.Metatable)
		c.table(v)
	case *lua.LFunction:
		if _, ok := c.funcs[v]; ok {
			return
		}
		c.funcs[v] = struct{}{}
		c.bytes += 64 + 16*int64(len(v.Upvalues))
		if v.Env != nil {
			c.push(v.Env)
		}
		for _, uv := range v.Upvalues {
			if uv != nil {
				c.push(uv.Value())
			}
		}
	case *lua.LUserData:
		if _, ok := c.users[v]; ok {
			return
		}
		c.users[v] = struct{}{}
		c.bytes += 64
		c.push(v.Metatable)
	}
}

// table counts a table's own storage and its entries, and pushes its keys
// and values. Storage is estimated as 96 bytes, 16 per array slot and 64
// per key slot (key slot + index map entry + value map entry), by capacity:
// that includes the nil slots of a gap-filled array and the keys of deleted
// entries, which gopher-lua never forgets. Each entry adds 16 bytes.
//
// gopher-lua keeps all of this unexported, so the table is read through
// lTable, a mirror of its layout checked at init. Its array and key slices
// are walked directly, the same entries in the same order as LTable.Next
// gives them, at one map lookup per key where Next takes two (Next was most
// of the census). Should the layout differ (a gopher-lua upgrade), the
// census counts entries only, through Next.
func (c *censusWalk) table(t *lua.LTable) {
	c.bytes += 96
	if !tableLayoutOK {
		c.entriesNext(t)
		return
	}
	m := (*lTable)(unsafe.Pointer(t))
	c.bytes += 16*int64(cap(m.array)) + 64*int64(cap(m.keys))
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
	for _, k := range m.keys {
		if val := t.RawGetH(k); val != lua.LNil {
			c.bytes += 16
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

// lTable mirrors the fields of gopher-lua's LTable (value.go).
type lTable struct {
	Metatable lua.LValue
	array     []lua.LValue
	dict      map[lua.LValue]lua.LValue
	strdict   map[string]lua.LValue
	keys      []lua.LValue
	k2i       map[lua.LValue]int
}

var tableLayoutOK = sameLayout(reflect.TypeFor[lua.LTable](), reflect.TypeFor[lTable](), nil)

// sameLayout reports whether struct types theirs and ours have the same
// fields: names, offsets and types, in order, and the same size. A field of
// ours whose type is a key of alias may stand for a field of theirs of the
// mapped type (a mirror of an unexported type).
func sameLayout(theirs, ours reflect.Type, alias map[reflect.Type]reflect.Type) bool {
	if theirs.Kind() != reflect.Struct || ours.Kind() != reflect.Struct || theirs.Size() != ours.Size() || theirs.NumField() != ours.NumField() {
		return false
	}
	for i := range ours.NumField() {
		a, b := theirs.Field(i), ours.Field(i)
		if a.Name != b.Name || a.Offset != b.Offset || (a.Type != b.Type && alias[b.Type] != a.Type) {
			return false
		}
	}
	return true
}
