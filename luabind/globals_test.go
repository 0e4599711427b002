package luabind

import (
	"strings"
	"testing"

	"github.com/squarebattle/squarebattle/engine"
)

// runFile loads src as t/s.lua in a fresh team, calls its run function
// once and returns the fault's message ("" when none) and what it printed.
func runFile(t *testing.T, src string) (msg string, log []string) {
	t.Helper()
	cat := catalogOf(t, map[string]string{"s.lua": src}, DefaultLimits())
	if cat.All[0].Err != nil {
		return cat.All[0].Err.Error(), nil
	}
	tm := NewTeam(TeamOptions{Catalog: cat, Size: 4, Teams: 1, Killers: []string{"none"}})
	t.Cleanup(tm.Close)
	tm.facts = &engine.Facts{}
	cs := tm.class(0)
	if cs.err != "" {
		return cs.err, tm.Log()
	}
	tm.L.Push(cs.run)
	_, msg, _ = tm.callWithin(0, 0, DefaultLimits().Instructions)
	tm.L.SetTop(0)
	return msg, tm.Log()
}

// TestUndefinedGlobals: reading a global nothing defines is an error that
// names it and suggests the nearest name; globals the file assigns (at
// its top level or later, in any function) read as plain Lua's.
func TestUndefinedGlobals(t *testing.T) {
	tests := []struct {
		name, src, want string // want: part of the message, "" none
	}{
		{"misspelt action", `return { name = "S", run = function() return ATACK, S end }`,
			"s.lua:1: ATACK is not defined (did you mean ATTACK?)"},
		{"a long direction name", `return { name = "S", run = function(self, team, view) return MOVE, NORTH end }`,
			"NORTH is not defined (did you mean N?)"},
		{"case", `return { name = "S", run = function() return wait end }`, "wait is not defined (did you mean WAIT?)"},
		{"a library", `return { name = "S", run = function() return WAIT, maht.floor(1) end }`, "maht is not defined (did you mean math?)"},
		{"no suggestion", `return { name = "S", run = function() return zzzzqqq end }`, "zzzzqqq is not defined"},
		{"at the top level", "local x = MOVEE\nreturn { name = \"S\", run = function() end }", "s.lua:1: MOVEE is not defined (did you mean MOVE?)"},
		{"through _G", `return { name = "S", run = function() return _G["ATACK"] end }`, "ATACK is not defined"},
		{"a file's own global, before it is set", `count = count or 0
			return { name = "S", run = function() count = count + 1 print(count, later) end, f = function() later = 1 end }`, ""},
		{"a global set at run time", `return { name = "S", run = function() made = (made or 0) + 1 print(made) end }`, ""},
		{"a global set through _G", `_G.dyn = 5 return { name = "S", run = function() print(dyn) end }`, ""},
		{"under pcall", `return { name = "S", run = function() print(pcall(function() return ATACK end)) end }`, ""},
		{"a script's own metatable wins", `setmetatable(_G, {}) return { name = "S", run = function() print(ATACK) end }`, ""},
		{"a direction without an action", `local A = {} return { name = "S", run = function() return A.attack, S end }`,
			"run returned a direction without an action"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			msg, log := runFile(t, tc.src)
			if tc.name == "a direction without an action" {
				cat := catalogOf(t, map[string]string{"s.lua": tc.src}, DefaultLimits())
				b, _ := battle(t, cat, []string{"s"}, engine.Options{Size: 4, Wrap: true, Rounds: 1, Seed: 1})
				s := b.Run()
				if len(s.FirstProblems) == 0 {
					t.Fatal("no problem")
				}
				msg = s.FirstProblems[0].Message
			}
			switch {
			case tc.want == "" && msg != "":
				t.Errorf("unexpected error %q", msg)
			case tc.want != "" && !strings.Contains(msg, tc.want):
				t.Errorf("error %q, want %q", msg, tc.want)
			}
			if tc.name == "under pcall" && (len(log) != 1 || !strings.Contains(log[0], "ATACK is not defined")) {
				t.Errorf("pcall printed %q", log)
			}
		})
	}
}

// TestUndefinedGlobalsStatic: the static pass finds a misspelling on a
// path no battle takes, once per name at its first line, and not the
// file's own globals or the sandbox's.
func TestUndefinedGlobalsStatic(t *testing.T) {
	src := `helper = function() return 1 end
counter = 0
return { name = "S", run = function(self, team, view)
  counter = counter + helper()
  if round() < 0 then
    return ATACK, NORTH
  end
  if view[NE] == EMPTY then return MOVE, NE end
  return ATACK, string.upper("x"), later
end, f = function() later = true end }`
	cat := catalogOf(t, map[string]string{"s.lua": src}, DefaultLimits())
	got := cat.UndefinedGlobals(cat.Players()[0])
	var lines []string
	for _, u := range got {
		lines = append(lines, u.Error()+" @"+string(rune('0'+u.Line)))
	}
	want := []string{"ATACK is not defined (did you mean ATTACK?) @6", "NORTH is not defined (did you mean N?) @6"}
	if strings.Join(lines, "\n") != strings.Join(want, "\n") {
		t.Errorf("got\n%s\nwant\n%s", strings.Join(lines, "\n"), strings.Join(want, "\n"))
	}
}
