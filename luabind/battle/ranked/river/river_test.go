package river_test

import (
	"context"
	"io/fs"
	"path/filepath"
	"reflect"
	"sync"
	"testing"
	"time"

	"github.com/squarebattle/squarebattle/config"
	"github.com/squarebattle/squarebattle/engine/ladder"
	"github.com/squarebattle/squarebattle/engine/ladder/postgres/pgtest"
	"github.com/squarebattle/squarebattle/engine/replay"
	"github.com/squarebattle/squarebattle/luabind/battle/ranked"
	"github.com/squarebattle/squarebattle/luabind/battle/ranked/river"
	"github.com/squarebattle/squarebattle/scripts"
)

// game is SquareBattle on small, short battles of three.
func game(t *testing.T) (ranked.Game, ladder.Game) {
	cfg := config.Default()
	cfg.Arena.Size, cfg.Rules.Rounds = 14, 60
	g := ranked.Game{Config: cfg, Teams: 3}
	lg, err := g.Ladder()
	if err != nil {
		t.Fatal(err)
	}
	return g, lg
}

// newLadder is the seeded ladder of five shipped players on store.
func newLadder(t *testing.T, store ladder.Store) *ladder.Ladder {
	t.Helper()
	_, lg := game(t)
	l, err := ladder.New(ladder.Options{Store: store, Games: []ladder.Game{lg}, Seed: 12, Ahead: 4})
	if err != nil {
		t.Fatal(err)
	}
	for _, id := range []string{"explorer", "wanderer", "borg", "pinwheel", "linedancer"} {
		src, err := fs.ReadFile(scripts.FS, id+".lua")
		if err != nil {
			t.Fatal(err)
		}
		if _, err := l.Enter(context.Background(), "", id, "", id, src); err != nil {
			t.Fatal(err)
		}
	}
	return l
}

// waitDone waits until battles 1 … n are settled.
func waitDone(t *testing.T, l *ladder.Ladder, n int) {
	t.Helper()
	deadline := time.Now().Add(2 * time.Minute)
	for {
		all := true
		for id := 1; id <= n && all; id++ {
			b, err := l.Battle(context.Background(), ladder.BattleID(id))
			all = err == nil && b.State == ladder.Done
		}
		if all {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("battles 1 to %d not all done after 2 minutes", n)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// TestHostsPlayTheSameLadder: the server and two worker hosts on
// PostgreSQL play the ladder one in-process worker plays on the memory
// store: the same battles, results and ratings, battle by battle; the
// hosts' replays reach the server's folder and replay the battle.
func TestHostsPlayTheSameLadder(t *testing.T) {
	const n = 8
	url := pgtest.FreshDB(t)
	g, _ := game(t)

	want := newLadder(t, ladder.NewMemory())
	reps, err := ranked.OpenReplays(t.TempDir(), 1<<30, 5)
	if err != nil {
		t.Fatal(err)
	}
	r, err := ranked.New(ranked.Options{Ladder: want, Games: []ranked.Game{g}, Replays: reps, Idle: 10 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	go r.Run(ctx)
	waitDone(t, want, n)
	cancel()

	ctx, cancel = context.WithCancel(context.Background())
	defer cancel()
	var wg sync.WaitGroup
	defer wg.Wait()
	defer cancel()
	open := func() *river.DB {
		d, err := river.Open(ctx, url, nil)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { d.Close() })
		return d
	}
	srv := open()
	got := newLadder(t, srv.Store)
	folder, err := ranked.OpenReplays(t.TempDir(), 1<<30, 5)
	if err != nil {
		t.Fatal(err)
	}
	wg.Add(3)
	go func() {
		defer wg.Done()
		srv.Serve(ctx, river.ServeOptions{Runner: ranked.Options{Ladder: got, Games: []ranked.Game{g}, Replays: folder}, Poll: 200 * time.Millisecond})
	}()
	for range 2 {
		host := open()
		l, err := ladder.New(ladder.Options{Store: host.Store})
		if err != nil {
			t.Fatal(err)
		}
		local, err := ranked.OpenReplays(t.TempDir(), 1<<30, 0)
		if err != nil {
			t.Fatal(err)
		}
		go func() {
			defer wg.Done()
			host.Work(ctx, river.WorkOptions{Runner: ranked.Options{Ladder: l, Games: []ranked.Game{g}, Replays: local}, Workers: 1})
		}()
	}
	waitDone(t, got, n)
	for id := ladder.BattleID(1); id <= n; id++ {
		x, _ := want.Battle(ctx, id)
		y, _ := got.Battle(ctx, id)
		if x.Seed != y.Seed || x.Seq != y.Seq || len(x.Seats) != len(y.Seats) {
			t.Fatalf("battle %d: seed %x seq %d in process, seed %x seq %d on the hosts", id, x.Seed, x.Seq, y.Seed, y.Seq)
		}
		for i := range x.Seats {
			if x.Seats[i].Player != y.Seats[i].Player || !reflect.DeepEqual(x.Seats[i].Result, y.Seats[i].Result) || x.Seats[i].After != y.Seats[i].After {
				t.Errorf("battle %d seat %d: %+v in process, %+v on the hosts", id, i, x.Seats[i], y.Seats[i])
			}
		}
		deadline := time.Now().Add(10 * time.Second)
		for {
			rep, err := replay.Open(folder.Path(id))
			if err == nil {
				if rep.Header.Seed != y.Seed || rep.Result == nil || rep.Result.Round != y.Rounds {
					t.Errorf("battle %d: replay seed %x result %+v", id, rep.Header.Seed, rep.Result)
				}
				break
			}
			if time.Now().After(deadline) {
				t.Fatalf("battle %d: no replay in the server's folder: %v", id, err)
			}
			time.Sleep(50 * time.Millisecond)
		}
	}
	cancel()
	wg.Wait() // a replay may be on its way into the folder until then
	if m, _ := filepath.Glob(filepath.Join(folder.Dir(), ".replay-*")); len(m) > 0 {
		t.Errorf("temporary files left: %v", m)
	}
}
