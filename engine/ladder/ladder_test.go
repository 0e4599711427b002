package ladder

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"testing"
	"time"

	"github.com/squarebattle/squarebattle/engine/tournament"
)

// clock is a test clock that moves a second at every reading.
type clock struct{ t time.Time }

func (c *clock) now() time.Time {
	c.t = c.t.Add(time.Second)
	return c.t
}

func newTestLadder(t testing.TB, store Store, teams int) *Ladder {
	t.Helper()
	c := &clock{t: time.Date(2026, 11, 28, 12, 0, 0, 0, time.UTC)}
	l, err := New(Options{Store: store, Games: []Game{{Name: "", Teams: teams}, {Name: "snake", Teams: 4, Columns: []string{"length"}}},
		Rand: rand.New(rand.NewPCG(7, 11)), Now: c.now})
	if err != nil {
		t.Fatal(err)
	}
	return l
}

// enter puts n players named p0… on the SquareBattle ladder.
func enter(t testing.TB, l *Ladder, n int) []Player {
	t.Helper()
	var out []Player
	for i := range n {
		p, err := l.Enter(context.Background(), "", fmt.Sprintf("p%d", i), "", fmt.Sprintf("P%d", i), []byte(fmt.Sprintf("-- player %d", i)))
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, p)
	}
	return out
}

// simulate plays a planned battle: each seat's performance is its
// strength plus noise; more is better (more squares at the end).
func simulate(r *rand.Rand, b Battle, strength map[PlayerID]float64, faulty map[PlayerID]bool) Outcome {
	o := Outcome{Rounds: 100}
	for _, s := range b.Seats {
		perf := strength[s.Player] + 4*r.NormFloat64()
		res := tournament.TeamResult{Squares: max(0, int(math.Round(perf*10))), Survived: 100}
		if faulty[s.Player] {
			res.Errors, res.Problem = 3, "p.lua:4: attempt to call a nil value"
		}
		o.Results = append(o.Results, res)
	}
	return o
}

// play plans, starts and finishes n battles of the SquareBattle ladder.
func play(t testing.TB, l *Ladder, n int, r *rand.Rand, strength map[PlayerID]float64, faulty map[PlayerID]bool) []Battle {
	t.Helper()
	ctx := context.Background()
	var out []Battle
	for range n {
		b, err := l.Plan(ctx, "", nil)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := l.Start(ctx, b.ID); err != nil {
			t.Fatal(err)
		}
		done, err := l.Finish(ctx, b.ID, simulate(r, b, strength, faulty))
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, done)
	}
	return out
}

// spearman is the rank correlation of two orders of the same ids.
func spearman(a, b []PlayerID) float64 {
	pos := map[PlayerID]int{}
	for i, id := range b {
		pos[id] = i
	}
	var d2 float64
	for i, id := range a {
		d := float64(i - pos[id])
		d2 += d * d
	}
	n := float64(len(a))
	return 1 - 6*d2/(n*(n*n-1))
}

// TestConvergence: 30 players of known strength, four to a battle; the
// table's order matches the strengths (Spearman ≥ 0.9) after 300 battles,
// 40 per player on average.
func TestConvergence(t *testing.T) {
	l := newTestLadder(t, NewMemory(), 4)
	players := enter(t, l, 30)
	r := rand.New(rand.NewPCG(3, 5))
	strength := map[PlayerID]float64{}
	var truth []PlayerID
	for i, p := range players {
		strength[p.ID] = float64((i * 7) % 30) // a shuffled order of strengths
		truth = append(truth, p.ID)
	}
	slices.SortFunc(truth, func(a, b PlayerID) int { return cmp.Compare(strength[b], strength[a]) })
	play(t, l, 300, r, strength, nil)
	board, total, err := l.Leaderboard(context.Background(), "", 0, 0)
	if err != nil || total != 30 {
		t.Fatal(total, err)
	}
	var got []PlayerID
	for _, s := range board {
		got = append(got, s.ID)
		if s.Battles < 10 {
			t.Errorf("%s played only %d battles of 300", s.Name, s.Battles)
		}
	}
	rho := spearman(got, truth)
	t.Logf("Spearman %.3f after 300 battles of 30 players", rho)
	if rho < 0.9 {
		t.Errorf("Spearman %.3f after 300 battles, want ≥ 0.9", rho)
	}
}

