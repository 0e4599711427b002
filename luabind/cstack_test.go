package luabind

import (
	"runtime"
	"strings"
	"testing"

	lua "github.com/yuin/gopher-lua"

	"github.com/squarebattle/squarebattle/engine"
)

// extraTeam is stringTeam with Go functions added to the class's globals
// (TeamOptions.Extra), which the sandbox never offers.
func extraTeam(t testing.TB, src string, lim Limits, extra ...Global) (*Team, *lua.LTable) {
	t.Helper()
	cat := catalogOf(t, map[string]string{"x.lua": src}, lim)
	if len(cat.All) != 1 || cat.All[0].Err != nil {
		t.Fatalf("the script does not load: %v", cat.All[0].Err)
	}
	tm := NewTeam(TeamOptions{Catalog: cat, Entry: "-", Extra: extra})
	t.Cleanup(tm.Close)
	cs := tm.class(0)
	if cs.err != "" {
		t.Fatal(cs.err)
	}
	return tm, cs.table
}

// routeMessage is the message Lua 5.1 gives for route r of
// stackCostScript: "stack overflow" where the Lua stack fills (plain
// recursion, and __call, which Lua 5.1 and gopher-lua both run without
// a C call); "C stack overflow" where C calls nest, with the position of
// the operation that called a metamethod, and none where a builtin
// called the function (as /usr/bin/lua5.1 prints them).
func routeMessage(t testing.TB, src string, r int) string {
	t.Helper()
	route := overflowRoutes[r]
	line := 0
	for i, l := range strings.Split(src, "\n") {
		if l == route.setup {
			line = i + 1
		}
	}
	if line == 0 {
		t.Fatalf("%s: no setup line in the script", route.name)
	}
	pos := "t/x.lua:" + itoa(line) + ": "
	switch route.name {
	case "lua", "call":
		return pos + "stack overflow"
	case "tostring", "sort", "gsub", "gsubindex", "foreach", "foreachi":
		return "C stack overflow"
	}
	return pos + "C stack overflow"
}

// TestGoNestingBounded: a metamethod or a builtin's callback that recurses
// into itself nests main loops on the Go stack, one a level (cstack.go).
// At the largest limits.call_depth (10,000) that was 10,000 levels, about
// ten Go frames each, which the error that ended them unwound in one Go
// panic walking every frame. The nesting now stops at Lua 5.1's C stack
// limit, whatever call_depth is, with Lua 5.1's message. The bound on the
// Go frames under the error handler (which runs on top of the failed
// frames) stands for the work of unwinding them; the count of levels a
// route reached is exact.
func TestGoNestingBounded(t *testing.T) {
	lim := DefaultLimits()
	lim.CallDepth = 10000
	lim.Instructions = 1_000_000
	src := stackCostScript() // each route is M[name]
	src = strings.Replace(src, "return M\n", `
M.probe = function(name) return xpcall(M[name], gostack) end
return M
`, 1)
	deepest := 0
	pcs := make([]uintptr, 1<<17) // 131,072: room for the 100,000 frames the nesting reached
	gostack := func(L *lua.LState) int {
		deepest = max(deepest, runtime.Callers(0, pcs))
		return 1 // the error, as it came
	}
	tm, tbl := extraTeam(t, src, lim, Global{Name: "gostack", Fn: gostack})
	for i, r := range overflowRoutes {
		deepest = 0
		tm.L.Push(tbl.RawGetString("probe"))
		tm.L.Push(lua.LString(r.name))
		f, msg, used := tm.callWithin(1, 2, lim.Instructions)
		ok, e := tm.L.Get(1), tm.L.Get(2)
		tm.L.SetTop(0)
		want := routeMessage(t, src, i)
		if f != engine.NoFault {
			t.Errorf("%s: fault %v: %s", r.name, f, msg)
		} else if ok != lua.LFalse || lua.LVAsString(e) != want {
			t.Errorf("%s: xpcall gave %v, %q; want false, %q", r.name, ok, lua.LVAsString(e), want)
		}
		if deepest > 200*32 {
			t.Errorf("%s: %d Go frames under the handler, want at most %d (32 a level of Lua 5.1's 200)", r.name, deepest, 200*32)
		}
		if tm.budget.nest != 0 {
			t.Errorf("%s: Go nesting %d after the call, want 0", r.name, tm.budget.nest)
		}
		t.Logf("%s: %d instructions, %d Go frames: %s", r.name, used, deepest, lua.LVAsString(e))
	}
}

