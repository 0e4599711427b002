package main

import (
	"testing"

	"github.com/squarebattle/squarebattle/config"
	"github.com/squarebattle/squarebattle/tui"
)

// TestLobbyBoardSize: a game whose rules choose the board's side from the
// seed (orbs) is offered by the lobby with that choice, and a battle the
// lobby starts with it is played on the side run plays for the same seed
// (31×31 for seed 4), not on game.yaml's arena.size.
func TestLobbyBoardSize(t *testing.T) {
	cfg := config.Default()
	cfg.Isolation.Mode = config.IsolationNone
	cat, err := loadCatalog(cfg)
	if err != nil {
		t.Fatal(err)
	}
	src := newPlaySource(cfg, cat, nil, nil)
	var orbs *tui.Game
	for _, g := range src.Games() {
		switch {
		case g.ID == "orbs":
			orbs = &g
		case g.SeedSize != nil:
			t.Errorf("%q says its rules choose the size", g.Name)
		}
	}
	if orbs == nil || orbs.SeedSize == nil {
		t.Fatalf("orbs offered without its rules' size: %+v", orbs)
	}
	for _, tc := range []struct {
		seed uint64
		side int
	}{{4, 31}, {4, 31}} { // twice: the lobby asks again, the same answer
		n, err := orbs.SeedSize(tc.seed, 2)
		if err != nil || n != tc.side {
			t.Fatalf("seed %d: SeedSize says %d, %v; want %d", tc.seed, n, err, tc.side)
		}
	}
	b, err := src.NewBattle(tui.Setup{Game: "orbs", Players: []string{"explorer", "spreader"}, Size: 0, Rounds: 5, Seed: 4})
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	if got := b.Snapshot().Size; got != 31 {
		t.Errorf("the battle is played on %d×%d, want the rules' 31×31", got, got)
	}
}
