package sqlite

import (
	"context"
	"fmt"
	"math/rand/v2"
	"path/filepath"
	"testing"

	"github.com/squarebattle/squarebattle/engine/ladder"
	"github.com/squarebattle/squarebattle/engine/ladder/laddertest"
)

// BenchmarkLeaderboardPage is what a viewer's screen costs on a SQLite
// ladder of 1,000 players after 1,000 battles: one page of 19 lines of
// the table (Leaderboard from the middle), their trends (8 ratings each)
// and their ratings at a visit, as tui's leaderboard reads them for each
// page shown.
//
//	go test ./engine/ladder/sqlite -run X -bench LeaderboardPage -benchtime 200x
func BenchmarkLeaderboardPage(b *testing.B) {
	ctx := context.Background()
	st, err := Open(ctx, filepath.Join(b.TempDir(), "ladder.db"))
	if err != nil {
		b.Fatal(err)
	}
	defer st.Close()
	l, err := ladder.New(ladder.Options{Store: st, Games: []ladder.Game{{Teams: 4}}, Rand: rand.New(rand.NewPCG(1, 2))})
	if err != nil {
		b.Fatal(err)
	}
	sim := &laddertest.Sim{Ladder: l, Strength: map[ladder.PlayerID]float64{}}
	for i := range 1000 {
		p, err := l.Enter(ctx, "", fmt.Sprintf("p%04d", i), "", fmt.Sprintf("Player %d", i), []byte(fmt.Sprint(i)))
		if err != nil {
			b.Fatal(err)
		}
		sim.Strength[p.ID] = float64(i % 17)
	}
	if _, err := sim.Play(ctx, "", 500); err != nil {
		b.Fatal(err)
	}
	visit, _ := l.Visit(ctx, "SHA256:bench")
	if _, err := sim.Play(ctx, "", 500); err != nil {
		b.Fatal(err)
	}
	if visit, err = l.Visit(ctx, "SHA256:bench"); err != nil {
		b.Fatal(err)
	}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		rows, total, err := l.Leaderboard(ctx, "", 500, 19)
		if err != nil || total != 1000 || len(rows) != 19 {
			b.Fatal(total, len(rows), err)
		}
		ids := make([]ladder.PlayerID, len(rows))
		for k, r := range rows {
			ids[k] = r.ID
		}
		if _, err := l.Trends(ctx, ids, 8); err != nil {
			b.Fatal(err)
		}
		if _, err := l.RatingsAt(ctx, ids, visit.Seq); err != nil {
			b.Fatal(err)
		}
	}
}
