package luabind

import (
	"unsafe"

	lua "github.com/yuin/gopher-lua"

	"github.com/squarebattle/squarebattle/engine"
)

// The act tables a squarebattle-protocol resolve is handed.
//
// A round hands resolve one table per live square; building them afresh
// each round (a table, its string map, its key list and index map) was
// most of what the engine's side of a Lua-ruled round cost. So the tables
// of a round are filled again in the next one, and the API says so
// (docs/modding.md: acts belong to the engine; a script copies what it
// keeps). A table is reused only when the script left it exactly as the
// engine made it: no metatable, no array or other hash part, and exactly
// the act's keys in the order the engine set them, none deleted (a
// deleted key stays in gopher-lua's key list; the list is the one the
// engine's stores made, so no compaction by next rebuilt it: the keys in
// it are then the engine's, as gopher-lua only ever appends to the list).
// Then nothing the script can see in the round tells it from a fresh
// table: the same keys, the same values, the same next order, and the same
// size to the census (its key list has the capacity it had when it was
// made). Anything else gets a fresh table.

// actKeys are an act table's keys in the order they are set; child only
// for a replication.
var actKeys = [...]string{"square", "team", "cell", "action", "target", "child"}

// actPool holds the act tables of the last round, apart for acts with and
// without a child (their key lists differ), and the boxed numbers of the
// board's cells.
type actPool struct {
	tables [2][]pooledAct
	used   [2]int
	cells  []lua.LValue // cells[c+1] is LNumber(c), for c from -1
}

// pooledAct is an act table and its key list's storage as the engine's
// stores left it.
type pooledAct struct {
	t    *lua.LTable
	keys *lua.LValue
}

// start begins a round on a board of size × size cells.
func (p *actPool) start(size int) {
	p.used = [2]int{}
	if n := size*size + 1; len(p.cells) != n && n <= 1<<16 {
		p.cells = make([]lua.LValue, n)
		for i := range p.cells {
			p.cells[i] = lua.LNumber(i - 1)
		}
	}
}

// num is the boxed number v, without allocating for a cell.
func (p *actPool) num(v int) lua.LValue {
	if v+1 >= 0 && v+1 < len(p.cells) {
		return p.cells[v+1]
	}
	return lua.LNumber(v)
}

// table returns the table of act a: last round's table of the same kind,
// filled again, or a fresh one.
func (p *actPool) table(L *lua.LState, a engine.Act, action, child lua.LValue) *lua.LTable {
	vals := [len(actKeys)]lua.LValue{p.num(int(a.Square)), p.num(a.Team), p.num(a.Cell), action, p.num(a.Target), child}
	kind, n := 0, len(actKeys)-1
	if child != nil {
		kind, n = 1, len(actKeys)
	}
	i := p.used[kind]
	p.used[kind]++
	if i < len(p.tables[kind]) {
		if pa := p.tables[kind][i]; intactAct(pa, n) {
			m := (*lTable)(unsafe.Pointer(pa.t))
			for j, k := range actKeys[:n] {
				m.strdict[k] = vals[j]
			}
			return pa.t
		}
	}
	t := L.CreateTable(0, len(actKeys))
	for j, k := range actKeys[:n] {
		t.RawSetString(k, vals[j])
	}
	pa := pooledAct{t: t}
	if tableLayoutOK {
		pa.keys = unsafe.SliceData((*lTable)(unsafe.Pointer(t)).keys)
	}
	if i < len(p.tables[kind]) {
		p.tables[kind][i] = pa
	} else {
		p.tables[kind] = append(p.tables[kind], pa)
	}
	return t
}

// intactAct reports whether a's table holds exactly the first n act keys,
// as the engine set them, and nothing else: n live string keys, n keys in
// the key list, and the list the engine's stores made (gopher-lua only
// appends to it, which would make it longer; next's compaction makes a new
// one).
func intactAct(a pooledAct, n int) bool {
	if !tableLayoutOK || !isNil(a.t.Metatable) {
		return false
	}
	m := (*lTable)(unsafe.Pointer(a.t))
	return cap(m.array) == 0 && len(m.dict) == 0 && len(m.keys) == n && len(m.strdict) == n && unsafe.SliceData(m.keys) == a.keys
}

// engineList is a list table the engine hands a rules function each call
// (resolve's acts, over's squares), filled again for the next call like the
// act tables, under the same rule: it is reused only when the script left
// it as made — no metatable, no hash part ever used. Its list part is set
// anew each call (length and capacity n), whatever the script did to it,
// so the table is what a fresh CreateTable(n, 0) filled with n values
// would be, to next, # and the census (which counts the list part's
// capacity). A list the script touched otherwise is left to it, and so is
// its storage (it may still write to it): the next list gets storage of
// its own.
//
// The storage the list part slices may be longer than this call's n (a
// larger earlier round): at most the battle's most live squares, which
// the engine holds in any case.
type engineList struct {
	t   *lua.LTable
	buf []lua.LValue
}

// fill returns the list of vals (1 to len(vals); none nil).
func (e *engineList) fill(L *lua.LState, vals []lua.LValue) *lua.LTable {
	n := len(vals)
	if !tableLayoutOK {
		t := L.CreateTable(n, 0)
		for i, v := range vals {
			t.RawSetInt(i+1, v)
		}
		return t
	}
	if e.t == nil || !e.intact() {
		e.t, e.buf = L.CreateTable(0, 0), nil
	}
	if cap(e.buf) < n {
		e.buf = make([]lua.LValue, n)
	}
	m := (*lTable)(unsafe.Pointer(e.t))
	if n == 0 {
		m.array = nil
	} else {
		m.array = e.buf[:n:n]
		copy(m.array, vals)
	}
	return e.t
}

// intact reports whether the list is as fill left it, but for its list
// part.
func (e *engineList) intact() bool {
	if !tableLayoutOK || !isNil(e.t.Metatable) {
		return false
	}
	m := (*lTable)(unsafe.Pointer(e.t))
	return m.dict == nil && m.strdict == nil && m.keys == nil && m.k2i == nil
}
