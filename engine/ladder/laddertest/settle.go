package laddertest

import (
	"context"
	"fmt"
	"hash/fnv"
	"math/rand/v2"
	"slices"
	"testing"
	"time"

	"github.com/squarebattle/squarebattle/engine/ladder"
	"github.com/squarebattle/squarebattle/engine/tournament"
)

// SettleRun is one seeded ladder played to Battles settled battles by
// Workers simulated workers that finish in an order drawn from Shuffle:
// what Settle promises is that the battles and the table are the same
// whatever Workers and Shuffle are.
type SettleRun struct {
	Workers int
	Shuffle uint64 // seeds the order workers finish in
	Battles int
	// FailFirst: the first try of every battle whose number is a
	// multiple of FailFirst fails by the server's fault (0: none).
	FailFirst int
}

// SettleOutcome is a battle's result as a function of its seed and its
// seats only, as a real battle's is.
func SettleOutcome(b ladder.Battle) ladder.Outcome {
	var o ladder.Outcome
	for _, s := range b.Seats {
		h := fnv.New64a()
		fmt.Fprint(h, b.Seed, s.Player)
		o.Results = append(o.Results, tournament.TeamResult{Squares: int(s.Player)%5 + int(h.Sum64()%7)})
	}
	o.Rounds = int(b.Seed % 100)
	return o
}

// Play plays the run on the store and returns every battle, by ID, and
// the table.
func (r SettleRun) Play(t *testing.T, store ladder.Store) ([]ladder.Battle, []ladder.Standing) {
	t.Helper()
	ctx := context.Background()
	clock := time.Date(2026, 11, 28, 0, 0, 0, 0, time.UTC)
	l, err := ladder.New(ladder.Options{Store: store, Games: []ladder.Game{{Teams: 3}}, Seed: 99, Ahead: 4,
		Now: func() time.Time { clock = clock.Add(time.Second); return clock }})
	if err != nil {
		t.Fatal(err)
	}
	for i := range 9 {
		if _, err := l.Enter(ctx, "", fmt.Sprintf("p%d", i), "", "", []byte(fmt.Sprint("source ", i))); err != nil {
			t.Fatal(err)
		}
	}
	order := rand.New(rand.NewPCG(r.Shuffle, 3))
	var queue, hands []ladder.Battle // planned, not handed out; handed out, not recorded
	settle := func() int {
		s, err := l.Settle(ctx, nil, nil)
		if err != nil {
			t.Fatal(err)
		}
		queue = append(queue, s.Planned...)
		return len(s.Done)
	}
	settle()
	failed := map[ladder.BattleID]bool{}
	for done := 0; done < r.Battles; {
		for len(hands) < r.Workers && len(queue) > 0 {
			b, err := l.Start(ctx, queue[0].ID)
			if err != nil {
				t.Fatal(err)
			}
			hands, queue = append(hands, b), queue[1:]
		}
		if len(hands) == 0 {
			t.Fatalf("nothing to play after %d battles", done)
		}
		i := order.IntN(len(hands))
		b := hands[i]
		hands = slices.Delete(hands, i, i+1)
		if r.FailFirst > 0 && int(b.ID)%r.FailFirst == 0 && !failed[b.ID] {
			failed[b.ID] = true
			again, err := l.Fail(ctx, b.ID, "the worker died", true)
			if err != nil || again.State != ladder.Queued {
				t.Fatalf("Fail: %s, %v", again.State, err)
			}
			queue = append([]ladder.Battle{again}, queue...)
			continue
		}
		if _, err := l.Record(ctx, b.ID, SettleOutcome(b), nil); err != nil {
			t.Fatal(err)
		}
		// Recording twice (a worker thought dead came back) is a no-op.
		if again, err := l.Record(ctx, b.ID, ladder.Outcome{}, nil); err != nil || again.State != ladder.Played && again.State != ladder.Done {
			t.Fatalf("Record again: %s, %v", again.State, err)
		}
		done += settle()
	}
	all, err := l.Battles(ctx, ladder.BattleQuery{States: []ladder.State{ladder.Done}})
	if err != nil {
		t.Fatal(err)
	}
	slices.Reverse(all)
	all = all[:r.Battles]
	table, _, err := l.Leaderboard(ctx, "", 0, 0)
	if err != nil {
		t.Fatal(err)
	}
	return all, table
}

// testSettle: one worker finishing in plan order and three finishing in
// a shuffled order, some battles failing once on the way, play the same
// battles and reach the same table (ratings bit for bit).
func testSettle(t *testing.T, open Open) {
	one := SettleRun{Workers: 1, Battles: 30}
	s := open(t)
	wantB, wantT := one.Play(t, s)
	s.Close()
	for _, r := range []SettleRun{{Workers: 3, Shuffle: 1, Battles: 30}, {Workers: 4, Shuffle: 2, Battles: 30, FailFirst: 5}} {
		s := open(t)
		gotB, gotT := r.Play(t, s)
		s.Close()
		for i := range wantB {
			g, w := gotB[i], wantB[i]
			if g.ID != w.ID || g.Seed != w.Seed || g.Seq != w.Seq || len(g.Seats) != len(w.Seats) {
				t.Fatalf("%+v: battle %d is %d seed %x seq %d; one worker: %d seed %x seq %d", r, i, g.ID, g.Seed, g.Seq, w.ID, w.Seed, w.Seq)
			}
			for j := range g.Seats {
				if g.Seats[j].Player != w.Seats[j].Player || g.Seats[j].After != w.Seats[j].After {
					t.Fatalf("%+v: battle %d seat %d: %+v; one worker: %+v", r, g.ID, j, g.Seats[j], w.Seats[j])
				}
			}
		}
		if len(gotT) != len(wantT) {
			t.Fatalf("%+v: %d lines, one worker %d", r, len(gotT), len(wantT))
		}
		for i := range gotT {
			if gotT[i].ID != wantT[i].ID || gotT[i].Rating != wantT[i].Rating || gotT[i].Battles != wantT[i].Battles {
				t.Errorf("%+v: line %d: %s %v; one worker: %s %v", r, i+1, gotT[i].Name, gotT[i].Rating, wantT[i].Name, wantT[i].Rating)
			}
		}
	}
}
