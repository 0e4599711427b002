package worker

import (
	"fmt"
	"io/fs"
	"reflect"
	"testing"

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

// stepAlike steps two battles in lockstep and fails at the first round
// whose snapshots differ in anything (cells, marks, scores, problems).
func stepAlike(t *testing.T, want, got interface {
	Step() bool
	Snapshot() *engine.Snapshot
}) *engine.Snapshot {
	t.Helper()
	for {
		a, b := want.Snapshot(), got.Snapshot()
		if !reflect.DeepEqual(a, b) {
			t.Fatalf("round %d differs:\n here   %+v\n worker %+v", a.Round, a.Teams, b.Teams)
		}
		sa, sb := want.Step(), got.Step()
		if sa != sb {
			t.Fatalf("round %d: in this process Step gave %v, behind the wall %v", a.Round, sa, sb)
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
	p := testPool(t, Options{Size: 6})
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
				want := modBattle(t, g, o, nil, nil)
				got := modBattle(t, g, o, nil, p)
				s := stepAlike(t, want, got)
				if s.Round == 0 || want.Err() != nil || got.Err() != nil {
					t.Fatalf("round %d, errors %v / %v", s.Round, want.Err(), got.Err())
				}
				// And with the teams in workers too.
				want = modBattle(t, g, o, nil, nil)
				stepAlike(t, want, modBattle(t, g, o, p.Seat, p))
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
