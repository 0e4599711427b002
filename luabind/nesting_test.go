package luabind

import (
	"runtime"
	"strings"
	"testing"
	"time"
)

// TestNestingLimits: what Lua 5.1 compiles compiles here too — chains of
// up to 1,000 left-associative operators or elseifs, which Lua's parser
// reads without limit — while true nesting stops at Lua's own 200 levels.
// The log shows each script's compile time and the Go stack it needed
// (the figures quoted in compile.go).
func TestNestingLimits(t *testing.T) {
	rep := strings.Repeat
	cases := []struct {
		name, src string
		ok        bool
	}{
		{"sum of 1,000 terms", "local x = 1\nreturn x" + rep("+x", 999), true},
		{"comparison chain", "local x = 1\nreturn x" + rep(" == x", 500), true},
		{"and/or chain of 1,000", "local x = 1\nreturn x" + rep(" and x", 999), true},
		{"1,000 elseifs", "local x = 1\nif x == 0 then x = 0" + rep("\nelseif x == 2 then x = 3", 1000) + "\nend\nreturn x", true},
		{"sum of 1,300 terms", "local x = 1\nreturn x" + rep("+x", 1300), false},
		{"190 parentheses", "return " + rep("(", 190) + "1" + rep(")", 190), true},
		{"250 calls in calls", "local f = type\nreturn " + rep("f(", 250) + "1" + rep(")", 250), false},
		{"250 nested functions", rep("return function() ", 250) + "return 1" + rep(" end", 250), false},
		{"250 nested blocks", rep("do ", 250) + rep(" end", 250), false},
	}
	for _, tc := range cases {
		var m runtime.MemStats
		start := time.Now()
		_, err := compileScript("x.lua", []byte(tc.src), 1<<20)
		elapsed := time.Since(start)
		runtime.ReadMemStats(&m)
		switch {
		case tc.ok && err != nil:
			t.Errorf("%s: %v", tc.name, err)
		case !tc.ok && (err == nil || !strings.Contains(err.Error(), "nesting deeper")):
			t.Errorf("%s: compiled (%v), want the nesting error", tc.name, err)
		}
		t.Logf("%s: %v, Go stacks in use %d KiB", tc.name, elapsed, m.StackInuse>>10)
	}
}

// TestCallDepth: recursion as deep as the official pm.lua's (255) and
// deeper runs with the default limits; past limits.call_depth it is an
// error. Recursion through pcall, a Go recursion, stops at Lua 5.1's C
// stack limit of 200 levels (cstack.go), as in Lua 5.1: f(450) fails there
// with the same message.
func TestCallDepth(t *testing.T) {
	got := luaResults(t, []string{
		`(function() local function f(n) if n == 0 then return 0 end return 1 + f(n - 1) end return f(900) end)()`,
		`(function() local function f(n) if n == 0 then return 0 end return 1 + f(n - 1) end return (pcall(f, 5000)) end)()`,
		`(function() local function f(n) if n == 0 then return 0 end local ok, v = pcall(f, n - 1) return v + 1 end return f(190) end)()`,
		`(function() local function f(n) if n == 0 then return 0 end local ok, v = pcall(f, n - 1) return v + 1 end return f(450) end)()`,
		`(function() local function f(n) if n == 0 then return 101 end return f(n - 1) end return f(30000) end)()`,
	})
	want := []string{"n:900", "boolean:false", "n:190", "error: attempt to perform arithmetic on local 'v' (a string value)", "n:101"}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("case %d: got %q, want %q", i, got[i], want[i])
		}
	}
}

// TestCallDepthMemory measures what the call-depth limit costs a team's
// Lua state (gopher-lua allocates the whole frame stack up front): the
// log shows the heap per team at Lua 5.1's old default of 200 and at
// today's 1,000, and the test fails if 1,000 frames cost more than 256
// KiB a team.
func TestCallDepthMemory(t *testing.T) {
	perTeam := func(depth int) int64 {
		lim := DefaultLimits()
		lim.CallDepth = depth
		cat := catalogOf(t, map[string]string{"x.lua": idle}, lim)
		var m0, m1 runtime.MemStats
		runtime.GC()
		runtime.ReadMemStats(&m0)
		const n = 20
		teams := make([]*Team, n)
		for i := range teams {
			teams[i] = NewTeam(TeamOptions{Catalog: cat, Entry: "-"})
		}
		runtime.GC()
		runtime.ReadMemStats(&m1)
		for _, tm := range teams {
			tm.Close()
		}
		return (int64(m1.HeapAlloc) - int64(m0.HeapAlloc)) / n
	}
	small, big := perTeam(200), perTeam(1000)
	t.Logf("heap per team: %d KiB at call depth 200, %d KiB at 1,000", small>>10, big>>10)
	if big-small > 256<<10 {
		t.Errorf("800 more frames cost %d KiB a team", (big-small)>>10)
	}
}
