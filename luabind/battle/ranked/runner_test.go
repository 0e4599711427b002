package ranked_test

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/squarebattle/squarebattle/config"
	"github.com/squarebattle/squarebattle/engine/ladder"
	"github.com/squarebattle/squarebattle/engine/replay"
	"github.com/squarebattle/squarebattle/engine/tournament"
	"github.com/squarebattle/squarebattle/luabind/battle/ranked"
	"github.com/squarebattle/squarebattle/scripts"
)

// arena is a ladder of the shipped SquareBattle players on small, short
// battles, with its replays in a temporary folder.
type arena struct {
	l       *ladder.Ladder
	store   ladder.Store
	replays *ranked.Replays
	game    ranked.Game
}

func newArena(t *testing.T, store ladder.Store, budget int64, keep int) *arena {
	t.Helper()
	cfg := config.Default()
	cfg.Arena.Size, cfg.Rules.Rounds = 14, 60
	g := ranked.Game{Config: cfg, Teams: 3}
	lg, err := g.Ladder()
	if err != nil {
		t.Fatal(err)
	}
	l, err := ladder.New(ladder.Options{Store: store, Games: []ladder.Game{lg}, Seed: 12, Ahead: 4})
	if err != nil {
		t.Fatal(err)
	}
	reps, err := ranked.OpenReplays(filepath.Join(t.TempDir(), "replays"), budget, keep)
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	for _, id := range []string{"explorer", "wanderer", "borg", "pinwheel", "linedancer"} {
		src, err := fs.ReadFile(scripts.FS, id+".lua")
		if err != nil {
			t.Fatal(err)
		}
		if _, err := l.Enter(ctx, "", id, "", id, src); err != nil {
			t.Fatal(err)
		}
	}
	return &arena{l: l, store: store, replays: reps, game: g}
}

// run plays until n battles are done (rated or given up), on workers
// goroutines, and returns them.
func (a *arena) run(t *testing.T, n, workers int) []ladder.Battle {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var mu sync.Mutex
	var done []ladder.Battle
	r, err := ranked.New(ranked.Options{Ladder: a.l, Games: []ranked.Game{a.game}, Replays: a.replays, Workers: workers,
		Idle: 10 * time.Millisecond, Finished: func(b ladder.Battle) {
			mu.Lock()
			defer mu.Unlock()
			if done = append(done, b); len(done) >= n {
				cancel()
			}
		}})
	if err != nil {
		t.Fatal(err)
	}
	if err := r.Run(ctx); err != nil {
		t.Fatal(err)
	}
	return done
}

// TestRunnerPlays: battles are planned, played from the stored sources,
// rated, and their replays kept under the battle's replay ID; each replay
// holds the battle's seed and a result that places the teams as the
// ladder did.
func TestRunnerPlays(t *testing.T) {
	a := newArena(t, ladder.NewMemory(), 1<<30, 5)
	done := a.run(t, 6, 2)
	if len(done) < 6 {
		t.Fatalf("%d battles done, want 6", len(done))
	}
	for _, b := range done {
		if b.State != ladder.Done {
			t.Fatalf("battle %d: %s (%s)", b.ID, b.State, b.Error)
		}
		if b.Replay != ranked.ReplayID(b.ID) {
			t.Errorf("battle %d: replay %q", b.ID, b.Replay)
		}
		rep, err := replay.Open(a.replays.Path(b.ID))
		if err != nil {
			t.Fatal(err)
		}
		if rep.Header.Seed != b.Seed || rep.Result == nil || rep.Result.Round != b.Rounds {
			t.Errorf("battle %d: replay seed %d result %+v; battle seed %d, %d rounds", b.ID, rep.Header.Seed, rep.Result, b.Seed, b.Rounds)
		}
		if len(rep.Header.Classes) > len(b.Seats) {
			t.Errorf("battle %d: %d classes in its catalog for %d seats", b.ID, len(rep.Header.Classes), len(b.Seats))
		}
		for i, s := range b.Seats {
			if !s.Rated || s.Place < 1 || s.Before == s.After {
				t.Errorf("battle %d seat %d: rated %v, place %d, rating %v → %v", b.ID, i, s.Rated, s.Place, s.Before, s.After)
			}
		}
	}
}