// TestNewVersion: a new source keeps μ and brings σ back to the start; it
// is rated first (it needs battles most); the same source again changes
// nothing.
func TestNewVersion(t *testing.T) {
	ctx := context.Background()
	l := newTestLadder(t, NewMemory(), 2)
	players := enter(t, l, 4)
	strength := map[PlayerID]float64{players[0].ID: 10}
	play(t, l, 40, rand.New(rand.NewPCG(1, 1)), strength, nil)
	before, _ := l.History(ctx, players[0].ID, 0)
	p, err := l.Enter(ctx, "", "p0", "", "P0", []byte("-- a better p0"))
	if err != nil {
		t.Fatal(err)
	}
	if p.Rating.Mu != before.Rating.Mu || p.Rating.Sigma != l.Model().NewRating().Sigma || p.Version == before.Version || p.SinceVersion != 0 {
		t.Errorf("new version: %+v, was %+v", p, before.Player)
	}
	if p.Battles != before.Battles {
		t.Errorf("battles %d, was %d: history must stay", p.Battles, before.Battles)
	}
	b, err := l.Plan(ctx, "", nil)
	if err != nil || b.Seats[0].Player != p.ID || b.Seats[0].Version != p.Version {
		t.Errorf("the next battle seats %+v first, want the new version of p0 (%v)", b.Seats, err)
	}
	again, err := l.Enter(ctx, "", "p0", "", "P0", []byte("-- a better p0"))
	if err != nil || again.Version != p.Version || again.Rating != p.Rating {
		t.Errorf("the same source again: %+v, %v", again, err)
	}
	pg, _ := l.History(ctx, p.ID, 0)
	if len(pg.Versions) != 2 || pg.Changes[0].Kind != ByVersion {
		t.Errorf("versions %v, last change %+v", pg.Versions, pg.Changes[0])
	}
}

// TestCountedOnce: finishing a battle twice rates it once; a battle
// finished after its player moved to a new version rates the others only.
func TestCountedOnce(t *testing.T) {
	ctx := context.Background()
	l := newTestLadder(t, NewMemory(), 2)
	enter(t, l, 2)
	b, _ := l.Plan(ctx, "", nil)
	l.Start(ctx, b.ID)
	o := Outcome{Rounds: 5, Results: []tournament.TeamResult{{Squares: 3}, {Squares: 1}}}
	first, err := l.Finish(ctx, b.ID, o)
	if err != nil {
		t.Fatal(err)
	}
	second, err := l.Finish(ctx, b.ID, Outcome{Rounds: 5, Results: []tournament.TeamResult{{Squares: 0}, {Squares: 9}}})
	if err != nil || second.Seq != first.Seq || second.Seats[0].Place != 1 {
		t.Errorf("second finish: %+v, %v", second, err)
	}
	board, _, _ := l.Leaderboard(ctx, "", 0, 0)
	for _, s := range board {
		if s.Battles != 1 {
			t.Errorf("%s: %d battles, want 1", s.Name, s.Battles)
		}
	}

	b, _ = l.Plan(ctx, "", nil)
	l.Start(ctx, b.ID)
	moved := b.Seats[1].Player
	pg, _ := l.History(ctx, moved, 0)
	if _, err := l.Enter(ctx, "", pg.Name, "", pg.Display, []byte("-- new")); err != nil {
		t.Fatal(err)
	}
	done, err := l.Finish(ctx, b.ID, o)
	if err != nil {
		t.Fatal(err)
	}
	if !done.Seats[0].Rated || done.Seats[1].Rated {
		t.Errorf("rated: %v %v, want the old version's seat unrated", done.Seats[0].Rated, done.Seats[1].Rated)
	}
	after, _ := l.History(ctx, moved, 0)
	if after.Rating.Sigma != l.Model().NewRating().Sigma {
		t.Errorf("the new version's σ moved by a battle of the old one: %v", after.Rating)
	}
}

// TestFail: the server's failures go back to the queue, with the same seed
// and seats, until MaxTries; the battle's own failures end it. Neither
// rates anyone.
func TestFail(t *testing.T) {
	ctx := context.Background()
	l := newTestLadder(t, NewMemory(), 2)
	enter(t, l, 3)
	b, _ := l.Plan(ctx, "", nil)
	for try := 1; try <= 3; try++ {
		s, err := l.Start(ctx, b.ID)
		if err != nil || s.Tries != try || s.Seed != b.Seed {
			t.Fatalf("try %d: %+v %v", try, s, err)
		}
		f, _ := l.Fail(ctx, b.ID, "server shutting down", true)
		want := Queued
		if try == 3 {
			want = Failed
		}
		if f.State != want {
			t.Errorf("try %d: %s, want %s", try, f.State, want)
		}
	}
	b2, _ := l.Plan(ctx, "", nil)
	l.Start(ctx, b2.ID)
	if f, _ := l.Fail(ctx, b2.ID, "map too small", false); f.State != Failed {
		t.Errorf("own failure: %s", f.State)
	}
	if _, err := l.Start(ctx, b2.ID); !errors.Is(err, ErrState) {
		t.Errorf("start of a failed battle: %v", err)
	}
	board, _, _ := l.Leaderboard(ctx, "", 0, 0)
	for _, s := range board {
		if s.Battles != 0 || s.Rating != l.Model().NewRating() {
			t.Errorf("%s rated by failed battles: %+v", s.Name, s.Player)
		}
	}
	pending, _ := l.Pending(ctx)
	if len(pending) != 0 {
		t.Errorf("pending %v", pending)
	}
}

