//go:build unix

package pgladder

import (
	"bufio"
	"context"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/squarebattle/squarebattle/cmd/squarebattle/e2e/harness"
	"github.com/squarebattle/squarebattle/engine/ladder"
	"github.com/squarebattle/squarebattle/engine/ladder/postgres"
	"github.com/squarebattle/squarebattle/engine/ladder/sqlite"
)

// ladderEnv is the seeded ladder both setups play: small, short battles
// of three, four planned ahead.
var ladderEnv = []string{"SQUAREBATTLE_SERVE_LADDER_TEAMS=3", "SQUAREBATTLE_SERVE_LADDER_SIZE=14",
	"SQUAREBATTLE_SERVE_LADDER_ROUNDS=80", "SQUAREBATTLE_SERVE_LADDER_SEED=7", "SQUAREBATTLE_SERVE_LADDER_AHEAD=4",
	"SQUAREBATTLE_ISOLATION_POOL_SIZE=1", "SQUAREBATTLE_SERVE_LADDER_RESCUE_SECONDS=5"}

// proc is a process of the program under test.
type proc struct {
	*exec.Cmd
	// Problems holds the lines of its log at level WARN or ERROR.
	Problems *harness.Log
}

// start runs the program with args and env, stopped with SIGINT when the
// test ends; it waits for a line of stderr holding ready, when given.
func start(t testing.TB, bin string, ready string, env []string, args ...string) *proc {
	t.Helper()
	work, base := harness.Isolated(t)
	cmd := exec.Command(bin, args...)
	cmd.Dir = work
	cmd.Env = append(append(base, ladderEnv...), env...)
	stderr, _ := cmd.StderrPipe()
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	harness.StopAtCleanup(t, cmd, args[0], 20*time.Second)
	seen := make(chan bool, 1)
	problems := new(harness.Log)
	go func() {
		sc := bufio.NewScanner(stderr)
		sent := false
		for sc.Scan() {
			if line := sc.Text(); strings.Contains(line, "level=WARN") || strings.Contains(line, "level=ERROR") {
				fmt.Fprintln(problems, line)
			}
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
	return &proc{cmd, problems}
}

// serve starts the arena on a free loopback port.
func serve(t testing.TB, bin, data string, env ...string) *proc {
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
func openLadder(t testing.TB, st ladder.Store) *ladder.Ladder {
	t.Helper()
	l, err := ladder.New(ladder.Options{Store: st, Games: []ladder.Game{{Teams: 3}}})
	if err != nil {
		t.Fatal(err)
	}
	return l
}

// firstRated is the first n battles rated, in the order they were rated
// — the order the ladder planned them in — or fewer when fewer are.
// Battle numbers are not compared: a number PostgreSQL handed out in a
// transaction that did not commit (a connection cut, a crash) is not
// handed out again, so after one the hosts' battles skip a number the
// single process's do not.
func firstRated(l *ladder.Ladder, n int) ([]ladder.Battle, error) {
	return l.Battles(context.Background(), ladder.BattleQuery{States: []ladder.State{ladder.Done}, BySeq: true, Limit: n})
}

// waitDone waits until the ladder's first n battles are rated, calling
// also with how many are on the way, and returns them.
func waitDone(t testing.TB, l *ladder.Ladder, n int, what string, also func(done int)) []ladder.Battle {
	t.Helper()
	deadline := time.Now().Add(4 * time.Minute)
	for {
		bs, err := firstRated(l, n)
		if err == nil && len(bs) == n {
			return bs
		}
		if also != nil {
			also(len(bs))
		}
		if time.Now().After(deadline) {
			t.Fatalf("%s: %d of the first %d battles rated after 4 minutes (%v)", what, len(bs), n, err)
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// sqliteLadder plays battles 1 … n of the seeded ladder in one process on
// SQLite, the reference the hosts' ladder must equal, and returns it.
func sqliteLadder(t testing.TB, bin string, n int) (*ladder.Ladder, []ladder.Battle) {
	t.Helper()
	data := t.TempDir()
	one := serve(t, bin, data, "SQUAREBATTLE_SERVE_LADDER_WORKERS=1")
	time.Sleep(200 * time.Millisecond)
	st, err := sqlite.Open(context.Background(), filepath.Join(data, "ladder.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	want := openLadder(t, st)
	bs := waitDone(t, want, n, "SQLite", nil)
	one.Process.Signal(os.Interrupt)
	return want, bs
}

// hostedLadder starts the server on the PostgreSQL database at url,
// playing none of the hosts' battles itself, and returns its data folder,
// the ladder as the test reads it and the server.
func hostedLadder(t testing.TB, bin, url string, env ...string) (data string, got *ladder.Ladder, srv *proc) {
	t.Helper()
	data = t.TempDir()
	srv = serve(t, bin, data, append([]string{"SQUAREBATTLE_SERVE_LADDER_DB=" + url, "SQUAREBATTLE_SERVE_LADDER_WORKERS=0"}, env...)...)
	st, err := postgres.Open(context.Background(), url)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	return data, openLadder(t, st), srv
}

// host starts a worker host (ladder work) on the database at url, playing
// workers battles at once, with env besides ladderEnv.
func host(t testing.TB, bin, url string, workers int, env ...string) *proc {
	return start(t, bin, "event=ladder_work", env, "ladder", "work", "--db", url, "--workers", strconv.Itoa(workers))
}

// sameLadder checks that the first battles rated are the same on both
// ladders — seeds, seats, results, ratings after — and so is the table
// after the last of them.
func sameLadder(t testing.TB, want, got *ladder.Ladder, wantBs, gotBs []ladder.Battle) {
	t.Helper()
	if len(wantBs) != len(gotBs) {
		t.Fatalf("%d battles on SQLite, %d on the hosts", len(wantBs), len(gotBs))
	}
	for i, x := range wantBs {
		y := gotBs[i]
		if x.Seed != y.Seed || x.Seq != y.Seq || len(x.Seats) != len(y.Seats) || x.Rounds != y.Rounds {
			t.Fatalf("battle %d: seed %x seq %d rounds %d on SQLite, battle %d: seed %x seq %d rounds %d on the hosts",
				x.ID, x.Seed, x.Seq, x.Rounds, y.ID, y.Seed, y.Seq, y.Rounds)
		}
		for j := range x.Seats {
			if x.Seats[j].Player != y.Seats[j].Player || !reflect.DeepEqual(x.Seats[j].Result, y.Seats[j].Result) || x.Seats[j].After != y.Seats[j].After {
				t.Errorf("battle %d seat %d: %+v on SQLite, battle %d: %+v on the hosts", x.ID, j, x.Seats[j], y.ID, y.Seats[j])
			}
		}
	}
	// The table after the last battle compared: every player's rating then.
	ctx := context.Background()
	last := wantBs[len(wantBs)-1]
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
		t.Errorf("the table after battle %d: %v on SQLite, %v on the hosts", last.ID, a, b)
	}
}

// countedOnce checks that the players count as many rated battles as the
// battles done have rated seats: none counted twice, none lost. The hosts
// go on playing while it reads, so it reads the battles done before and
// after the players and compares only a reading the ladder did not move
// under (a battle is rated with its players' counts in one transaction).
func countedOnce(t testing.TB, l *ladder.Ladder) {
	t.Helper()
	ctx := context.Background()
	done := func() (n, seats int) {
		all, err := l.Battles(ctx, ladder.BattleQuery{States: []ladder.State{ladder.Done}})
		if err != nil {
			t.Fatal(err)
		}
		for _, b := range all {
			for _, s := range b.Seats {
				if s.Rated {
					seats++
				}
			}
		}
		return len(all), seats
	}
	for try := 0; ; try++ {
		before, seats := done()
		players, err := l.Players(ctx, "")
		if err != nil {
			t.Fatal(err)
		}
		var rated int
		for _, p := range players {
			rated += p.Battles
		}
		if after, _ := done(); after != before && try < 100 {
			continue // a battle was rated between the readings
		}
		if rated != seats {
			t.Errorf("the players count %d rated battles, the %d battles done %d rated seats", rated, before, seats)
		}
		return
	}
}

// replaysArrived checks that the replays of battles bs reach the
// server's folder data (moved there when the server rates them).
func replaysArrived(t testing.TB, data string, bs []ladder.Battle) {
	t.Helper()
	for _, b := range bs {
		id := b.ID
		file := filepath.Join(data, "ladder", "replays", fmt.Sprintf("L%d.sbr", id))
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
