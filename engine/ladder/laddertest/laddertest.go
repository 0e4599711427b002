// Package laddertest is the contract every ladder.Store keeps, as tests:
// each store package runs Run against its own Store, so the memory store,
// SQLite and PostgreSQL are held to the same behaviour.
package laddertest

import (
	"context"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"testing"
	"time"

	"github.com/squarebattle/squarebattle/engine/ladder"
	"github.com/squarebattle/squarebattle/engine/openskill"
	"github.com/squarebattle/squarebattle/engine/tournament"
)

// Open returns a new, empty store; the test closes it.
type Open func(t *testing.T) ladder.Store

// Run runs the whole contract against the stores open returns.
func Run(t *testing.T, open Open) {
	t.Run("Players", func(t *testing.T) { testPlayers(t, open(t)) })
	t.Run("Battles", func(t *testing.T) { testBattles(t, open(t)) })
	t.Run("Changes", func(t *testing.T) { testChanges(t, open(t)) })
	t.Run("Rollback", func(t *testing.T) { testRollback(t, open(t)) })
	t.Run("SameTable", func(t *testing.T) { testSameTable(t, open(t)) })
	t.Run("RatingAt", func(t *testing.T) { testRatingAt(t, open(t)) })
	t.Run("View", func(t *testing.T) { testView(t, open(t)) })
	t.Run("Settle", func(t *testing.T) { testSettle(t, open) })
	t.Run("Broken", func(t *testing.T) { testBroken(t, open) })
	t.Run("Text", func(t *testing.T) { testText(t, open) })
	t.Run("PlayerBattles", func(t *testing.T) { testPlayerBattles(t, open(t)) })
}

func update(t *testing.T, s ladder.Store, fn func(ladder.Tx) error) {
	t.Helper()
	if err := s.Update(context.Background(), fn); err != nil {
		t.Fatal(err)
	}
}

func view(t *testing.T, s ladder.Store, fn func(ladder.Tx) error) {
	t.Helper()
	if err := s.View(context.Background(), fn); err != nil {
		t.Fatal(err)
	}
}

func testPlayers(t *testing.T, s ladder.Store) {
	defer s.Close()
	at := time.Date(2026, 11, 28, 10, 0, 0, 123456789, time.UTC)
	p := ladder.Player{Game: "snake", Name: "slither", Owner: "ann", Display: "Slither ☃", Rating: openskill.Rating{Mu: 25.000000000000004, Sigma: math.Nextafter(8, 9)},
		Battles: 3, Wins: 1, SinceVersion: 2, LastBattle: at, Recent: 0xfffffffe, RecentN: 32, Problem: "a.lua:1: x", Failed: 4, Blamed: 3}
	update(t, s, func(tx ladder.Tx) error {
		if err := tx.SavePlayer(&p); err != nil {
			return err
		}
		if p.ID == 0 {
			return errors.New("SavePlayer set no ID")
		}
		dup := ladder.Player{Game: "snake", Name: "slither"}
		if err := tx.SavePlayer(&dup); err == nil {
			return errors.New("a second player of the same name and game was saved")
		}
		other := ladder.Player{Game: "", Name: "slither"} // another game: fine
		if err := tx.SavePlayer(&other); err != nil {
			return err
		}
		v := ladder.Version{Player: p.ID, Hash: "ab", Created: at, Seq: 7}
		if err := tx.SaveVersion(&v); err != nil {
			return err
		}
		v2 := ladder.Version{Player: p.ID, Hash: "cd", Created: at.Add(time.Hour), Seq: 9}
		if err := tx.SaveVersion(&v2); err != nil {
			return err
		}
		if err := tx.SaveVersion(&ladder.Version{Player: 999999}); !errors.Is(err, ladder.ErrNotFound) {
			return fmt.Errorf("a version of no player: %v", err)
		}
		p.Version = v2.ID
		if err := tx.SavePlayer(&p); err != nil {
			return err
		}
		for range 2 {
			if err := tx.SaveSource("ab", []byte("return {}")); err != nil {
				return err
			}
		}
		return nil
	})
	view(t, s, func(tx ladder.Tx) error {
		got, err := tx.Player(p.ID)
		if err != nil || got != p {
			t.Errorf("Player: %+v, %v\nwant %+v", got, err, p)
		}
		byName, err := tx.PlayerByName("snake", "slither")
		if err != nil || byName != p {
			t.Errorf("PlayerByName: %+v, %v", byName, err)
		}
		if _, err := tx.PlayerByName("snake", "nobody"); !errors.Is(err, ladder.ErrNotFound) {
			t.Errorf("PlayerByName of nobody: %v", err)
		}
		if _, err := tx.Player(999999); !errors.Is(err, ladder.ErrNotFound) {
			t.Errorf("Player 999999: %v", err)
		}
		list, err := tx.Players("snake")
		if err != nil || len(list) != 1 || list[0] != p {
			t.Errorf("Players(snake): %+v, %v", list, err)
		}
		vs, err := tx.Versions(p.ID)
		if err != nil || len(vs) != 2 || vs[0].Hash != "ab" || vs[1].Seq != 9 || !vs[0].Created.Equal(at) {
			t.Errorf("Versions: %+v, %v", vs, err)
		}
		src, err := tx.Source("ab")
		if err != nil || string(src) != "return {}" {
			t.Errorf("Source: %q, %v", src, err)
		}
		if _, err := tx.Source("zz"); !errors.Is(err, ladder.ErrNotFound) {
			t.Errorf("Source zz: %v", err)
		}
		if err := tx.SetMeta("x", "y"); err == nil {
			t.Errorf("a write in View succeeded")
		}
		return nil
	})
}

