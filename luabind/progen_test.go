package luabind

import (
	"fmt"
	"math/rand/v2"
	"strings"
)

// A generator of random Lua programs for the differential test of the VM
// cores (corediff_test.go). A program is a function of the chunk's table
// P, called with a few arguments; it keeps its own locals (numbers, a
// string, a list, an object with every metamethod), runs random
// statements (assignments, stores, branches, numeric and generic loops,
// while and repeat, calls of local, vararg and recursive functions,
// closures over upvalues, pcall, error) over random expressions of every
// operator, and returns what it saw as one string. Expressions mix types
// freely, so many programs fail somewhere (arithmetic on nil, comparing a
// table with a number, calling a number): the errors and their lines are
// part of what the cores must agree on. Nothing here prints an address:
// show (in the prelude) names a table's or a function's type only.
//
// Same seed, same programs, on every machine.

// progPrelude is the top of every generated chunk: the helpers programs
// call and the object whose metatable has every event.
const progPrelude = `local P = {}
local function show(v)
  local ty = type(v)
  if ty == "number" or ty == "string" or ty == "boolean" or ty == "nil" then return tostring(v) end
  return ty
end
local function S(...)
  local out = {}
  for i = 1, select("#", ...) do out[i] = show((select(i, ...))) end
  return table.concat(out, ",")
end
local mt = {}
mt.__index = function(t, k) if type(k) == "number" then return k * 2 end return "i" end
mt.__newindex = function(t, k, v) if k ~= nil and k == k then rawset(t, k, v) end end
mt.__add = function(x, y) return 7 end
mt.__sub = function(x, y) return -7 end
mt.__mul = function(x, y) return 0.5 end
mt.__div = function(x, y) return 4 end
mt.__mod = function(x, y) return 3 end
mt.__pow = function(x, y) return 2 end
mt.__unm = function(x) return -1 end
mt.__eq = function(x, y) return true end
mt.__lt = function(x, y) return false end
mt.__le = function(x, y) return true end
mt.__concat = function(x, y) return "cc" end
mt.__call = function(self, x, ...) return x, select("#", ...) end
local function obj() return setmetatable({}, mt) end
local function fib(n) if n < 2 then return n end return fib(n - 1) + fib(n - 2) end
local function va(...) return select("#", ...), ... end
local function sum(...) local s = 0 for i = 1, select("#", ...) do s = s + (select(i, ...)) end return s end
local function mk(x) return function(y) x = x + (y or 1) return x end end
local function tail(n, acc) if n <= 0 then return acc end return tail(n - 1, acc + n) end
local G = {1, 2, 3, "x", k = 5, [2.5] = "h"}
local M = {get = function(self, x, ...) return x, select("#", ...) end}
`

// progGen writes one program; depth bounds nesting.
type progGen struct {
	r     *rand.Rand
	sb    strings.Builder
	depth int
	loops int // loop variables in scope: i1, i2, ...
	ind   int
}

// generatePrograms returns a chunk of n programs made from seed, ending in
// the table a team's class returns (P holds the programs).
func generatePrograms(seed uint64, n int) string {
	g := &progGen{r: rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15))}
	g.sb.WriteString(progPrelude)
	for i := 1; i <= n; i++ {
		fmt.Fprintf(&g.sb, "P[%d] = function(...)\n", i)
		g.ind = 1
		g.line("local a, b, c, s, t, o = %s, %s, %s, %s, {%s}, obj()", g.num(), g.num(), g.num(), g.str(), g.list())
		g.line("local R = {}")
		g.line("local f = mk(%s)", g.num())
		g.block(3 + g.r.IntN(8))
		g.line("return S(a, b, c, s, t, o, f, table.concat(R, \";\"))")
		g.sb.WriteString("end\n")
	}
	g.sb.WriteString("return { name = \"Gen\", run = function() end, P = P }\n")
	return g.sb.String()
}

func (g *progGen) line(format string, args ...any) {
	g.sb.WriteString(strings.Repeat("  ", g.ind))
	fmt.Fprintf(&g.sb, format, args...)
	g.sb.WriteByte('\n')
}