// TestProbation: a version that errs in most battles is put on probation
// with its first problem, plays far fewer battles, and a new version
// leaves probation.
func TestProbation(t *testing.T) {
	ctx := context.Background()
	l := newTestLadder(t, NewMemory(), 2)
	players := enter(t, l, 6)
	bad := players[2].ID
	play(t, l, 300, rand.New(rand.NewPCG(9, 9)), map[PlayerID]float64{}, map[PlayerID]bool{bad: true})
	pg, _ := l.History(ctx, bad, 0)
	if !pg.Probation || pg.Problem != "p.lua:4: attempt to call a nil value" {
		t.Errorf("probation %v, problem %q", pg.Probation, pg.Problem)
	}
	board, _, _ := l.Leaderboard(ctx, "", 0, 0)
	for _, s := range board {
		if s.ID != bad && s.Battles < 2*pg.Battles {
			t.Errorf("%s played %d battles, the erring player %d: want it to play far fewer", s.Name, s.Battles, pg.Battles)
		}
	}
	p, _ := l.Enter(ctx, "", "p2", "", "P2", []byte("-- fixed"))
	if l.OnProbation(p) || p.Problem != "" {
		t.Errorf("a new version is still on probation: %+v", p)
	}
}

// TestRerate: the table re-derived from the stored results, with new
// versions and a reset in between, equals the live one bit for bit.
func TestRerate(t *testing.T) {
	ctx := context.Background()
	l := newTestLadder(t, NewMemory(), 3)
	players := enter(t, l, 8)
	r := rand.New(rand.NewPCG(4, 4))
	strength := map[PlayerID]float64{}
	for i, p := range players {
		strength[p.ID] = float64(i)
	}
	play(t, l, 60, r, strength, map[PlayerID]bool{players[1].ID: true})
	l.Enter(ctx, "", "p3", "", "P3", []byte("-- v2"))
	play(t, l, 30, r, strength, nil)
	l.ResetRating(ctx, players[5].ID)
	l.Enter(ctx, "", "p6", "", "P6", []byte("-- v2"))
	play(t, l, 30, r, strength, nil)
	live, _, _ := l.Leaderboard(ctx, "", 0, 0)
	n, err := l.Rerate(ctx, "")
	if err != nil || n != 120 {
		t.Fatalf("rerated %d battles: %v", n, err)
	}
	again, _, _ := l.Leaderboard(ctx, "", 0, 0)
	if !slices.Equal(live, again) {
		for i := range live {
			if live[i] != again[i] {
				t.Errorf("line %d: live %+v\nrerated %+v", i+1, live[i], again[i])
			}
		}
	}
}

// TestPlaces: competition places from results, ties shared.
func TestPlaces(t *testing.T) {
	sq := func(squares, survived int) tournament.TeamResult {
		return tournament.TeamResult{Squares: squares, Survived: survived}
	}
	mod := func(won bool, v ...int) tournament.TeamResult { return tournament.TeamResult{Won: won, Values: v} }
	cases := []struct {
		g    Game
		in   []tournament.TeamResult
		want []int
	}{
		{Game{}, []tournament.TeamResult{sq(3, 100), sq(5, 100), sq(0, 40), sq(0, 60)}, []int{2, 1, 4, 3}},
		{Game{}, []tournament.TeamResult{sq(2, 100), sq(2, 100), sq(1, 100), sq(2, 100)}, []int{1, 1, 4, 1}},
		{Game{}, []tournament.TeamResult{sq(0, 10), sq(0, 10)}, []int{1, 1}},
		{Game{Columns: []string{"length"}}, []tournament.TeamResult{mod(false, 9), mod(true, 3), mod(false, 9)}, []int{2, 1, 2}},
	}
	for i, tc := range cases {
		if got := Places(tc.g, tc.in); !slices.Equal(got, tc.want) {
			t.Errorf("case %d: %v, want %v", i, got, tc.want)
		}
	}
}

