package luabind

import (
	"strings"
	"testing"

	"github.com/squarebattle/squarebattle/engine"
)

// TestStdlib runs Lua snippets through the sandbox and compares what they
// print with what Lua 5.1 prints, for every builtin the sandbox wraps or
// replaces.
func TestStdlib(t *testing.T) {
	tests := []struct{ code, want string }{
		{`print(string.find("hello world", "o w"))`, "5\t7"},
		{`print(string.find("hello", "l+"))`, "3\t4"},
		{`print(string.find("a.b", ".", 1, true))`, "2\t2"},
		{`print(("key = val"):match("^(%w+)%s*=%s*(%w+)$"))`, "key\tval"},
		{`print(string.match("  x", "()x"))`, "3"},
		{`local n = 0 for w in string.gmatch("one two  three", "%a+") do n = n + 1 end print(n)`, "3"},
		{`print(string.gsub("hello world", "o", "0"))`, "hell0 w0rld\t2"},
		{`print(string.gsub("hello world", "(%w+)", "<%1>", 1))`, "<hello> world\t1"},
		{`print(string.gsub("$x $y", "%$(%w+)", {x = "1"}))`, "1 $y\t2"},
		{`print(string.gsub("abc", "%w", function(c) return c:upper() .. "." end))`, "A.B.C.\t3"},
		{`print(string.gsub("abc", "", "-"))`, "-a-b-c-\t4"},
		{`print(string.format("%5.2f|%d|%s|%q", 3.14159, 42, "s", "a\"b"))`, " 3.14|42|s|\"a\\\"b\""},
		{`print((select(2, pcall(string.format, "%s", {}))):match("bad argument.*"))`, "bad argument #2 to '?' (string expected, got table)"},
		{`print(string.rep("ab", 3), string.rep("x", 0), ("Ab"):upper(), ("Ab"):lower(), ("abc"):reverse())`, "ababab\t\tAB\tab\tcba"},
		{`print(string.byte("AB", 1, 2))`, "65\t66"},
		{`print(table.concat({1, 2, 3}, ","), table.concat({}, ","), table.concat({"a", "b", "c"}, "", 2))`, "1,2,3\t\tbc"},
		{`print(unpack({1, 2, 3}))`, "1\t2\t3"},
		{`print(1 .. 2, "a" .. "b" .. "c", #"four")`, "12\tabc\t4"},
		{`local mt = {__concat = function(a, b) return "meta" end} print(setmetatable({}, mt) .. "x")`, "meta"},
		{`local t = setmetatable({1, 2}, {__len = function() return 99 end}) local u = {1, 2, 3} u[3] = nil local v = {} for i = 1, 1100 do v[i] = i end v[1100] = nil print(#t, #u, #v, #"", #{n = 1})`, "2\t2\t1099\t0\t0"},
		{`local t = {} for i = 1, 3000 do t[#t + 1] = i end print(#t, t[3000], table.getn(t))`, "3000\t3000\t3000"},
		{`local t = {} for i = 1, 2000 do table.insert(t, i) end table.insert(t, 1, 0) print(#t, t[1], t[2001], table.remove(t), #t, table.remove(t, 1), t[1])`, "2001\t0\t2000\t2000\t2000\t0\t1"},
		{`local t = {} for i = 1, 2000 do t[i] = i end table.sort(t, function(a, b) return a > b end) print(t[1], t[2000], #t)`, "2000\t1\t2000"},
		{`local t, n, last = {}, 0, 0 for i = 1, 3000 do t[i] = i end for i, v in ipairs(t) do n, last = n + 1, v end print(n, last)`, "3000\t3000"},
		{`local n = 0 for i, v in ipairs({1, 2, nil, 4}) do n = i end print(n)`, "2"},
		{`local t = {5, 2, 9} table.sort(t) print(t[1], t[2], t[3])`, "2\t5\t9"},
		{`print(math.floor(2.5), math.max(1, 7, 3), math.huge > 1)`, "2\t7\ttrue"},
		{`print(type(os), type(io), type(coroutine), type(load), type(require), type(debug))`, "nil\tnil\tnil\tnil\tnil\tnil"},
		{`print(pcall(error, "x", 0))`, "false\tx"},
		{`print(select("#", 1, 2, 3), tostring(nil), tostring(1.5))`, "3\tnil\t1.5"},
	}
	var sb strings.Builder
	sb.WriteString("return { name = \"S\", run = function()\n")
	for _, tc := range tests {
		sb.WriteString("do " + tc.code + " end\n")
	}
	sb.WriteString("end }")
	lim := DefaultLimits()
	lim.Instructions = 1_000_000 // the array tests loop a few thousand times
	cat := catalogOf(t, map[string]string{"s.lua": sb.String(), "z.lua": idle}, lim)
	m, _ := engine.ParseMap("t", []byte("0 -1\n-1 1"))
	b, teams := battle(t, cat, []string{"s", "z"}, engine.Options{Size: 2, Wrap: true, Rounds: 1, Seed: 1, Map: m})
	s := b.Run()
	if len(s.FirstProblems) > 0 {
		t.Fatalf("problem: %s", s.FirstProblems[0].Message)
	}
	log := teams[0].Log()
	if len(log) != len(tests) {
		t.Fatalf("printed %d lines, want %d:\n%s", len(log), len(tests), strings.Join(log, "\n"))
	}
	for i, tc := range tests {
		if log[i] != tc.want {
			t.Errorf("%s\n got %q\nwant %q", tc.code, log[i], tc.want)
		}
	}
}
