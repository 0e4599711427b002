package luabind

import (
	"runtime"
	"strings"
	"testing"

	"github.com/squarebattle/squarebattle/engine"
)

// TestErrorsAtFullStack: an error raised with the call stack full (a
// stack overflow, caught) is handled in the room kept past
// limits.call_depth (stackroom.go), so gopher-lua never builds its
// traceback of every frame, which it did when the handler's own frame
// did not fit: a million steps for one caught error at a depth of 1,000.
// What a script sees is unchanged: the same depth, the same messages;
// an xpcall handler runs on an overflow, as in Lua 5.1. The bound on the
// bytes a call allocates stands for the work (a traceback allocates a
// string per frame per frame).
func TestErrorsAtFullStack(t *testing.T) {
	src := `local function deep() return 1 + deep() end
	local function depth()
	  local n = 0
	  local function f() n = n + 1 return 1 + f() end
	  pcall(f)
	  return n
	end
	local function nest(n) -- pcall(pcall, pcall, ..., f): one frame a pcall
	  local t = {}
	  for i = 1, n do t[i] = pcall end
	  t[n + 1] = deep
	  return t
	end
	return { name = "X", run = function() end,
	  pcallloop = function() while true do pcall(deep) end end,
	  xpcallnest = function()
	    local function h(e) return xpcall(function() error("x") end, h) end
	    while true do xpcall(function() error("x") end, h) end
	  end,
	  handlerloop = function()
	    local function h(e) local r = {xpcall(deep, h)} return r[2] end
	    local ok, e = xpcall(deep, h)
	    error("got " .. tostring(ok) .. " " .. tostring(e), 0)
	  end,
	  handled = function()
	    local ok, e = xpcall(deep, function(e) return "handled: " .. e end)
	    error(tostring(ok) .. " " .. e, 0)
	  end,
	  sameDepth = function()
	    local a = depth()
	    local b = depth()
	    error("depths " .. a .. " " .. b, 0)
	  end,
	  goChain = function()
	    local ok, e = pcall(unpack(nest(1100)))
	    error(tostring(ok) .. " " .. tostring(e), 0)
	  end,
	  goChainLoop = function()
	    local t = nest(1100)
	    while true do pcall(unpack(t)) end
	  end,
	  uncaught = function() return deep() end,
	}`
	lim := DefaultLimits()
	tm, tbl := stringTeam(t, src, lim)
	tests := []struct {
		name   string
		fault  engine.Fault
		shown  string
		budget int
	}{
		{"pcallloop", engine.FaultTimeout, "instruction budget", 0},
		{"xpcallnest", engine.FaultTimeout, "instruction budget", 0},
		{"handlerloop", engine.FaultError, "got false error in error handling", 0},
		{"handled", engine.FaultError, "false handled: t/x.lua:1: stack overflow", 0},
		{"sameDepth", engine.FaultError, "depths 997 997", 4 * lim.Instructions},
		{"goChain", engine.FaultError, "true true", 0},
		{"goChainLoop", engine.FaultTimeout, "instruction budget", 0},
		{"uncaught", engine.FaultError, "t/x.lua:1: stack overflow", 0},
	}
	for _, tc := range tests {
		runtime.GC()
		var m0, m1 runtime.MemStats
		runtime.ReadMemStats(&m0)
		budget := lim.Instructions
		if tc.budget > 0 {
			budget = tc.budget
		}
		f, msg, used := callField(tm, tbl, tc.name, budget)
		runtime.ReadMemStats(&m1)
		alloc := m1.TotalAlloc - m0.TotalAlloc
		switch {
		case f != tc.fault:
			t.Errorf("%s: fault %v (%s), want %v", tc.name, f, msg, tc.fault)
		case !strings.Contains(msg, tc.shown):
			t.Errorf("%s: %q, want it to contain %q", tc.name, msg, tc.shown)
		case alloc > 1<<20:
			t.Errorf("%s: the call allocated %d KiB, want at most 1 MiB (a traceback built?)", tc.name, alloc>>10)
		}
		if st := fixedStack(tm.L); st != nil && len(st.array) != lim.CallDepth {
			t.Errorf("%s: the call stack is left %d frames long, want %d", tc.name, len(st.array), lim.CallDepth)
		}
		t.Logf("%s: %d instructions, %d KiB: %s", tc.name, used, alloc>>10, msg)
	}
}
