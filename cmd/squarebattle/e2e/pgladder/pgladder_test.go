//go:build unix

package pgladder

import (
	"bufio"
	"context"
	"database/sql"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/squarebattle/squarebattle/cmd/squarebattle/e2e/harness"
	"github.com/squarebattle/squarebattle/engine/ladder"
	"github.com/squarebattle/squarebattle/engine/ladder/postgres"
	"github.com/squarebattle/squarebattle/engine/ladder/postgres/pgtest"
	"github.com/squarebattle/squarebattle/engine/ladder/sqlite"
)

// ladderEnv is the seeded ladder both setups play: small, short battles
// of three, four planned ahead.
var ladderEnv = []string{"SQUAREBATTLE_SERVE_LADDER_TEAMS=3", "SQUAREBATTLE_SERVE_LADDER_SIZE=14",
	"SQUAREBATTLE_SERVE_LADDER_ROUNDS=80", "SQUAREBATTLE_SERVE_LADDER_SEED=7", "SQUAREBATTLE_SERVE_LADDER_AHEAD=4",
	"SQUAREBATTLE_ISOLATION_POOL_SIZE=1", "SQUAREBATTLE_SERVE_LADDER_RESCUE_SECONDS=5"}

// start runs the program with args and env, stopped with SIGINT when the
// test ends; it waits for a line of stderr holding ready, when given.
func start(t *testing.T, bin string, ready string, env []string, args ...string) *exec.Cmd {
	t.Helper()
	work, base := harness.Isolated(t)
	cmd := exec.Command(bin, args...)
	cmd.Dir = work
	cmd.Env = append(append(base, ladderEnv...), env...)
	stderr, _ := cmd.StderrPipe()
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		cmd.Process.Signal(os.Interrupt)
		done := make(chan error, 1)
		go func() { done <- cmd.Wait() }()
		select {
		case <-done:
		case <-time.After(20 * time.Second):
			cmd.Process.Kill()
			t.Errorf("%s did not stop on SIGINT", args[0])
		}
	})
	seen := make(chan bool, 1)
	go func() {
		sc := bufio.NewScanner(stderr)
		sent := false
		for sc.Scan() {
			if os.Getenv("PGLADDER_LOG") != "" {
				t.Logf("%s: %s", args[0], sc.Text())
			}
			if !sent && strings.Contains(sc.Text(), ready) {
				seen <- true
				sent = true
			}
		}
		if !sent {
			seen <- false
		}
	}()
	select {
	case ok := <-seen:
		if !ok {
			t.Fatalf("%s exited before saying %q", args[0], ready)
		}
	case <-time.After(60 * time.Second):
		t.Fatalf("%s did not say %q in 60 s", args[0], ready)
	}
	return cmd
}

// serve starts the arena on a free loopback port.
func serve(t *testing.T, bin, data string, env ...string) *exec.Cmd {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := l.Addr().String()
	l.Close()
	return start(t, bin, "event=listen", append(env, "SQUAREBATTLE_SERVE_DATA_DIR="+data), "serve", "--listen", addr)
}

// openLadder opens a ladder store for reading what the processes wrote.
func openLadder(t *testing.T, st ladder.Store) *ladder.Ladder {
	t.Helper()
	l, err := ladder.New(ladder.Options{Store: st, Games: []ladder.Game{{Teams: 3}}})
	if err != nil {
		t.Fatal(err)
	}
	return l
}

