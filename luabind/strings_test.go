package luabind

import (
	"os"
	"strings"
	"testing"

	lua "github.com/yuin/gopher-lua"
)

// The string library is checked against Debian's lua5.1 (Lua 5.1.5): the
// expected outputs of lua51StringCases (strformat_cases_test.go) were
// printed by lua5.1 running testdata/strings/harness.lua over the cases that
// testdata/strings/gen.py generates (seeded) plus testdata/strings/edge.txt:
//
//	cd luabind/testdata/strings && python3 gen.py ../../strformat_cases_test.go
//
// harness.lua turns each result into text the same way in both
// interpreters: numbers with %.14g, bytes outside letters, digits,
// punctuation and space as \ddd, and errors without their position.

// stringTeam loads a class whose top level is src in a fresh team with a
// large budget and returns the team and the table the script returned.
func stringTeam(t *testing.T, src string, lim Limits) (*Team, *lua.LTable) {
	t.Helper()
	cat := catalogOf(t, map[string]string{"x.lua": src}, lim)
	tm := NewTeam(TeamOptions{Catalog: cat, Entry: "-"})
	t.Cleanup(tm.Close)
	cs := tm.class(0)
	if cs.err != "" {
		t.Fatal(cs.err)
	}
	return tm, cs.table
}

// luaResults runs every Lua expression of codes through the harness in the
// sandbox and returns one line of text per expression.
func luaResults(t *testing.T, codes []string) []string {
	t.Helper()
	head, err := os.ReadFile("testdata/strings/harness.lua")
	if err != nil {
		t.Fatal(err)
	}
	var sb strings.Builder
	sb.Write(head)
	for _, c := range codes {
		sb.WriteString("show(function() return pack(" + c + ") end)\n")
	}
	sb.WriteString("return { name = \"X\", run = function() end, out = out }\n")
	lim := DefaultLimits()
	lim.Instructions = 10_000_000 / loadBudgetFactor
	_, tbl := stringTeam(t, sb.String(), lim)
	out := tbl.RawGetString("out").(*lua.LTable)
	res := make([]string, len(codes))
	for i := range res {
		res[i] = lua.LVAsString(out.RawGetInt(i + 1))
	}
	return res
}

func TestStringFormatLikeLua51(t *testing.T) {
	codes := make([]string, len(lua51StringCases))
	for i, c := range lua51StringCases {
		codes[i] = c.code
	}
	got := luaResults(t, codes)
	if len(got) < 400 {
		t.Fatalf("%d cases", len(got))
	}
	for i, c := range lua51StringCases {
		if got[i] != c.want {
			t.Errorf("%s\n got %q\nwant %q", c.code, got[i], c.want)
		}
	}
}
