package luabind

import (
	"strings"
	"testing"
	"time"

	lua "github.com/yuin/gopher-lua"
)

// opsBench lists the common operations issue 15 bounds at 1.5× plain
// gopher-lua. Each body runs once per inner iteration i; the shared locals
// are s = "hello world", c = "abc", u (the numbers 1..50, kept at 50
// items by the bodies that change it), m (25 array and 25 hash entries), w
// (50 words), sh (50 shuffled numbers) and a scratch table z.
var opsBench = []struct{ name, body string }{
	{"concat", `local x = s .. c`},
	{"len_s", `local x = #s`},
	{"len_t", `local x = #u`},
	{"index_read", `local x = u[25]`},
	{"index_write", `u[25] = i`},
	{"field", `local x = m.k7`},
	{"sub", `local x = s:sub(2, 4)`},
	{"byte", `local x = s:byte(1)`},
	{"char", `local x = string.char(104, 105)`},
	{"find_plain", `local x = s:find("lo", 1, true)`},
	{"format_d", `local x = string.format("%d", i)`},
	{"rep", `local x = c:rep(3)`},
	{"upper", `local x = s:upper()`},
	{"gsub", `local x = s:gsub("l", "L")`},
	{"insert", `table.insert(u, i) u[51] = nil`},
	{"remove", `local x = table.remove(u) u[50] = x`},
	{"remove_1", `local x = table.remove(u, 1) u[50] = x`},
	{"concat_t", `local x = table.concat(w, ",")`},
	{"sort_50", `for j = 1, 50 do z[j] = sh[j] end table.sort(z)`},
	{"ipairs_50", `for k, v in ipairs(u) do end`},
	{"pairs_50", `for k, v in pairs(m) do end`},
	{"tostring", `local x = tostring(i)`},
	{"tonumber", `local x = tonumber("123")`},
	{"floor", `local x = math.floor(1.5)`},
	{"max", `local x = math.max(i, 7)`},
}

func opsBenchSource() string {
	var sb strings.Builder
	sb.WriteString(`local s, c = "hello world", "abc"
local u, m, w, sh, z = {}, {}, {}, {}, {}
for i = 1, 50 do u[i] = i; w[i] = "word" .. i; sh[i] = (i * 37) % 50 end
for i = 1, 25 do m[i] = i; m["k" .. i] = i end
local ops = {}
`)
	for _, op := range opsBench {
		sb.WriteString("ops." + op.name + " = function(n) for i = 1, n do " + op.body + " end end\n")
	}
	sb.WriteString("return { name = \"B\", run = function() end, ops = ops }\n")
	return sb.String()
}

// BenchmarkOps runs each common operation in a loop in the sandbox (the
// rewritten chunk under the instruction budget, the project's libraries)
// and in bare gopher-lua (no count, its own libraries), alternating the two
// in rounds of opsRound iterations within one benchmark run so that a
// change in machine load falls on both. ns/op is one iteration of each
// (wall clock); engine/bare, the ratio issue 15 bounds at 1.5×, is the
// ratio of the process CPU time each side used (cpuNow), which a loaded
// machine's preemptions do not blur as they do the wall-clock ratio
// (engine/bare-wall, reported as well):
//
//	go test -run '^$' -bench '^BenchmarkOps$' -count 6 ./luabind/ | tee /tmp/ops.txt
//	benchstat -col .unit /tmp/ops.txt   (or read the engine/bare column)
func BenchmarkOps(b *testing.B) {
	// The call's limit is 1<<40, not 1<<62: next (nextkeys.go) multiplies
	// the budget left by walkSlotsPerInstruction, which overflows near 1<<62.
	const opsRound = 200
	src := opsBenchSource()
	lim := DefaultLimits()
	lim.Instructions = 1 << 30 / loadBudgetFactor
	lim.MemoryBytes = 1 << 50 // garbage is charged until a census, which a call never reaches
	tm, tbl := stringTeam(b, src, lim)
	ours := tbl.RawGetString("ops").(*lua.LTable)

	bare := lua.NewState()
	defer bare.Close()
	if err := bare.DoString(src); err != nil {
		b.Fatal(err)
	}
	theirs := bare.Get(-1).(*lua.LTable).RawGetString("ops").(*lua.LTable)
	bare.Pop(1)

	for _, op := range opsBench {
		b.Run("op="+op.name, func(b *testing.B) {
			engineFn, bareFn := ours.RawGetString(op.name), theirs.RawGetString(op.name)
			var te, tb, ce, cb time.Duration
			for left := b.N; left > 0; left -= opsRound {
				n := lua.LNumber(min(left, opsRound))
				t0, c0 := time.Now(), cpuNow()
				tm.L.Push(engineFn)
				tm.L.Push(n)
				if f, msg, _ := tm.callWithin(1, 0, 1<<40); f != 0 {
					b.Fatal(msg)
				}
				t1, c1 := time.Now(), cpuNow()
				bare.Push(bareFn)
				bare.Push(n)
				if err := bare.PCall(1, 0, nil); err != nil {
					b.Fatal(err)
				}
				te += t1.Sub(t0)
				tb += time.Since(t1)
				ce += c1 - c0
				cb += cpuNow() - c1
			}
			b.ReportMetric(float64(te)/float64(b.N), "engine-ns/op")
			b.ReportMetric(float64(tb)/float64(b.N), "bare-ns/op")
			b.ReportMetric(float64(ce)/float64(cb), "engine/bare")
			b.ReportMetric(float64(te)/float64(tb), "engine/bare-wall")
		})
	}
}
