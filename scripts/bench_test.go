package scripts_test

import (
	"io/fs"
	"testing"

	"github.com/squarebattle/squarebattle/engine"
	"github.com/squarebattle/squarebattle/luabind"
	"github.com/squarebattle/squarebattle/scripts"
)

// BenchmarkPaint measures a rule mod's speed: ticks per second of a 4-team
// paint game of Random Painters (40×40, 500 ticks, the budgets of
// game.yaml), one battle per iteration on one goroutine, the way a
// tournament plays it.
//
//	go test -run '^$' -bench Paint -benchtime 3x ./scripts/
func BenchmarkPaint(b *testing.B) {
	benchmarkGame(b, "paint", []string{"random", "random", "random", "random"}, 40, 500, 1_000_000)
}

func benchmarkGame(b *testing.B, game string, players []string, size, rounds, instructions int) {
	folder, err := fs.Sub(scripts.FS, game)
	if err != nil {
		b.Fatal(err)
	}
	limits := luabind.DefaultLimits()
	limits.Instructions = instructions
	g, err := luabind.LoadGame(folder, game, limits)
	if err != nil {
		b.Fatal(err)
	}
	classes := findPlayers(b, g, players)
	ticks := 0
	b.ResetTimer()
	for i := range b.N {
		m, err := luabind.NewModBattle(g, classes, engine.ModOptions{Size: size, Rounds: rounds, Seed: uint64(i + 1), Workers: 1}, rulesBudget)
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
}
