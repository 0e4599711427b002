package luabind

import (
	"math"
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
	if !callsOK {
		t.Fatal("gopher-lua's call stack layout changed: fastLoop leaves every call and return to gopher-lua (see vmcall.go)")
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

// TestHeavyPlayerInstructions keeps BenchmarkHeavyCall's players what
// their comments say: about 6,000 instructions a call, inside the budget.
func TestHeavyPlayerInstructions(t *testing.T) {
	for _, src := range []string{heavyPlayer, callPlayer} {
		heavyPlayerInstructions(t, src)
	}
}

func heavyPlayerInstructions(t *testing.T, src string) {
	L := lua.NewState()
	defer L.Close()
	b := &budget{}
	b.install(L)
	b.reset(1 << 30)
	L.SetGlobal("WAIT", lua.LString("wait"))
	if err := L.DoString(src); err != nil {
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
		t.Fatalf("the heavy player ran %d instructions, want about 6,000:\n%s", used, src)
	}
}

// counted runs src's chunk in a fresh state under the counted loop with
// budget limit; the chunk returns a function, which is then called once
// with a fresh budget. It gives the instructions the call used, and its
// error.
func counted(t *testing.T, src string, limit int) (int64, error) {
	t.Helper()
	L := lua.NewState(lua.Options{CallStackSize: 200, RegistrySize: 1024 * 4, RegistryMaxSize: 1024 * 64}) // as a team's
	t.Cleanup(L.Close)
	b := &budget{}
	b.install(L)
	b.reset(1 << 40)
	if err := L.DoString(src); err != nil {
		t.Fatal(err)
	}
	fn := L.Get(-1)
	b.reset(limit)
	err := L.CallByParam(lua.P{Fn: fn, NRet: 0, Protect: true})
	return int64(limit) - b.remaining(), err
}

// TestChargedOpcodes: each opcode whose Go work grows with its operands is
// charged for that work, at least the rate in cost.go says; so a loop of
// them is stopped by the budget after a bounded amount of work.
func TestChargedOpcodes(t *testing.T) {
	const setup = `local big = {} for i = 1, 4000 do big[i] = i end
		local a = string.rep("a", 1048576)
		local a2 = string.rep("a", 1048576)
		local b = a .. "b"
		local k = string.rep("k", 1048576)
		local num = string.rep("1", 4096)
		local t = {}
		local chain = setmetatable({}, {__index = setmetatable({}, {__index = {}})})
		local function pass(...) return ... end
		local function pack(...) return {...} end
		local holes = {} for i = 1, 1000 do holes[i] = i end for i = 2, 1000 do holes[i] = nil end
		local far = {} for i = 1, 1023 do far[i] = i end for e = 10, 52 do far[2 ^ e] = e end
		`
	cases := []struct {
		name, body string
		min        int64 // instructions the work must be charged at least
	}{
		{"vararg+call+return", "pass(unpack(big, 1, 4000))", 2 * 4000 / valuesPerInstruction},
		{"setlist", "local x = {unpack(big, 1, 4000)}", 4000 / valuesPerInstruction},
		{"vararg table", "pack(unpack(big, 1, 4000))", 3 * 4000 / valuesPerInstruction},
		{"lt", "local x = a < b", 1048576 / bytesPerInstruction},
		{"le", "local x = a <= b", 1048576 / bytesPerInstruction},
		{"eq", "local x = a == a2", 1048576 / bytesPerInstruction},
		{"gettable", "local x = t[k]", 1048576 / bytesPerInstruction},
		{"settable", "t[k] = 1", 1048576 / bytesPerInstruction},
		{"index chain", "local x = chain[k]", 3 * 1048576 / bytesPerInstruction},
		{"add string", "local x = num + 1", 4096 / numeralBytesPerInstruction},
		{"mod string", "local x = num % 7", 4096 / numeralBytesPerInstruction},
		{"pow string", "local x = 2 ^ num", 4096 / numeralBytesPerInstruction},
		{"unm string", "local x = -num", 4096 / numeralBytesPerInstruction},
		{"len trailing nils", "local x = #holes", 999 / keysPerInstruction},
		{"len hash border", "local x = #far", 80 / probesPerInstruction},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			once, err := counted(t, setup+"return function() "+c.body+" end", 1<<30)
			if err != nil {
				t.Fatal(err)
			}
			if once < c.min {
				t.Errorf("charged %d instructions, want at least %d", once, c.min)
			}
			used, err := counted(t, setup+"return function() while true do "+c.body+" end end", 10000)
			if err == nil || !strings.Contains(err.Error(), errBudget.Error()) {
				t.Fatalf("a loop of it was not stopped by the budget: %v", err)
			}
			// The loop stops within one round of the work past the budget.
			if used > 10000+once {
				t.Errorf("the loop ran %d instructions' worth, more than the budget plus one round (%d)", used, once)
			}
		})
	}
}