// TestRunnerDeterministic: the same battle (seats, settings, seed) played
// again gives the same result, whatever the workers.
func TestRunnerDeterministic(t *testing.T) {
	a := newArena(t, ladder.NewMemory(), 1<<30, 5)
	first := a.run(t, 3, 1)
	b := newArena(t, ladder.NewMemory(), 1<<30, 5)
	b.run(t, 8, 3)
	compared := 0
	for _, x := range first {
		// The first battles planned in both are alike (the same ratings
		// and draws); later ones depend on which ended first.
		y, err := b.l.Battle(context.Background(), x.ID)
		if err != nil || y.State != ladder.Done || y.Seed != x.Seed || !sameSeats(x, y) {
			continue
		}
		compared++
		for i := range x.Seats {
			if !reflect.DeepEqual(x.Seats[i].Result, y.Seats[i].Result) || x.Seats[i].Place != y.Seats[i].Place {
				t.Errorf("battle %d seat %d: %+v then %+v", x.ID, i, x.Seats[i].Result, y.Seats[i].Result)
			}
		}
	}
	if compared == 0 {
		t.Fatal("no battle planned alike in both ladders to compare")
	}
}

// TestRunnerSameLadder: one worker and three play the same ladder: the
// same battles (seats, seeds), the same results and the same ratings after
// each, battle by battle — Settle rates in plan order whoever finishes
// first. This is the rule the worker hosts on PostgreSQL keep too.
func TestRunnerSameLadder(t *testing.T) {
	const n = 10
	ctx := context.Background()
	one := newArena(t, ladder.NewMemory(), 1<<30, 5)
	one.run(t, n, 1)
	three := newArena(t, ladder.NewMemory(), 1<<30, 5)
	three.run(t, n, 3)
	for id := ladder.BattleID(1); id <= n; id++ {
		x, err := one.l.Battle(ctx, id)
		if err != nil {
			t.Fatal(err)
		}
		y, err := three.l.Battle(ctx, id)
		if err != nil {
			t.Fatal(err)
		}
		if x.State != ladder.Done || y.State != ladder.Done || x.Seed != y.Seed || x.Seq != y.Seq || !sameSeats(x, y) {
			t.Fatalf("battle %d: %s seed %x seq %d with one worker, %s seed %x seq %d with three", id, x.State, x.Seed, x.Seq, y.State, y.Seed, y.Seq)
		}
		for i := range x.Seats {
			if !reflect.DeepEqual(x.Seats[i].Result, y.Seats[i].Result) || x.Seats[i].After != y.Seats[i].After {
				t.Errorf("battle %d seat %d: %+v → %v with one worker, %+v → %v with three", id, i, x.Seats[i].Result, x.Seats[i].After, y.Seats[i].Result, y.Seats[i].After)
			}
		}
	}
}

// TestRunnerRestart: a battle a shutdown stopped stays Playing, is played
// again by the next run and counted once.
func TestRunnerRestart(t *testing.T) {
	store := ladder.NewMemory()
	a := newArena(t, store, 1<<30, 5)
	ctx := context.Background()
	b, err := a.l.Plan(ctx, "", nil)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := a.l.Start(ctx, b.ID); err != nil { // the server died while it played
		t.Fatal(err)
	}
	stopped, cancel := context.WithCancel(ctx)
	cancel()
	r, err := ranked.New(ranked.Options{Ladder: a.l, Games: []ranked.Game{a.game}, Replays: a.replays})
	if err != nil {
		t.Fatal(err)
	}
	b, _ = a.l.Battle(ctx, b.ID)
	r.Play(stopped, b) // a shutdown as it starts: left as it was
	if b, _ = a.l.Battle(ctx, b.ID); b.State != ladder.Playing {
		t.Fatalf("after a stopped play the battle is %s", b.State)
	}
	done := a.run(t, 1, 1)
	if len(done) != 1 || done[0].ID != b.ID || done[0].State != ladder.Done {
		t.Fatalf("the next run played %+v first, want battle %d done", done, b.ID)
	}
	var battles int
	for _, p := range mustPlayers(t, a.l) {
		battles += p.Battles
	}
	if battles != len(b.Seats) {
		t.Errorf("the players count %d battles in all, want %d (one battle of %d seats)", battles, len(b.Seats), len(b.Seats))
	}
}

