package scripts_test

import (
	"context"
	"fmt"
	"io/fs"
	"math/rand/v2"
	"path/filepath"
	"strings"
	"testing"
	"testing/fstest"
	"time"

	"github.com/squarebattle/squarebattle/engine"
	"github.com/squarebattle/squarebattle/engine/ladder"
	"github.com/squarebattle/squarebattle/engine/ladder/sqlite"
	"github.com/squarebattle/squarebattle/engine/tournament"
	"github.com/squarebattle/squarebattle/luabind"
	"github.com/squarebattle/squarebattle/scripts"
)

// waiter is a player of known strength: a fair fighter (attack what is
// next to it, else grow or wander) that instead waits, doing nothing, with
// probability p each turn. The lower p, the stronger.
func waiter(i int, p float64) string {
	return fmt.Sprintf(`local P = %g
return {
  name = "Waiter %02d",
  run = function(self, team, view, row, col)
    if math.random() < P then return WAIT end
    for d = 1, 8 do
      local v = view[d]
      if v ~= EMPTY and v ~= WALL and v ~= team then return ATTACK, d end
    end
    local d = math.random(8)
    if view[d] == EMPTY then
      if math.random() < 0.3 then return REPLICATE, d end
      return MOVE, d
    end
    return WAIT
  end,
}
`, p, i)
}

// ladderBattles is how many battles TestLadderRanksByStrength plays: 600
// battles of four, 80 per player on average.
const ladderBattles = 600

// TestLadderRanksByStrength: a seeded ladder of the shipped players and 20
// generated players of known strength, on SQLite, playing real battles
// (16×16, 200 rounds, four teams) in this process, ranks the generated
// players in their order of strength: Spearman's ρ ≥ 0.9 after
// ladderBattles battles.
func TestLadderRanksByStrength(t *testing.T) {
	t.Parallel() // whole games: beside another when a core is free (the soaks, which count goroutines, run first)

	if testing.Short() || raceEnabled {
		t.Skip("plays 600 battles one after another, in one goroutine: nothing for the race detector, and minutes under it")
	}
	ctx := context.Background()
	files := fstest.MapFS{}
	err := fs.WalkDir(scripts.FS, ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || strings.Contains(p, "/") || !strings.HasSuffix(p, ".lua") {
			return err
		}
		data, err := fs.ReadFile(scripts.FS, p)
		files[p] = &fstest.MapFile{Data: data}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	var truth []string // generated players, strongest first
	for i := range 20 {
		id := fmt.Sprintf("waiter%02d", i)
		files[id+".lua"] = &fstest.MapFile{Data: []byte(waiter(i, float64(i)*0.05))}
		truth = append(truth, id)
	}
	cat, err := luabind.LoadCatalog(luabind.CatalogOptions{FS: files, Dir: "scripts"})
	if err != nil {
		t.Fatal(err)
	}
	store, err := sqlite.Open(ctx, filepath.Join(t.TempDir(), "ladder.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer store.Close()
	clock := time.Date(2026, 11, 28, 0, 0, 0, 0, time.UTC)
	l, err := ladder.New(ladder.Options{Store: store, Games: []ladder.Game{{Teams: 4}}, Rand: rand.New(rand.NewPCG(42, 1)),
		Now: func() time.Time { clock = clock.Add(time.Second); return clock }})
	if err != nil {
		t.Fatal(err)
	}
	for _, cls := range cat.Players() {
		if _, err := l.Enter(ctx, "", cls.ID, "", cls.DisplayName(), files[cls.ID+".lua"].Data); err != nil {
			t.Fatal(err)
		}
	}
	names := map[ladder.PlayerID]string{}
	for range ladderBattles {
		b, err := l.Plan(ctx, "", nil)
		if err != nil {
			t.Fatal(err)
		}
		var players []*luabind.Class
		for _, s := range b.Seats {
			name := names[s.Player]
			if name == "" {
				pg, _ := l.History(ctx, s.Player, 1)
				name, names[s.Player] = pg.Name, pg.Name
			}
			cls, err := cat.Find(name)
			if err != nil {
				t.Fatal(err)
			}
			players = append(players, cls)
		}
		if _, err := l.Start(ctx, b.ID); err != nil {
			t.Fatal(err)
		}
		battle, err := luabind.NewBattle(cat, players, engine.Options{Size: 16, Wrap: true, Rounds: 200, ReplicateRounds: 10, Seed: b.Seed, Workers: 1})
		if err != nil {
			t.Fatal(err)
		}
		final := battle.Run()
		battle.Close()
		var o ladder.Outcome
		o.Rounds = final.Round
		for _, tv := range final.Teams {
			survived := final.Round
			if tv.Eliminated > 0 {
				survived = tv.Eliminated
			}
			o.Results = append(o.Results, tournament.TeamResult{Squares: tv.Stats.Squares, Survived: survived, Errors: tv.Stats.Errors, Timeouts: tv.Stats.Timeouts})
		}
		if _, err := l.Finish(ctx, b.ID, o); err != nil {
			t.Fatal(err)
		}
	}
	board, _, err := l.Leaderboard(ctx, "", 0, 0)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, s := range board {
		if strings.HasPrefix(s.Name, "waiter") {
			got = append(got, s.Name)
		}
		t.Logf("%2d %-14s μ %6.2f σ %5.2f  %3d battles %3d wins", s.Rank, s.Name, s.Rating.Mu, s.Rating.Sigma, s.Battles, s.Wins)
	}
	pos := map[string]int{}
	for i, n := range truth {
		pos[n] = i
	}
	var d2 float64
	for i, n := range got {
		d := float64(i - pos[n])
		d2 += d * d
	}
	n := float64(len(got))
	rho := 1 - 6*d2/(n*(n*n-1))
	t.Logf("Spearman's ρ of the generated players after %d battles: %.3f", ladderBattles, rho)
	if rho < 0.9 {
		t.Errorf("ρ = %.3f, want ≥ 0.9; order %v", rho, got)
	}
}
