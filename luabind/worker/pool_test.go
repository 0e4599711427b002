package worker

import (
	"slices"
	"testing"

	"github.com/squarebattle/squarebattle/engine"
)

// TestReserve: a pool keeps Size idle workers after a battle, or as many as
// Reserve asked, and reuses them for the next battle.
func TestReserve(t *testing.T) {
	cat := catalogOf(t, map[string]string{"idle.lua": idle})
	o := engine.Options{Size: 8, Wrap: true, Rounds: 3, Seed: 1, Workers: 1}
	for _, c := range []struct{ reserve, want int }{{0, 1}, {3, 3}, {2, 2}} {
		p := testPool(t, Options{Size: 1})
		if c.reserve > 0 {
			p.Reserve(c.reserve)
		}
		b := battle(t, cat, []string{"idle", "idle", "idle"}, o, p.Seat)
		b.Run()
		b.Close()
		kept := p.Pids()
		if len(kept) != c.want {
			t.Errorf("Reserve(%d): %d idle workers kept, want %d", c.reserve, len(kept), c.want)
		}
		b = battle(t, cat, []string{"idle", "idle", "idle"}, o, p.Seat)
		b.Run()
		b.Close()
		again := p.Pids()
		for _, pid := range kept {
			if !slices.Contains(again, pid) {
				t.Errorf("Reserve(%d): worker %d was not reused", c.reserve, pid)
			}
		}
	}
}
