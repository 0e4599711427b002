package ladder

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"
)

// What the arena shows of the ladder besides the table and a player's page
// (board.go): a player found by the name people type, the recent trend of
// players' ratings, their ratings as they stood at an earlier moment, a
// user's own players, and when a viewer last looked. Every query here
// reads only what it is asked about (the players of one page of the table,
// their last few changes), so a screen showing twenty lines of a table of
// thousands costs twenty lookups.

// ErrAmbiguous: a bare name that more than one user's upload has.
var ErrAmbiguous = errors.New("ladder: more than one player has that name")

// Ref is how people name the player: its name for a shipped player
// ("hunter"), owner/name for an upload ("alice/hunter", whether the
// ladder keeps the upload's name as "hunter", "alice.hunter" or
// "alice/hunter"). Find takes it back.
func (p Player) Ref() string {
	if p.Owner == "" {
		return p.Name
	}
	short := p.Name
	for _, sep := range []string{".", "/"} {
		if rest, ok := strings.CutPrefix(p.Name, p.Owner+sep); ok && rest != "" {
			short = rest
			break
		}
	}
	return p.Owner + "/" + short
}

// Find returns the player of game that name names: its name on the
// ladder, its Ref ("alice/hunter"; "alice.hunter" too), or an upload's
// bare name ("hunter") when no shipped player has it and exactly one
// user's upload does (several: ErrAmbiguous, naming them). Retired players
// are found too: their history stays. An unknown game is ErrUnknownGame,
// an unknown player ErrNotFound.
func (l *Ladder) Find(ctx context.Context, game, name string) (Player, error) {
	if _, err := l.game(game); err != nil {
		return Player{}, err
	}
	var out Player
	err := l.store.View(ctx, func(tx Tx) error {
		p, err := tx.PlayerByName(game, name)
		if err == nil {
			out = p
			return nil
		}
		if !errors.Is(err, ErrNotFound) {
			return err
		}
		all, err := tx.Players(game)
		if err != nil {
			return err
		}
		var hits []Player
		for _, p := range all {
			if p.Ref() == name || (p.Owner != "" && strings.Replace(p.Ref(), "/", ".", 1) == name) ||
				(p.Owner != "" && !strings.ContainsAny(name, "./") && strings.TrimPrefix(p.Ref(), p.Owner+"/") == name) {
				hits = append(hits, p)
			}
		}
		switch len(hits) {
		case 0:
			return fmt.Errorf("no player %q on the ladder of %s: %w", name, gameTitle(game), ErrNotFound)
		case 1:
			out = hits[0]
			return nil
		}
		var refs []string
		for _, p := range hits {
			refs = append(refs, p.Ref())
		}
		slices.Sort(refs)
		return fmt.Errorf("%w: %q is %s", ErrAmbiguous, name, strings.Join(refs, ", "))
	})
	return out, err
}

// gameTitle names a game in a message.
func gameTitle(game string) string {
	if game == "" {
		return "SquareBattle"
	}
	return strconv.Quote(game)
}

// PlayersByID returns the players with the given IDs; IDs the store does
// not hold are left out.
func (l *Ladder) PlayersByID(ctx context.Context, ids []PlayerID) (map[PlayerID]Player, error) {
	out := make(map[PlayerID]Player, len(ids))
	err := l.store.View(ctx, func(tx Tx) error {
		for _, id := range ids {
			if _, seen := out[id]; seen {
				continue
			}
			p, err := tx.Player(id)
			switch {
			case errors.Is(err, ErrNotFound):
			case err != nil:
				return err
			default:
				out[id] = p
			}
		}
		return nil
	})
	return out, err
}