func testBattles(t *testing.T, s ladder.Store) {
	defer s.Close()
	var a, b ladder.Player
	games := []string{"", "paint"}
	var ids []ladder.BattleID
	update(t, s, func(tx ladder.Tx) error {
		a, b = ladder.Player{Name: "a"}, ladder.Player{Name: "b"}
		if err := tx.SavePlayer(&a); err != nil {
			return err
		}
		if err := tx.SavePlayer(&b); err != nil {
			return err
		}
		for i := range 6 {
			bt := ladder.Battle{Game: games[i%2], Seed: math.MaxUint64 - uint64(i), Config: `{"size":16}`, State: ladder.Queued,
				Created: time.Unix(int64(i), 0).UTC(), Seats: []ladder.Seat{{Player: a.ID, Version: 1, Hash: "h1"}, {Player: b.ID, Version: 2, Hash: "h2"}}}
			if i == 5 {
				bt.Seats = bt.Seats[:1]
			}
			if err := tx.SaveBattle(&bt); err != nil {
				return err
			}
			ids = append(ids, bt.ID)
		}
		// Finish two, out of ID order by sequence.
		for _, k := range []struct {
			i   int
			seq int64
		}{{2, 20}, {0, 10}} {
			bt, err := tx.Battle(ids[k.i])
			if err != nil {
				return err
			}
			bt.State, bt.Seq, bt.Rounds, bt.Replay = ladder.Done, k.seq, 300, "r.sbr"
			bt.Seats[0].Place, bt.Seats[0].Rated = 1, true
			bt.Seats[0].Result = tournament.TeamResult{Squares: 4, Survived: 300, Errors: 2, Problem: "x.lua:3: boom", Values: []int{7, 8}}
			bt.Seats[0].Before, bt.Seats[0].After = openskill.Rating{Mu: 25, Sigma: 8.333}, openskill.Rating{Mu: 27.1, Sigma: 8.1}
			if err := tx.SaveBattle(&bt); err != nil {
				return err
			}
		}
		if err := tx.SaveBattle(&ladder.Battle{ID: 999999, State: ladder.Done}); !errors.Is(err, ladder.ErrNotFound) {
			return fmt.Errorf("saving battle 999999 that was never inserted: %v", err)
		}
		return nil
	})
	view(t, s, func(tx ladder.Tx) error {
		bt, err := tx.Battle(ids[2])
		if err != nil || bt.Seed != math.MaxUint64-2 || bt.State != ladder.Done || len(bt.Seats) != 2 || bt.Seats[0].Result.Problem != "x.lua:3: boom" ||
			!slices.Equal(bt.Seats[0].Result.Values, []int{7, 8}) || bt.Seats[0].After.Mu != 27.1 || !bt.Seats[0].Rated || bt.Seats[1].Rated {
			t.Errorf("Battle: %+v, %v", bt, err)
		}
		all, _ := tx.Battles(ladder.BattleQuery{})
		if len(all) != 6 || all[0].ID != ids[5] {
			t.Errorf("all battles newest first: %d, first %d", len(all), all[0].ID)
		}
		done, _ := tx.Battles(ladder.BattleQuery{BySeq: true})
		if len(done) != 2 || done[0].ID != ids[0] || done[1].ID != ids[2] {
			t.Errorf("by sequence: %v", battleIDs(done))
		}
		sq := ""
		mine, _ := tx.Battles(ladder.BattleQuery{Game: &sq, Player: b.ID, States: []ladder.State{ladder.Queued}, Limit: 5})
		if len(mine) != 1 || mine[0].ID != ids[4] {
			t.Errorf("SquareBattle, queued, with b: %v", battleIDs(mine))
		}
		limited, _ := tx.Battles(ladder.BattleQuery{Limit: 2})
		if len(limited) != 2 {
			t.Errorf("limit 2: %d", len(limited))
		}
		if _, err := tx.Battle(999999); !errors.Is(err, ladder.ErrNotFound) {
			t.Errorf("battle 999999: %v", err)
		}
		return nil
	})
}

