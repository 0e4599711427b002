package ladder

import (
	"cmp"
	"context"
	"slices"
)

// Standing is one line of a leaderboard.
type Standing struct {
	Rank int // 1 for the top
	Player
	Probation bool
}

// Leaderboard returns a game's table, best first by μ − 3σ (then more
// battles, then the older player), from offset, at most limit lines (0:
// all), and how many lines the whole table has. Retired players are left
// out; players not yet rated come last.
func (l *Ladder) Leaderboard(ctx context.Context, game string, offset, limit int) ([]Standing, int, error) {
	var all []Player
	err := l.store.View(ctx, func(tx Tx) error {
		var err error
		all, err = tx.Players(game)
		return err
	})
	if err != nil {
		return nil, 0, err
	}
	all = slices.DeleteFunc(all, func(p Player) bool { return p.Retired || p.Version == 0 })
	slices.SortFunc(all, func(a, b Player) int {
		if c := cmp.Compare(b.Ordinal(), a.Ordinal()); c != 0 {
			return c
		}
		if c := cmp.Compare(b.Battles, a.Battles); c != 0 {
			return c
		}
		return cmp.Compare(a.ID, b.ID)
	})
	total := len(all)
	offset = min(max(offset, 0), total)
	end := total
	if limit > 0 {
		end = min(offset+limit, total)
	}
	out := make([]Standing, 0, end-offset)
	for i := offset; i < end; i++ {
		out = append(out, Standing{Rank: i + 1, Player: all[i], Probation: l.onProbation(all[i])})
	}
	return out, total, nil
}

// Page is what a player's page shows.
type Page struct {
	Standing
	Versions []Version      // oldest first
	Played   []Battle       // its most recent battles, newest first
	Changes  []RatingChange // newest first
}

// History returns a player's page: its place on the table, its versions,
// its most recent battles and rating changes (at most limit each; 0: all).
func (l *Ladder) History(ctx context.Context, id PlayerID, limit int) (Page, error) {
	var pg Page
	err := l.store.View(ctx, func(tx Tx) error {
		p, err := tx.Player(id)
		if err != nil {
			return err
		}
		pg.Player = p
		if pg.Versions, err = tx.Versions(id); err != nil {
			return err
		}
		if pg.Played, err = tx.Battles(BattleQuery{Player: id, States: []State{Done}, Limit: limit}); err != nil {
			return err
		}
		pg.Changes, err = tx.RatingChanges(id, limit)
		return err
	})
	if err != nil {
		return Page{}, err
	}
	pg.Probation = l.onProbation(pg.Player)
	board, _, err := l.Leaderboard(ctx, pg.Game, 0, 0)
	if err != nil {
		return Page{}, err
	}
	for _, s := range board {
		if s.ID == id {
			pg.Rank = s.Rank
		}
	}
	return pg, nil
}
