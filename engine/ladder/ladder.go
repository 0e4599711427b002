package ladder

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/squarebattle/squarebattle/engine/openskill"
)

// Errors the ladder returns; wrap-tested with errors.Is.
var (
	// ErrTooFew: a game has fewer than two players who can play.
	ErrTooFew = errors.New("ladder: fewer than two players can play")
	// ErrUnknownGame: the game is not on the ladder.
	ErrUnknownGame = errors.New("ladder: game not on the ladder")
	// ErrPaused: the host paused the ladder.
	ErrPaused = errors.New("ladder: paused")
	// ErrState: a battle is not in a state that allows the step.
	ErrState = errors.New("ladder: battle in the wrong state")
)

// Game is one game's ladder: how its battles are set.
type Game struct {
	Name  string // "" for SquareBattle, else the rule mod's folder name
	Teams int    // teams per battle, 2 to openskill.MaxTeams
	// Columns are a rule mod's score columns, the first deciding the
	// winner (tournament.Params.Columns); none for SquareBattle, whose
	// teams place by squares, then by how long they lasted.
	Columns []string
	// Config is the battles' settings as the caller encodes them; it is
	// copied into every battle, so a battle replays as it was played.
	Config string
}

// Options configure a Ladder.
type Options struct {
	Store  Store
	Games  []Game
	Rating openskill.Options
	// Seed makes the ladder's draws reproducible: battle n's seed and
	// opponents come from a generator seeded with (Seed, n), so the same
	// Seed plans the same battles whatever process plans them and however
	// often it restarted. 0: the seed the database keeps (one is drawn at
	// random and kept the first time).
	Seed uint64
	// Rand, when not nil, is drawn from instead, one stream in plan
	// order within this process (tests that predate Seed).
	Rand *rand.Rand
	// Ahead is how many battles Settle keeps planned and not yet settled
	// (Settle, settle.go); 0: DefaultAhead. Two ladders with the same
	// Seed and Ahead play the same battles whoever plays them.
	Ahead int
	// Now is the clock; nil: time.Now.
	Now func() time.Time
	// Spread is how widely opponents are drawn around the player that
	// most needs a battle, in places of the rating order (a standard
	// deviation); 0: 3.
	Spread float64
	// MaxTries is how often a battle the server failed is played again
	// before it is given up; 0: 3.
	MaxTries int
	// Probation: a version whose own errors or timeouts spoiled more than
	// half of its last ProbationWindow battles (at least ProbationMin of
	// them played) is on probation and is picked ProbationSlowdown times
	// less often. Zeros: 10, 5, 4.
	ProbationWindow, ProbationMin, ProbationSlowdown int
}

// Ladder runs the ladder of one or more games over a Store.
type Ladder struct {
	store                     Store
	model                     *openskill.Model
	games                     map[string]Game
	now                       func() time.Time
	spread                    float64
	tries                     int
	window, probMin, slowdown int
	seed                      uint64
	ahead                     int

	mu   sync.Mutex // guards rand
	rand *rand.Rand
}

// New checks o and returns a Ladder.
func New(o Options) (*Ladder, error) {
	if o.Store == nil {
		return nil, errors.New("ladder: no store")
	}
	model, err := openskill.New(o.Rating)
	if err != nil {
		return nil, err
	}
	l := &Ladder{store: o.Store, model: model, games: map[string]Game{}, now: o.Now, seed: o.Seed, ahead: o.Ahead, rand: o.Rand,
		spread: o.Spread, tries: o.MaxTries, window: o.ProbationWindow, probMin: o.ProbationMin, slowdown: o.ProbationSlowdown}
	for _, g := range o.Games {
		if g.Teams < 2 || g.Teams > openskill.MaxTeams {
			return nil, fmt.Errorf("ladder: game %q: %d teams per battle, want 2 to %d", g.Name, g.Teams, openskill.MaxTeams)
		}
		if _, dup := l.games[g.Name]; dup {
			return nil, fmt.Errorf("ladder: game %q given twice", g.Name)
		}
		l.games[g.Name] = g
	}
	if l.now == nil {
		l.now = time.Now
	}
	if l.ahead <= 0 {
		l.ahead = DefaultAhead
	}
	if l.spread <= 0 {
		l.spread = 3
	}
	if l.tries <= 0 {
		l.tries = 3
	}
	if l.window <= 0 || l.window > 32 {
		l.window = 10
	}
	if l.probMin <= 0 {
		l.probMin = 5
	}
	if l.slowdown <= 0 {
		l.slowdown = 4
	}
	return l, nil
}

// Model is the rating model.
func (l *Ladder) Model() *openskill.Model { return l.model }

// Games lists the games on the ladder by name: SquareBattle ("") first.
func (l *Ladder) Games() []Game {
	out := make([]Game, 0, len(l.games))
	for _, g := range l.games {
		out = append(out, g)
	}
	slices.SortFunc(out, func(a, b Game) int { return strings.Compare(a.Name, b.Name) })
	return out
}