// TestPlan: too few players, paused, retired and unavailable players,
// games not on the ladder.
func TestPlan(t *testing.T) {
	ctx := context.Background()
	l := newTestLadder(t, NewMemory(), 4)
	if _, err := l.Plan(ctx, "", nil); !errors.Is(err, ErrTooFew) {
		t.Errorf("empty ladder: %v", err)
	}
	if _, err := l.Plan(ctx, "paint", nil); !errors.Is(err, ErrUnknownGame) {
		t.Errorf("unknown game: %v", err)
	}
	players := enter(t, l, 5)
	l.Retire(ctx, players[0].ID)
	b, err := l.Plan(ctx, "", func(p Player) bool { return p.ID != players[1].ID })
	if err != nil || len(b.Seats) != 3 {
		t.Fatalf("%+v %v", b, err)
	}
	for _, s := range b.Seats {
		if s.Player == players[0].ID || s.Player == players[1].ID {
			t.Errorf("seated a retired or unavailable player: %+v", b.Seats)
		}
	}
	l.Pause(ctx, true)
	if _, err := l.Plan(ctx, "", nil); !errors.Is(err, ErrPaused) {
		t.Errorf("paused: %v", err)
	}
	l.Pause(ctx, false)
	if _, err := l.Plan(ctx, "", nil); err != nil {
		t.Errorf("resumed: %v", err)
	}
}

// TestLeaderboardPages: 1,000 players page through the table without
// gaps or repeats.
func TestLeaderboardPages(t *testing.T) {
	ctx := context.Background()
	l := newTestLadder(t, NewMemory(), 8)
	enter(t, l, 1000)
	play(t, l, 200, rand.New(rand.NewPCG(2, 2)), map[PlayerID]float64{}, nil)
	seen := map[PlayerID]bool{}
	for off := 0; ; off += 37 {
		page, total, err := l.Leaderboard(ctx, "", off, 37)
		if err != nil || total != 1000 {
			t.Fatal(total, err)
		}
		if len(page) == 0 {
			break
		}
		for i, s := range page {
			if s.Rank != off+i+1 || seen[s.ID] {
				t.Fatalf("rank %d at offset %d+%d, seen %v", s.Rank, off, i, seen[s.ID])
			}
			seen[s.ID] = true
		}
	}
	if len(seen) != 1000 {
		t.Errorf("%d players on the pages", len(seen))
	}
}

// TestImprovementSeen: a player's strength here changes only with a new
// version (a Lua player keeps nothing from one battle to the next), so that
// is where the ladder lets a rating move fast: the new version keeps μ,
// gets the start σ back and is rated first. The weakest of 30 players
// after 300 battles, given a new version that is the strongest, is in the
// top three within 60 battles of the ladder. τ (OpenSkill's default,
// 25/300) only keeps σ from shrinking to nothing over a long life; the
// docs say how it was chosen.
func TestImprovementSeen(t *testing.T) {
	ctx := context.Background()
	l := newTestLadder(t, NewMemory(), 4)
	players := enter(t, l, 30)
	strength := map[PlayerID]float64{}
	for i, p := range players {
		strength[p.ID] = float64(i)
	}
	r := rand.New(rand.NewPCG(9, 9))
	play(t, l, 300, r, strength, nil)
	late := players[0] // the weakest
	board, _, _ := l.Leaderboard(ctx, "", 0, 0)
	t.Logf("after 300 battles %s is ranked %d of 30", late.Name, rankOf(board, late.ID))
	if _, err := l.Enter(ctx, "", late.Name, "", late.Display, []byte("-- much better")); err != nil {
		t.Fatal(err)
	}
	strength[late.ID] = 40
	for n := 1; n <= 60; n++ {
		play(t, l, 1, r, strength, nil)
		board, _, _ := l.Leaderboard(ctx, "", 0, 0)
		if rank := rankOf(board, late.ID); rank <= 3 {
			pg, _ := l.History(ctx, late.ID, 0)
			t.Logf("the new version is ranked %d after %d battles of the ladder, %d of its own", rank, n, pg.SinceVersion)
			return
		}
	}
	board, _, _ = l.Leaderboard(ctx, "", 0, 0)
	t.Errorf("after 60 battles the new, strongest version is ranked %d", rankOf(board, late.ID))
}

func rankOf(board []Standing, id PlayerID) int {
	for _, s := range board {
		if s.ID == id {
			return s.Rank
		}
	}
	return 0
}

// TestSpreadExtremes: however wide Options.Spread is, opponents are
// players of the pool. Before, a draw times a Spread past the range of
// int converted to a negative index and Plan panicked.
func TestSpreadExtremes(t *testing.T) {
	for _, spread := range []float64{1e-300, 0.5, 1e18, 1e300, math.MaxFloat64, math.Inf(1), math.NaN()} {
		t.Run(fmt.Sprint(spread), func(t *testing.T) {
			l, err := New(Options{Store: NewMemory(), Games: []Game{{Teams: 4}}, Seed: 5, Spread: spread})
			if err != nil {
				t.Fatal(err)
			}
			enter(t, l, 6)
			for range 5 {
				b, err := l.Plan(context.Background(), "", nil)
				if err != nil {
					t.Fatal(err)
				}
				seen := map[PlayerID]bool{}
				for _, s := range b.Seats {
					if s.Player == 0 || seen[s.Player] {
						t.Fatalf("seats %+v", b.Seats)
					}
					seen[s.Player] = true
				}
			}
		})
	}
}
