package luabind

import (
	"fmt"
	"math/rand/v2"
	"os"
	"strings"
	"testing"

	lua "github.com/yuin/gopher-lua"
)

// Calls without a frame (vmleaf.go) on both cores. Each generated chunk
// has helpers made of the instructions leafRun takes, with now and then
// one it does not take (a call, a concatenation, a closure, a loop, a
// table built, a vararg), over operands that are sometimes not numbers (a
// string, nil, a table whose metatable answers arithmetic, comparisons
// and indexing with Lua functions, a table without one: an error), so
// that a frame is pushed at every point of a helper and an error is
// raised from inside one with its position. The programs call them in
// every shape a CALL takes: with missing and extra arguments, with the
// arguments up to the top (`f(g(x))`), wanting no result, one, several or
// all of them (`{f(x)}`), as methods, in expressions and conditions, in
// loops, recursively down to the call stack's end and down to where the
// register file must grow, and with upvalues open around them (a closure
// over the caller's locals). Each program is called whole and stopped by
// the budget at many points, and the two cores must agree on everything
// callRecord sees, the charge of the census included.

// leafGen writes the chunks.
type leafGen struct {
	chunkWriter
	fault bool // the program being written has had its one fault
}

// leafHelpers is how many helpers each program has: h1..h4, each of
// which may call those after it (so no helper calls itself but through
// its own bounded recursion).
const leafHelpers = 4

// value is a number inside a helper with parameters a, b, c and locals x,
// y: a register, a constant, an upvalue, a table's entry.
func (g *leafGen) value() string {
	switch g.r.IntN(12) {
	case 0, 1:
		return g.pick("0", "1", "2", "-3", "0.5", "1e300", "-0", "7", "2^53")
	case 2, 3:
		return g.pick("K", "T[1]", "T.n", "G", "T[2]", "T[LK]", "T[3]")
	default:
		return g.pick("a", "b", "c", "x", "y", "a", "b")
	}
}

func (g *leafGen) arith(d int) string {
	if d <= 0 || g.r.IntN(3) == 0 {
		return g.value()
	}
	return fmt.Sprintf("(%s %s %s)", g.arith(d-1), g.pick("+", "-", "*", "/", "%", "+", "%", "^"), g.arith(d-1))
}

// cond is the condition of an if: a comparison, or a value that may be
// nil, false or anything else.
func (g *leafGen) cond() string {
	if g.r.IntN(2) == 0 {
		return fmt.Sprintf("%s %s %s", g.arith(1), g.pick("<", "<=", ">", ">=", "==", "~="), g.arith(1))
	}
	return g.pick("x", "y", "a", "not a", "not x", "T.m", "T[a]", "a and b", "x or c", "M.k", "not T.m", "b and T.m",
		"LK < \"kz\"", "LK <= LK", "\"l\" < LK", "LK == \"k\"", "T == M", "M == M")
}

// faulty is, once a program and now and then, a statement that stops a
// helper: an error, or an operand whose metatable answers with a Lua
// function (a call from inside the helper, its frame pushed there).
func (g *leafGen) faulty(ind int) {
	if g.fault || g.r.IntN(12) != 0 {
		return
	}
	g.fault = true
	g.line(ind, "%s", g.pick(
		"x = x + T.nope", "y = a.n", "x = x < M", "x = \"4\" + a", "x = x + M", "y = M.k + M[1]",
		"x = (x < y) + 1", "y = #a", "x = a .. b", "if M < M then x = 1 end", "x = -M", "x = T[LK] + T[0/0]",
		"x = nosuch + 1"))
}