// TestRunnerGivesUp: a battle handed out MaxTries times and never
// finished (it takes the server down) is given up and rated for nobody.
func TestRunnerGivesUp(t *testing.T) {
	a := newArena(t, ladder.NewMemory(), 1<<30, 5)
	ctx := context.Background()
	b, err := a.l.Plan(ctx, "", nil)
	if err != nil {
		t.Fatal(err)
	}
	for range a.l.MaxTries() {
		if b, err = a.l.Start(ctx, b.ID); err != nil {
			t.Fatal(err)
		}
	}
	r, err := ranked.New(ranked.Options{Ladder: a.l, Games: []ranked.Game{a.game}, Replays: a.replays})
	if err != nil {
		t.Fatal(err)
	}
	r.Play(ctx, b)
	if b, _ = a.l.Battle(ctx, b.ID); b.State != ladder.Failed || !strings.Contains(b.Error, "stopped during it") {
		t.Fatalf("battle %s (%q), want failed", b.State, b.Error)
	}
	for _, p := range mustPlayers(t, a.l) {
		if p.Battles != 0 {
			t.Errorf("%s counts %d battles", p.Name, p.Battles)
		}
	}
}

// TestReplaysPruned: past the disk budget the oldest replays go, except
// each player's most recent battles'; a pruned battle keeps its result
// and says it has no replay.
func TestReplaysPruned(t *testing.T) {
	a := newArena(t, ladder.NewMemory(), 1, 1) // every replay is over budget
	done := a.run(t, 8, 1)
	ctx := context.Background()
	keep := map[ladder.BattleID]bool{}
	for _, p := range mustPlayers(t, a.l) {
		bs, err := a.l.Battles(ctx, ladder.BattleQuery{Player: p.ID, States: []ladder.State{ladder.Done}, Limit: 1})
		if err != nil {
			t.Fatal(err)
		}
		for _, b := range bs {
			keep[b.ID] = true
		}
	}
	pruned := 0
	for _, d := range done {
		b, err := a.l.Battle(ctx, d.ID)
		if err != nil {
			t.Fatal(err)
		}
		_, statErr := os.Stat(a.replays.Path(b.ID))
		switch {
		case keep[b.ID] && (statErr != nil || b.Replay == ""):
			t.Errorf("battle %d is a player's most recent: its replay is gone (%v, %q)", b.ID, statErr, b.Replay)
		case !keep[b.ID] && (statErr == nil || b.Replay != ""):
			t.Errorf("battle %d: its replay stayed past the budget (%v, %q)", b.ID, statErr, b.Replay)
		case !keep[b.ID]:
			pruned++
		}
		if b.State != ladder.Done || b.Rounds == 0 {
			t.Errorf("battle %d lost its result: %s, %d rounds", b.ID, b.State, b.Rounds)
		}
	}
	if pruned == 0 {
		t.Error("nothing was pruned")
	}
}

func mustPlayers(t *testing.T, l *ladder.Ladder) []ladder.Player {
	t.Helper()
	ps, err := l.Players(context.Background(), "")
	if err != nil {
		t.Fatal(err)
	}
	return ps
}