// TestHonestOpcodesFree: short strings, small calls and plain arithmetic
// are charged nothing beyond their instructions, as counted by
// gopher-lua's own context loop.
func TestHonestOpcodesFree(t *testing.T) {
	for name, body := range map[string]string{
		"compare":  `local x = ("abc" < "abd") and ("x" == "x")`,
		"index":    `local t = {} t.a = 1 t["b"] = 2 local x = t.a + t["b"]`,
		"arith":    `local x = (7 % 3) + 2 ^ 10 - "12" * 2`,
		"varargs":  `local function f(...) return ... end local t = {f(1, 2, 3)}`,
		"multiret": `local function f() return 1, 2, 3 end local a, b, c = f()`,
		"methods":  `local s = ("x"):rep(3):upper()`,
		"length":   `local t = {1, 2, 3} local x = #t + #"abc" + #{}`,
	} {
		t.Run(name, func(t *testing.T) {
			src := "return function() for i = 1, 100 do " + body + " end end"
			got, err := counted(t, src, 100000)
			if err != nil {
				t.Fatal(err)
			}
			L := lua.NewState()
			defer L.Close()
			b := &budget{}
			L.SetContext(b)
			b.reset(1 << 40)
			if err := L.DoString(src); err != nil {
				t.Fatal(err)
			}
			b.reset(100000)
			if err := L.CallByParam(lua.P{Fn: L.Get(-1), Protect: true}); err != nil {
				t.Fatal(err)
			}
			if want := 100000 - b.remaining(); got != want {
				t.Errorf("charged %d instructions, the context loop counts %d", got, want)
			}
		})
	}
}

// TestIndexErrors: indexing what cannot be indexed gives Lua 5.1's message,
// naming the variable where it can, and never a Go address: the same text
// in two fresh states.
func TestIndexErrors(t *testing.T) {
	cases := []struct{ body, want string }{
		{`local p; return p[{}]`, "attempt to index local 'p' (a nil value)"},
		{`return undefinedglobal[{}]`, "attempt to index global 'undefinedglobal' (a nil value)"},
		{`local q = {} return q.f[print]`, "attempt to index field 'f' (a nil value)"},
		{`local q = 5 q[{}] = 1`, "attempt to index local 'q' (a number value)"},
		{`local q = setmetatable({}, {__index = true}) return q[{}]`, "attempt to index a boolean value"},
		{`local q = setmetatable({}, {__newindex = 1}) q[{}] = 1`, "attempt to index a number value"},
		{`local n; n:foo()`, "attempt to index local 'n' (a nil value)"},
		{`local f = print; return f[function() end]`, "attempt to index local 'f' (a function value)"},
		{`return (nil)[{}]`, "attempt to index a nil value"},
	}
	for _, c := range cases {
		t.Run(c.want, func(t *testing.T) {
			var msgs []string
			for range 2 {
				L := lua.NewState()
				b := &budget{}
				b.install(L)
				b.reset(100000)
				err := L.DoString(`local ok, e = pcall(function() ` + c.body + ` end) error(e, 0)`)
				L.Close()
				if err == nil {
					t.Fatal("no error")
				}
				msgs = append(msgs, err.Error())
			}
			if !strings.Contains(msgs[0], c.want) || strings.Contains(msgs[0], "0x") || msgs[0] != msgs[1] {
				t.Errorf("messages %q, want the same one containing %q and no address", msgs, c.want)
			}
		})
	}
}

