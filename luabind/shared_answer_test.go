package luabind

import (
	"fmt"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/squarebattle/squarebattle/engine"
)

// TestSharedAnswers: a player's answer that refers many times to one big
// table reaches the rules as one table referred to many times, in this
// process and behind the wall alike. Built once per place, 1,000 places of
// a 1,000-entry table were a million entries in the rules' state every
// round, charged to nobody. The rules below fail the battle unless the
// places are one table, and every variant must play its rounds.
func TestSharedAnswers(t *testing.T) {
	rules := `local asked = 0
return {
  turns = function(game)
    if asked == game.round() then return nil end -- one batch a round
    asked = game.round()
    return {{team = 0, view = {}, budget = 3000000}, {team = 1, view = {}, budget = 3000000}}
  end,
  resolve = function(game, calls, answers)
    for i = 1, #calls do
      local a = answers[i]
      if type(a) == "table" and a.shape == "shared" then
        for j = 2, #a do
          if not rawequal(a[j], a[1]) then error("answer " .. i .. ": place " .. j .. " is a copy, not the table") end
        end
        if a.nested and not rawequal(a.nested.inner, a[1]) then error("a nested reference is a copy") end
      end
    end
  end,
}`
	for _, tc := range []struct {
		name, answer string
	}{
		{"1000 places of 1000 entries", "local t = {} for i = 1, 1000 do t[i] = i end local a = {shape = 'shared'} for i = 1, 1000 do a[i] = t end return a"},
		{"as keys and values", "local t = {} for i = 1, 500 do t[i] = i end local a = {shape = 'shared', [t] = t} for i = 1, 400 do a[i] = t end return a"},
		{"nested", "local t = {} for i = 1, 800 do t[i] = 'x' end local a = {shape = 'shared', nested = {inner = t}} for i = 1, 600 do a[i] = t end return a"},
		{"a chain of shared tables", "local t = {1} for d = 1, 10 do t = {t, t} end local a = {shape = 'shared'} for i = 1, 30 do a[i] = t end return a"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			player := fmt.Sprintf("return { name = 'P', run = function(view) %s end }", tc.answer)
			folder := fstest.MapFS{"rules.lua": {Data: []byte(rules)}, "p.lua": {Data: []byte(player)}}
			g, err := LoadGame(folder, "shared", DefaultLimits())
			if err != nil {
				t.Fatal(err)
			}
			p, err := g.Find("p")
			if err != nil {
				t.Fatal(err)
			}
			b, err := NewModBattle(g, []*Class{p, p}, engine.ModOptions{Size: 8, Rounds: 30, Seed: 1, Workers: 2}, 5_000_000)
			if err != nil {
				t.Fatal(err)
			}
			defer b.Close()
			for b.Step() {
			}
			if err := b.Err(); err != nil {
				t.Fatalf("the battle stopped: %v", err)
			}
			s := b.Snapshot()
			for _, team := range s.Teams {
				if team.Stats.Errors > 0 || team.Stats.Timeouts > 0 {
					t.Errorf("team %s: %d errors, %d timeouts: %v", team.Player.Name, team.Stats.Errors, team.Stats.Timeouts, firstProblem(s))
				}
			}
		})
	}
}

func firstProblem(s *engine.Snapshot) string {
	var out []string
	for _, p := range s.FirstProblems {
		out = append(out, p.Message)
	}
	return strings.Join(out, "; ")
}
