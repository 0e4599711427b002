package ladder

import (
	"cmp"
	"context"
	"fmt"
	"slices"
	"time"

	"github.com/squarebattle/squarebattle/engine/openskill"
	"github.com/squarebattle/squarebattle/engine/tournament"
)

// Start hands a queued battle out to be played: it becomes Playing and
// counts a try. A battle still Playing (its player died with the server)
// may be started again.
func (l *Ladder) Start(ctx context.Context, id BattleID) (Battle, error) {
	var out Battle
	err := l.store.Update(ctx, func(tx Tx) error {
		b, err := tx.Battle(id)
		if err != nil {
			return err
		}
		if b.State != Queued && b.State != Playing {
			return fmt.Errorf("%w: start battle %d: it is %s", ErrState, id, b.State)
		}
		b.State, b.Started = Playing, l.now()
		b.Tries++
		out = b
		return tx.SaveBattle(&b)
	})
	return out, err
}

// Pending lists the battles planned or handed out and not finished, oldest
// first: after a restart they are played again.
func (l *Ladder) Pending(ctx context.Context) ([]Battle, error) {
	var out []Battle
	err := l.store.View(ctx, func(tx Tx) error {
		var err error
		out, err = tx.Battles(BattleQuery{States: []State{Queued, Playing}})
		return err
	})
	slices.Reverse(out)
	return out, err
}

// Outcome is how a played battle ended.
type Outcome struct {
	Rounds  int
	Results []tournament.TeamResult // one per seat, in seat order
	Replay  string                  // where the replay was kept
}

// Finish rates a played battle: places from the results, every seat's
// rating moved by one OpenSkill update, the battle Done. Finishing a
// battle that is already Done changes nothing and returns it, so a battle
// played twice (a worker thought dead came back) counts once.
func (l *Ladder) Finish(ctx context.Context, id BattleID, o Outcome) (Battle, error) {
	var out Battle
	err := l.store.Update(ctx, func(tx Tx) error {
		b, err := tx.Battle(id)
		if err != nil {
			return err
		}
		if b.State == Done {
			out = b
			return nil
		}
		if b.State != Playing && b.State != Queued {
			return fmt.Errorf("%w: finish battle %d: it is %s", ErrState, id, b.State)
		}
		if len(o.Results) != len(b.Seats) {
			return fmt.Errorf("ladder: battle %d has %d seats and %d results", id, len(b.Seats), len(o.Results))
		}
		for i := range b.Seats {
			b.Seats[i].Result = o.Results[i]
			b.Seats[i].Result.Problem = cleanText(o.Results[i].Problem)
		}
		b.Rounds, b.Replay = o.Rounds, o.Replay
		if err := l.rateTx(tx, &b, l.now()); err != nil {
			return err
		}
		out = b
		return nil
	})
	return out, err
}

// rateTx rates battle b, its seats' results set, as finished at the time
// given: places from the results, every seat's rating moved by one
// OpenSkill update, the battle Done with the next number of the sequence,
// all saved.
func (l *Ladder) rateTx(tx Tx, b *Battle, finished time.Time) error {
	g, err := l.game(b.Game)
	if err != nil {
		return err
	}
	results := make([]tournament.TeamResult, len(b.Seats))
	for i, s := range b.Seats {
		results[i] = s.Result
	}
	places := Places(g, results)
	for i := range b.Seats {
		b.Seats[i].Place = places[i]
	}
	seq, err := tx.NextSeq()
	if err != nil {
		return err
	}
	b.State, b.Seq, b.Finished = Done, seq, finished
	players := map[PlayerID]*Player{}
	for _, s := range b.Seats {
		p, err := tx.Player(s.Player)
		if err != nil {
			return err
		}
		players[p.ID] = &p
	}
	changes, err := l.rate(b, players)
	if err != nil {
		return err
	}
	for _, p := range players {
		if err := tx.SavePlayer(p); err != nil {
			return err
		}
	}
	for _, c := range changes {
		if err := tx.AddRatingChange(c); err != nil {
			return err
		}
	}
	return tx.SaveBattle(b)
}

