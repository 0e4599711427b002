package luabind

import (
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/squarebattle/squarebattle/engine"
)

// runLua runs code as the body of a player's run function (from line 2
// of t/s.lua) in a fresh team, under a budget of limit instructions. It
// returns the lines printed, the fault and its message, and the
// instructions counted.
func runLua(t testing.TB, code string, limit int) (log []string, fault engine.Fault, msg string, used int) {
	t.Helper()
	lim := DefaultLimits()
	lim.Instructions = limit
	cat := catalogOf(t, map[string]string{"s.lua": "return { name = \"S\", run = function()\n" + code + "\nend }"}, lim)
	tm := NewTeam(TeamOptions{Catalog: cat, Size: 4, Teams: 1, Killers: []string{"none"}})
	t.Cleanup(tm.Close)
	tm.facts = &engine.Facts{}
	cs := tm.class(0)
	if cs.err != "" {
		t.Fatal(cs.err)
	}
	tm.L.Push(cs.run)
	fault, msg, used = tm.callWithin(0, 0, limit)
	tm.L.SetTop(0)
	return tm.Log(), fault, msg, used
}

// TestBaseLibrary compares what snippets print with what Lua 5.1 prints
// (lua5.1 gives the same lines for each, file positions aside) for the
// base and table functions the project implements.
func TestBaseLibrary(t *testing.T) {
	tests := []struct{ name, code, want string }{
		// next and pairs
		{"pairs order", `local t = {10, 20, x = 1} t.y = 2 t[2000] = 3 t[1.5] = 4
			local s = "" for k, v in pairs(t) do s = s .. k .. "=" .. v .. "," end print(s)`, "1=10,2=20,x=1,y=2,2000=3,1.5=4,"},
		{"pairs is next", `print(select("#", pairs({})), (pairs({})) == next, next({}))`, "3\ttrue\tnil"},
		{"clear while traversing", `local t = {} for i = 1, 300 do t["k" .. i] = i end
			local n = 0 for k in pairs(t) do t[k] = nil n = n + 1 end print(n, next(t))`, "300\tnil"},
		{"nested traversals while clearing", `local t = {} for i = 1, 200 do t["k" .. i] = i end
			local outer, inner, sum = 0, 0, 0
			for k, v in pairs(t) do
				t[k] = nil outer = outer + 1 sum = sum + v
				if outer % 50 == 0 then for k2 in pairs(t) do inner = inner + 1 end end
			end
			print(outer, inner, sum, next(t))`, "200\t300\t20100\tnil"},
		{"inner loop clears too", `local t = {} for i = 1, 120 do t["k" .. i] = i end
			local seen = 0
			for k in pairs(t) do
				seen = seen + 1
				t[k] = nil
				local m = 0
				for k2 in pairs(t) do m = m + 1 if m <= 2 then t[k2] = nil end end
			end
			print(seen, next(t))`, "40\tnil"},
		{"resume across two compactions", `local t = {} for i = 1, 100 do t["k" .. i] = i end
			local outer, s = 0, ""
			for k, v in pairs(t) do
				outer = outer + 1 s = s .. v .. " "
				if outer == 1 then
					for i = 1, 90 do t["k" .. i] = nil end
					for _ in pairs(t) do end
					for i = 1, 100 do t["x" .. i] = i end
					for i = 1, 100 do t["x" .. i] = nil end
					for _ in pairs(t) do end
				end
			end
			print(outer, s)`, "11\t1 91 92 93 94 95 96 97 98 99 100 "},
		{"reinsert after compaction", `local t = {} for i = 1, 100 do t["k" .. i] = i end
			for i = 1, 90 do t["k" .. i] = nil end
			local n = 0 for k in pairs(t) do n = n + 1 end
			t.k1 = "again" t.new = 1 t.k95 = 95.5
			local s = "" for k, v in pairs(t) do s = s .. k .. "," end
			print(n, s, t.k95, t.k1, t.k50)`, "10\tk91,k92,k93,k94,k95,k96,k97,k98,k99,k100,k1,new,\t95.5\tagain\tnil"},
		{"number and table keys compacted", `local t, keys = {}, {} for i = 1, 100 do keys[i] = {} t[keys[i]] = i t[i + 5000] = i end
			for i = 1, 95 do t[keys[i]] = nil t[i + 5000] = nil end
			local n, s = 0, 0 for k, v in pairs(t) do n = n + 1 s = s + v end
			t[keys[1]] = 1 t[5001] = 1
			for k, v in pairs(t) do n = n + 1 end
			print(n, s, t[keys[100]], t[5100], table.maxn(t))`, "22\t980\t100\t100\t5100"},
		{"remove while traversing", `local t = {1, 2, 3, 4, x = 5} local n = 0 for k, v in pairs(t) do n = n + 1 if k == 4 then table.remove(t) end end print(n, #t, t.x)`, "5\t3\t5"},
		{"deleted array key", `local t = {1, 2, 3} t[2] = nil print(next(t, 2)) print(next(t, 1))`, "3\t3\n3\t3"},
		{"invalid key", `print(pcall(next, {}, "nope")) print(pcall(next, {1}, 2000))`, "false\tinvalid key to 'next'\nfalse\tinvalid key to 'next'"},
		// tonumber
		{"tonumber base 10", `print(tonumber("0x10"), tonumber("  12  "), tonumber("1e2"), tonumber("abc"), tonumber(""), tonumber(nil), tonumber("5", 10), tonumber(" -0x1p4 "))`,
			"16\t12\t100\tnil\tnil\tnil\t5\t-16"},
		{"tonumber bases", `print(tonumber("10", 2), tonumber("ff", 16), tonumber("0xff", 16), tonumber("zz", 36), tonumber("8", 8), tonumber(" 11 ", 2), tonumber("1.5", 2), tonumber(15, 16), tonumber("-ff", 16), tonumber("", 16))`,
			"2\t255\t255\t1295\tnil\t3\tnil\t21\t1.844674407371e+19\tnil"},
		{"tonumber base out of range", `print(pcall(tonumber, "1", 1)) print(pcall(tonumber, "1", 37))`, "false\tbad argument #2 to '?' (base out of range)\nfalse\tbad argument #2 to '?' (base out of range)"},
		// error and assert
		{"error from Lua", `print(pcall(function() error("x") end))`, "false\tt/s.lua:2: x"},
		{"error called by pcall", `print(pcall(error, "x"))`, "false\tx"},
		{"error level 2", `local function f() error("deep", 2) end
			print(pcall(function() f() end))`, "false\tt/s.lua:3: deep"},
		{"error level 0", `print(pcall(function() error("x", 0) end))`, "false\tx"},
		{"error number", `local ok, e = pcall(function() error(42) end) print(type(e), e)
			ok, e = pcall(function() error(42, 0) end) print(type(e), e)`, "string\tt/s.lua:2: 42\nnumber\t42"},
		{"error table", `local ok, e = pcall(error, {}) print(type(e), pcall(error))`, "table\tfalse\tnil"},
		{"assert", `print(assert(1, 2, 3)) print(pcall(function() assert(false) end))`, "1\t2\t3\nfalse\tt/s.lua:2: assertion failed!"},
		{"assert message", `print(pcall(function() assert(nil, "msg") end)) print(pcall(function() assert(false, 7) end))`, "false\tt/s.lua:2: msg\nfalse\tt/s.lua:2: 7"},
		// select, raw access, metatables, tostring
		{"select", `print(select(2, "a", "b", "c")) print(select(-1, "a", "b", "c"), select("#"), select("2", "a", "b"), pcall(select, 0, 1))`, "b\tc\nc\t0\tb\tfalse\tbad argument #1 to '?' (index out of range)"},
		{"raw access", `local t = setmetatable({}, {__index = function() return 1 end, __newindex = function() error("no") end})
			print(t.x, rawget(t, "x"), rawset(t, "x", 2) == t, rawget(t, "x"), rawequal("ab", "a" .. "b"), rawequal({}, {}), pcall(rawset, t, nil, 1))`,
			"1\tnil\ttrue\t2\ttrue\tfalse\tfalse\ttable index is nil"},
		{"protected metatable", `local t = setmetatable({}, {__metatable = "locked"}) print(getmetatable(t), pcall(setmetatable, t, {}))`,
			"locked\tfalse\tcannot change a protected metatable"},
		{"setmetatable tables only", `print(pcall(setmetatable, 1, {}))`, "false\tbad argument #1 to '?' (table expected, got number)"},
		{"tostring", `print(tostring(0.1 + 0.2), tostring(1/0), tostring(-1/0), tostring(1e100), tostring(2^53), tostring(true), tostring({}), tostring(setmetatable({}, {__tostring = function() return "me" end})))`,
			"0.3\tinf\t-inf\t1e+100\t9.007199254741e+15\ttrue\ttable\tme"},
		{"print cut", `print(string.rep("a", 300))`, strings.Repeat("a", 240) + "…"},
		{"print values", `print(1, nil, true, 1.25, "s")`, "1\tnil\ttrue\t1.25\ts"},
		{"unpack", `print(unpack({1, 2, 3}, 2)) print(unpack({1, 2, 3}, 2, 4))`, "2\t3\n2\t3\tnil"},
		{"math max min", `print(math.max(1, 5, 3), math.min(4, 2, 8), math.max(2))`, "5\t2\t2"},
		// pcall and xpcall
		{"pcall keeps the caller's upvalues open", `local x = 1 local f = function() return x end pcall(error, "e") x = 2 print(f())`, "2"},
		{"pcall closes the failed call's upvalues", `local g
			print(pcall(function() local y = 10 g = function() return y end error("boom") end))
			local a, b, c, d = 100, 200, 300, 400
			print(g())`, "false\tt/s.lua:3: boom\n10"},
		{"xpcall closes the failed call's upvalues", `local g
			print(xpcall(function() local y = 10 g = function() return y end error("boom") end, function(e) return "handled: " .. e end))
			local a, b, c, d = 100, 200, 300, 400
			print(g())`, "false\thandled: t/s.lua:3: boom\n10"},
		{"nested pcalls", `local x = 0 local f = function() return x end
			print(pcall(function()
				print(pcall(error, {}))
				x = 5
				local ok, e = pcall(function() error("inner") end)
				x = 6
				error("outer")
			end), f(), pcall(nil), select("#", pcall(function() return 1, 2, 3 end)), xpcall(function() return 7 end, print))
			print(pcall(function() pcall(error) error("outer") end))
			print(pcall(nil))`,
			"false\ttable\nfalse\t6\tfalse\t4\ttrue\t7\nfalse\tt/s.lua:10: outer\nfalse\tattempt to call a nil value"},
		// the table library
		{"insert and remove across the hash part", `local t = {} for i = 1, 1500 do t[i] = i end
			table.insert(t, 1, 0)
			local ok = #t == 1501 for i = 1, 1501 do if t[i] ~= i - 1 then ok = false end end
			local r = table.remove(t, 1)
			for i = 1, 1500 do if t[i] ~= i then ok = false end end
			table.insert(t, 1200, "x")
			print(ok, r, #t, t[1199], t[1200], t[1201], t[1501], table.remove(t, 1200), t[1200], #t)`,
			"true\t0\t1501\t1199\tx\t1200\t1500\tx\t1200\t1500"},
		{"insert and remove", `local t = {1, 2, 3} table.insert(t, 2, "x") print(table.concat(t, ","), table.remove(t), table.remove(t, 1), table.concat(t, ","), select("#", table.remove({})), pcall(table.insert, {}, 1, 2, 3))`,
			"1,x,2,3\t3\t1\tx,2\t0\tfalse\twrong number of arguments to 'insert'"},
		{"insert below 1", `local t = {1, 2} t[0] = "z" table.insert(t, 0, "a") print(t[-1], t[0], t[1], t[2], t[3], #t)`, "nil\ta\tz\t1\t2\t3"},
		{"concat", `print(table.concat({1, 2.5, "x", 0.1}, "-"), table.concat({}, "x"), table.concat({1, 2, 3}, 0, 2, 3), pcall(table.concat, {1, {}, 3}))`,
			"1-2.5-x-0.1\t\t203\tfalse\tinvalid value (table) at index 2 in table for 'concat'"},
		{"maxn", `local t = {1, 2, 3} t[2000] = 1 t[2.5] = 1 t[-5] = 1 local a = table.maxn(t) t[2000] = nil print(a, table.maxn(t), table.maxn({}))`, "2000\t3\t0"},
		{"sort", `local t = {5, 3, 8, 1, 9, 2} table.sort(t) local u = {"b", "a", "c"} table.sort(u, function(a, b) return a > b end)
			print(table.concat(t, " "), table.concat(u, " "))`, "1 2 3 5 8 9\tc b a"},
		{"sort long list", `local t, x = {}, 7 for i = 1, 3000 do x = (x * 1103515245 + 12345) % 2147483648 t[i] = x % 1000 end
			table.sort(t) local ok = true for i = 2, 3000 do if t[i - 1] > t[i] then ok = false end end print(ok, #t)`, "true\t3000"},
		{"sort ties as Lua 5.1", `local t = {} for i = 1, 20 do t[i] = {k = i % 4, i = i} end
			table.sort(t, function(a, b) return a.k < b.k end)
			local s = "" for i = 1, 20 do s = s .. t[i].i .. " " end print(s)`, "20 12 16 4 8 9 17 13 1 5 14 2 10 18 6 3 15 11 7 19 "},
		{"sort inconsistent", `local t = {} for i = 1, 10 do t[i] = i end print(pcall(table.sort, t, function(a, b) return true end))`, "false\tinvalid order function for sorting"},
		{"sort mixed", `print(pcall(table.sort, {1, "x", 2}))`, "false\tattempt to compare string with number"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			log, fault, msg, _ := runLua(t, tc.code, 1_000_000)
			if fault != engine.NoFault {
				t.Fatalf("fault %v: %s", fault, msg)
			}
			if len(log) == 0 {
				t.Fatalf("printed nothing")
			}
			got := strings.Join(log, "\n")
			if !strings.Contains(tc.want, "t/s.lua:") {
				// Lua 5.1 positions only errors raised in Lua code;
				// gopher-lua's argument errors carry the caller's.
				got = positionRE.ReplaceAllString(got, "")
			}
			if got != tc.want && !(strings.HasSuffix(tc.want, "…") && strings.HasPrefix(got, tc.want)) {
				t.Errorf("printed %q, want %q", got, tc.want)
			}
		})
	}
}

