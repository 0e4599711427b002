package worker

import (
	"testing"

	"github.com/squarebattle/squarebattle/engine"
	"github.com/squarebattle/squarebattle/luabind"
)

// BenchmarkRulesWall plays whole rule mod battles, one per iteration, with
// rules.lua in this process ("none") and in a worker process ("process"),
// the way a tournament plays them (one engine worker; the pool's worker
// reused from battle to battle). Compare the pairs with benchstat:
//
//	go test -c -o /tmp/w.test ./luabind/worker && cd luabind/worker &&
//	for i in 1 2 3 4 5 6 7 8; do /tmp/w.test -test.run "^$" -test.bench RulesWall -test.benchtime 3x; done | benchstat -col /rules -
//
// (a loop rather than -count, so that the two modes alternate and share
// whatever else loads the machine)
func BenchmarkRulesWall(b *testing.B) {
	p := testPool(b, Options{Size: 2})
	games := []struct {
		name    string
		players []string
		size    int
		rounds  int
	}{
		{"paint", []string{"random", "random", "greedy", "greedy"}, 40, 100},
		{"snake", []string{"hungry", "cautious"}, 30, 300},
		// orbs asks one unit at a time: a round trip per unit
		{"orbs", []string{"explorer", "spreader"}, 36, 40},
	}
	for _, gm := range games {
		g := loadGame(b, gm.name)
		var players []*luabind.Class
		for _, name := range gm.players {
			c, err := g.Find(name)
			if err != nil {
				b.Fatal(err)
			}
			players = append(players, c)
		}
		for _, mode := range []string{"none", "process"} {
			b.Run(gm.name+"/rules="+mode, func(b *testing.B) {
				var rs luabind.RulesSeater
				if mode == "process" {
					rs = p
				}
				ticks := 0
				seed := uint64(0)
				for b.Loop() {
					seed++
					m, err := luabind.NewWalledModBattle(g, players, engine.ModOptions{Size: gm.size, Rounds: gm.rounds, Seed: seed, Workers: 1}, rulesBudget, rs)
					if err != nil {
						b.Fatal(err)
					}
					for m.Step() {
					}
					if m.Err() != nil {
						b.Fatal(m.Err())
					}
					ticks += m.Round()
					m.Close()
				}
				b.ReportMetric(float64(ticks)/b.Elapsed().Seconds(), "ticks/s")
			})
		}
	}
}