func battleIDs(bs []ladder.Battle) []ladder.BattleID {
	var out []ladder.BattleID
	for _, b := range bs {
		out = append(out, b.ID)
	}
	return out
}

func testChanges(t *testing.T, s ladder.Store) {
	defer s.Close()
	var p, q ladder.Player
	update(t, s, func(tx ladder.Tx) error {
		p, q = ladder.Player{Name: "p"}, ladder.Player{Game: "snake", Name: "q"}
		if err := tx.SavePlayer(&p); err != nil {
			return err
		}
		if err := tx.SavePlayer(&q); err != nil {
			return err
		}
		for i, k := range []ladder.ChangeKind{ladder.ByVersion, ladder.ByBattle, ladder.ByReset, ladder.ByBattle} {
			for _, who := range []ladder.PlayerID{p.ID, q.ID} {
				if err := tx.AddRatingChange(ladder.RatingChange{Player: who, Kind: k, Seq: int64(i + 1), Battle: ladder.BattleID(i), After: openskill.Rating{Mu: float64(i)}}); err != nil {
					return err
				}
			}
		}
		a, _ := tx.NextSeq()
		b, _ := tx.NextSeq()
		if b != a+1 {
			return fmt.Errorf("NextSeq: %d then %d", a, b)
		}
		return tx.SetMeta("paused", "1")
	})
	update(t, s, func(tx ladder.Tx) error {
		cs, _ := tx.RatingChanges(p.ID, 0)
		if len(cs) != 4 || cs[0].Seq != 4 || cs[3].Kind != ladder.ByVersion {
			t.Errorf("changes newest first: %+v", cs)
		}
		if cs, _ := tx.RatingChanges(p.ID, 2); len(cs) != 2 || cs[1].Seq != 3 {
			t.Errorf("limit 2: %+v", cs)
		}
		if err := tx.DeleteRatingChanges("", ladder.ByBattle, ladder.ByVersion); err != nil {
			return err
		}
		if cs, _ := tx.RatingChanges(p.ID, 0); len(cs) != 1 || cs[0].Kind != ladder.ByReset {
			t.Errorf("after deleting battle and version changes of SquareBattle: %+v", cs)
		}
		if cs, _ := tx.RatingChanges(q.ID, 0); len(cs) != 4 {
			t.Errorf("snake's changes were deleted too: %+v", cs)
		}
		if v, _ := tx.Meta("paused"); v != "1" {
			t.Errorf("meta paused = %q", v)
		}
		if v, err := tx.Meta("never"); v != "" || err != nil {
			t.Errorf("meta never = %q, %v", v, err)
		}
		return tx.SetMeta("paused", "")
	})
}

