//go:build unix

package pgladder

import (
	"context"
	"database/sql"
	"strings"
	"testing"
	"time"

	"github.com/squarebattle/squarebattle/cmd/squarebattle/e2e/harness"
	"github.com/squarebattle/squarebattle/engine/ladder"
	"github.com/squarebattle/squarebattle/engine/ladder/postgres/pgtest"
)

// TestHostsLadder: the server on PostgreSQL and worker host processes play
// the seeded ladder the single-process SQLite server plays — the same
// battles, results and ratings, battle by battle, so the same table — while
// one host is killed with SIGKILL in a battle (the battle is played again
// elsewhere and counted once) and every connection to the database is
// terminated mid-ladder (everyone reconnects and goes on).
func TestHostsLadder(t *testing.T) {
	if testing.Short() {
		t.Skip("plays a ladder on three processes")
	}
	url := pgtest.FreshDB(t)
	bin := harness.Program(t)
	const n = 14
	ctx := context.Background()

	want, wantBs := sqliteLadder(t, bin, n)
	data, got, _ := hostedLadder(t, bin, url)

	// One host first, killed in the middle of a battle.
	victim := host(t, bin, url, 1)
	waitDone(t, got, 2, "PostgreSQL, one host", nil)
	var inFlight ladder.BattleID
	deadline := time.Now().Add(time.Minute)
	for inFlight == 0 {
		bs, _ := got.Battles(ctx, ladder.BattleQuery{States: []ladder.State{ladder.Playing}})
		if len(bs) > 0 {
			inFlight = bs[0].ID
		} else if time.Now().After(deadline) {
			t.Fatal("no battle playing on the one host")
		}
	}
	victim.Process.Kill() // SIGKILL: no goodbye of any kind
	victim.Wait()
	t.Logf("killed the host playing battle %d", inFlight)

	// Two hosts go on; every connection to the database is cut once.
	host(t, bin, url, 1)
	host(t, bin, url, 1)
	cut := false
	gotBs := waitDone(t, got, n, "PostgreSQL, two hosts", func(done int) {
		if !cut && done >= n/2 {
			cut = true
			admin, err := sql.Open("pgx", pgtest.Server(t))
			if err != nil {
				t.Fatal(err)
			}
			defer admin.Close()
			var killed int
			name := url[strings.LastIndex(url, "/")+1:]
			name, _, _ = strings.Cut(name, "?")
			if err := admin.QueryRow(`SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity WHERE datname = $1 AND pid <> pg_backend_pid()`, name).Scan(&killed); err != nil {
				t.Fatal(err)
			}
			t.Logf("terminated %d connections with %d battles done", killed, done)
		}
	})

	sameLadder(t, want, got, wantBs, gotBs)
	// The killed host's battle was played once more and counted once.
	k, _ := got.Battle(ctx, inFlight)
	if k.State != ladder.Done || k.Tries < 2 {
		t.Errorf("battle %d, in flight at the kill: %s after %d tries", inFlight, k.State, k.Tries)
	}
	countedOnce(t, got)
	replaysArrived(t, data, gotBs)
}
