//go:build unix

package arena

import (
	"bytes"
	"context"
	"crypto/sha256"
	"database/sql"
	"fmt"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/squarebattle/squarebattle/cmd/squarebattle/e2e/harness"
	"github.com/squarebattle/squarebattle/config"
	"github.com/squarebattle/squarebattle/engine/ladder"
	"github.com/squarebattle/squarebattle/engine/ladder/sqlite"
	"github.com/squarebattle/squarebattle/luabind/battle/ranked"
)

// ladderEnv is the ladder the crash test plays: small, short battles of
// three on one worker.
var ladderEnv = []string{"SQUAREBATTLE_SERVE_LADDER_TEAMS=3", "SQUAREBATTLE_SERVE_LADDER_SIZE=14",
	"SQUAREBATTLE_SERVE_LADDER_ROUNDS=80", "SQUAREBATTLE_SERVE_LADDER_WORKERS=1", "SQUAREBATTLE_ISOLATION_POOL_SIZE=1"}

// openLadder opens the ladder the server left in data, as the server
// configures SquareBattle's (the test's environment layered on defaults).
func openLadder(t *testing.T, data string) (*ladder.Ladder, ladder.Store) {
	t.Helper()
	st, err := sqlite.Open(context.Background(), filepath.Join(data, "ladder.db"))
	if err != nil {
		t.Fatal(err)
	}
	cfg, _, err := config.Load(config.LoadOptions{Dir: t.TempDir(), Environ: ladderEnv})
	if err != nil {
		t.Fatal(err)
	}
	cfg.Arena.Size, cfg.Rules.Rounds = cfg.Serve.Ladder.Size, cfg.Serve.Ladder.Rounds
	lg, err := ranked.Game{Config: cfg, Teams: cfg.Serve.Ladder.Teams}.Ladder()
	if err != nil {
		t.Fatal(err)
	}
	l, err := ladder.New(ladder.Options{Store: st, Games: []ladder.Game{lg}})
	if err != nil {
		t.Fatal(err)
	}
	return l, st
}

// replayCount is how many ladder replays data holds.
func replayCount(data string) int {
	m, _ := filepath.Glob(filepath.Join(data, "ladder", "replays", "L*.sbr"))
	return len(m)
}

// leftPartials lists the half-written replays in data's replay folders,
// and their bytes.
func leftPartials(t *testing.T, data string) ([]string, int64) {
	t.Helper()
	var files []string
	var size int64
	for _, dir := range []string{"replays", filepath.Join("ladder", "replays")} {
		m, _ := filepath.Glob(filepath.Join(data, dir, ".*.partial"))
		for _, f := range m {
			info, err := os.Lstat(f)
			if err != nil {
				t.Fatal(err)
			}
			files = append(files, f)
			size += info.Size()
		}
	}
	return files, size
}

