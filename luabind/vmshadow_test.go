package luabind

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	lua "github.com/yuin/gopher-lua"
)

// Number loops (vmshadow.go) on both cores. The generated programs of
// TestCoresAgreeOnGeneratedPrograms seldom make a loop whose body is all
// number work, so this test makes nothing else: numeric for loops (some
// nested, some leaving early, some changing their own index) whose bodies
// mix arithmetic on every operator with the other instructions numberRun
// takes — constants, moves, upvalues, reads and stores of list, hash and
// field entries, comparisons — over values that are sometimes not numbers
// (a string, nil, a table with a metatable) so that a run stops in every
// place, and over numbers that give NaN, infinities and -0. Each program
// is called whole and then stopped by the budget at many points, and the
// two cores must agree on everything callRecord sees. One program in four
// has more than 64 locals before its loop, so that registers past the
// shadow's reach are used too.

// chunkWriter is what the generators of differential tests write with.
type chunkWriter struct {
	r  *rand.Rand
	sb strings.Builder
}

func (g *chunkWriter) pick(xs ...string) string { return xs[g.r.IntN(len(xs))] }

func (g *chunkWriter) line(ind int, format string, args ...any) {
	g.sb.WriteString(strings.Repeat("  ", ind))
	fmt.Fprintf(&g.sb, format, args...)
	g.sb.WriteByte('\n')
}

// numberLoopGen writes the programs.
type numberLoopGen struct {
	chunkWriter
	loops int // loop indexes in scope: i1..iN
}

// operand is a value numberRun may find in a register or a constant.
func (g *numberLoopGen) operand() string {
	if g.loops > 0 && g.r.IntN(3) == 0 {
		return fmt.Sprintf("i%d", 1+g.r.IntN(g.loops))
	}
	if g.r.IntN(4) == 0 {
		return g.pick("0", "1", "2", "3", "7", "0.5", "-2.5", "64", "1e300", "-0", "2^53")
	}
	if g.r.IntN(8) == 0 {
		return g.pick("x", "y", "w", "h[a]") // sometimes not a number
	}
	return g.pick("a", "b", "c", "a", "b", "c", "u", "t[1]", "t[2]", "t[k]", "h.n")
}

// num is an arithmetic expression.
func (g *numberLoopGen) num(d int) string {
	if d <= 0 || g.r.IntN(3) == 0 {
		return g.operand()
	}
	op := g.pick("+", "-", "*", "/", "%", "^", "+", "-", "*", "%")
	return fmt.Sprintf("(%s %s %s)", g.num(d-1), op, g.num(d-1))
}

func (g *numberLoopGen) body(ind, n int) {
	for range n {
		switch g.r.IntN(15) {
		case 0, 1, 2:
			g.line(ind, "%s = %s", g.pick("a", "b", "c"), g.num(3))
		case 3:
			g.line(ind, "t[%s] = %s", g.pick("1", "2", "k", "#t + 1", "i1 % 8 + 1", "a", "(b % 4) + 1"), g.num(2))
		case 4:
			g.line(ind, "h.%s = %s", g.pick("n", "m"), g.num(2))
		case 5:
			g.line(ind, "h[%s] = %s", g.pick("a", "k", "\"s\"", "b % 3"), g.num(1))
		case 6:
			g.line(ind, "if %s %s %s then %s = %s end", g.num(1), g.pick("<", "<=", ">", ">=", "==", "~="), g.num(1), g.pick("a", "b", "c"), g.num(2))
		case 7:
			g.line(ind, "local z = %s; %s = z %s %s", g.num(2), g.pick("a", "b"), g.pick("+", "*", "-"), g.operand())
		case 8:
			// A register that held a number result now gets something
			// else: a constant, an upvalue, a read.
			g.line(ind, "%s = %s", g.pick("x", "y", "x", "y", "a"), g.pick("\"str\"", "7", "u", "t[2]", "h.n", "w", "nil", "t", "7", "u"))
		case 9:
			g.line(ind, "x, y = y, %s", g.num(1))
		case 10:
			if g.loops < 3 {
				g.loops++
				g.line(ind, "for i%d = %s, %s, %s do", g.loops, g.pick("1", "0", "-2", "0.5"), g.pick("3", "5", "8", "a % 5"), g.pick("1", "1", "2", "-1", "0.5"))
				g.body(ind+1, 1+g.r.IntN(4))
				g.line(ind, "end")
				g.loops--
			}
		case 11:
			if g.loops > 0 {
				g.line(ind, "if %s > %s then break end", g.num(1), g.pick("50", "1e6", "3"))
			}
		case 12:
			if g.loops > 0 {
				g.line(ind, "i%d = %s", 1+g.r.IntN(g.loops), g.num(1)) // the index, changed in the body
			}
		case 13:
			if g.r.IntN(3) == 0 {
				// Indexing a register that holds a number: an error,
				// whatever table the register held before.
				g.line(ind, "x = %s; x = %s; %s", g.pick("t", "h", "a"), g.num(1), g.pick("y = x.n", "y = x[1]", "x[1] = 2", "x.n = 2"))
				break
			}
			fallthrough
		default:
			g.line(ind, "k = (%s) %% 8 + 1", g.num(1))
		}
	}
}