func testRollback(t *testing.T, s ladder.Store) {
	defer s.Close()
	var seq int64
	update(t, s, func(tx ladder.Tx) error {
		var err error
		seq, err = tx.NextSeq()
		return err
	})
	boom := errors.New("boom")
	err := s.Update(context.Background(), func(tx ladder.Tx) error {
		p := ladder.Player{Name: "ghost"}
		if err := tx.SavePlayer(&p); err != nil {
			return err
		}
		if _, err := tx.NextSeq(); err != nil {
			return err
		}
		return boom
	})
	if !errors.Is(err, boom) {
		t.Fatalf("Update returned %v", err)
	}
	update(t, s, func(tx ladder.Tx) error {
		if _, err := tx.PlayerByName("", "ghost"); !errors.Is(err, ladder.ErrNotFound) {
			t.Errorf("a failed transaction's player was kept: %v", err)
		}
		next, _ := tx.NextSeq()
		if next != seq+1 {
			t.Errorf("a failed transaction's sequence number was kept: %d after %d", next, seq)
		}
		return nil
	})
}

// testSameTable plays one seeded ladder (simulated battles) on the store
// and on the memory store: the tables must be equal bit for bit, and
// equal again after Rerate.
func testSameTable(t *testing.T, s ladder.Store) {
	defer s.Close()
	run := func(store ladder.Store) []ladder.Standing {
		ctx := context.Background()
		clock := time.Date(2026, 11, 28, 0, 0, 0, 0, time.UTC)
		l, err := ladder.New(ladder.Options{Store: store, Games: []ladder.Game{{Teams: 4}}, Seed: 12,
			Now: func() time.Time { clock = clock.Add(time.Second); return clock }})
		if err != nil {
			t.Fatal(err)
		}
		strength := map[ladder.PlayerID]float64{}
		for i := range 12 {
			p, err := l.Enter(ctx, "", fmt.Sprintf("p%02d", i), "", fmt.Sprintf("P%d", i), []byte(fmt.Sprint(i)))
			if err != nil {
				t.Fatal(err)
			}
			strength[p.ID] = float64(i)
		}
		r := rand.New(rand.NewPCG(5, 6))
		for n := range 80 {
			b, err := l.Plan(ctx, "", nil)
			if err != nil {
				t.Fatal(err)
			}
			if _, err := l.Start(ctx, b.ID); err != nil {
				t.Fatal(err)
			}
			var o ladder.Outcome
			for _, seat := range b.Seats {
				o.Results = append(o.Results, tournament.TeamResult{Squares: int(strength[seat.Player] + 6*r.Float64()), Errors: r.IntN(2)})
			}
			if n%9 == 4 {
				if _, err := l.Fail(ctx, b.ID, "shutdown", true); err != nil {
					t.Fatal(err)
				}
				continue
			}
			if _, err := l.Finish(ctx, b.ID, o); err != nil {
				t.Fatal(err)
			}
			if n == 40 {
				l.Enter(ctx, "", "p03", "", "P3", []byte("v2"))
			}
		}
		live, _, err := l.Leaderboard(ctx, "", 0, 0)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := l.Rerate(ctx, ""); err != nil {
			t.Fatal(err)
		}
		again, _, _ := l.Leaderboard(ctx, "", 0, 0)
		if !slices.Equal(live, again) {
			t.Errorf("Rerate changed the table")
		}
		return live
	}
	got, want := run(s), run(ladder.NewMemory())
	if len(got) != len(want) {
		t.Fatalf("%d lines, the memory store %d", len(got), len(want))
	}
	for i := range got {
		g, w := got[i], want[i]
		g.LastBattle, w.LastBattle = g.LastBattle.UTC(), w.LastBattle.UTC()
		if g != w {
			t.Errorf("line %d: %+v\nthe memory store: %+v", i+1, g, w)
		}
	}
}