// helper writes helper h's body: mostly what leafRun takes, sometimes
// one thing it does not.
func (g *leafGen) helper(ind, h, n int) {
	later := func() string { return fmt.Sprintf("h%d", h+1+g.r.IntN(leafHelpers-h)) }
	for range n {
		g.faulty(ind)
		switch g.r.IntN(16) {
		case 0, 1, 2, 3:
			g.line(ind, "%s = %s", g.pick("x", "y", "a", "b"), g.arith(2))
		case 4:
			g.line(ind, "if %s then return %s end", g.cond(), g.arith(1))
		case 5:
			g.line(ind, "if %s then x = %s else y = %s end", g.cond(), g.arith(1), g.arith(1))
		case 6:
			g.line(ind, "x = T[%s] or 1", g.pick("1", "2", "a", "\"n\"", "x", "#T", "LK"))
		case 7:
			if g.r.IntN(3) == 0 {
				g.line(ind, "M.%s = %s", g.pick("q", "r"), g.arith(1)) // its __newindex
				break
			}
			g.line(ind, "T[%s] = %s", g.pick("1", "2", "3", "\"n\"", "\"m\"", "#T + 1", "LK"), g.arith(1))
		case 8:
			// A table or a long string in a register: after the return
			// the caller replaces it, and only a register left behind
			// above the top would keep it for the census to count.
			g.line(ind, "local z = T.%s", g.pick("t", "s"))
		case 9:
			if g.r.IntN(2) == 0 {
				// Locals without a value, in registers that held the
				// temporaries of what came before.
				g.line(ind, "%s", g.pick("do local n1; x = x + (n1 or 1) end", "do local n1, n2; x = x + (n1 or 1) + (n2 or 2) end"))
				break
			}
			g.line(ind, "y = M.%s + (T.m or 0)", g.pick("n", "k"))
		case 10:
			// Something leafRun does not take: a frame pushed there.
			if h < leafHelpers {
				g.line(ind, "x = %s(%s, %s)", later(), g.arith(1), g.arith(1))
				break
			}
			g.line(ind, "%s", g.pick(
				"x = #tostring(x)", "local f = function() return x end; y = f()",
				"for j = 1, 3 do x = x + j end", "local u = {a, b}; x = u[1]", "x = -y", "x = #T",
				"x = (a .. \"\") + 0", "x = x + math.floor(y)"))
		case 11:
			g.line(ind, "if type(a) == \"number\" and a > 0 and a < 300 then return h%d(a - 1, b, c) end", h)
		default:
			g.line(ind, "x = %s", g.arith(1))
		}
	}
	switch g.r.IntN(10) {
	case 0:
		g.line(ind, "return")
	case 1:
		g.line(ind, "return x < y")
	case 2:
		g.line(ind, "return x, y, %s", g.arith(1))
	case 3:
		if h < leafHelpers {
			g.line(ind, "return %s(%s)", later(), g.arith(1)) // a tail call
			break
		}
		fallthrough
	default:
		g.line(ind, "return %s", g.arith(2))
	}
}

// call is a call of helper h (or of a method) in one of a CALL's shapes.
func (g *leafGen) call() string {
	h := fmt.Sprintf("h%d", 1+g.r.IntN(leafHelpers))
	arg := func() string { return g.pick("p", "q", "r", "s", "1", "0.5", "i", "-2", "p") }
	switch g.r.IntN(9) {
	case 0:
		return fmt.Sprintf("%s()", h)
	case 1:
		return fmt.Sprintf("%s(%s)", h, arg())
	case 2:
		return fmt.Sprintf("%s(%s, %s, %s, %s, %s)", h, arg(), arg(), arg(), g.pick("LK", "T", "\"s\""), arg())
	case 3:
		return fmt.Sprintf("%s(%s, num(h%d(%s, %s)))", h, arg(), 1+g.r.IntN(leafHelpers), arg(), arg())
	case 4:
		return fmt.Sprintf("%s(%s, h%d(%s, %s))", h, arg(), 1+g.r.IntN(leafHelpers), arg(), arg())
	case 5:
		return fmt.Sprintf("O:m(%s)", arg())
	default:
		return fmt.Sprintf("%s(%s, %s, %s)", h, arg(), arg(), arg())
	}
}

