package luabind

import (
	"testing"
	"time"
)

// overflowRoutes are scripts that overflow the call stack, each through
// another route: plain Lua recursion, a metamethod that recurses into
// itself through the operation that triggers it, and a Go builtin's
// callback that calls the builtin again. Each is the body of a function
// of no arguments, which stackCostScript wraps.
var overflowRoutes = []struct{ name, setup, body string }{
	{"lua", `local function f() return 1 + f() end`, `return f()`},
	{"index", `local t = setmetatable({}, {}) getmetatable(t).__index = function(t, k) return t[k] end`, `return t.x`},
	{"newindex", `local t = setmetatable({}, {}) getmetatable(t).__newindex = function(t, k, v) t[k] = v end`, `t.x = 1`},
	{"add", `local a = setmetatable({}, {__add = function(x, y) return x + y end})`, `return a + 1`},
	{"unm", `local a = setmetatable({}, {__unm = function(x) return -x end})`, `return -a`},
	{"call", `local c = setmetatable({}, {__call = function(self) local r = self() return r end})`, `return c()`},
	{"eq", `local mt = {__eq = function(x, y) return x == y end} local a, b = setmetatable({}, mt), setmetatable({}, mt)`, `return a == b`},
	{"lt", `local mt = {__lt = function(x, y) return x < y end} local a, b = setmetatable({}, mt), setmetatable({}, mt)`, `return a < b`},
	{"le", `local mt = {__le = function(x, y) return x <= y end} local a, b = setmetatable({}, mt), setmetatable({}, mt)`, `return a <= b`},
	{"concat", `local a = setmetatable({}, {__concat = function(x, y) return x .. y end})`, `return a .. "x"`},
	{"tostring", `local a = setmetatable({}, {__tostring = function(x) return tostring(x) end})`, `return tostring(a)`},
	{"sort", `local function cmp(x, y) table.sort({2, 1}, cmp) return x < y end`, `table.sort({2, 1}, cmp)`},
	{"gsub", `local function r(c) return (string.gsub("a", "a", r)) end`, `return (string.gsub("a", "a", r))`},
	{"gsubindex", `local g = setmetatable({}, {}) getmetatable(g).__index = function(t, k) return (string.gsub("a", "a", g)) end`, `return (string.gsub("a", "a", g))`},
	{"foreach", `local function e(k, v) return table.foreach({1}, e) end`, `return table.foreach({1}, e)`},
	{"foreachi", `local function e(k, v) return table.foreachi({1}, e) end`, `return table.foreachi({1}, e)`},
}

// stackCostScript is a player whose table has, for each route, the route
// uncaught (name), caught by pcall again and again until the budget is
// spent (name.."_pcall"), the same with xpcall (name.."_xpcall"), and with
// xpcall whose handler is the route again (name.."_handler": it overflows
// too, on top of the first overflow); "full", honest code that spends the
// whole budget; and sort_honest and index_honest, honest loops of calls
// from Go into Lua (a comparator, an __index function).
func stackCostScript() string {
	src := "local M = { name = \"X\", run = function() end }\n" +
		"M.full = function() local x = 0 while true do x = x + 1 end end\n" +
		"do local function lt(x, y) return x < y end M.sort_honest = function() while true do table.sort({2, 1}, lt) end end end\n" +
		"do local t = setmetatable({}, {__index = function(t, k) return k end}) M.index_honest = function() while true do local x = t.x end end end\n"
	for _, r := range overflowRoutes {
		src += "do\n" + r.setup + "\n" +
			"local function route() " + r.body + " end\n" +
			"M." + r.name + " = route\n" +
			"M." + r.name + "_pcall = function() while true do pcall(route) end end\n" +
			"M." + r.name + "_xpcall = function() local h = function(e) return e end while true do xpcall(route, h) end end\n" +
			"M." + r.name + "_handler = function() while true do xpcall(route, route) end end\n" +
			"end\n"
	}
	return src + "return M\n"
}

// BenchmarkStackOverflow times one call that overflows the call stack
// through each route of overflowRoutes, uncaught, in pcall and xpcall
// loops and with an xpcall handler that overflows too (stackCostScript);
// mode=honest is a loop of the same calls without an error, for
// comparison. Each route's calls alternate with calls of honest code that spends
// the whole instruction budget (a loop of additions, as in
// BenchmarkHostileCall), and "x-full" is the ratio of the process CPU time
// the two used (cpuNow: a loaded machine's preemptions fall on neither);
// route-ns/op is the route's call alone, by the wall clock (ns/op is the
// pair).
//
//	go test -run '^$' -bench StackOverflow -count 6 ./luabind/ | tee /tmp/so.txt
//	~/go/bin/benchstat -col .unit /tmp/so.txt   (or read the x-full column)
func BenchmarkStackOverflow(b *testing.B) {
	lim := DefaultLimits()
	tm, tbl := stringTeam(b, stackCostScript(), lim)
	call := func(field string) {
		callField(tm, tbl, field, lim.Instructions)
	}
	type bench struct{ name, field string }
	var benches []bench
	for _, r := range overflowRoutes {
		for _, mode := range []string{"", "_pcall", "_xpcall", "_handler"} {
			m := mode
			if m == "" {
				m = "_uncaught"
			}
			benches = append(benches, bench{"route=" + r.name + "/mode=" + m[1:], r.name + mode})
		}
	}
	benches = append(benches, bench{"route=sort/mode=honest", "sort_honest"}, bench{"route=index/mode=honest", "index_honest"})
	for _, bc := range benches {
		b.Run(bc.name, func(b *testing.B) {
			var route, full, wall time.Duration
			for range b.N {
				t0, c0 := time.Now(), cpuNow()
				call(bc.field)
				t1, c1 := time.Now(), cpuNow()
				call("full")
				route += c1 - c0
				full += cpuNow() - c1
				wall += t1.Sub(t0)
			}
			b.ReportMetric(float64(route)/float64(full), "x-full")
			b.ReportMetric(float64(wall)/float64(b.N), "route-ns/op")
		})
	}
}