func (l *Ladder) game(name string) (Game, error) {
	g, ok := l.games[name]
	if !ok {
		return Game{}, fmt.Errorf("%w: %q", ErrUnknownGame, name)
	}
	return g, nil
}

// Hash is the key a source is kept under: hex SHA-256.
func Hash(src []byte) string {
	sum := sha256.Sum256(src)
	return hex.EncodeToString(sum[:])
}

// Enter puts a player on its game's ladder, or gives a player already on
// it a new version: the new source becomes the one that plays, the player
// keeps its μ and gets the start σ back (its battles so far stay in its
// history). A source equal to the current version's changes nothing.
// display and owner are updated either way; a retired player comes back.
// name and owner must be UTF-8 without NUL bytes; display is made so
// (text.go).
func (l *Ladder) Enter(ctx context.Context, game, name, owner, display string, src []byte) (Player, error) {
	if _, err := l.game(game); err != nil {
		return Player{}, err
	}
	for _, f := range []struct{ key, s string }{{"name", name}, {"owner", owner}} {
		if err := checkText(f.key, f.s); err != nil {
			return Player{}, err
		}
	}
	display = validText(display)
	hash := Hash(src)
	var out Player
	err := l.store.Update(ctx, func(tx Tx) error {
		p, err := tx.PlayerByName(game, name)
		switch {
		case errors.Is(err, ErrNotFound):
			p = Player{Game: game, Name: name, Rating: l.model.NewRating()}
		case err != nil:
			return err
		}
		p.Owner, p.Display, p.Retired = owner, display, false
		if p.Version != 0 {
			cur, err := l.version(tx, p)
			if err != nil {
				return err
			}
			if cur.Hash == hash {
				out = p
				return tx.SavePlayer(&p)
			}
		}
		if err := tx.SavePlayer(&p); err != nil { // a new player gets its ID
			return err
		}
		if err := tx.SaveSource(hash, src); err != nil {
			return err
		}
		seq, err := tx.NextSeq()
		if err != nil {
			return err
		}
		v := Version{Player: p.ID, Hash: hash, Created: l.now(), Seq: seq}
		if err := tx.SaveVersion(&v); err != nil {
			return err
		}
		before := p.Rating
		newVersion(&p, v.ID, l.model)
		if err := tx.AddRatingChange(RatingChange{Player: p.ID, Kind: ByVersion, Version: v.ID, Seq: seq, At: v.Created, Before: before, After: p.Rating}); err != nil {
			return err
		}
		out = p
		return tx.SavePlayer(&p)
	})
	return out, err
}

// newVersion makes v the player's current version: μ stays, σ starts
// again, the version's counters start from zero.
func newVersion(p *Player, v VersionID, m *openskill.Model) {
	p.Version = v
	p.Rating.Sigma = m.NewRating().Sigma
	p.SinceVersion, p.Recent, p.RecentN, p.Problem, p.Failed, p.Blamed = 0, 0, 0, "", 0, 0
}

// version is p's current version.
func (l *Ladder) version(tx Tx, p Player) (Version, error) {
	vs, err := tx.Versions(p.ID)
	if err != nil {
		return Version{}, err
	}
	for _, v := range vs {
		if v.ID == p.Version {
			return v, nil
		}
	}
	return Version{}, fmt.Errorf("version %d of player %d: %w", p.Version, p.ID, ErrNotFound)
}

// Retire takes a player off the ladder (its history stays).
func (l *Ladder) Retire(ctx context.Context, id PlayerID) error {
	return l.store.Update(ctx, func(tx Tx) error {
		p, err := tx.Player(id)
		if err != nil {
			return err
		}
		p.Retired = true
		return tx.SavePlayer(&p)
	})
}

// Paused reports whether the host paused the ladder.
func (l *Ladder) Paused(ctx context.Context) (bool, error) {
	var v string
	err := l.store.View(ctx, func(tx Tx) error {
		var err error
		v, err = tx.Meta("paused")
		return err
	})
	return v == "1", err
}

// Pause stops (true) or resumes (false) planning ladder battles; battles
// already planned still finish and count.
func (l *Ladder) Pause(ctx context.Context, paused bool) error {
	v := ""
	if paused {
		v = "1"
	}
	return l.store.Update(ctx, func(tx Tx) error { return tx.SetMeta("paused", v) })
}

// ResetRating puts a player back to the start rating (an admin's
// command); the reset is an event of the sequence, so Rerate repeats it.
func (l *Ladder) ResetRating(ctx context.Context, id PlayerID) error {
	return l.store.Update(ctx, func(tx Tx) error {
		p, err := tx.Player(id)
		if err != nil {
			return err
		}
		seq, err := tx.NextSeq()
		if err != nil {
			return err
		}
		before := p.Rating
		p.Rating = l.model.NewRating()
		if err := tx.AddRatingChange(RatingChange{Player: id, Kind: ByReset, Seq: seq, At: l.now(), Before: before, After: p.Rating}); err != nil {
			return err
		}
		return tx.SavePlayer(&p)
	})
}