func (g *progGen) pick(xs ...string) string { return xs[g.r.IntN(len(xs))] }

func (g *progGen) num() string {
	return g.pick("0", "1", "-1", "2", "3", "7", "0.5", "-2.5", "10", "100", "255", "256", "1e300", "(1/0)", "(-(0/0))", "2^53", "-0", "1e-310", "65")
}

func (g *progGen) str() string {
	return g.pick(`"a"`, `"10"`, `" 0x1F "`, `"1e2"`, `"abc"`, `""`, `"3.5"`, `"x y"`, `"-7"`, `"nan"`)
}

func (g *progGen) list() string {
	n := g.r.IntN(6)
	parts := make([]string, n)
	for i := range parts {
		parts[i] = g.pick(g.num(), g.str(), "true", "nil")
	}
	return strings.Join(parts, ", ")
}

// variable is a readable local: the program's own, or a loop's.
func (g *progGen) variable() string {
	if g.loops > 0 && g.r.IntN(3) == 0 {
		return fmt.Sprintf("i%d", 1+g.r.IntN(g.loops))
	}
	return g.pick("a", "b", "c", "a", "b", "s", "t", "o", "f", "R")
}

// target is an assignable local.
func (g *progGen) target() string { return g.pick("a", "b", "c", "a", "b", "c", "s", "t") }

// small is an expression that is usually a small number (loop bounds,
// recursion depths).
func (g *progGen) small() string {
	switch g.r.IntN(30) {
	case 0:
		return g.expr(1)
	case 1, 2:
		return g.nexpr(1)
	}
	return fmt.Sprint(g.r.IntN(12))
}

func (g *progGen) expr(d int) string {
	if d <= 0 || g.r.IntN(4) == 0 {
		switch g.r.IntN(6) {
		case 0:
			return g.num()
		case 1:
			return g.str()
		case 2:
			return g.pick("nil", "true", "false", "...", "G", "#t")
		default:
			return g.variable()
		}
	}
	d--
	switch g.r.IntN(20) {
	case 0, 1, 2, 3:
		return "(" + g.expr(d) + " " + g.pick("+", "-", "*", "/", "%", "^", "+", "-", "*") + " " + g.expr(d) + ")"
	case 4:
		return "(" + g.pick("- ", "not ", "#") + g.expr(d) + ")"
	case 5:
		return "(" + g.expr(d) + " " + g.pick("<", "<=", ">", ">=", "==", "~=") + " " + g.expr(d) + ")"
	case 6:
		return "(" + g.expr(d) + " " + g.pick("and", "or") + " " + g.expr(d) + ")"
	case 7:
		return "(" + g.expr(d) + " .. " + g.expr(d) + ")"
	case 8:
		return g.pick("t", "G", "o", "R") + "[" + g.expr(d) + "]"
	case 9:
		return g.pick("t.k", "G.k", "o.k", "t[1]", "t[#t]", "G[2.5]", "s:len()", "s:sub(2)", "s:upper()", "s:byte(1)",
			"M:get(a, b)", "M:nope()", "G:k()", "o:k(1)", "s:nope()", "(1):x()")
	case 10:
		return "fib(" + g.pick("1", "5", "8", "12", "-1") + ")"
	case 11:
		return "sum(" + g.expr(d) + ", " + g.expr(d) + ")"
	case 12:
		return "select(\"#\", va(" + g.expr(d) + ", ...))"
	case 13:
		return "(function(x, ...) return x, ... end)(" + g.expr(d) + ", " + g.expr(d) + ")"
	case 14:
		return "f(" + g.expr(d) + ")"
	case 15:
		return "{" + g.expr(d) + ", " + g.expr(d) + ", k = " + g.expr(d) + "}"
	case 16:
		return g.pick("math.floor", "math.abs", "tonumber", "show", "math.max", "type") + "(" + g.expr(d) + ")"
	case 17:
		return "tail(" + g.small() + ", " + g.expr(d) + ")"
	case 18:
		return "o(" + g.expr(d) + ", ...)"
	default:
		return "select(" + g.pick("1", "2", "-1", "\"#\"") + ", " + g.expr(d) + ", " + g.expr(d) + ")"
	}
}