// Trends returns the last n ratings of each player as ordinals (μ − 3σ),
// oldest first, ending with the rating it has now: the rating before the
// oldest of its last n−1 changes, then after each. A player with no
// change yet has none.
func (l *Ladder) Trends(ctx context.Context, ids []PlayerID, n int) (map[PlayerID][]float64, error) {
	out := make(map[PlayerID][]float64, len(ids))
	if n < 1 {
		return out, nil
	}
	err := l.store.View(ctx, func(tx Tx) error {
		for _, id := range ids {
			cs, err := tx.RatingChanges(id, n)
			if err != nil {
				return err
			}
			if len(cs) == 0 {
				continue
			}
			var line []float64
			if len(cs) < n {
				line = append(line, cs[len(cs)-1].Before.Ordinal())
			}
			for i := len(cs) - 1; i >= 0; i-- {
				line = append(line, cs[i].After.Ordinal())
			}
			out[id] = line[max(0, len(line)-n):]
		}
		return nil
	})
	return out, err
}

// RatingsAt returns the ordinal (μ − 3σ) each player had right after event
// seq of the ladder's sequence (Visit.Seq); players not yet on the ladder
// then are left out.
func (l *Ladder) RatingsAt(ctx context.Context, ids []PlayerID, seq int64) (map[PlayerID]float64, error) {
	out := make(map[PlayerID]float64, len(ids))
	err := l.store.View(ctx, func(tx Tx) error {
		for _, id := range ids {
			c, err := tx.RatingAt(id, seq)
			switch {
			case errors.Is(err, ErrNotFound):
			case err != nil:
				return err
			default:
				out[id] = c.After.Ordinal()
			}
		}
		return nil
	})
	return out, err
}

// Owned lists an owner's players on the table of every game, games in
// order (SquareBattle first), each line with its rank in its game.
func (l *Ladder) Owned(ctx context.Context, owner string) ([]Standing, error) {
	if owner == "" {
		return nil, nil
	}
	var out []Standing
	for _, g := range l.Games() {
		board, _, err := l.Leaderboard(ctx, g.Name, 0, 0)
		if err != nil {
			return nil, err
		}
		for _, s := range board {
			if s.Owner == owner {
				out = append(out, s)
			}
		}
	}
	return out, nil
}

// Visit is when a viewer last looked at the ladder: the ladder's sequence
// number then (RatingsAt takes it) and the time. The zero Visit is none.
type Visit struct {
	Seq int64
	At  time.Time
}

// visitPrefix is the Meta key of a viewer's last visit: "visit:" and the
// viewer (an SSH key's fingerprint). The value is "SEQ UNIXNANO": a few
// dozen bytes a viewer, whatever the size of the ladder, because the
// ratings of that moment are read back from the rating changes.
const visitPrefix = "visit:"

// maxViewer bounds a viewer's key (a fingerprint is 50 bytes).
const maxViewer = 128

// Visit records that viewer looks at the ladder now and returns their
// previous visit (the zero Visit for a first one). Read and write are one
// transaction, so two sessions of one viewer each get a visit before
// their own.
func (l *Ladder) Visit(ctx context.Context, viewer string) (Visit, error) {
	if viewer == "" || len(viewer) > maxViewer {
		return Visit{}, fmt.Errorf("ladder: a viewer's key must be 1 to %d bytes", maxViewer)
	}
	if err := checkText("viewer", viewer); err != nil {
		return Visit{}, err
	}
	var prev Visit
	err := l.store.Update(ctx, func(tx Tx) error {
		v, err := tx.Meta(visitPrefix + viewer)
		if err != nil {
			return err
		}
		prev = parseVisit(v)
		seq, err := tx.LastSeq()
		if err != nil {
			return err
		}
		return tx.SetMeta(visitPrefix+viewer, fmt.Sprintf("%d %d", seq, l.now().UnixNano()))
	})
	return prev, err
}

// parseVisit reads a visit's Meta value; what cannot be read is none.
func parseVisit(v string) Visit {
	s, at, ok := strings.Cut(v, " ")
	if !ok {
		return Visit{}
	}
	seq, err1 := strconv.ParseInt(s, 10, 64)
	ns, err2 := strconv.ParseInt(at, 10, 64)
	if err1 != nil || err2 != nil || seq < 0 {
		return Visit{}
	}
	return Visit{Seq: seq, At: time.Unix(0, ns).UTC()}
}
