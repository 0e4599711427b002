package laddertest

import (
	"context"
	"errors"
	"fmt"
	"math"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/squarebattle/squarebattle/engine/ladder"
	"github.com/squarebattle/squarebattle/engine/openskill"
	"github.com/squarebattle/squarebattle/engine/tournament"
)

// testRatingAt: LastSeq says where the sequence stands without taking a
// number; RatingAt finds a player's last change numbered at most seq,
// the newest of equal numbers, and none before the first.
func testRatingAt(t *testing.T, s ladder.Store) {
	defer s.Close()
	var p, q ladder.Player
	update(t, s, func(tx ladder.Tx) error {
		if n, err := tx.LastSeq(); err != nil || n != 0 {
			return fmt.Errorf("LastSeq of an empty store: %d, %v", n, err)
		}
		p, q = ladder.Player{Name: "p"}, ladder.Player{Name: "q"}
		if err := tx.SavePlayer(&p); err != nil {
			return err
		}
		if err := tx.SavePlayer(&q); err != nil {
			return err
		}
		for _, c := range []struct {
			who ladder.PlayerID
			seq int64
			mu  float64
		}{{p.ID, 2, 20}, {q.ID, 3, 30}, {p.ID, 5, 21}, {p.ID, 5, 22}, {p.ID, 9, 23}} {
			if err := tx.AddRatingChange(ladder.RatingChange{Player: c.who, Kind: ladder.ByBattle, Seq: c.seq, After: openskill.Rating{Mu: c.mu, Sigma: 1}}); err != nil {
				return err
			}
		}
		for range 3 {
			if _, err := tx.NextSeq(); err != nil {
				return err
			}
		}
		return nil
	})
	view(t, s, func(tx ladder.Tx) error {
		if n, err := tx.LastSeq(); err != nil || n != 3 {
			t.Errorf("LastSeq after three NextSeq: %d, %v", n, err)
		}
		if n, _ := tx.LastSeq(); n != 3 {
			t.Errorf("LastSeq took a number: %d", n)
		}
		for _, c := range []struct {
			who  ladder.PlayerID
			seq  int64
			want float64 // μ; 0: none
		}{{p.ID, 1, 0}, {p.ID, 2, 20}, {p.ID, 4, 20}, {p.ID, 5, 22}, {p.ID, 8, 22}, {p.ID, 9, 23}, {p.ID, math.MaxInt64, 23}, {q.ID, 2, 0}, {q.ID, 3, 30}, {999999, 9, 0}} {
			got, err := tx.RatingAt(c.who, c.seq)
			switch {
			case c.want == 0 && !errors.Is(err, ladder.ErrNotFound):
				t.Errorf("RatingAt(%d, %d) = %+v, %v; want ErrNotFound", c.who, c.seq, got, err)
			case c.want != 0 && (err != nil || got.After.Mu != c.want || got.Player != c.who):
				t.Errorf("RatingAt(%d, %d) = %+v, %v; want μ %v", c.who, c.seq, got, err, c.want)
			}
		}
		return nil
	})
}