// nexpr is an expression that is a number, except when it draws a wild
// expression (1 in 40 at each level), which may be anything and so may
// fail.
func (g *progGen) nexpr(d int) string {
	if g.r.IntN(150) == 0 {
		return g.expr(d)
	}
	if d <= 0 || g.r.IntN(3) == 0 {
		if g.loops > 0 && g.r.IntN(3) == 0 {
			return fmt.Sprintf("i%d", 1+g.r.IntN(g.loops))
		}
		return g.pick("a", "b", "c", "a", "b", "c", g.num(), g.num(), "#t", "#s", "#R")
	}
	d--
	switch g.r.IntN(16) {
	case 0, 1, 2, 3, 4:
		return "(" + g.nexpr(d) + " " + g.pick("+", "-", "*", "/", "%", "^", "+", "-", "*", "%") + " " + g.nexpr(d) + ")"
	case 5:
		return "(- " + g.nexpr(d) + ")"
	case 6:
		return "(" + g.bexpr(d) + " and " + g.nexpr(d) + " or " + g.nexpr(d) + ")"
	case 7:
		return "fib(" + g.pick("1", "5", "8", "12", "-1", "3") + ")"
	case 8:
		return "sum(" + g.nexpr(d) + ", " + g.nexpr(d) + ", ...)"
	case 9:
		return "select(\"#\", va(" + g.nexpr(d) + ", ...))"
	case 10:
		return "f(" + g.nexpr(d) + ")"
	case 11:
		return "tail(" + g.small() + ", " + g.nexpr(d) + ")"
	case 12:
		return g.pick("math.floor", "math.abs", "math.max", "math.min", "math.ceil") + "(" + g.nexpr(d) + ")"
	case 13:
		return "(t[" + g.nexpr(d) + "] or " + g.nexpr(d) + ")"
	case 14:
		return "(tonumber(" + g.sexpr(d) + ") or 0)"
	default:
		return "((function(x, ...) return x end)(" + g.nexpr(d) + ", " + g.expr(d) + "))"
	}
}

// sexpr is an expression that is a string (but for wild ones).
func (g *progGen) sexpr(d int) string {
	if g.r.IntN(150) == 0 {
		return g.expr(d)
	}
	if d <= 0 || g.r.IntN(3) == 0 {
		return g.pick("s", "s", g.str(), "show(a)")
	}
	d--
	switch g.r.IntN(6) {
	case 0, 1:
		return "(" + g.sexpr(d) + " .. " + g.pick(g.sexpr(d), g.nexpr(d)) + ")"
	case 2:
		return "(" + g.sexpr(d) + "):sub(" + g.nexpr(d) + ")"
	case 3:
		return "show(" + g.expr(d) + ")"
	case 4:
		return "string.rep(" + g.sexpr(d) + ", " + g.pick("0", "1", "2", "3") + ")"
	default:
		return "tostring(" + g.nexpr(d) + ")"
	}
}

// bexpr is a condition: comparisons of numbers or of strings, mostly.
func (g *progGen) bexpr(d int) string {
	if g.r.IntN(150) == 0 {
		return g.expr(d)
	}
	op := g.pick("<", "<=", ">", ">=", "==", "~=")
	switch g.r.IntN(6) {
	case 0:
		return "(" + g.sexpr(d) + " " + op + " " + g.sexpr(d) + ")"
	case 1:
		return "(" + g.bexpr(max(d-1, 0)) + " " + g.pick("and", "or") + " " + g.bexpr(max(d-1, 0)) + ")"
	case 2:
		return "(not " + g.pick("b", "t[1]", "R[1]", "o.k") + ")"
	default:
		return "(" + g.nexpr(d) + " " + op + " " + g.nexpr(d) + ")"
	}
}

// block writes n statements.
func (g *progGen) block(n int) {
	for range n {
		g.stmt()
	}
}

