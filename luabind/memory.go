package luabind

import (
	"errors"
	"reflect"

	lua "github.com/yuin/gopher-lua"
)

// errMemory is raised in a call that pushed the team past its memory bound.
var errMemory = errors.New("memory limit exceeded")

// Memory accounting. gopher-lua has no allocator hook, so a team's memory is
// bounded by deterministic means only: nothing here looks at the process
// heap, because that would charge a team for what another team did (the
// old process-wide backstop reset whichever team happened to be running
// when somebody else had bloated the heap).
//
//   - Every path that allocates in proportion to its operands charges the
//     bytes to tm.charged before allocating (chargeBytes, chargeValues).
//   - Every VM instruction is assumed to allocate up to bytesPerInstr bytes
//     (a table, a closure, a slot), charged when the call returns.
//   - A census (census.go) walks everything the team's Lua state and the
//     Go side holding Lua values can reach, and measures it. It runs
//     between calls once the charges since the last census passed half the
//     headroom, and in the middle of a call as soon as they pass the whole
//     headroom. Over the bound, the call fails with errMemory and the
//     team's Lua state is rebuilt: a counted error, a team with amnesia,
//     nobody else affected.
//
// Between two censuses a team can grow by at most the headroom: what the
// last census left below the bound, but never less than limit/minHeadroomDiv
// nor than half of what the team held then. So the team's real footprint
// stays within 1.5 × the bound, and a census between calls, whose cost grows
// with what the team holds, runs only after the team was charged at least
// a quarter of what it held (and limit/16): its cost is amortised over the
// allocation that led to it, as a garbage collector's is. Its work is
// charged to the team's budget like any other work, one instruction per
// keysPerInstruction visits: as a debt the following calls pay, at most a
// quarter of a call's budget each (payCensus), and no census runs between
// calls while a debt is left unless the charges pass the whole headroom.
// A census in the middle of a call is charged to that call.
const (
	bytesPerInstr  = 32
	minHeadroomDiv = 8
	probeEvery     = 2048
	// maxArrayIndex bounds the Go work of one instruction on a table: a
	// write far past the end of the array part fills the gap with nils (at
	// most 16 KiB here, charged by chargeGap) and `#` walks back over
	// trailing nils (at most 1023 steps, charged by border). Larger
	// integer keys live in the hash part; see tables.go.
	maxArrayIndex = 1 << 10
)

func init() {
	// A package-level setting of gopher-lua: writes to t[k] with k at or above
	// it go to the hash part instead of growing the array part.
	lua.MaxArrayIndex = maxArrayIndex
}

// beforeCall takes a census when the charges since the last one may have
// used half the headroom; it reports whether the team is over its bound.
// The census's work becomes a debt the next call pays first.
func (tm *Team) beforeCall() (over bool) {
	if tm.charged <= tm.headroom/2 || (tm.censusDebt > 0 && tm.charged <= tm.headroom) {
		return false
	}
	live, visits := tm.census()
	tm.censusDebt += visits / keysPerInstruction
	return !tm.settleCensus(live)
}

// settleCensus records a census: it reports whether live is within the bound and,
// when it is, starts a new accounting period.
func (tm *Team) settleCensus(live int64) bool {
	limit := int64(tm.limits.MemoryBytes)
	if live > limit {
		return false
	}
	tm.charged = 0
	tm.headroom = max(limit-live, limit/minHeadroomDiv, live/2)
	tm.lastLive = live
	return true
}

// overHeadroom runs in the middle of a call whose charges passed the
// headroom (the callers test tm.charged > tm.headroom, so that the common
// case costs one comparison). It takes a census right there, charged to the
// call before the walk at the rate of the last census and after it for any
// difference; it raises errMemory when the team is over its bound and
// otherwise lets the call go on.
func (tm *Team) overHeadroom(L *lua.LState) {
	if tm.memTripped {
		L.RaiseError("%s", errMemory.Error())
	}
	tm.charge(L, tm.lastVisits/keysPerInstruction)
	live, visits := tm.census()
	tm.charge(L, (visits-tm.lastVisits)/keysPerInstruction)
	if !tm.settleCensus(live) {
		tm.memTripped = true
		tm.budget.n = 0 // the next instruction stops the call (budget.slow)
		L.RaiseError("%s", errMemory.Error())
	}
}

// payCensus charges a fresh call's budget with what it can pay of the census
// debt: at most a quarter of the budget.
func (tm *Team) payCensus() {
	if tm.censusDebt > 0 {
		pay := min(tm.censusDebt, tm.budget.remaining()/4)
		tm.budget.charge(pay)
		tm.censusDebt -= pay
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

// The value stack. gopher-lua keeps every register of every active frame
// in LState.reg; a value a script holds only in a local mid-call lives
// there and nowhere else, so the census reads it, through the mirror the
// counted loop uses (vmloop.go: regs, its layout checked at init). When
// that check failed (a gopher-lua upgrade) the census falls back to the
// current frame's values (L.Get), which misses the callers' registers, and
// TestCensusRoots fails so that nobody ships the weaker census unnoticed.

// registers returns the whole register array of L, up to its length:
// slots above the top may still hold values the Go garbage collector sees.
func registers(L *lua.LState) []lua.LValue {
	if !countedLoopOK {
		return nil
	}
	if r := regs(L); r != nil {
		return r.array
	}
	return nil
}
