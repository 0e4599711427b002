package luabind

import (
	"testing"

	lua "github.com/yuin/gopher-lua"
)

// stringBenchOps are common string operations, each the body of a loop.
var stringBenchOps = []struct{ name, body string }{
	{"concat", `local x = s .. t`},
	{"concat3", `local x = s .. "-" .. t`},
	{"concatnum", `local x = s .. i`},
	{"len", `local x = #s`},
	{"sub", `local x = s:sub(2, 4)`},
	{"byte", `local x = s:byte(1)`},
	{"upper", `local x = s:upper()`},
	{"find", `local x = s:find("lo", 1, true)`},
	{"findpat", `local x = s:find("l+")`},
	{"match", `local x = s:match("(%a+)")`},
	{"gsub", `local x = s:gsub("l", "L")`},
	{"format", `local x = string.format("%d:%s", i, s)`},
}

func stringBenchSource() string {
	src := "local s, t = \"hello world\", \"abc\"\nlocal ops = {}\n"
	for _, op := range stringBenchOps {
		src += "ops." + op.name + " = function(n) for i = 1, n do " + op.body + " end end\n"
	}
	return src + "return { name = \"B\", run = function() end, ops = ops }\n"
}

// BenchmarkStringOps runs each operation in a loop in the sandbox (engine,
// the rewritten chunk under the instruction budget) and in plain gopher-lua
// with its own library (plain); their ratio per operation is what issue 15
// bounds at 1.5×:
//
//	go test -run '^$' -bench StringOps -count 6 ./luabind/ | tee /tmp/s.txt
//	benchstat -col /where /tmp/s.txt
func BenchmarkStringOps(b *testing.B) {
	src := stringBenchSource()
	lim := DefaultLimits()
	lim.Instructions = 1 << 30 / loadBudgetFactor
	lim.MemoryBytes = 1 << 50 // garbage is charged until a census, which a call never reaches
	tm, tbl := stringTeam(b, src, lim)
	ours := tbl.RawGetString("ops").(*lua.LTable)

	plain := lua.NewState()
	defer plain.Close()
	if err := plain.DoString(src); err != nil {
		b.Fatal(err)
	}
	theirs := plain.Get(-1).(*lua.LTable).RawGetString("ops").(*lua.LTable)
	plain.Pop(1)

	for _, op := range stringBenchOps {
		b.Run("where=engine/op="+op.name, func(b *testing.B) {
			tm.L.Push(ours.RawGetString(op.name))
			tm.L.Push(lua.LNumber(b.N))
			if f, msg, _ := tm.callWithin(1, 0, 1<<62); f != 0 {
				b.Fatal(msg)
			}
		})
		b.Run("where=plain/op="+op.name, func(b *testing.B) {
			plain.Push(theirs.RawGetString(op.name))
			plain.Push(lua.LNumber(b.N))
			if err := plain.PCall(1, 0, nil); err != nil {
				b.Fatal(err)
			}
		})
	}
}
