package luabind

import (
	"strings"
	"testing"

	lua "github.com/yuin/gopher-lua"

	"github.com/squarebattle/squarebattle/engine"
)

// TestCensusWhateverTheTransport: what the census counts for a value that
// came into a team from outside (a rule mod's view or constant, the
// answers the rules read, a player's name, a killer's name, an option)
// does not depend on how it travelled. The census counts a long string
// once however many references share its bytes; in this process a string
// repeated in a view is one string, where a worker process decodes every
// occurrence into bytes of its own, and gcinfo() and the memory bound
// would differ between the two from the same seed.
func TestCensusWhateverTheTransport(t *testing.T) {
	long := strings.Repeat("x", 1000)
	// repeated is a plain table holding long in six places, as a plain
	// copier makes it in this process (one string) or as a worker decodes
	// it (six), constant or not.
	repeated := func(decoded, constant bool) any {
		L := lua.NewState()
		defer L.Close()
		s := lua.LString(long)
		inner := L.NewTable()
		inner.RawSetString("s", s)
		tb := L.NewTable()
		for i := 1; i <= 4; i++ {
			tb.RawSetInt(i, s)
		}
		tb.RawSet(s, inner)
		p, err := toPlain(tb)
		if err != nil {
			t.Fatal(err)
		}
		if constant {
			markConstant(p.(*plainTable))
		}
		if !decoded {
			return p
		}
		var e PlainEncoder
		var d PlainDecoder
		q, _, err := d.Read(e.Append(nil, p))
		if err != nil {
			t.Fatal(err)
		}
		return q
	}
	// same is long twice: one string, or two with the same bytes.
	same := func(shared bool) []string {
		if shared {
			return []string{long, long}
		}
		return []string{long, strings.Clone(long)}
	}
	tests := []struct {
		name string
		// held returns what the team holds of the value, travelled one
		// way or the other.
		held func(tm *Team, other bool) lua.LValue
	}{
		{"a view", func(tm *Team, decoded bool) lua.LValue {
			return fromPlainKept(tm.L, repeated(decoded, false), map[*plainTable]*lua.LTable{}, nil)
		}},
		{"a constant", func(tm *Team, decoded bool) lua.LValue {
			return fromPlainKept(tm.L, repeated(decoded, true), map[*plainTable]*lua.LTable{}, nil)
		}},
		{"the answers", func(tm *Team, decoded bool) lua.LValue {
			return fromPlainShared(tm.L, repeated(decoded, false), map[*plainTable]*lua.LTable{}, nil)
		}},
		{"stats().player", func(tm *Team, shared bool) lua.LValue {
			tm.facts = &engine.Facts{Players: same(shared), Stats: make([]engine.Stats, 2)}
			tm.L.Push(tm.base.RawGetString("stats"))
			if f, msg, _ := tm.callWithin(0, 1, 1000); f != engine.NoFault {
				t.Fatal(msg)
			}
			defer tm.L.SetTop(0)
			return tm.L.Get(-1)
		}},
		{"the killers", func(tm *Team, shared bool) lua.LValue {
			other := NewTeam(TeamOptions{Catalog: tm.cat, Size: 4, Teams: 2, Killers: same(shared)})
			defer other.Close()
			t := tm.L.NewTable()
			for _, k := range other.killers {
				t.Append(k)
			}
			return t
		}},
		{"game.option", func(tm *Team, shared bool) lua.LValue {
			names := same(shared)
			r := &Rules{options: map[string]any{"a": names[0], "b": names[1]}}
			t := tm.L.NewTable()
			for _, name := range []string{"a", "b"} {
				tm.L.Push(tm.L.NewFunction(r.luaOption))
				tm.L.Push(lua.LString(name))
				tm.L.Call(1, 1)
				t.Append(tm.L.Get(-1))
				tm.L.Pop(1)
			}
			return t
		}},
	}
	cat := catalogOf(t, map[string]string{"p.lua": `return { name = "P", run = function() end }`}, DefaultLimits())
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var live [2]int64
			for i, other := range []bool{false, true} {
				tm := NewTeam(TeamOptions{Catalog: cat, Size: 4, Teams: 2, Killers: []string{"a", "b"}})
				tm.facts = &engine.Facts{}
				tm.roots = append(tm.roots, tc.held(tm, other))
				live[i], _ = tm.census()
				tm.Close()
			}
			if live[0] != live[1] {
				t.Errorf("the census counts %d bytes one way and %d the other", live[0], live[1])
			}
		})
	}
}