// TestReplayID: IDs read back; anything else is refused.
func TestReplayID(t *testing.T) {
	for _, id := range []ladder.BattleID{1, 42, 1 << 40} {
		got, ok := ranked.ParseReplayID(ranked.ReplayID(id))
		if !ok || got != id {
			t.Errorf("%d: read back %d %v", id, got, ok)
		}
	}
	for _, s := range []string{"", "L", "L0", "L01", "L-1", "l5", "L5x", "5", "L99999999999999999999", "../L5"} {
		if _, ok := ranked.ParseReplayID(s); ok {
			t.Errorf("%q read as an ID", s)
		}
	}
}

func sameSeats(a, b ladder.Battle) bool {
	if len(a.Seats) != len(b.Seats) {
		return false
	}
	for i := range a.Seats {
		if a.Seats[i].Player != b.Seats[i].Player || a.Seats[i].Hash != b.Seats[i].Hash {
			return false
		}
	}
	return true
}

// TestRederive: the results stored for a ladder's battles are those their
// replays give, so a re-rating from the stored results leaves the table
// as it was; a replay that says otherwise is named.
func TestRederive(t *testing.T) {
	a := newArena(t, ladder.NewMemory(), 1<<30, 5)
	done := a.run(t, 10, 2)
	ctx := context.Background()
	before, _, err := a.l.Leaderboard(ctx, "", 0, 0)
	if err != nil {
		t.Fatal(err)
	}
	got, err := ranked.Rederive(ctx, a.l, a.replays, "")
	if err != nil {
		t.Fatal(err)
	}
	if got.Checked < len(done) || len(got.Differ) > 0 || len(got.Unreadable) > 0 {
		t.Fatalf("rederived %+v from %d battles", got, len(done))
	}
	if _, err := a.l.Rerate(ctx, ""); err != nil {
		t.Fatal(err)
	}
	after, _, err := a.l.Leaderboard(ctx, "", 0, 0)
	if err != nil {
		t.Fatal(err)
	}
	if len(before) != len(after) {
		t.Fatalf("%d lines before, %d after", len(before), len(after))
	}
	for i := range before {
		b, c := before[i], after[i]
		if b.ID != c.ID || math.Abs(b.Rating.Mu-c.Rating.Mu) > 1e-9 || math.Abs(b.Rating.Sigma-c.Rating.Sigma) > 1e-9 || b.Battles != c.Battles {
			t.Errorf("line %d: %s %+v before, %s %+v after", i, b.Name, b.Rating, c.Name, c.Rating)
		}
	}

	// A replay swapped for another battle's is caught.
	first, second := a.replays.Path(done[0].ID), a.replays.Path(done[1].ID)
	data, err := os.ReadFile(second)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(first, data, 0o600); err != nil {
		t.Fatal(err)
	}
	got, err = ranked.Rederive(ctx, a.l, a.replays, "")
	if err != nil {
		t.Fatal(err)
	}
	if len(got.Differ) != 1 || !strings.HasPrefix(got.Differ[0], ranked.ReplayID(done[0].ID)+":") {
		t.Errorf("a swapped replay: %+v", got)
	}
}

// TestRunnerFaultyPlayer: a player whose every battle ends in errors of
// its own goes on probation with its first problem kept; its battles are
// rated like any other and the ladder plays on.
func TestRunnerFaultyPlayer(t *testing.T) {
	a := newArena(t, ladder.NewMemory(), 1<<30, 5)
	ctx := context.Background()
	faulty := []byte(`return { name = "Faulty", run = function(self) local x = nil; return x.boom end }`)
	p, err := a.l.Enter(ctx, "", "faulty", "mallory", "Faulty", faulty)
	if err != nil {
		t.Fatal(err)
	}
	a.run(t, 16, 2)
	p, err = a.l.Player(ctx, p.ID)
	if err != nil {
		t.Fatal(err)
	}
	if p.Battles < 5 || !a.l.OnProbation(p) || !strings.Contains(p.Problem, "faulty.lua:1") {
		t.Fatalf("faulty after %d battles: probation %v, problem %q", p.Battles, a.l.OnProbation(p), p.Problem)
	}
	board, _, err := a.l.Leaderboard(ctx, "", 0, 0)
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range board {
		if s.ID == p.ID && !s.Probation {
			t.Error("the leaderboard does not show the probation")
		}
	}
}

