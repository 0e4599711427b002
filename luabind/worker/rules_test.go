package worker

import (
	"fmt"
	"io/fs"
	"reflect"
	"testing"
	"testing/fstest"

	"github.com/squarebattle/squarebattle/engine"
	"github.com/squarebattle/squarebattle/luabind"
	"github.com/squarebattle/squarebattle/scripts"
)

const rulesBudget = 50_000_000

func loadGame(t testing.TB, dir string) *luabind.Game {
	t.Helper()
	sub, err := fs.Sub(scripts.FS, dir)
	if err != nil {
		t.Fatal(err)
	}
	g, err := luabind.LoadGame(sub, "scripts/"+dir, luabind.Limits{})
	if err != nil {
		t.Fatal(err)
	}
	return g
}

// modBattle is a battle of every starting player of g, its teams and
// rules in this process (seat, rs nil) or behind them.
func modBattle(t testing.TB, g *luabind.Game, o engine.ModOptions, seat luabind.Seater, rs luabind.RulesSeater) *luabind.ModBattle {
	t.Helper()
	b, err := luabind.NewWalledModBattle(g, g.Players(), o, rulesBudget, seat, rs)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(b.Close)
	return b
}

// stepper is a battle stepAlike steps.
type stepper interface {
	Step() bool
	Snapshot() *engine.Snapshot
}

// stepAlike steps want and every one of got in lockstep and fails at the
// first round where a snapshot differs from want's in anything (cells,
// marks, scores, problems).
func stepAlike(t *testing.T, want stepper, got ...stepper) *engine.Snapshot {
	t.Helper()
	for {
		a := want.Snapshot()
		for i, g := range got {
			if b := g.Snapshot(); !reflect.DeepEqual(a, b) {
				t.Fatalf("round %d differs (battle %d behind the wall):\n here   %+v\n worker %+v", a.Round, i, a.Teams, b.Teams)
			}
		}
		sa := want.Step()
		for i, g := range got {
			if sb := g.Step(); sb != sa {
				t.Fatalf("round %d: in this process Step gave %v, behind the wall (battle %d) %v", a.Round, sa, i, sb)
			}
		}
		if !sa {
			return a
		}
	}
}

// TestRulesBehindWallSameBattle: every shipped rule mod gives the same
// battle, round by round, with its rules.lua in this process and in a
// worker process, for one and two engine workers.
func TestRulesBehindWallSameBattle(t *testing.T) {
	p := plainPool(t, Options{Size: 6})
	mods := []struct {
		game   string
		size   int
		rounds int
	}{{"paint", 40, 60}, {"snake", 30, 300}, {"orbs", 36, 60}, {"orbs", 0, 30}}
	for _, m := range mods {
		g := loadGame(t, m.game)
		for _, workers := range []int{1, 2} {
			t.Run(fmt.Sprintf("%s/size%d/workers%d", m.game, m.size, workers), func(t *testing.T) {
				o := engine.ModOptions{Size: m.size, Rounds: m.rounds, Seed: 11, Workers: workers}
				// The battle in this process, its rules behind the wall,
				// and its rules and teams behind the wall, side by side
				// (the one in this process is played once for both).
				want := modBattle(t, g, o, nil, nil)
				got := modBattle(t, g, o, nil, p)
				walled := modBattle(t, g, o, p.Seat, p)
				s := stepAlike(t, want, got, walled)
				if s.Round == 0 || want.Err() != nil || got.Err() != nil || walled.Err() != nil {
					t.Fatalf("round %d, errors %v / %v / %v", s.Round, want.Err(), got.Err(), walled.Err())
				}
			})
		}
	}
	t.Run("squarebattle-lua", func(t *testing.T) {
		g := loadGame(t, "squarebattle-lua")
		cat := shipped(t)
		players := cat.Players()[:4]
		for _, workers := range []int{1, 2} {
			o := engine.Options{Size: 16, Wrap: true, Rounds: 120, ReplicateRounds: 5, Seed: 5, Workers: workers}
			want, err := luabind.NewWalledBattle(cat, players, o, g, rulesBudget, nil, nil)
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(want.Close)
			got, err := luabind.NewWalledBattle(cat, players, o, g, rulesBudget, p.Seat, p)
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(got.Close)
			stepAlike(t, want, got)
		}
	})
}

