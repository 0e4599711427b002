package sqlite_test

import (
	"context"
	"fmt"
	"path/filepath"
	"runtime"
	"testing"

	"github.com/squarebattle/squarebattle/engine/ladder"
	"github.com/squarebattle/squarebattle/engine/ladder/sqlite"
)

// thousand is a SQLite ladder of 1,000 players, each with a version.
func thousand(tb testing.TB) *ladder.Ladder {
	tb.Helper()
	ctx := context.Background()
	st, err := sqlite.Open(ctx, filepath.Join(tb.TempDir(), "ladder.db"))
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { st.Close() })
	l, err := ladder.New(ladder.Options{Store: st, Games: []ladder.Game{{Teams: 4}}})
	if err != nil {
		tb.Fatal(err)
	}
	for i := range 1000 {
		src := fmt.Appendf(nil, "return { name = %q, run = function() return WAIT end }", fmt.Sprint("P", i))
		if _, err := l.Enter(ctx, "", fmt.Sprintf("user%d.p%d", i%97, i), fmt.Sprint("user", i%97), fmt.Sprint("P", i), src); err != nil {
			tb.Fatal(err)
		}
	}
	return l
}

// TestThousandPlayersPage: a 1,000-player table pages: every line once,
// in order, whatever the page size.
func TestThousandPlayersPage(t *testing.T) {
	l := thousand(t)
	ctx := context.Background()
	for _, size := range []int{19, 50, 1000} {
		seen := map[ladder.PlayerID]bool{}
		for off := 0; ; off += size {
			page, total, err := l.Leaderboard(ctx, "", off, size)
			if err != nil {
				t.Fatal(err)
			}
			if total != 1000 {
				t.Fatalf("total %d", total)
			}
			for i, s := range page {
				if s.Rank != off+i+1 || seen[s.ID] {
					t.Fatalf("page at %d, line %d: rank %d, seen %v", off, i, s.Rank, seen[s.ID])
				}
				seen[s.ID] = true
			}
			if len(page) < size {
				break
			}
		}
		if len(seen) != 1000 {
			t.Errorf("pages of %d: %d players seen", size, len(seen))
		}
	}
}

// BenchmarkThousandPlayersPage: one screen (19 lines) of a 1,000-player
// table: time, and the bytes it allocates; also the heap the ladder holds
// between pages.
//
//	go test ./engine/ladder/sqlite -run '^$' -bench ThousandPlayers -benchmem
func BenchmarkThousandPlayersPage(b *testing.B) {
	l := thousand(b)
	ctx := context.Background()
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	b.ResetTimer()
	for i := 0; b.Loop(); i++ {
		if _, _, err := l.Leaderboard(ctx, "", (i*19)%1000, 19); err != nil {
			b.Fatal(err)
		}
	}
	b.StopTimer()
	runtime.GC()
	runtime.ReadMemStats(&after)
	b.ReportMetric(float64(int64(after.HeapAlloc)-int64(before.HeapAlloc)), "heap-held-B")
}