// TestRunnerBlamesBrokenSeat: a player whose version will not load fails
// the battles it is seated in, and only it is counted for them: the
// players drawn with it keep their failed counts at zero, and it sits
// out their battles once blamed.
func TestRunnerBlamesBrokenSeat(t *testing.T) {
	a := newArena(t, ladder.NewMemory(), 1<<30, 5)
	ctx := context.Background()
	broken, err := a.l.Enter(ctx, "", "broken", "mallory", "Broken", []byte(`return { name = "Broken", run = function(`))
	if err != nil {
		t.Fatal(err)
	}
	failed := 0
	for _, b := range a.run(t, 24, 1) {
		if b.State != ladder.Failed {
			continue
		}
		failed++
		for _, s := range b.Seats {
			if s.Blamed != (s.Player == broken.ID) {
				t.Errorf("battle %d (%s): seat of player %d blamed %v", b.ID, b.Error, s.Player, s.Blamed)
			}
		}
		if !strings.Contains(b.Error, "broken.lua") {
			t.Errorf("battle %d failed with %q, want the broken file named", b.ID, b.Error)
		}
	}
	for _, p := range mustPlayers(t, a.l) {
		switch {
		case p.ID == broken.ID && (p.Blamed == 0 || p.Blamed != p.Failed || p.Battles != 0):
			t.Errorf("broken: %d failed, %d blamed, %d rated", p.Failed, p.Blamed, p.Battles)
		case p.ID != broken.ID && (p.Failed != 0 || p.Blamed != 0):
			t.Errorf("%s: %d failed, %d blamed, for the broken player's battles", p.Name, p.Failed, p.Blamed)
		}
	}
	if failed == 0 {
		t.Error("no battle failed: the broken player was never seated")
	}
}

// TestRunnerStoreHiccup: a battle whose outcome the ladder could not take
// (the database away for a moment, a replay upload failing) is played
// again by the running runner, not left Playing until the next restart:
// the ladder settles in plan order, so one battle left behind stopped
// every battle after it. Before, each variant stalled after the first
// failure.
func TestRunnerStoreHiccup(t *testing.T) {
	cases := []struct {
		name    string
		workers int
		fails   map[ladder.BattleID]int // how often recording battle ID fails
	}{
		{"first battle, once", 1, map[ladder.BattleID]int{1: 1}},
		{"first battle, twice, two workers", 2, map[ladder.BattleID]int{1: 2}},
		{"two battles, three workers", 3, map[ladder.BattleID]int{2: 1, 3: 1}},
		{"every try", 1, map[ladder.BattleID]int{2: 1000}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			a := newArena(t, ladder.NewMemory(), 1<<30, 5)
			// A liveness guard, not a measure: the bug was a stall.
			ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
			defer cancel()
			var mu sync.Mutex
			var done []ladder.Battle
			const n = 6
			r, err := ranked.New(ranked.Options{Ladder: a.l, Games: []ranked.Game{a.game}, Replays: a.replays, Workers: tc.workers,
				Idle: 5 * time.Millisecond,
				Recorded: func(_ ladder.Tx, b ladder.Battle) error {
					mu.Lock()
					defer mu.Unlock()
					if tc.fails[b.ID] > 0 {
						tc.fails[b.ID]--
						return errors.New("the database went away")
					}
					return nil
				},
				Finished: func(b ladder.Battle) {
					mu.Lock()
					defer mu.Unlock()
					if done = append(done, b); len(done) >= n {
						cancel()
					}
				}})
			if err != nil {
				t.Fatal(err)
			}
			if err := r.Run(ctx); err != nil {
				t.Fatal(err)
			}
			mu.Lock()
			defer mu.Unlock()
			if len(done) < n {
				t.Fatalf("%d battles settled, want %d: the runner stalled", len(done), n)
			}
			for _, b := range done {
				want := ladder.Done
				if tc.fails[b.ID] > 0 {
					want = ladder.Failed // given up after MaxTries
				}
				if b.State != want {
					t.Errorf("battle %d: %s (%s), want %s", b.ID, b.State, b.Error, want)
				}
			}
		})
	}
}