// generateNumberLoops writes n programs into one chunk's P.
func generateNumberLoops(seed uint64, n int) string {
	g := &numberLoopGen{chunkWriter: chunkWriter{r: rand.New(rand.NewPCG(seed, seed^0x5851f42d4c957f2d))}}
	g.sb.WriteString(`local P = {}
local u = 2.25
local meta = setmetatable({}, { __index = function(_, k) return 3 end, __add = function() return 1 end })
local function show(v)
  local ty = type(v)
  if ty == "number" or ty == "string" or ty == "boolean" or ty == "nil" then return tostring(v) end
  return ty
end
`)
	for i := 1; i <= n; i++ {
		fmt.Fprintf(&g.sb, "P[%d] = function(p, q)\n", i)
		if g.r.IntN(4) == 0 {
			// Past the shadow's 64 registers.
			var pads []string
			for j := range 66 {
				pads = append(pads, fmt.Sprintf("pad%d", j))
			}
			g.line(1, "local %s = %s", strings.Join(pads, ", "), strings.TrimSuffix(strings.Repeat("p, ", 66), ", "))
		}
		g.line(1, "local a, b, c, x, y, k = p, q, %s, %s, 0.5, 1", g.pick("1", "-3", "\"7\"", "0", "1", "-3"), g.pick("2", "\"x\"", "nil", "1e300", "2", "2"))
		g.line(1, "local t, h = {%s}, {n = %s}", g.pick("1, 2, 3, 4, 5, 6, 7, 8", "0.5, -1, 2, 2, 0, 3, 9, 1", "1, 2, 3, 4, 5, 6, 7, 8", "4, 3, 2, 1, 0, -1, -2, -3", "1, 2, 3"), g.pick("1", "0", "1", "\"s\""))
		g.line(1, "local w = %s", g.pick("4", "4", "4", "meta", "\"3\"", "nil"))
		g.loops = 1
		if g.r.IntN(5) == 0 {
			g.line(1, "for i1 = %s, %s, -1 do", g.pick("10", "3", "0"), g.pick("1", "-2"))
		} else {
			g.line(1, "for i1 = %s, %s, %s do", g.pick("1", "0", "0.5"), g.pick("9", "16", "30", "40"), g.pick("1", "1", "2", "3", "0.5"))
		}
		g.body(2, 2+g.r.IntN(6))
		g.line(1, "end")
		g.loops = 0
		g.line(1, "local out = {show(a), show(b), show(c), show(x), show(y), show(k), show(h.n), show(h.m), show(h[1]), #t}")
		g.line(1, "for j = 1, #t do out[#out + 1] = show(t[j]) end")
		g.line(1, `return table.concat(out, " ")`)
		g.sb.WriteString("end\n")
	}
	g.sb.WriteString("return { name = \"Loops\", run = function() end, P = P }\n")
	return g.sb.String()
}

// TestCoresAgreeOnNumberLoops runs generated number loops on both cores:
// each program whole, then stopped by the budget at ten points inside
// what it used.
func TestCoresAgreeOnNumberLoops(t *testing.T) {
	agreeOnGenerated(t, generatedChunks{seed: 20261129_2, perChunk: 40, cuts: 10, cutStep: 11, raceDiv: 5, generate: generateNumberLoops,
		args: func(i int) []lua.LValue { return []lua.LValue{lua.LNumber(i % 5), lua.LNumber(1.5)} }})
}

// TestCoresAgreeOnNumberLoopRefills runs long number loops whose budget
// is refilled (every probeEvery instructions) on every instruction of the
// body in turn: the programs differ only in how many instructions come
// before the loop. A refill may take a census, so the shadow must be in
// the registers then, and the run must go on from the same values.
func TestCoresAgreeOnNumberLoopRefills(t *testing.T) {
	var sb strings.Builder
	sb.WriteString("local P = {}\n")
	const programs = 24
	for j := 1; j <= programs; j++ {
		fmt.Fprintf(&sb, "P[%d] = function(a, b)\n", j)
		for k := range j {
			fmt.Fprintf(&sb, "  local _ = %d\n", k)
		}
		sb.WriteString(`  local t = {0.5, 1.5, 2.5}
  for i = 1, 3000 do
    if a < i then a = a + 1.5 else a = a - 0.25 end
    b = b + a * 0.5 - t[i % 3 + 1]
    if b > 1e6 then b = b / 3 end
  end
  return a .. " " .. b
end
`)
	}
	sb.WriteString("return { name = \"Refills\", run = function() end, P = P }\n")
	agreeOnChunk(t, "refills", sb.String(), programs, 3, 7,
		func(i int) []lua.LValue { return []lua.LValue{lua.LNumber(0.25), lua.LNumber(i)} })
}
