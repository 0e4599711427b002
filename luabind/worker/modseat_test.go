package worker

import (
	"fmt"
	"strings"
	"testing"
	"testing/fstest"
	"time"

	"github.com/squarebattle/squarebattle/engine"
	"github.com/squarebattle/squarebattle/luabind"
)

// callEveryTeam is the turns function of a rule mod that calls every
// team's player once a round.
const callEveryTeam = `  turns = function(game)
    if asked == game.round() then return nil end
    asked = game.round()
    local calls = {}
    for t = 0, game.teams() - 1 do calls[#calls + 1] = {team = t, view = {round = game.round()}} end
    return calls
  end,`

// scoring is a rule mod whose score is the sum of the numbers a team's
// player answered, one call per team a round.
const scoring = `return {
  name = "Scoring", columns = {"score"},
` + callEveryTeam + `
  resolve = function(game, calls, answers)
    for i = 1, #calls do
      local t = calls[i].team
      if type(answers[i]) == "number" then game.score(t, "score", game.score(t, "score") + answers[i]) end
      game.set(t, game.round() % 4, t)
    end
  end,
}`

func scoringGame(t testing.TB, hostile string) *luabind.Game {
	t.Helper()
	files := fstest.MapFS{
		"rules.lua": {Data: []byte(scoring)},
		"a.lua":     {Data: []byte(`return { name = "A", run = function(view, memory) memory.n = (memory.n or 0) + 1; return memory.n end }`)},
		"h.lua":     {Data: []byte(hostile)},
	}
	g, err := luabind.LoadGame(files, "scripts/scoring", luabind.Limits{})
	if err != nil {
		t.Fatal(err)
	}
	return g
}

// TestModTeamBackstop fields, behind the wall, a rule mod player that calls
// the test hooks: each costs only its own team (its calls go unanswered,
// three crashes retire it, each counted and named), and the other team
// plays the battle it plays against a player that answers nothing.
func TestModTeamBackstop(t *testing.T) {
	idle := scoringGame(t, `return { name = "H", run = function() end }`)
	o := engine.ModOptions{Size: 4, Rounds: 12, Seed: 1, Workers: 2}
	players := func(g *luabind.Game) []*luabind.Class {
		a, _ := g.Find("a")
		h, _ := g.Find("h")
		return []*luabind.Class{a, h}
	}
	ref, err := luabind.NewWalledModBattle(idle, players(idle), o, rulesBudget, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer ref.Close()
	for ref.Step() {
	}
	want := ref.Snapshot()
	p := testPool(t, Options{Size: 3, MemoryMiB: 256, CallTimeout: 700 * time.Millisecond, PerInstruction: time.Nanosecond})
	long := testPool(t, Options{Size: 3, MemoryMiB: 256, CallTimeout: time.Minute})
	for _, c := range []struct{ hook, shown string }{
		{"go_spin", "wall-clock"},
		{"go_alloc", "out of memory"},
		{"go_recurse", "stack"},
		{"go_exit", "exit status 3"},
		{"go_nil", "nil pointer"},
	} {
		t.Run(c.hook, func(t *testing.T) {
			if c.hook == "go_alloc" && !AddressSpaceLimited() {
				t.Skip("no address-space limit under the race detector or off Linux: the hook would take the machine's memory")
			}
			g := scoringGame(t, fmt.Sprintf(`return { name = "H", run = function() %s() end }`, c.hook))
			// The hostile player, team 1, waits out the short bound when
			// it spins; team A's bound is one no honest call comes near.
			seat := func(to luabind.TeamOptions) (luabind.Seat, error) {
				if to.Index == 1 && c.hook == "go_spin" {
					return p.Seat(to)
				}
				return long.Seat(to)
			}
			b, err := luabind.NewWalledModBattle(g, players(g), o, rulesBudget, seat, long)
			if err != nil {
				t.Fatal(err)
			}
			defer b.Close()
			for b.Step() {
			}
			got := b.Snapshot()
			if b.Err() != nil || got.Round != want.Round {
				t.Fatalf("round %d, error %v: the battle did not go on", got.Round, b.Err())
			}
			h := got.Teams[1].Stats
			if faults := h.Errors + h.Timeouts; faults != 3 {
				t.Errorf("hostile team %+v, want three faults (then retired)", h)
			}
			var first string
			for _, pr := range got.FirstProblems {
				if pr.Team == 1 {
					first = pr.Message
					break
				}
			}
			if !strings.HasPrefix(first, "scripts/scoring/h.lua: the team's worker process") || !strings.Contains(first, c.shown) {
				t.Errorf("first problem %q, want one naming scripts/scoring/h.lua and %q", first, c.shown)
			} else {
				t.Logf("shown as: %s", first)
			}
			if fmt.Sprint(got.Teams[0]) != fmt.Sprint(want.Teams[0]) || fmt.Sprint(got.Cells) != fmt.Sprint(want.Cells) ||
				fmt.Sprint(got.Teams[1].Values) != fmt.Sprint(want.Teams[1].Values) {
				t.Errorf("the battle differs from the one against a player that answers nothing:\n got %+v\nwant %+v", got.Teams, want.Teams)
			}
		})
	}
}