// testView: what the arena shows of a ladder read through this store —
// players found by the names people type, trends, the ratings of an
// earlier visit, a user's own players — played by simulated battles.
func testView(t *testing.T, s ladder.Store) {
	defer s.Close()
	ctx := context.Background()
	clock := time.Date(2026, 11, 28, 0, 0, 0, 0, time.UTC)
	l, err := ladder.New(ladder.Options{Store: s, Games: []ladder.Game{{Name: "snake", Teams: 2, Columns: []string{"length"}}, {Teams: 2}},
		Now: func() time.Time { clock = clock.Add(time.Second); return clock }})
	if err != nil {
		t.Fatal(err)
	}
	if g := l.Games(); len(g) != 2 || g[0].Name != "" || g[1].Name != "snake" {
		t.Errorf("Games: %+v, want SquareBattle first", g)
	}
	enter := func(name, owner string) ladder.Player {
		p, err := l.Enter(ctx, "", name, owner, "D "+name, []byte(name))
		if err != nil {
			t.Fatal(err)
		}
		return p
	}
	hunter := enter("hunter", "")
	alice := enter("alice.hunter", "alice")
	bob := enter("bob/hunter", "bob")
	solo := enter("alice.solo", "alice")
	if _, err := l.Enter(ctx, "snake", "alice.snaky", "alice", "Snaky", []byte("s")); err != nil {
		t.Fatal(err)
	}
	if _, err := l.Enter(ctx, "snake", "bob.other", "bob", "Other", []byte("o")); err != nil {
		t.Fatal(err)
	}

	first, err := l.Visit(ctx, "SHA256:viewer")
	if err != nil || first != (ladder.Visit{}) {
		t.Fatalf("first visit: %+v, %v; want none", first, err)
	}
	// hunter beats everyone, three times.
	for i := range 3 {
		b, err := l.Plan(ctx, "", nil)
		if err != nil {
			t.Fatal(err)
		}
		var o ladder.Outcome
		for _, seat := range b.Seats {
			sq := 1
			if seat.Player == hunter.ID {
				sq = 10 + i
			}
			o.Results = append(o.Results, tournament.TeamResult{Squares: sq})
		}
		if _, err := l.Finish(ctx, b.ID, o); err != nil {
			t.Fatal(err)
		}
	}
	// The second visit returns the first: the ladder as it stood before
	// the battles; the third the second.
	second, err := l.Visit(ctx, "SHA256:viewer")
	if err != nil || second.Seq != 6 || second.At.IsZero() {
		t.Fatalf("second visit: %+v, %v; want the first, at the sequence after six entries", second, err)
	}
	third, _ := l.Visit(ctx, "SHA256:viewer")
	if third.Seq != 9 || !third.At.After(second.At) {
		t.Errorf("third visit %+v: want the second, after three battles and after %+v", third, second)
	}
	if _, err := l.Visit(ctx, ""); err == nil {
		t.Error("a visit without a viewer was recorded")
	}
	now, _ := l.PlayersByID(ctx, []ladder.PlayerID{hunter.ID, alice.ID, 999999, hunter.ID})
	then, err := l.RatingsAt(ctx, []ladder.PlayerID{hunter.ID, alice.ID, 999999}, second.Seq)
	if err != nil {
		t.Fatal(err)
	}
	if len(now) != 2 || len(then) != 2 || math.Abs(then[hunter.ID]) > 1e-9 || then[alice.ID] != then[hunter.ID] {
		t.Errorf("ratings at the first visit %v: want the start rating (ordinal 0) of both", then)
	}
	if then, _ := l.RatingsAt(ctx, []ladder.PlayerID{hunter.ID}, third.Seq); then[hunter.ID] != now[hunter.ID].Ordinal() {
		t.Errorf("ratings at the second visit %v, now %v: want hunter's now (nothing rated since)", then, now[hunter.ID].Ordinal())
	}
	start, _ := l.RatingsAt(ctx, []ladder.PlayerID{hunter.ID, solo.ID}, 1)
	if _, ok := start[solo.ID]; ok || len(start) != 1 || math.Abs(start[hunter.ID]) > 1e-9 {
		t.Errorf("ratings at event 1: %v; want hunter's start rating (0) and solo not yet entered", start)
	}

	trends, err := l.Trends(ctx, []ladder.PlayerID{hunter.ID, solo.ID}, 3)
	if err != nil {
		t.Fatal(err)
	}
	if tr := trends[hunter.ID]; len(tr) != 3 || tr[2] != now[hunter.ID].Ordinal() || !slices.IsSorted(tr) {
		t.Errorf("hunter's trend %v: want three rising ordinals ending at %v", tr, now[hunter.ID].Ordinal())
	}
	long, _ := l.Trends(ctx, []ladder.PlayerID{hunter.ID}, 50)
	if tr := long[hunter.ID]; tr[0] != 0 || tr[len(tr)-1] != now[hunter.ID].Ordinal() {
		t.Errorf("hunter's whole trend %v: want it from the start rating (0) to now", tr)
	}

	for _, c := range []struct {
		game, name string
		want       ladder.PlayerID
		err        error
	}{
		{"", "hunter", hunter.ID, nil},
		{"", "alice/hunter", alice.ID, nil},
		{"", "alice.hunter", alice.ID, nil},
		{"", "bob/hunter", bob.ID, nil},
		{"", "bob.hunter", bob.ID, nil},
		{"", "solo", solo.ID, nil},
		{"", "alice/solo", solo.ID, nil},
		{"", "carol/hunter", 0, ladder.ErrNotFound},
		{"", "nobody", 0, ladder.ErrNotFound},
		{"", "snaky", 0, ladder.ErrNotFound},
		{"snake", "snaky", 0, nil},
		{"snake", "other", 0, nil},
		{"chess", "hunter", 0, ladder.ErrUnknownGame},
	} {
		p, err := l.Find(ctx, c.game, c.name)
		switch {
		case c.err != nil && !errors.Is(err, c.err):
			t.Errorf("Find(%q, %q) = %v, %v; want %v", c.game, c.name, p.Ref(), err, c.err)
		case c.err == nil && (err != nil || (c.want != 0 && p.ID != c.want) || p.Game != c.game):
			t.Errorf("Find(%q, %q) = %v %v, %v; want player %d", c.game, c.name, p.ID, p.Ref(), err, c.want)
		}
	}
	// Two users' uploads of one bare name, and no shipped one.
	if _, err := l.Enter(ctx, "snake", "bob.snaky", "bob", "Snaky", []byte("t")); err != nil {
		t.Fatal(err)
	}
	if _, err := l.Find(ctx, "snake", "snaky"); !errors.Is(err, ladder.ErrAmbiguous) || !containsAll(err.Error(), "alice/snaky", "bob/snaky") {
		t.Errorf("Find of a name two users have: %v; want ErrAmbiguous naming both", err)
	}

	mine, err := l.Owned(ctx, "alice")
	if err != nil {
		t.Fatal(err)
	}
	var refs []string
	for _, m := range mine {
		refs = append(refs, m.Game+":"+m.Ref())
		if m.Rank < 1 {
			t.Errorf("%s has no rank", m.Ref())
		}
	}
	if want := []string{":alice/hunter", ":alice/solo", "snake:alice/snaky"}; !slices.Equal(slices.Sorted(slices.Values(refs)), want) || refs[len(refs)-1] != want[2] {
		t.Errorf("Owned(alice) = %v; want %v, SquareBattle's first", refs, want)
	}
	if none, _ := l.Owned(ctx, ""); len(none) != 0 {
		t.Errorf("Owned of nobody: %v", none)
	}
}

