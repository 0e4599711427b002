package tui

import (
	"context"
	"fmt"
	"math/rand/v2"
	"path/filepath"
	"testing"
	"time"

	"github.com/squarebattle/squarebattle/engine/ladder"
	"github.com/squarebattle/squarebattle/engine/ladder/sqlite"
)

// TestLadderViewSharesTable: a game's table, read whole, serves every
// page and viewer for boardFresh, then is read again; pages are cut from
// it as the ladder cuts them.
func TestLadderViewSharesTable(t *testing.T) {
	f := arenaFixture(t)
	ctx := context.Background()
	v := NewLadderView(f.l, LadderViewOptions{}).(*ladderView)
	now := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	v.now = func() time.Time { return now }

	whole, total, err := v.Leaderboard(ctx, "", 0, 0)
	if err != nil || total == 0 || len(whole) != total {
		t.Fatalf("Leaderboard: %d rows of %d, %v", len(whole), total, err)
	}
	for _, c := range []struct{ offset, limit int }{{0, 5}, {3, 4}, {total - 2, 10}, {total + 3, 5}, {-1, 2}} {
		want, wantTotal, _ := f.l.Leaderboard(ctx, "", c.offset, c.limit)
		got, gotTotal, err := v.Leaderboard(ctx, "", c.offset, c.limit)
		if err != nil || gotTotal != wantTotal || len(got) != len(want) {
			t.Fatalf("offset %d limit %d: %d rows of %d (%v), the ladder gives %d of %d", c.offset, c.limit, len(got), gotTotal, err, len(want), wantTotal)
		}
		for i := range want {
			if got[i].Rank != want[i].Rank || got[i].ID != want[i].ID {
				t.Errorf("offset %d limit %d row %d: %d %v, want %d %v", c.offset, c.limit, i, got[i].Rank, got[i].ID, want[i].Rank, want[i].ID)
			}
		}
	}

	for _, c := range []struct {
		retire int // a player retired first (index into whole; -1 none)
		after  time.Duration
		total  int
	}{
		{0, boardFresh / 2, total},      // the table read before the change
		{-1, boardFresh / 2, total - 1}, // read again
		{1, -time.Hour, total - 2},      // a clock set back reads again
	} {
		if c.retire >= 0 {
			if err := f.l.Retire(ctx, whole[c.retire].ID); err != nil {
				t.Fatal(err)
			}
		}
		now = now.Add(c.after)
		if _, n, err := v.Leaderboard(ctx, "", 0, 1); err != nil || n != c.total {
			t.Errorf("%v later: %d players (%v), want %d", c.after, n, err, c.total)
		}
	}
	if _, _, err := v.Leaderboard(ctx, "no-such-game", 0, 1); err == nil {
		if len(v.boards) != 1 {
			t.Errorf("a game the ladder lacks was kept: %d tables", len(v.boards))
		}
	}
}

// BenchmarkLadderPage: one page of 20 lines of a SquareBattle table of
// 5,000 players in SQLite, as a viewer moving through it asks: from the
// ladder itself, and through the view that shares the whole table.
//
//	go test -run '^$' -bench LadderPage -count 6 ./tui/ | benchstat -col /from -
func BenchmarkLadderPage(b *testing.B) {
	ctx := context.Background()
	store, err := sqlite.Open(ctx, filepath.Join(b.TempDir(), "ladder.db"))
	if err != nil {
		b.Fatal(err)
	}
	l, err := ladder.New(ladder.Options{Store: store, Rand: rand.New(rand.NewPCG(1, 2)), Games: []ladder.Game{{Name: "", Teams: 4}}})
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { store.Close() })
	for i := range 5000 {
		name := fmt.Sprintf("p%d", i)
		if _, err := l.Enter(ctx, "", "u."+name, "u", name, []byte("-- "+name)); err != nil {
			b.Fatal(err)
		}
	}
	v := NewLadderView(l, LadderViewOptions{})
	for _, c := range []struct {
		from string
		page func(offset int) error
	}{
		{"ladder", func(offset int) error { _, _, err := l.Leaderboard(ctx, "", offset, 20); return err }},
		{"view", func(offset int) error { _, _, err := v.Leaderboard(ctx, "", offset, 20); return err }},
	} {
		b.Run("from="+c.from, func(b *testing.B) {
			for i := 0; b.Loop(); i++ {
				if err := c.page(i % 250 * 20); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