// waitDone waits until battles 1 … n are done, checking on the way.
func waitDone(t *testing.T, l *ladder.Ladder, n int, what string, also func(done int)) {
	t.Helper()
	deadline := time.Now().Add(4 * time.Minute)
	for {
		done := 0
		for id := 1; id <= n; id++ {
			b, err := l.Battle(context.Background(), ladder.BattleID(id))
			if err != nil || b.State != ladder.Done {
				break
			}
			done++
		}
		if done == n {
			return
		}
		if also != nil {
			also(done)
		}
		if time.Now().After(deadline) {
			t.Fatalf("%s: %d of battles 1 to %d done after 4 minutes", what, done, n)
		}
		time.Sleep(100 * time.Millisecond)
	}
}

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

	// The single process on SQLite.
	sqData := t.TempDir()
	one := serve(t, bin, sqData, "SQUAREBATTLE_SERVE_LADDER_WORKERS=1")
	time.Sleep(200 * time.Millisecond)
	st, err := sqlite.Open(ctx, filepath.Join(sqData, "ladder.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	want := openLadder(t, st)
	waitDone(t, want, n, "SQLite", nil)
	one.Process.Signal(os.Interrupt)

	// The server on PostgreSQL plays none of the hosts' battles itself.
	pgData := t.TempDir()
	serve(t, bin, pgData, "SQUAREBATTLE_SERVE_LADDER_DB="+url, "SQUAREBATTLE_SERVE_LADDER_WORKERS=0")
	pst, err := postgres.Open(ctx, url)
	if err != nil {
		t.Fatal(err)
	}
	defer pst.Close()
	got := openLadder(t, pst)
	work := func() *exec.Cmd {
		return start(t, bin, "event=ladder_work", nil, "ladder", "work", "--db", url, "--workers", "1")
	}

	// One host first, killed in the middle of a battle.
	victim := work()
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
	work()
	work()
	cut := false
	waitDone(t, got, n, "PostgreSQL, two hosts", func(done int) {
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

	for id := ladder.BattleID(1); id <= n; id++ {
		x, _ := want.Battle(ctx, id)
		y, _ := got.Battle(ctx, id)
		if x.Seed != y.Seed || x.Seq != y.Seq || len(x.Seats) != len(y.Seats) || x.Rounds != y.Rounds {
			t.Fatalf("battle %d: seed %x seq %d rounds %d on SQLite, seed %x seq %d rounds %d on the hosts", id, x.Seed, x.Seq, x.Rounds, y.Seed, y.Seq, y.Rounds)
		}
		for i := range x.Seats {
			if x.Seats[i].Player != y.Seats[i].Player || !reflect.DeepEqual(x.Seats[i].Result, y.Seats[i].Result) || x.Seats[i].After != y.Seats[i].After {
				t.Errorf("battle %d seat %d: %+v on SQLite, %+v on the hosts", id, i, x.Seats[i], y.Seats[i])
			}
		}
	}
	// The table after battle n: every player's rating then.
	last, _ := want.Battle(ctx, n)
	players, _ := want.Players(ctx, "")
	ids := make([]ladder.PlayerID, len(players))
	for i, p := range players {
		ids[i] = p.ID
	}
	a, err := want.RatingsAt(ctx, ids, last.Seq)
	if err != nil {
		t.Fatal(err)
	}
	b, err := got.RatingsAt(ctx, ids, last.Seq)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(a, b) {
		t.Errorf("the table after battle %d: %v on SQLite, %v on the hosts", n, a, b)
	}
	// The killed host's battle was played once more and counted once.
	k, _ := got.Battle(ctx, inFlight)
	if k.State != ladder.Done || k.Tries < 2 {
		t.Errorf("battle %d, in flight at the kill: %s after %d tries", inFlight, k.State, k.Tries)
	}
	var rated int
	for _, p := range players {
		q, _ := got.Player(ctx, p.ID)
		rated += q.Battles
	}
	var seats int
	all, _ := got.Battles(ctx, ladder.BattleQuery{States: []ladder.State{ladder.Done}})
	for _, b := range all {
		for _, s := range b.Seats {
			if s.Rated {
				seats++
			}
		}
	}
	if rated != seats {
		t.Errorf("the players count %d rated battles, the battles %d rated seats", rated, seats)
	}
	// Every replay reached the server's folder.
	for id := 1; id <= n; id++ {
		file := filepath.Join(pgData, "ladder", "replays", fmt.Sprintf("L%d.sbr", id))
		deadline := time.Now().Add(10 * time.Second)
		for {
			if _, err := os.Stat(file); err == nil {
				break
			} else if time.Now().After(deadline) {
				t.Errorf("battle %d: %v", id, err)
				break
			}
			time.Sleep(50 * time.Millisecond)
		}
	}
}