func containsAll(s string, subs ...string) bool {
	for _, sub := range subs {
		if !strings.Contains(s, sub) {
			return false
		}
	}
	return true
}

// testText: text every store keeps alike. Names, owners and viewers' keys
// that PostgreSQL cannot store (not UTF-8, a NUL byte) are refused by the
// ladder with an error naming them, whatever the store; a display name is
// made valid (each bad byte U+FFFD);
// a seat's problem and a failed battle's reason, which a script writes,
// are cleaned and clipped to ladder.MaxText instead, so that recording or
// settling a battle never fails for its text. Before, SQLite and the
// memory store kept such names and PostgreSQL failed the transaction.
func testText(t *testing.T, open Open) {
	ctx := context.Background()
	s := open(t)
	defer s.Close()
	l, err := ladder.New(ladder.Options{Store: s, Games: []ladder.Game{{Teams: 2}}, Seed: 3, Ahead: 2})
	if err != nil {
		t.Fatal(err)
	}
	refused := []struct {
		key                  string
		name, owner, display string
	}{
		{"name", "a\x00b", "", ""},
		{"name", "\xff", "", ""},
		{"owner", "p", "ann\x00", ""},
	}
	for _, tc := range refused {
		if _, err := l.Enter(ctx, "", tc.name, tc.owner, tc.display, []byte("x")); err == nil || !strings.Contains(err.Error(), tc.key) {
			t.Errorf("Enter(%q, %q, %q): %v; want an error naming the %s", tc.name, tc.owner, tc.display, err, tc.key)
		}
	}
	// A display name only shows: it is made valid rather than refused.
	if p, err := l.Enter(ctx, "", "shown", "", "D\xc3\x00e", []byte("shown")); err != nil || p.Display != "D\uFFFD\uFFFDe" {
		t.Errorf("Enter with a display name that is not UTF-8: %q, %v; want it stored as %q", p.Display, err, "D\uFFFD\uFFFDe")
	}
	if _, err := l.Visit(ctx, "SHA256:\xff"); err == nil || !strings.Contains(err.Error(), "viewer") {
		t.Errorf("Visit of a key that is not UTF-8: %v", err)
	}
	for _, n := range []string{"ann/snow ☃", "bob"} {
		if _, err := l.Enter(ctx, "", n, "ann", "Snow ☃ "+n, []byte(n)); err != nil {
			t.Fatal(err)
		}
	}
	long := strings.Repeat("é", 3*ladder.MaxText)
	problems := []struct{ in, want string }{
		{"a.lua:1: \x00\xff end", "a.lua:1: \uFFFD\uFFFD end"},
		{"ok ☃", "ok ☃"},
		{long, long[:ladder.MaxText-len("…")-1] + "…"},
	}
	var queue []ladder.Battle
	settle := func() {
		s, err := l.Settle(ctx, nil, nil)
		if err != nil {
			t.Fatal(err)
		}
		queue = append(queue, s.Planned...)
	}
	settle()
	for _, pr := range problems {
		if len(queue) < 2 {
			t.Fatalf("%d battles planned", len(queue))
		}
		b, next := queue[0], queue[1]
		queue = queue[2:]
		if _, err := l.Start(ctx, b.ID); err != nil {
			t.Fatal(err)
		}
		o := ladder.Outcome{Results: []tournament.TeamResult{{Squares: 1, Errors: 1, Problem: pr.in}, {Squares: 2, Problem: pr.in}}}
		if _, err := l.Record(ctx, b.ID, o, nil); err != nil {
			t.Fatal(err)
		}
		got, err := l.Battle(ctx, b.ID)
		if err != nil {
			t.Fatal(err)
		}
		for i, seat := range got.Seats {
			if seat.Result.Problem != pr.want {
				t.Errorf("battle %d seat %d: problem %q (%d bytes), want %q", b.ID, i, seat.Result.Problem, len(seat.Result.Problem), pr.want)
			}
		}
		// Failing the next battle with the same text.
		if _, err := l.Start(ctx, next.ID); err != nil {
			t.Fatal(err)
		}
		failed, err := l.Fail(ctx, next.ID, pr.in, false)
		if err != nil {
			t.Fatal(err)
		}
		if failed.Error != pr.want {
			t.Errorf("battle %d: failed with %q, want %q", next.ID, failed.Error, pr.want)
		}
		settle()
	}
}

