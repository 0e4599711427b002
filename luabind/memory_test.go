package luabind

import (
	lua "github.com/yuin/gopher-lua"
	"reflect"
	"strings"

	"testing"

	"github.com/squarebattle/squarebattle/engine"
)

// TestCensusSlicesMatchNext: the census walks gopher-lua's table slices
// directly; it must count exactly what walking the tables with Next counts, on tables with array parts, holes, deleted keys, string and
// non-string keys, cycles, metatables and closures.
func TestCensusSlicesMatchNext(t *testing.T) {
	if !tableLayoutOK {
		t.Fatal("gopher-lua's LTable layout changed: the census is on its slow path (see memory.go)")
	}
	cat := catalogOf(t, map[string]string{"hoard.lua": `return { name = "Hoard", run = function(self, team, view, row, col)
		self.n = (self.n or 0) + 1
		local t = {1, 2, 3, nil, 5, x = "abc", [2.5] = true, [self] = "me"}
		t[100] = "far"
		t.gone = 1
		t.gone = nil
		t[7] = nil
		t.cycle = t
		t.mt = setmetatable({}, {__index = t, name = "m" .. self.n})
		t.f = function() return t end
		self[self.n % 5] = t
		self["k" .. self.n % 7] = {row, col, "s" .. row}
		team_memory[row * 100 + col] = self.n
	end }`}, DefaultLimits())
	b, teams := battle(t, cat, []string{"hoard", "hoard"}, engine.Options{Size: 8, Wrap: true, Rounds: 20, Seed: 5})
	for range 12 {
		b.Step()
	}
	walkMax := keyWalkMax
	t.Cleanup(func() { censusSlices, keyWalkMax = true, walkMax })
	for i, tm := range teams {
		censusSlices, keyWalkMax = true, -1
		maps, _ := tm.census()
		keyWalkMax = 1 << 30
		keys, _ := tm.census()
		censusSlices = false
		slow, _ := tm.census()
		t.Logf("team %d: %d bytes", i, maps)
		if maps != slow || keys != slow || maps < 10000 {
			t.Errorf("team %d: census over the maps %d bytes, by keys %d, through Next %d", i, maps, keys, slow)
		}
	}
}

// TestCensusCounts: what the census sees of data a script holds in the
// places it used to miss, and how it counts strings. Each case's script
// calls measure() at the point to look at; the census there, less the
// census of the freshly loaded class, must fall in [lo, hi] bytes. A
// script that does not call measure is measured after its call.
func TestCensusCounts(t *testing.T) {
	const mib = 1 << 20
	cases := []struct {
		name   string
		src    string
		lo, hi int64
	}{
		{"one string referenced 70 times", `local keep = {}
			return { run = function()
				local s = string.rep("x", 1048576)
				for i = 1, 70 do keep[i] = s end
				measure()
			end }`, mib, mib + 16<<10},
		{"run removed from its table holding a big upvalue", `local big
			local t
			t = { run = function() big = string.rep("u", 1048576); t.run = nil end }
			return t`, mib, mib + 16<<10},
		{"data stashed in the view table", `return { run = function(self, team, view)
				view.stash = {string.rep("v", 1048576)}
				measure()
			end }`, mib, mib + 16<<10},
		{"a value held only in a register mid-call", `return { run = function()
				local big = string.rep("r", 1048576)
				measure()
				return #big
			end }`, mib, mib + 16<<10},
		{"a Go closure holding its data in upvalues", `return { run = function()
				held = closure(string.rep("g", 1048576))
				measure()
			end }`, mib, mib + 16<<10},
		{"distinct strings counted each", `local keep = {}
			return { run = function()
				for i = 1, 4 do keep[i] = string.rep("d", 262144) .. i end
				measure()
			end }`, mib, mib + 16<<10},
		{"compiled patterns in the cache", `return { run = function()
				string.find("b", string.rep("a", 4000) .. "+")
				measure()
			end }`, 4000, 256 << 10},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			lim := DefaultLimits()
			lim.Instructions = 100000 // room to build megabytes: this test is about counting, not charging
			cat := catalogOf(t, map[string]string{"c.lua": c.src}, lim)
			id, ok := cat.classID("c")
			if !ok {
				t.Fatalf("class not loaded: %v", cat.All[0].Err)
			}
			tm := NewTeam(TeamOptions{Catalog: cat, Size: 8, Teams: 1, Killers: []string{"k"}})
			t.Cleanup(tm.Close)
			tm.facts = &engine.Facts{}
			cs := tm.class(id)
			if cs.err != "" {
				t.Fatal(cs.err)
			}
			var at int64 = -1
			cs.env.RawSetString("measure", tm.L.NewFunction(func(L *lua.LState) int {
				at, _ = tm.census()
				return 0
			}))
			cs.env.RawSetString("closure", tm.L.NewFunction(func(L *lua.LState) int {
				L.Push(L.NewClosure(func(L *lua.LState) int { return 0 }, L.Get(1)))
				return 1
			}))
			base, _ := tm.census()
			tm.L.Push(cs.run)
			tm.L.Push(tm.self(0))
			tm.L.Push(tm.num(0))
			tm.L.Push(tm.view)
			if f, msg := tm.call(3, 0); f != engine.NoFault {
				t.Fatal(msg)
			}
			if at < 0 {
				at, _ = tm.census()
			}
			got := at - base
			t.Logf("%d bytes", got)
			if got < c.lo || got > c.hi {
				t.Errorf("census grew by %d bytes, want %d to %d", got, c.lo, c.hi)
			}
		})
	}
}