// TestInstructionsAlikeBehindWall: a call behind the wall runs exactly the
// instructions the same call runs in this process, the memory censuses
// included (a census's walk is charged to the call it falls in), so a game
// with a clock sees the same counts. The rules keep each call's count as
// the score; the player allocates, so censuses come often.
func TestInstructionsAlikeBehindWall(t *testing.T) {
	const rules = `return {
  name = "Used", columns = {"used"},
` + callEveryTeam + `
  resolve = function(game, calls, answers, used)
    for i = 1, #calls do game.score(calls[i].team, "used", used[i]) end
  end,
}`
	files := fstest.MapFS{
		"rules.lua": {Data: []byte(rules)},
		"a.lua":     {Data: []byte(`return { name = "A", run = function(view, memory) local n = 0 for i = 1, 3000 do n = n + i end memory[#memory + 1] = n end }`)},
		"b.lua":     {Data: []byte(`return { name = "B", run = function() end }`)},
	}
	g, err := luabind.LoadGame(files, "scripts/used", luabind.Limits{})
	if err != nil {
		t.Fatal(err)
	}
	p := plainPool(t, Options{Size: 2})
	o := engine.ModOptions{Size: 8, Rounds: 400, Seed: 11, Workers: 1}
	here, there := modBattle(t, g, o, nil, nil), modBattle(t, g, o, p.Seat, p)
	counted := 0
	for here.Step() && there.Step() {
		a, b := here.Snapshot().Teams[0].Values[0], there.Snapshot().Teams[0].Values[0]
		if a != b {
			t.Fatalf("round %d: the call ran %d instructions in this process, %d behind the wall", here.Round(), a, b)
		}
		if a > 0 {
			counted++
		}
	}
	if counted == 0 {
		t.Fatal("no call counted any instruction: the rules did not see the counts")
	}
}

// TestGCInfoAlikeBehindWall: a player's memory is counted the same in
// this process and in a worker, so gcinfo() and the memory bound agree.
// The rules show each player one long string two hundred times over; in
// this process that is one string, where a worker decodes two hundred, and
// the census once counted them that way (luabind.ownString). The player
// keeps every view and allocates enough for censuses to run; the rules
// keep what gcinfo() answered as the score.
func TestGCInfoAlikeBehindWall(t *testing.T) {
	const rules = `local s = string.rep("x", 1000)
return {
  name = "Mem", columns = {"kb"},
  turns = function(game)
    if asked == game.round() then return nil end
    asked = game.round()
    local calls = {}
    for t = 0, game.teams() - 1 do
      local v = {}
      for i = 1, 200 do v[i] = s end
      calls[#calls + 1] = {team = t, view = v}
    end
    return calls
  end,
  resolve = function(game, calls, answers, used)
    for i = 1, #calls do if answers[i] then game.score(calls[i].team, "kb", answers[i]) end end
  end,
}`
	files := fstest.MapFS{
		"rules.lua": {Data: []byte(rules)},
		"a.lua": {Data: []byte(`return { name = "A", run = function(view, memory)
  keep = keep or {}
  keep[#keep + 1] = view
  local x = {} for i = 1, 2000 do x[i] = i end
  return gcinfo()
end }`)},
		"b.lua": {Data: []byte(`return { name = "B", run = function() return 0 end }`)},
	}
	lim := luabind.DefaultLimits()
	lim.MemoryBytes = 2 << 20
	g, err := luabind.LoadGame(files, "scripts/mem", lim)
	if err != nil {
		t.Fatal(err)
	}
	p := plainPool(t, Options{Size: 2})
	o := engine.ModOptions{Size: 8, Rounds: 20, Seed: 11, Workers: 1}
	here, there := modBattle(t, g, o, nil, nil), modBattle(t, g, o, p.Seat, p)
	for here.Step() && there.Step() {
		a, b := here.Snapshot().Teams[0].Values[0], there.Snapshot().Teams[0].Values[0]
		if a != b {
			t.Fatalf("round %d: gcinfo() gave %d KiB in this process, %d behind the wall", here.Round(), a, b)
		}
	}
}