// TestLadderSurvivesKill9: the server killed with SIGKILL in the middle
// of ladder play loses nothing it finished: every battle done before is
// done after, with the same result; the battles it was playing are played
// again by the next run, which removes their half-written replays; and
// the table equals the one re-derived from the stored replays.
func TestLadderSurvivesKill9(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the server through a crash")
	}
	bin := harness.Program(t)
	data := t.TempDir()
	srv := startServe(t, bin, data, ladderEnv...).proc
	deadline := time.Now().Add(3 * time.Minute)
	// In the middle of a battle: its replay is being written.
	for n, _ := leftPartials(t, data); replayCount(data) < 6 || len(n) == 0; n, _ = leftPartials(t, data) {
		if time.Now().After(deadline) {
			t.Fatalf("%d ladder replays and %d being written after 3 minutes", replayCount(data), len(n))
		}
		time.Sleep(20 * time.Millisecond)
	}
	srv.Kill() // SIGKILL: no shutdown of any kind
	srv.Wait()

	ctx := context.Background()
	l, st := openLadder(t, data)
	done, err := l.Battles(ctx, ladder.BattleQuery{States: []ladder.State{ladder.Done}})
	if err != nil || len(done) < 5 { // a battle whose replay was written may not be marked done yet
		t.Fatalf("%d battles done after the kill (%v)", len(done), err)
	}
	inFlight, _ := l.Battles(ctx, ladder.BattleQuery{States: []ladder.State{ladder.Playing, ladder.Queued}})
	reps, err := ranked.OpenReplays(filepath.Join(data, "ladder", "replays"), 1<<40, 0)
	if err != nil {
		t.Fatal(err)
	}
	rd, err := ranked.Rederive(ctx, l, reps, "")
	if err != nil || rd.Checked != len(done) || len(rd.Differ)+len(rd.Unreadable) > 0 {
		t.Fatalf("rederived from the replays: %+v (%v), %d battles done", rd, err, len(done))
	}
	table, _, _ := l.Leaderboard(ctx, "", 0, 0)
	if _, err := l.Rerate(ctx, ""); err != nil {
		t.Fatal(err)
	}
	again, _, _ := l.Leaderboard(ctx, "", 0, 0)
	for i := range table {
		if table[i].ID != again[i].ID || math.Abs(table[i].Ordinal()-again[i].Ordinal()) > 1e-9 {
			t.Errorf("line %d: %s %.6f live, %s %.6f re-derived", i, table[i].Name, table[i].Ordinal(), again[i].Name, again[i].Ordinal())
		}
	}
	st.Close()
	t.Logf("killed with %d battles done and %d in flight; the table re-derived from %d replays is the live one", len(done), len(inFlight), rd.Checked)

	// The replays it was writing are left half written (one more, planted,
	// in case the battle ended before the kill). The next run removes them
	// (their battles are played again) before it listens, and says how
	// many.
	if err := os.WriteFile(filepath.Join(data, "ladder", "replays", ".L999999.sbr.1.partial"), []byte("half a replay"), 0o600); err != nil {
		t.Fatal(err)
	}
	partials, size := leftPartials(t, data)
	t.Logf("%d replays left half written by the kill", len(partials)-1)

	// The next run plays the battles in flight first and keeps the rest.
	o := startServe(t, bin, data, ladderEnv...)
	srv = o.proc
	for _, p := range partials {
		if _, err := os.Lstat(p); !os.IsNotExist(err) {
			t.Errorf("%s after the restart: %v", p, err)
		}
	}
	said := fmt.Sprintf("event=partials_removed files=%d bytes=%d", len(partials), size)
	if !slices.ContainsFunc(o.started, func(l string) bool { return strings.Contains(l, said) }) {
		t.Errorf("the restart's log lacks %q:\n%s", said, strings.Join(o.started, "\n"))
	}
	want := replayCount(data) + len(inFlight) + 1
	deadline = time.Now().Add(3 * time.Minute)
	for replayCount(data) < want {
		if time.Now().After(deadline) {
			t.Fatalf("%d ladder replays 3 minutes after the restart, want %d", replayCount(data), want)
		}
		time.Sleep(100 * time.Millisecond)
	}
	srv.Signal(os.Interrupt)
	srv.Wait()
	l, st = openLadder(t, data)
	defer st.Close()
	for _, b := range done {
		now, err := l.Battle(ctx, b.ID)
		if err != nil || now.State != ladder.Done || now.Seq != b.Seq || now.Seats[0].After != b.Seats[0].After {
			t.Errorf("battle %d changed across the restart: %+v → %+v (%v)", b.ID, b.Seats[0], now.Seats[0], err)
		}
	}
	for _, b := range inFlight {
		now, err := l.Battle(ctx, b.ID)
		if err != nil || now.State != ladder.Done {
			t.Errorf("battle %d, in flight at the kill: %s after the restart (%v)", b.ID, now.State, err)
		}
	}
}

// serveRefused runs serve on the data dir data and the address listen, to
// be refused: it returns the exit status and stderr, trimmed. A serve
// still running after two minutes is killed (status -1).
func serveRefused(t *testing.T, bin, data, listen string) (int, string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(t.Context(), 2*time.Minute)
	defer cancel()
	work, env := harness.Isolated(t)
	cmd := exec.CommandContext(ctx, bin, "serve", "--listen", listen)
	cmd.Dir = work
	cmd.Env = append(env, "SQUAREBATTLE_SERVE_DATA_DIR="+data)
	cmd.WaitDelay = 10 * time.Second
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Run(); err != nil && cmd.ProcessState == nil {
		t.Fatal(err)
	}
	return cmd.ProcessState.ExitCode(), strings.TrimSpace(stderr.String())
}

// TestLadderFileRefused: a ladder database the server cannot use (not a
// database, written by a newer program) is a one-line error naming the
// file, exit status 2, and the file is left as it was.
func TestLadderFileRefused(t *testing.T) {
	bin := harness.Program(t)
	newer := func(t *testing.T, file string) {
		st, err := sqlite.Open(context.Background(), file)
		if err != nil {
			t.Fatal(err)
		}
		st.Close()
		db, err := sql.Open("sqlite", file)
		if err != nil {
			t.Fatal(err)
		}
		defer db.Close()
		if _, err := db.Exec(`INSERT INTO schema_migrations (version, name) VALUES (9999, 'from the future')`); err != nil {
			t.Fatal(err)
		}
		if _, err := db.Exec(`PRAGMA wal_checkpoint(TRUNCATE)`); err != nil {
			t.Fatal(err)
		}
	}
	cases := []struct {
		name  string
		make  func(t *testing.T, file string)
		wants string
	}{
		{"not a database", func(t *testing.T, file string) {
			os.WriteFile(file, bytes.Repeat([]byte("this is not SQLite\n"), 300), 0o600)
		}, "not a SQLite database"},
		{"newer schema", newer, "newer squarebattle"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			data := t.TempDir()
			file := filepath.Join(data, "ladder.db")
			c.make(t, file)
			before, err := os.ReadFile(file)
			if err != nil {
				t.Fatal(err)
			}
			code, msg := serveRefused(t, bin, data, "127.0.0.1:0")
			if code != 2 || strings.Contains(msg, "\n") || !strings.Contains(msg, file) || !strings.Contains(msg, c.wants) {
				t.Errorf("exit %d, stderr %q: want 2 and one line naming %s and saying %q", code, msg, file, c.wants)
			}
			after, _ := os.ReadFile(file)
			if sha256.Sum256(before) != sha256.Sum256(after) {
				t.Error("the file was changed")
			}
		})
	}
}