// testPlayerBattles: a player's battles, with every other filter and a
// limit, are those of all battles that seat the player, in the same
// order, once each even when it sits twice in one. The SQL stores read
// them from the player's seats (newest first) rather than from every
// battle the player sat in.
func testPlayerBattles(t *testing.T, s ladder.Store) {
	defer s.Close()
	var ps []ladder.Player
	games := []string{"", "paint"}
	states := []ladder.State{ladder.Done, ladder.Failed, ladder.Queued}
	update(t, s, func(tx ladder.Tx) error {
		for i := range 4 {
			p := ladder.Player{Name: fmt.Sprint("p", i)}
			if err := tx.SavePlayer(&p); err != nil {
				return err
			}
			ps = append(ps, p)
		}
		for i := range 60 {
			b := ladder.Battle{Game: games[i%2], State: states[i%3], Seq: int64(1000 - i)}
			b.Seats = []ladder.Seat{{Player: ps[i%3].ID}, {Player: ps[(i+1)%3].ID}}
			if i%7 == 0 {
				b.Seats = append(b.Seats, ladder.Seat{Player: ps[i%3].ID}) // seated twice
			}
			if i == 11 {
				b.Seats = append(b.Seats, ladder.Seat{Player: ps[3].ID}) // once, long ago
			}
			if err := tx.SaveBattle(&b); err != nil {
				return err
			}
		}
		return nil
	})
	paint := "paint"
	queries := []struct {
		name string
		q    ladder.BattleQuery
	}{
		{"all", ladder.BattleQuery{}},
		{"last 5", ladder.BattleQuery{Limit: 5}},
		{"done, last 3", ladder.BattleQuery{States: []ladder.State{ladder.Done}, Limit: 3}},
		{"paint, queued or failed", ladder.BattleQuery{Game: &paint, States: []ladder.State{ladder.Queued, ladder.Failed}}},
		{"after 30", ladder.BattleQuery{After: 30, Limit: 4}},
		{"by seq", ladder.BattleQuery{BySeq: true, Limit: 6}},
	}
	view(t, s, func(tx ladder.Tx) error {
		for _, tc := range queries {
			all := tc.q
			all.Limit = 0
			every, err := tx.Battles(all)
			if err != nil {
				return err
			}
			for _, p := range ps {
				var want []ladder.BattleID
				for _, b := range every {
					if slices.ContainsFunc(b.Seats, func(s ladder.Seat) bool { return s.Player == p.ID }) && (tc.q.Limit == 0 || len(want) < tc.q.Limit) {
						want = append(want, b.ID)
					}
				}
				q := tc.q
				q.Player = p.ID
				got, err := tx.Battles(q)
				if err != nil {
					return err
				}
				var ids []ladder.BattleID
				for _, b := range got {
					ids = append(ids, b.ID)
				}
				if !slices.Equal(ids, want) {
					t.Errorf("%s, player %s: %v, want %v", tc.name, p.Name, ids, want)
				}
			}
		}
		return nil
	})
}