// TestCStackLikeLua51: the nesting counts the levels Lua 5.1 counts (every
// protected call, metamethod, callback and Lua iterator), and what a
// script sees at the limit is what Lua 5.1 shows (/usr/bin/lua5.1 gives
// the same results): the error's message, an xpcall handler that runs on
// top of it with 25 levels of its own, and "error in error handling" past
// those. The levels reached are counted exactly, so that the limit cannot
// move unnoticed.
func TestCStackLikeLua51(t *testing.T) {
	src := `local n = 0
	local t = setmetatable({}, {}) getmetatable(t).__index = function(t, k) n = n + 1 return t[k] end
	local function route() return t.x end
	local function it() for x in it do end end
	local function iterate() for x in it do end end
	local M = { name = "X", run = function() end }
	M.levels = function() n = 0 local ok, e = pcall(route) local a = n n = 0 pcall(route) return e .. " " .. a .. " " .. n end
	M.handler = function() return select(2, xpcall(route, route)) end
	M.inhandler = function()
	  return select(2, xpcall(route, function(e) n = 0 local ok, e2 = pcall(route) return e .. " / " .. tostring(e2) .. " " .. n end))
	end
	M.iterator = function() return select(2, pcall(iterate)) end
	M.uncaught = route
	return M`
	lim := DefaultLimits()
	lim.Instructions = 1_000_000
	tm, tbl := stringTeam(t, src, lim)
	for _, tc := range []struct {
		name, want string
		most       int // instructions, when bounded
	}{
		// The call runs at level 1, pcall's callee at 2, and the 197th
		// __index at 199. Lua 5.1 counts 196 from its standalone
		// interpreter's main chunk, which runs a few C calls deeper.
		{"levels", "t/x.lua:2: C stack overflow 197 197", 0},
		// The handler overflows again and again in the 25 levels left to
		// error handling, each time a level deeper, as Lua 5.1 nests the
		// calls: about 25 calls (17,000 instructions). Called again 200
		// times on the same level, it took 175,000.
		{"handler", "error in error handling", 20_000},
		{"inhandler", "t/x.lua:2: C stack overflow / error in error handling 22", 0},
		{"iterator", "t/x.lua:4: C stack overflow", 0},
	} {
		tm.L.Push(tbl.RawGetString(tc.name))
		f, msg, used := tm.callWithin(0, 1, lim.Instructions)
		got := lua.LVAsString(tm.L.Get(1))
		tm.L.SetTop(0)
		if f != engine.NoFault || got != tc.want {
			t.Errorf("%s: %v %s, returned %q; want %q", tc.name, f, msg, got, tc.want)
		}
		if tc.most > 0 && used > tc.most {
			t.Errorf("%s: %d instructions, want at most %d", tc.name, used, tc.most)
		}
	}
	if f, msg, _ := callField(tm, tbl, "uncaught", lim.Instructions); f != engine.FaultError || msg != "t/x.lua:2: C stack overflow" {
		t.Errorf("uncaught: %v %q", f, msg)
	}
	if tm.budget.nest != 0 {
		t.Errorf("Go nesting %d after the calls, want 0", tm.budget.nest)
	}
}

// TestCaughtOverflowCharged: a caught error is charged for the Go levels
// it unwinds (unwindCost each, cstack.go), so a loop that overflows the
// C stack again and again through pcall or xpcall spends its budget in
// a few rounds, as its work does; uncharged, each round cost about 200
// instructions and a call ran 50 of them.
func TestCaughtOverflowCharged(t *testing.T) {
	src := stackCostScript()
	var extra strings.Builder
	for _, r := range overflowRoutes {
		for _, mode := range []string{"pcall", "xpcall"} {
			extra.WriteString("M." + r.name + "_" + mode + "_count = function() local n = 0 while true do n = n + 1 M.count = n " +
				mode + "(M." + r.name + ", tostring) end end\n")
		}
	}
	src = strings.Replace(src, "return M\n", extra.String()+"return M\n", 1)
	lim := DefaultLimits()
	tm, tbl := stringTeam(t, src, lim)
	// A round enters about 200 levels and unwinds them. Charged 25
	// instructions or more a level unwound (what BenchmarkStackOverflow
	// needs to stay within about twice a full-budget call), a call runs at
	// most 2 rounds; uncharged, it ran 48.
	const most = 2
	for _, r := range overflowRoutes {
		if r.name == "lua" || r.name == "call" {
			continue // the Lua stack: no Go nesting
		}
		for _, mode := range []string{"pcall", "xpcall"} {
			name := r.name + "_" + mode + "_count"
			f, msg, _ := callField(tm, tbl, name, lim.Instructions)
			n, _ := tbl.RawGetString("count").(lua.LNumber)
			if f != engine.FaultTimeout {
				t.Errorf("%s: %v %s, want the budget spent", name, f, msg)
			}
			if n < 1 || int(n) > most {
				t.Errorf("%s: %v overflows caught in one call, want 1 to %d", name, n, most)
			}
		}
	}
}