var positionRE = regexp.MustCompile(`t/s\.lua:\d+: `)

// TestBaseChargesBoundWork: each builtin that does Go work in proportion to
// its arguments charges at least that work, counted in instructions: the
// instructions a call of op counts, beyond those of its setup, are at least
// min. With the budget of a normal call, the same work is refused.
func TestBaseChargesBoundWork(t *testing.T) {
	const big = 1 << 20
	dead := `local t = {} for i = 1, 100000 do t["k" .. i] = i end `
	tests := []struct {
		name, setup, op string
		min             int64
	}{
		{"next compacts dead keys", dead + `for i = 1, 100000 do t["k" .. i] = nil end`, `next(t)`, 100000 / walkSlotsPerInstruction},
		{"next walks dead keys", dead + `local first = next(t) for i = 1, 100000 do t["k" .. i] = nil end`, `next(t, first)`, 99999 / walkSlotsPerInstruction},
		{"maxn over dead keys", dead + `for i = 1, 100000 do t["k" .. i] = nil end`, `table.maxn(t)`, 100000 / walkSlotsPerInstruction},
		{"concat of empty strings", `local t = {} for i = 1, 100000 do t[i] = "" end`, `table.concat(t)`, listReadCost(1, 100000)},
		{"concat of numbers", `local t = {} for i = 1, 3000 do t[i] = i + 0.5 end`, `table.concat(t)`, 3000},
		{"select", `local t = {} for i = 1, 3000 do t[i] = i end`, `select(2, unpack(t))`, listReadCost(1, 3000) + 2998/valuesPerInstruction},
		{"unpack", `local t = {} for i = 1, 4000 do t[i] = i end`, `unpack(t)`, listReadCost(1, 4000)},
		{"math.max", `local t = {} for i = 1, 4000 do t[i] = i end`, `math.max(unpack(t))`, listReadCost(1, 4000) + 4000/valuesPerInstruction},
		{"remove first", `local t = {} for i = 1, 5000 do t[i] = i end`, `table.remove(t, 1)`, listMoveCost(2, 5000)},
		{"insert first", `local t = {} for i = 1, 5000 do t[i] = i end`, `table.insert(t, 1, 0)`, listMoveCost(1, 5000)},
		{"sort long strings", `local s = string.rep("a", 65536) local t = {} for i = 1, 64 do t[i] = s .. (i * 7919 % 64) end`, `table.sort(t)`, 296 * 64}, // log2(64!) comparisons at least
		{"sort with a comparator", `local t = {} for i = 1, 1000 do t[i] = i * 7919 % 1000 end`, `table.sort(t, function(a, b) return a < b end)`, 1000 * 9},
		{"tonumber", `local s = string.rep("1", ` + itoa(big) + `)`, `tonumber(s)`, big / numeralBytesPerInstruction},
		{"tonumber in a base", `local s = string.rep("1", ` + itoa(big) + `)`, `tonumber(s, 2)`, big / numeralBytesPerInstruction},
		{"error", `local s = string.rep("e", ` + itoa(big) + `)`, `pcall(function() error(s) end)`, big / bytesPerInstruction},
		{"assert", `local s = string.rep("e", ` + itoa(big) + `)`, `pcall(function() assert(false, s) end)`, big / bytesPerInstruction},
		{"rawget", `local s = string.rep("k", ` + itoa(big) + `) local t = {}`, `rawget(t, s)`, big / bytesPerInstruction},
		{"rawset", `local s = string.rep("k", ` + itoa(big) + `) local t = {}`, `rawset(t, s, 1)`, big / bytesPerInstruction},
		{"rawequal", `local s, u = string.rep("k", ` + itoa(big) + `), string.rep("k", ` + itoa(big) + `)`, `rawequal(s, u)`, big / bytesPerInstruction},
		{"print", `local s = string.rep("p", ` + itoa(big) + `)`, `print(s)`, printCost},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, f0, msg0, base := runLua(t, tc.setup, 50_000_000)
			_, f1, msg1, used := runLua(t, tc.setup+"\n"+tc.op, 50_000_000)
			if f0 != engine.NoFault || f1 != engine.NoFault {
				t.Fatalf("faults %v %q, %v %q", f0, msg0, f1, msg1)
			}
			if got := int64(used - base); got < tc.min {
				t.Errorf("%s counted %d instructions, want at least %d", tc.op, got, tc.min)
			} else {
				t.Logf("%s counted %d instructions (at least %d)", tc.op, got, tc.min)
			}
		})
	}
}

func itoa(n int) string { return strconv.Itoa(n) }