func (g *progGen) stmt() {
	deep := g.depth >= 3
	k := g.r.IntN(22)
	if deep && k >= 11 {
		k %= 11
	}
	switch k {
	case 0, 1, 2:
		g.line("%s = %s", g.pick("a", "b", "c"), g.nexpr(3))
	case 3:
		g.line("%s[%s] = %s", g.pick("t", "t", "o", "R", "G"), g.nexpr(2), g.pick(g.nexpr(2), g.sexpr(1)))
	case 4:
		g.line("R[#R + 1] = show(%s)", g.pick(g.nexpr(3), g.sexpr(2), g.bexpr(2)))
	case 5:
		g.line("s = %s", g.sexpr(2))
	case 6:
		if g.depth == 0 || g.r.IntN(3) > 0 {
			g.line("R[#R + 1] = show(%s)", g.bexpr(2))
			return
		}
		g.line("if %s then error(%s, %s) end", g.bexpr(1), g.pick(g.sexpr(1), g.nexpr(1), "{}", "nil"), g.pick("1", "2", "0"))
	case 7:
		if g.r.IntN(4) == 0 {
			g.line("%s = %s", g.target(), g.expr(2)) // wild
		} else {
			g.line("%s = %s", g.pick("a", "b", "c"), g.nexpr(2))
		}
	case 8:
		g.line("local %s = %s", g.pick("x", "y"), g.nexpr(2))
	case 9:
		g.line("R[#R + 1] = S(%s, %s, ...)", g.nexpr(2), g.sexpr(2))
	case 10:
		g.line("t.k = %s", g.nexpr(2))
	case 11:
		g.nested("if %s then", g.bexpr(2))
		if g.r.IntN(2) == 0 {
			g.ind--
			g.line("elseif %s then", g.bexpr(2))
			g.ind++
			g.block(1 + g.r.IntN(3))
		}
		if g.r.IntN(2) == 0 {
			g.ind--
			g.line("else")
			g.ind++
			g.block(1 + g.r.IntN(3))
		}
		g.end()
	case 12, 13:
		from, limit, step := g.pick("1", "0", "10", "0.5", "-3"), g.small(), g.pick("1", "1", "2", "-1", "0.25", "3")
		g.loops++
		g.nested("for i%d = %s, %s, %s do", g.loops, from, limit, step)
		g.end()
		g.loops--
	case 14:
		iter, over := g.pick("ipairs", "pairs"), g.pick("t", "G", "R", "{...}")
		g.loops++
		g.nested("for i%d, v in %s(%s) do", g.loops, iter, over)
		g.end()
		g.loops--
	case 15:
		g.line("local n = 0")
		g.nested("while n < %s and %s do n = n + 1", g.small(), g.bexpr(1))
		g.end()
	case 16:
		g.line("local m = 0")
		g.nested("repeat m = m + 1")
		g.ind--
		g.line("until m >= %s or %s", g.small(), g.bexpr(1))
		g.depth--
	case 17:
		g.nested("R[#R + 1] = S(pcall(function(...)")
		g.ind--
		g.line("end, %s))", g.expr(1))
		g.depth--
	case 18:
		g.nested("do local inner = function(p, ...) local q = %s", g.nexpr(1))
		g.line("return p, q, select(\"#\", ...)")
		g.ind--
		g.line("end R[#R + 1] = S(inner(%s, ...)) end", g.nexpr(2))
		g.depth--
	case 19:
		g.line("if %s then return S(a, %s, ...) end", g.bexpr(1), g.nexpr(2))
	case 20:
		g.line("%s = o(%s, ...)", g.pick("a", "b"), g.nexpr(1))
	default:
		g.line("%s", g.pick("setmetatable(t, mt)", "t = {...}", "s = s:rep(2)", "s = tostring(a) .. s", "a = #t", "b = (not b) and 1 or 0", "c = b and c or 1", "a = fib(10)", "t[#t + 1] = a", "table.insert(R, show(b))"))
	}
}

// nested opens a block, writes its body and leaves it open at the right
// indentation; the caller closes it (end, or its own closing line).
func (g *progGen) nested(format string, args ...any) {
	g.line(format, args...)
	g.ind++
	g.depth++
	g.block(1 + g.r.IntN(4))
}

func (g *progGen) end() {
	g.ind--
	g.depth--
	g.line("end")
}
