package luabind

import (
	"errors"
	"reflect"
	"runtime/metrics"

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
	}
	for _, s := range tm.selves {
		if s != nil {
			c.value(s)
		}
	}
	for _, p := range tm.pending {
		c.value(p)
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
		c.bytes += tableBytes(v)
		c.push(v.Metatable)
		for k, val := v.Next(lua.LNil); k != lua.LNil; k, val = v.Next(k) {
			c.bytes += 16
			c.push(k)
			c.push(val)
		}
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

// tableBytes estimates a table's own storage. The slots are read through
// reflection because gopher-lua keeps them unexported, and because what
// matters is capacity, including the nil slots of a gap-filled array and the
// keys of deleted entries that gopher-lua never forgets.
func tableBytes(t *lua.LTable) int64 {
	rv := reflect.ValueOf(t).Elem()
	n := int64(96)
	if tableArrayField >= 0 {
		n += 16 * int64(rv.Field(tableArrayField).Cap())
	}
	if tableKeysField >= 0 {
		n += 64 * int64(rv.Field(tableKeysField).Cap()) // key slot + index map entry + value map entry
	}
	return n
}

// The positions of LTable's unexported slices, looked up once. Should a
// gopher-lua release rename them, the census falls back to counting entries.
var tableArrayField, tableKeysField = tableField("array"), tableField("keys")

func tableField(name string) int {
	f, ok := reflect.TypeOf(lua.LTable{}).FieldByName(name)
	if !ok || f.Type.Kind() != reflect.Slice || len(f.Index) != 1 {
		return -1
	}
	return f.Index[0]
}