// Fail ends a battle that was not played to its end. When the server is
// to blame (a shutdown, a worker the server's own memory limit killed),
// the battle goes back to the queue with the same seed and players, to be
// played again and counted once; after MaxTries it is given up. Otherwise
// (a setup the battle's own inputs make impossible) it is Failed. Either
// way it counts against nobody.
func (l *Ladder) Fail(ctx context.Context, id BattleID, reason string, serverFault bool) (Battle, error) {
	return l.fail(ctx, id, reason, func(b *Battle) error {
		if serverFault && b.Tries < l.tries {
			b.State = Queued
		} else {
			b.State, b.Finished = Failed, l.now()
		}
		return nil
	})
}

// fail ends battle id, unless it has ended already, with reason and what
// end does to it.
func (l *Ladder) fail(ctx context.Context, id BattleID, reason string, end func(*Battle) error) (Battle, error) {
	var out Battle
	err := l.store.Update(ctx, func(tx Tx) error {
		b, err := tx.Battle(id)
		if err != nil {
			return err
		}
		if b.State == Done || b.State == Failed {
			out = b
			return nil
		}
		b.Error = cleanText(reason)
		if err := end(&b); err != nil {
			return err
		}
		out = b
		return tx.SaveBattle(&b)
	})
	return out, err
}

// FailSeat ends a battle that could not be played for the inputs of one
// of its seats (a player's version that will not load, or that changed
// since the battle was planned): it is Failed, rated for nobody, and when
// Settle passes it only that seat's player counts it (Player.Failed and
// Blamed), not the others it was drawn with.
func (l *Ladder) FailSeat(ctx context.Context, id BattleID, seat int, reason string) (Battle, error) {
	return l.fail(ctx, id, reason, func(b *Battle) error {
		if seat < 0 || seat >= len(b.Seats) {
			return fmt.Errorf("ladder: battle %d has no seat %d", id, seat)
		}
		b.State, b.Finished = Failed, l.now()
		b.Seats[seat].Blamed = true
		return nil
	})
}

// Places ranks a battle's teams: 1 + the number of teams that did
// strictly better, so equal results share a place ("1, 2, 2, 4"). A
// SquareBattle team does better by having more squares at the end, then
// by lasting longer; a rule mod's by being the declared winner, then by
// its score columns in order.
func Places(g Game, results []tournament.TeamResult) []int {
	params := tournament.Params{Columns: g.Columns}
	places := make([]int, len(results))
	for i := range results {
		places[i] = 1
		for j := range results {
			if j != i && params.Compare(results[j], results[i]) == 1 {
				places[i]++
			}
		}
	}
	return places
}

// rate applies one done battle (places and results set) to its players
// (current values in players, updated in place) and returns the rating
// changes. A seat whose version is no longer its player's current one is
// not rated (its rating belongs to the new version now) but still counts
// for the others, with its player's rating as the estimate of its
// strength.
func (l *Ladder) rate(b *Battle, players map[PlayerID]*Player) ([]RatingChange, error) {
	teams := make([][]openskill.Rating, len(b.Seats))
	places := make([]int, len(b.Seats))
	for i, s := range b.Seats {
		p := players[s.Player]
		if p == nil {
			return nil, fmt.Errorf("ladder: battle %d: player %d: %w", b.ID, s.Player, ErrNotFound)
		}
		teams[i] = []openskill.Rating{p.Rating}
		places[i] = s.Place
	}
	rated, err := l.model.Rate(teams, places)
	if err != nil {
		return nil, fmt.Errorf("ladder: battle %d: %w", b.ID, err)
	}
	var changes []RatingChange
	seen := map[PlayerID]bool{}
	for i := range b.Seats {
		s := &b.Seats[i]
		p := players[s.Player]
		s.Before, s.After = p.Rating, p.Rating
		s.Rated = p.Version == s.Version && !seen[p.ID]
		if !s.Rated {
			continue
		}
		seen[p.ID] = true // a player seated twice is rated once
		s.After = rated[i][0]
		p.Rating = s.After
		p.Battles++
		p.SinceVersion++
		p.Failed, p.Blamed = 0, 0
		if s.Place == 1 {
			p.Wins++
		}
		p.LastBattle = b.Finished
		bad := s.Result.Errors+s.Result.Timeouts > 0
		wasOn := l.onProbation(*p)
		p.Recent <<= 1
		if bad {
			p.Recent |= 1
		}
		p.RecentN = min(p.RecentN+1, 32)
		if !wasOn && l.onProbation(*p) {
			p.Problem = s.Result.Problem
		} else if !l.onProbation(*p) {
			p.Problem = ""
		}
		changes = append(changes, RatingChange{Player: p.ID, Kind: ByBattle, Battle: b.ID, Seq: b.Seq, At: b.Finished, Before: s.Before, After: s.After})
	}
	return changes, nil
}