// TestArithFoldedLikeRuntime: `%` and `^` (and what surrounds them) written
// on constants give the same bits as the same operations on variables,
// because the compiler folds them with the VM's own functions; and `%` is
// Lua 5.1's a - floor(a/b)*b.
func TestArithFoldedLikeRuntime(t *testing.T) {
	cases := []struct{ folded, runtime string }{
		{"7.3 % 2.1", "local a, b = 7.3, 2.1 return a % b"},
		{"-7.3 % 2.1", "local a, b = -7.3, 2.1 return a % b"},
		{"7.3 % -2.1", "local a, b = 7.3, -2.1 return a % b"},
		{"5 % (1/0)", "local a, b = 5, 1/0 return a % b"},
		{"1e308 % 5e-324", "local a, b = 1e308, 5e-324 return a % b"},
		{"2 ^ 0.5", "local a, b = 2, 0.5 return a ^ b"},
		{"(-8) ^ (1/3)", "local a, b = -8, 1/3 return a ^ b"},
		{"10 ^ 400", "local a, b = 10, 400 return a ^ b"},
		{"-(2 ^ 0.5)", "local a, b = 2, 0.5 return -(a ^ b)"},
		{"(1 + 1) ^ 0.5 % 0.3", "local a, b, c = 1, 0.5, 0.3 return (a + a) ^ b % c"},
		{"0 * -1", "local a, b = 0, -1 return a * b"},
		{"0x10 % 3", "local a, b = 16, 3 return a % b"},
	}
	value := func(src string) float64 {
		t.Helper()
		proto, err := compileScript("t.lua", []byte(src), 1<<20)
		if err != nil {
			t.Fatal(err)
		}
		L := lua.NewState()
		defer L.Close()
		b := &budget{}
		b.install(L)
		b.reset(1000)
		L.Push(L.NewFunctionFromProto(proto))
		if err := L.PCall(0, 1, nil); err != nil {
			t.Fatal(err)
		}
		return float64(L.Get(-1).(lua.LNumber))
	}
	for _, c := range cases {
		f, r := value("return "+c.folded), value(c.runtime)
		if math.Float64bits(f) != math.Float64bits(r) && !(math.IsNaN(f) && math.IsNaN(r)) {
			t.Errorf("%s: folded %v (%#x), at run time %v (%#x)", c.folded, f, math.Float64bits(f), r, math.Float64bits(r))
		}
	}
	if got, want := value("return 7.3 % 2.1"), 7.3-math.Floor(7.3/2.1)*2.1; got != want {
		t.Errorf("7.3 %% 2.1 = %v, want Lua 5.1's %v", got, want)
	}
}

// TestLongKeys: a string literal (or a field name) used as a key, long
// enough for hashing it to count, is looked up by a charged instruction; a
// variable or method name that long is refused at load.
func TestLongKeys(t *testing.T) {
	long := strings.Repeat("k", maxConstantKey+1)
	proto, err := compileScript("t.lua", []byte(`local t = {["`+long+`"] = 1} t["`+long+`"] = 2 t.`+long+` = 3 return t["`+long+`"]`), 1<<20)
	if err != nil {
		t.Fatal(err)
	}
	for _, inst := range proto.Code {
		if op := int(inst >> 26); op == lua.OP_GETTABLEKS || op == lua.OP_SETTABLEKS {
			t.Errorf("a %d-byte literal key compiled to an uncharged lookup: %s", len(long), proto.String()[:200])
		}
	}
	for _, src := range []string{
		long + " = 1",
		"local x = " + long,
		"local t = {} t:" + long + "()",
		"local t = {} function t:" + long + "() end",
	} {
		if _, err := compileScript("t.lua", []byte(src), 1<<20); err == nil || !strings.Contains(err.Error(), "names are limited") {
			t.Errorf("%.40s…: %v, want the name refused", src, err)
		}
	}
}
