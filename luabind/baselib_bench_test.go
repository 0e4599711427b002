package luabind

import (
	"testing"

	lua "github.com/yuin/gopher-lua"
)

// BenchmarkTableLib runs honest uses of the base and table libraries on 50
// items, under the project's functions (engine) and under gopher-lua's own
// (gopher), both counting instructions as the engine does. The ratio of the
// two is what charging the work costs an honest script:
//
// pcalldeep is the cost of errors caught deep in the stack.
//
//	go test -run '^$' -bench TableLib -count 6 ./luabind/ | tee /tmp/t.txt
//	benchstat -col /lib /tmp/t.txt
func BenchmarkTableLib(b *testing.B) {
	ops := []struct{ name, code string }{
		{"pairs", `local s = 0 for k, v in pairs(mixed) do s = s + v end`},
		{"insert", `local t = {} for i = 1, 50 do table.insert(t, i) end`},
		{"concat", `local s = table.concat(words, ",")`},
		{"remove1", `local t = {} for i = 1, 50 do t[i] = i end for i = 1, 50 do table.remove(t, 1) end`},
		// 20 errors caught 100 calls deep: gopher-lua's pcall formats a
		// traceback of every frame for each.
		{"pcalldeep", `local function f(d) if d == 0 then for i = 1, 20 do pcall(error, "x") end return 0 end return 1 + f(d - 1) end f(100)`},
	}
	setup := `mixed, words = {}, {}
		for i = 1, 25 do mixed[i] = i end
		for i = 1, 25 do mixed["k" .. i] = i end
		for i = 1, 50 do words[i] = "word" .. i end`
	for _, op := range ops {
		b.Run("op="+op.name+"/lib=gopher", func(b *testing.B) {
			L := lua.NewState()
			defer L.Close()
			bud := &budget{}
			bud.install(L)
			benchOp(b, L, bud, L.G.Global, setup, op.code)
		})
		b.Run("op="+op.name+"/lib=engine", func(b *testing.B) {
			cat := catalogOf(b, map[string]string{"s.lua": `return { name = "S", run = function() end }`}, DefaultLimits())
			tm := NewTeam(TeamOptions{Catalog: cat, Size: 4, Teams: 1, Killers: []string{"none"}})
			defer tm.Close()
			env := tm.L.NewTable()
			for k, v := tm.base.Next(lua.LNil); k != lua.LNil; k, v = tm.base.Next(k) {
				env.RawSet(k, v)
			}
			benchOp(b, tm.L, &tm.budget, env, setup, op.code)
		})
	}
}

func benchOp(b *testing.B, L *lua.LState, bud *budget, env *lua.LTable, setup, code string) {
	run := func(src string) *lua.LFunction {
		fn, err := L.LoadString(src)
		if err != nil {
			b.Fatal(err)
		}
		fn.Env = env
		return fn
	}
	bud.reset(1 << 40)
	L.Push(run(setup))
	L.Call(0, 0)
	fn := run(code)
	b.ResetTimer()
	for range b.N {
		bud.reset(1 << 40)
		L.Push(fn)
		L.Call(0, 0)
	}
}