// TestReplaysBudget: pruning, which asks the ladder for every player's
// recent battles, runs once per eighth of the budget rather than after
// every battle once the budget is reached; it stays within the budget,
// keeps each player's Keep most recent replays and never takes the replay
// of a battle not yet settled. Before, every battle past the budget
// pruned (passes = battles), and a battle still being recorded lost its
// replay when every older one had to stay.
func TestReplaysBudget(t *testing.T) {
	const size = 100 // bytes a replay
	cases := []struct {
		name       string
		budget     int64
		keep       int
		battles    int
		maxPasses  int
		overBudget bool // the kept replays alone exceed it
	}{
		{"roomy", 40 * size, 1, 120, 120 / 4, false},
		{"tight", 10 * size, 1, 60, 60 / 2, false},
		{"keep two", 40 * size, 2, 120, 120 / 4, false},
		{"kept exceed the budget", 2 * size, 3, 40, 40, true},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			ctx := context.Background()
			l, err := ladder.New(ladder.Options{Store: ladder.NewMemory(), Games: []ladder.Game{{Teams: 2}}, Seed: 9})
			if err != nil {
				t.Fatal(err)
			}
			for i := range 5 {
				if _, err := l.Enter(ctx, "", fmt.Sprint("p", i), "", "", []byte(fmt.Sprint(i))); err != nil {
					t.Fatal(err)
				}
			}
			reps, err := ranked.OpenReplays(filepath.Join(t.TempDir(), "replays"), tc.budget, tc.keep)
			if err != nil {
				t.Fatal(err)
			}
			write := func(id ladder.BattleID) {
				if err := os.WriteFile(reps.Path(id), make([]byte, size), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			// A battle being played all along, its replay written early.
			held, err := l.Plan(ctx, "", nil)
			if err != nil {
				t.Fatal(err)
			}
			if _, err := l.Start(ctx, held.ID); err != nil {
				t.Fatal(err)
			}
			write(held.ID)
			passes := 0
			for range tc.battles {
				b, err := l.Plan(ctx, "", nil)
				if err != nil {
					t.Fatal(err)
				}
				if _, err := l.Start(ctx, b.ID); err != nil {
					t.Fatal(err)
				}
				write(b.ID)
				o := ladder.Outcome{Results: []tournament.TeamResult{{Squares: int(b.Seed % 3)}, {Squares: 1}}, Replay: ranked.ReplayID(b.ID)}
				if _, err := l.Finish(ctx, b.ID, o); err != nil {
					t.Fatal(err)
				}
				n, err := reps.Added(ctx, l, b.ID)
				if err != nil {
					t.Fatal(err)
				}
				if n > 0 {
					passes++
				}
			}
			if passes == 0 || passes > tc.maxPasses {
				t.Errorf("%d pruning passes for %d battles, want 1 to %d", passes, tc.battles, tc.maxPasses)
			}
			if !tc.overBudget && reps.Total() > tc.budget {
				t.Errorf("%d bytes kept, budget %d", reps.Total(), tc.budget)
			}
			if _, err := os.Stat(reps.Path(held.ID)); err != nil {
				t.Errorf("the replay of battle %d, still playing, was pruned: %v", held.ID, err)
			}
			players, err := l.Players(ctx, "")
			if err != nil {
				t.Fatal(err)
			}
			for _, p := range players {
				recent, err := l.Battles(ctx, ladder.BattleQuery{Player: p.ID, States: []ladder.State{ladder.Done}, Limit: tc.keep})
				if err != nil {
					t.Fatal(err)
				}
				for _, b := range recent {
					if _, err := os.Stat(reps.Path(b.ID)); err != nil || b.Replay == "" {
						t.Errorf("%s's recent battle %d lost its replay (%v, %q)", p.Name, b.ID, err, b.Replay)
					}
				}
			}
		})
	}
}