func (g *leafGen) body(ind, n int) {
	for range n {
		switch g.r.IntN(12) {
		case 0, 1, 2:
			g.line(ind, "%s = num(%s)", g.pick("p", "q", "r"), g.call())
		case 3:
			g.line(ind, "%s = %s", g.pick("p", "q", "r"), g.call())
		case 4:
			if g.r.IntN(2) == 0 {
				g.line(ind, "local u, v = %s; s = s + num(u) + (v == nil and 0 or 2)", g.call())
				break
			}
			g.line(ind, "local u, v, w = %s; s = s + num(u) + (v == nil and 0 or 2) + (w == nil and 0 or 4)", g.call())
		case 5:
			g.line(ind, "%s", g.call())
		case 6:
			g.line(ind, "local all = {%s}; s = s + #all", g.call())
		case 7:
			g.line(ind, "if %s then s = s + 1 end", g.call())
		case 8:
			g.line(ind, "for i = 1, %s do p = num(%s) end", g.pick("3", "20", "200"), g.call())
		case 9:
			switch g.r.IntN(3) {
			case 0:
				g.line(ind, "T.t, T.s = {s, s}, string.rep(\"x\", 100 + s %% 50)")
			case 1:
				// An error inside is caught, its message (with the
				// helper's line) kept.
				g.line(ind, "log = log .. \" \" .. tostring(select(2, pcall(h%d, %s, %s)))", 1+g.r.IntN(leafHelpers), g.pick("p", "q", "1", "M", "\"x\""), g.pick("s", "i", "0.5"))
			default:
				g.line(ind, "q = %s(%s)", g.pick("deep", "wide"), g.pick("1", "30", "150", "400", "p"))
			}
		default:
			g.line(ind, "r = num(%s) %s num(%s)", g.call(), g.pick("+", "*", "-"), g.call())
		}
	}
}

// generateLeafCalls writes n programs into one chunk's P.
func generateLeafCalls(seed uint64, n int) string {
	g := &leafGen{chunkWriter: chunkWriter{r: rand.New(rand.NewPCG(seed, seed^0x2545f4914f6cdd1d))}}
	g.sb.WriteString(`local P = {}
local K, G = 3, 2.5
local LK = string.rep("k", 70) -- a key long enough to be charged for
local T = {1, 2.5, 3, n = 4, [LK] = 6}
local M = setmetatable({}, {
  __add = function(a, b) return 5 end, __sub = function(a, b) return -1 end,
  __mul = function() return 2 end, __div = function() return 0.5 end,
  __mod = function() return 1 end, __pow = function() return 4 end, __unm = function() return 3 end,
  __lt = function(a, b) return true end, __le = function(a, b) return false end,
  __eq = function() return true end,
  __index = function(t, k) return 9 end, __concat = function() return "mm" end,
  __newindex = function(t, k, v) T.last = v end,
})
local O = {}
function O:m(a) return self == O and a end
local function num(v) if type(v) == "number" then return v end return 0 end
local function show(v)
  local ty = type(v)
  if ty == "number" or ty == "string" or ty == "boolean" or ty == "nil" then return tostring(v) end
  return ty
end
-- Down to the call stack's end, and to where the register file grows.
local function deep(n) if n <= 0 then return 0 end return 1 + deep(n - 1) end
local function wide(n)
  local a, b, c, d, e, f, g, h, i, j, k, l, m, o, p, q, r, s, t, u = 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20
  if n <= 0 then return a + u end
  return wide(n - 1) + a
end
`)
	for i := 1; i <= n; i++ {
		g.fault = false
		fmt.Fprintf(&g.sb, "P[%d] = function(p, q)\n", i)
		g.line(1, "local r, s, i, log = %s, 0, 3, \"\"", g.pick("1", "2", "0.5", "-1"))
		// The helpers are the program's own (one that always fails
		// spoils no other), closures over each other: upvalues open on
		// the program's registers, below every helper's.
		g.line(1, "local h1, h2, h3, h4")
		for h := leafHelpers; h >= 1; h-- {
			params := g.pick("a", "a, b", "a, b, c", "a, b, c", "a, b", "a, b, ...")
			g.line(1, "h%d = function(%s)", h, params)
			if !strings.Contains(params, "b") {
				g.line(2, "local b, c")
			} else if !strings.Contains(params, "c") {
				g.line(2, "local c = %s", g.pick("nil", "2", "b"))
			}
			// Missing arguments made numbers, by instructions leafRun
			// takes (a comparison with nil, a constant).
			for _, v := range []string{"a", "b", "c"} {
				if g.r.IntN(12) != 0 {
					g.line(2, "if %s == nil then %s = %s end", v, v, g.pick("1", "2", "0.5"))
				}
			}
			if strings.Contains(params, "...") {
				g.line(2, "local x, y = select(\"#\", ...), (...) or b") // a vararg function: not frameless
			} else {
				g.line(2, "local x, y = %s", g.pick("1, 2", "a, b", "0.5, b", "a, 2"))
			}
			g.helper(2, h, 1+g.r.IntN(5))
			g.line(1, "end")
		}
		g.body(1, 2+g.r.IntN(6))
		g.line(1, `return show(p) .. " " .. show(q) .. " " .. show(r) .. " " .. show(s) .. " " .. show(T[1]) .. " " .. show(T.n) .. " " .. show(T.m) .. " " .. show(T.last) .. log`)
		g.sb.WriteString("end\n")
	}
	g.sb.WriteString("return { name = \"Leaves\", run = function() end, P = P }\n")
	return g.sb.String()
}

