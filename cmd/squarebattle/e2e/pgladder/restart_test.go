//go:build unix

package pgladder

import (
	"context"
	"database/sql"
	"fmt"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/squarebattle/squarebattle/cmd/squarebattle/e2e/harness"
	"github.com/squarebattle/squarebattle/engine/ladder"
)

// TestHostsLadderDatabaseRestart: the database itself goes away mid-ladder,
// twice — stopped cleanly (pg_ctl -m fast), then killed as in a crash
// (-m immediate) — and comes back on the same address a few seconds later.
// The server and both hosts reconnect on their own and play the ladder to
// the end: every battle finished before a restart is still there,
// unchanged and counted once, and the final table is the single-process
// SQLite ladder's. The database is a private one (a restart of the shared
// PGTEST_URL server would break the tests of other packages).
func TestHostsLadderDatabaseRestart(t *testing.T) {
	if testing.Short() {
		t.Skip("plays a ladder on three processes and restarts PostgreSQL")
	}
	pg := startPrivatePG(t)
	url := pg.CreateDB("ladder")
	t.Cleanup(func() {
		if t.Failed() {
			t.Logf("the queue's jobs not completed:\n%s", jobsLeft(t, url))
		}
	})
	bin := harness.Program(t)
	const n = 20
	ctx := context.Background()

	want, wantBs := sqliteLadder(t, bin, n)
	// A battle taken for lost is played again only after rescue seconds:
	// the ladder must go on well before that.
	const rescue = 120 * time.Second
	slow := fmt.Sprintf("SQUAREBATTLE_SERVE_LADDER_RESCUE_SECONDS=%d", int(rescue.Seconds()))
	data, got, srv := hostedLadder(t, bin, url, slow)
	host(t, bin, url, 1, slow)
	host(t, bin, url, 1, slow)

	// finished lists the battles done, as they are.
	finished := func() map[ladder.BattleID]ladder.Battle {
		all, err := got.Battles(ctx, ladder.BattleQuery{States: []ladder.State{ladder.Done}})
		if err != nil {
			t.Fatal(err)
		}
		m := map[ladder.BattleID]ladder.Battle{}
		for _, b := range all {
			m[b.ID] = b
		}
		return m
	}
	var before []map[ladder.BattleID]ladder.Battle
	// The second outage outlasts River's retries to record a job's end
	// (some 7 s).
	restarts := []struct {
		at   int // battles done
		mode string
		away time.Duration
	}{{n / 4, "fast", 3 * time.Second}, {n / 2, "immediate", 9 * time.Second}}
	var back time.Time
	gotBs := waitDone(t, got, n, "PostgreSQL restarted", func(done int) {
		if len(before) == len(restarts) || done < restarts[len(before)].at {
			return
		}
		r := restarts[len(before)]
		before = append(before, finished())
		pg.Stop(r.mode)
		// Long enough for every process to find the database gone.
		time.Sleep(r.away)
		pg.Start()
		back = time.Now()
		t.Logf("restarted PostgreSQL (-m %s) with %d battles done", r.mode, len(before[len(before)-1]))
	})
	if len(before) != len(restarts) {
		t.Fatalf("%d restarts of %d", len(before), len(restarts))
	}
	if d := time.Since(back); d > rescue/2 {
		t.Errorf("the ladder took %s after the database came back: a battle waited to be rescued", d.Round(time.Second))
	}

	after := finished()
	for i, fin := range before {
		for id, b := range fin {
			if !reflect.DeepEqual(after[id], b) {
				t.Errorf("battle %d, done before restart %d: %+v then, %+v now", id, i+1, b, after[id])
			}
		}
	}
	// The server said the database was away: River's complaints reach
	// serve's log.
	p := srv.Problems.String()
	if !slices.ContainsFunc([]string{`msg="producer:`, `msg="jobcompleter.`, `msg="notifier.`, `msg="leadership.`},
		func(s string) bool { return strings.Contains(p, s) }) {
		t.Errorf("no word from River in the server's log; its warnings and errors:\n%s", tail(p, 2000))
	}
	sameLadder(t, want, got, wantBs, gotBs)
	countedOnce(t, got)
	replaysArrived(t, data, gotBs)
}

// jobsLeft lists the queue's jobs not completed, for a failure's message.
func jobsLeft(t testing.TB, url string) string {
	db, err := sql.Open("pgx", url)
	if err != nil {
		return err.Error()
	}
	defer db.Close()
	rows, err := db.Query(`SELECT id, kind, queue, state, attempt, args::text, coalesce(attempted_by::text, ''), coalesce(errors::text, '')
		FROM river_job WHERE state <> 'completed' ORDER BY id`)
	if err != nil {
		return err.Error()
	}
	defer rows.Close()
	var b strings.Builder
	for rows.Next() {
		var id, attempt int64
		var kind, queue, state, args, by, errs string
		if err := rows.Scan(&id, &kind, &queue, &state, &attempt, &args, &by, &errs); err != nil {
			return err.Error()
		}
		fmt.Fprintf(&b, "job %d %s %s %s attempt %d %s by %s errors %s\n", id, kind, queue, state, attempt, args, by, tail(errs, 300))
	}
	return b.String()
}
