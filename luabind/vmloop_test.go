package luabind

import (
	"strings"
	"testing"

	lua "github.com/yuin/gopher-lua"
)

// TestCountedLoopInstalled fails when the layout check rejected the
// gopher-lua in use: teams would still be budgeted, through the slower
// context loop, but the speed would be lost unnoticed.
func TestCountedLoopInstalled(t *testing.T) {
	if !countedLoopOK {
		t.Fatal("gopher-lua's LState or callFrame layout changed: the counted main loop is off (see vmloop.go)")
	}
}

// TestCountedLoopCountsLikeContext runs the same code under the counted
// loop and under gopher-lua's context loop and wants the same number of
// instructions, and the same stop, from both.
func TestCountedLoopCountsLikeContext(t *testing.T) {
	scripts := map[string]string{
		"loops": `local s = 0
			for i = 1, 50 do s = s + i end
			local i = 0 while i < 20 do i = i + 1 end
			repeat i = i - 1 until i == 0
			for k, v in ipairs({1, 2, 3}) do s = s + v end
			return s`,
		"calls": `local function f(n) if n == 0 then return 0 end return 1 + f(n - 1) end
			local function g(n) if n == 0 then return 0 end return g(n - 1) end
			return f(30) + g(30)`,
		"pcall": `local ok, e = pcall(function() local x = 1 + 1 error("boom") end)
			local ok2 = pcall(error)
			return ok`,
		"metamethods": `local t = setmetatable({}, {__index = function(t, k) return k * 2 end,
				__add = function(a, b) return 7 end, __lt = function(a, b) return true end})
			local s = t[1] + t[2]
			local u = t + t
			return t < t`,
		"sort": `local t = {5, 3, 8, 1, 9, 2}
			table.sort(t, function(a, b) return a > b end)
			return t[1]`,
		"gsub":      `return (string.gsub("hello world", "%w+", function(w) return w .. "!" end))`,
		"spin":      `while true do end`,
		"spinpcall": `while true do pcall(function() while true do end end) end`,
		"spinsort": `local t = {} for i = 1, 100 do t[i] = i end
			table.sort(t, function(a, b) while true do end end)`,
		"spingsub": `string.gsub(string.rep("a", 100), "a", function() while true do end end)`,
		"deep":     `local function f() return 1 + f() end return f()`,
	}
	run := func(src string, counted bool) (left int64, spent bool, err error) {
		L := lua.NewState()
		defer L.Close()
		b := &budget{}
		if counted {
			b.install(L)
		} else {
			L.SetContext(b)
		}
		fn, err := L.LoadString(src)
		if err != nil {
			t.Fatal(err)
		}
		b.reset(100000)
		L.Push(fn)
		err = L.PCall(0, 0, nil)
		return b.remaining(), b.spent, err
	}
	for name, src := range scripts {
		t.Run(name, func(t *testing.T) {
			l1, s1, e1 := run(src, true)
			l2, s2, e2 := run(src, false)
			if l1 != l2 || s1 != s2 || (e1 == nil) != (e2 == nil) || (e1 != nil && e1.Error() != e2.Error()) {
				t.Fatalf("counted loop: %d left, spent %v, err %v; context loop: %d left, spent %v, err %v", l1, s1, e1, l2, s2, e2)
			}
			if strings.HasPrefix(name, "spin") && (!s1 || e1 == nil || !strings.Contains(e1.Error(), errBudget.Error())) {
				t.Fatalf("spinning script not stopped by the budget: spent %v, err %v", s1, e1)
			}
			if l1 == 100000 {
				t.Fatalf("nothing was counted")
			}
		})
	}
}

// TestHeavyPlayerInstructions keeps BenchmarkHeavyCall's player what its
// comment says: about 6,000 instructions a call, inside the budget.
func TestHeavyPlayerInstructions(t *testing.T) {
	L := lua.NewState()
	defer L.Close()
	b := &budget{}
	b.install(L)
	b.reset(1 << 30)
	L.SetGlobal("WAIT", lua.LString("wait"))
	if err := L.DoString(heavyPlayer); err != nil {
		t.Fatal(err)
	}
	run := L.Get(-1).(*lua.LTable).RawGetString("run")
	view := L.NewTable()
	for d := 1; d <= 8; d++ {
		view.RawSetInt(d, lua.LNumber(d))
	}
	b.reset(100000)
	if err := L.CallByParam(lua.P{Fn: run, NRet: 1, Protect: true}, L.NewTable(), lua.LNumber(0), view); err != nil {
		t.Fatal(err)
	}
	if used := 100000 - b.remaining(); used < 5500 || used > 6500 {
		t.Fatalf("the heavy player ran %d instructions, want about 6,000", used)
	}
}