// TestCoresAgreeOnLeafCalls runs generated calls of small helpers on both
// cores: each program whole, then stopped by the budget at ten points
// inside what it used.
func TestCoresAgreeOnLeafCalls(t *testing.T) {
	agreeOnGenerated(t, generatedChunks{seed: 20261129_3, perChunk: 30, cuts: 10, cutStep: 13, raceDiv: 5, generate: generateLeafCalls,
		args: func(i int) []lua.LValue { return []lua.LValue{lua.LNumber(i % 7), lua.LNumber(2.5)} }})
}

// TestCoresAgreeOnLeafCallCensus calls helpers without a frame in a loop
// whose allocations make the census run in the middle of calls and
// between them, with a memory bound small enough that it runs often, and
// compares what each census found as well as what callRecord sees. The
// helpers are called with more arguments than they take (short strings
// and a table above their registers, which must be gone once they
// return) and load a table and a long string that the caller then drops
// (which a register left behind would keep alive); the programs differ
// in how many instructions come before the loop, so that the censuses
// fall in different places.
func TestCoresAgreeOnLeafCallCensus(t *testing.T) {
	var sb strings.Builder
	sb.WriteString(`local P, T = {}, {}
local function h1(a) return a * 2 end
local function h2(a, b)
  local p1, p2, p3, p4, p5, p6 = a, a, a, a, a, a
  local z, y = T.t, T.s
  local x = a + z[1] + p6
  if b then x = x + 1 end
  return x
end
local function h3(a) local z = T.t; return a, z[1] end
`)
	const programs = 16
	for j := 1; j <= programs; j++ {
		fmt.Fprintf(&sb, "P[%d] = function(a, b)\n", j)
		for k := range j * 3 {
			fmt.Fprintf(&sb, "  local _ = %d\n", k)
		}
		// The helper called last before the allocation that may take a
		// census is one that leaves extra arguments above its registers
		// (h1) or one that held the table and the string (h2).
		last := "h1(i, \"short\", T.t, \"another\", \"fifth\", \"sixth\")"
		if j%2 == 0 {
			last = "h2(i, \"two\", \"three\", {i, i})"
		}
		fmt.Fprintf(&sb, `  local acc = 0
  for i = 1, 60 do
    local big = {}
    for k = 1, 400 do big[k] = k end
    T.t = big
    big = nil
    T.s = string.rep("y", 100 + i %% 13)
    local u, v, w = h3(i, "x")
    acc = acc + u + v + (w == nil and 1 or 0)
    acc = acc + %s
    T.t, T.s = nil, nil
    local pad = string.rep("x", 20000 + i %% 7)
  end
  return acc
end
`, last)
	}
	sb.WriteString("return { name = \"Census\", run = function() end, P = P }\n")
	src := sb.String()
	lim := DefaultLimits()
	lim.MemoryBytes = 256 << 10
	bothCores(t, "census", func() string {
		var out strings.Builder
		cat := catalogOf(t, map[string]string{"census.lua": src}, lim)
		if err := cat.All[0].Err; err != nil {
			t.Fatalf("the census chunk does not load: %v", err)
		}
		tm := NewTeam(TeamOptions{Catalog: cat, Entry: "-"})
		defer tm.Close()
		P := tm.class(0).table.RawGetString("P").(*lua.LTable)
		for round := range 3 {
			for j := 1; j <= programs; j++ {
				fmt.Fprintf(&out, "round %d P[%d] %s live %d visits %d\n", round, j,
					callRecord(tm, P.RawGetInt(j), 200_000, lua.LNumber(j), lua.LNumber(2)), tm.lastLive, tm.lastVisits)
			}
		}
		if os.Getenv("SHOW") != "" {
			fmt.Print(out.String())
		}
		return out.String()
	})
}