// TestCensusRoots: the census reads the register array directly; a
// gopher-lua upgrade that moves it leaves the census weaker.
func TestCensusRoots(t *testing.T) {
	if !countedLoopOK {
		t.Fatal("gopher-lua's registry layout changed: the census no longer sees the callers' registers (see memory.go)")
	}
}

// TestCensusStringSpans: long strings are counted by the bytes they span,
// once: a string and slices of it (Go shares their bytes) count the
// parent's bytes once, disjoint strings add up.
func TestCensusStringSpans(t *testing.T) {
	s := strings.Repeat("x", 1<<20)
	u := strings.Repeat("y", 1000)
	var c censusWalk
	c.reset()
	for range 70 {
		c.str(s)
	}
	c.str(s[10:])
	c.str(s[100 : 1<<19])
	c.str(u)
	c.str(u[:500])
	c.str("short")
	want := int64(1<<20+1000) + 74*16 + 5 + 16
	if got := c.total(); got != want {
		t.Errorf("total %d, want %d", got, want)
	}
}

// TestMemoryIsPerTeam: a team is judged by its own memory only. A hostile
// team that bloats memory beside an honest one (which holds one 1 MiB
// string seventy times over) gives the same battle, byte for byte, with
// one worker and with two: no team's errors depend on what another team
// did to the process heap or on timing, and the honest team is never reset.
func TestMemoryIsPerTeam(t *testing.T) {
	hog := `return { name = "Hog", run = function()
		keep = keep or {}
		for i = 1, 4 do keep[#keep + 1] = string.rep("h", 200000) .. #keep end
	end }`
	honest := `local s = string.rep("s", 1048576)
	return { name = "Honest", run = function(self, team, view)
		team_memory.refs = team_memory.refs or {}
		for i = 1, 70 do team_memory.refs[i] = s end
		local d = math.random(8)
		if view[d] == EMPTY then return MOVE, d end
	end }`
	lim := DefaultLimits()
	lim.MemoryBytes = 4 << 20
	var runs [2]*engine.Snapshot
	for i, workers := range []int{1, 2} {
		cat := catalogOf(t, map[string]string{"hog.lua": hog, "honest.lua": honest, "victim.lua": victim}, lim)
		b, _ := battle(t, cat, []string{"hog", "honest", "victim"}, engine.Options{Size: 8, Wrap: true, Rounds: 30, Seed: 9, Workers: workers})
		runs[i] = b.Run()
	}
	if runs[0].Teams[0].Stats.Errors == 0 {
		t.Errorf("the hog was never stopped: %+v", runs[0].Teams[0].Stats)
	}
	for _, p := range append(runs[0].FirstProblems, runs[0].Problems...) {
		if p.Team != 0 {
			t.Errorf("team %d has a problem: %s", p.Team, p.Message)
		}
	}
	if !reflect.DeepEqual(runs[0], runs[1]) {
		t.Errorf("the battle differs between 1 and 2 workers:\n%+v\n%+v", runs[0].Teams, runs[1].Teams)
	}
}

// TestCopyDataFaithful: a child's data is copied with keys of any type,
// shared tables shared once in the copy, cycles kept, and a nesting far
// deeper than the limit refused without recursion.
func TestCopyDataFaithful(t *testing.T) {
	cat := catalogOf(t, map[string]string{"c.lua": `return { run = function() end }`}, DefaultLimits())
	tm := NewTeam(TeamOptions{Catalog: cat, Size: 8, Teams: 1, Killers: []string{"k"}})
	t.Cleanup(tm.Close)
	L := tm.L
	tm.budget.reset(1 << 30)
	if err := L.DoString(`
		local key, shared = {name = "key"}, {1, 2}
		data = {[key] = "by table", [true] = shared, s = shared, n = 3}
		data.self = data
		deep = {}
		for i = 1, 100000 do deep = {deep} end`); err != nil {
		t.Fatal(err)
	}
	cp, fail := tm.copyData(L.GetGlobal("data").(*lua.LTable))
	if fail != "" {
		t.Fatal(fail)
	}
	entries := 0
	for k, v := cp.Next(lua.LNil); k != lua.LNil; k, v = cp.Next(k) {
		entries++
		if kt, ok := k.(*lua.LTable); ok && (kt.RawGetString("name") != lua.LString("key") || v != lua.LString("by table")) {
			t.Errorf("table key copied as %v = %v", kt, v)
		}
	}
	if entries != 5 || cp.RawGetString("self") != cp || cp.RawGet(lua.LTrue) != cp.RawGetString("s") || cp.RawGetString("s") == L.GetGlobal("data").(*lua.LTable).RawGetString("s") {
		t.Errorf("copy has %d entries, self %v, shared table kept shared and copied: %v", entries, cp.RawGetString("self") == cp, cp.RawGet(lua.LTrue) == cp.RawGetString("s"))
	}
	tm.limits.Instructions = 1 << 30
	if _, fail := tm.copyData(L.GetGlobal("deep").(*lua.LTable)); !strings.Contains(fail, "nested more than") {
		t.Errorf("deep data: %q", fail)
	}
}