// Rerate computes a game's whole table again from what is stored: every
// player back to the start rating, then every event of the sequence in
// order — new versions, the host's resets, rated battles (with the places
// stored). The result equals the live table: Finish and Rerate share one
// rating step. It returns how many battles it rated.
func (l *Ladder) Rerate(ctx context.Context, game string) (int, error) {
	if _, err := l.game(game); err != nil {
		return 0, err
	}
	n := 0
	err := l.store.Update(ctx, func(tx Tx) error {
		list, err := tx.Players(game)
		if err != nil {
			return err
		}
		type event struct {
			seq     int64
			version *Version
			reset   *RatingChange
			battle  *Battle
		}
		var events []event
		players := map[PlayerID]*Player{}
		type failedOf struct {
			version   VersionID
			n, blamed int
		}
		failed := map[PlayerID]failedOf{}
		for i := range list {
			p := &list[i]
			players[p.ID] = p
			failed[p.ID] = failedOf{p.Version, p.Failed, p.Blamed}
			vs, err := tx.Versions(p.ID)
			if err != nil {
				return err
			}
			for j := range vs {
				events = append(events, event{seq: vs[j].Seq, version: &vs[j]})
			}
			cs, err := tx.RatingChanges(p.ID, 0)
			if err != nil {
				return err
			}
			for j := range cs {
				if cs[j].Kind == ByReset {
					events = append(events, event{seq: cs[j].Seq, reset: &cs[j]})
				}
			}
			*p = Player{ID: p.ID, Game: p.Game, Name: p.Name, Owner: p.Owner, Display: p.Display, Retired: p.Retired, Rating: l.model.NewRating()}
		}
		battles, err := tx.Battles(BattleQuery{Game: &game, BySeq: true})
		if err != nil {
			return err
		}
		for i := range battles {
			events = append(events, event{seq: battles[i].Seq, battle: &battles[i]})
		}
		slices.SortStableFunc(events, func(a, b event) int { return cmp.Compare(a.seq, b.seq) })
		if err := tx.DeleteRatingChanges(game, ByBattle, ByVersion, ByReset); err != nil {
			return err
		}
		for _, e := range events {
			var changes []RatingChange
			switch {
			case e.version != nil:
				p := players[e.version.Player]
				before := p.Rating
				newVersion(p, e.version.ID, l.model)
				changes = append(changes, RatingChange{Player: p.ID, Kind: ByVersion, Version: e.version.ID, Seq: e.seq, At: e.version.Created, Before: before, After: p.Rating})
			case e.reset != nil:
				p := players[e.reset.Player]
				before := p.Rating
				p.Rating = l.model.NewRating()
				changes = append(changes, RatingChange{Player: p.ID, Kind: ByReset, Seq: e.seq, At: e.reset.At, Before: before, After: p.Rating})
			default:
				for _, s := range e.battle.Seats {
					if players[s.Player] == nil {
						return fmt.Errorf("ladder: battle %d seats player %d of another game: %w", e.battle.ID, s.Player, ErrNotFound)
					}
				}
				changes, err = l.rate(e.battle, players)
				if err != nil {
					return err
				}
				if err := tx.SaveBattle(e.battle); err != nil {
					return err
				}
				n++
			}
			for _, c := range changes {
				if err := tx.AddRatingChange(c); err != nil {
					return err
				}
			}
		}
		for _, p := range list {
			// Failed is matchmaking's, not an event of the sequence:
			// the current version keeps the count it had.
			if was, ok := failed[p.ID]; ok && was.version == p.Version {
				p.Failed, p.Blamed = was.n, was.blamed
			}
			if err := tx.SavePlayer(&p); err != nil {
				return err
			}
		}
		return nil
	})
	return n, err
}
