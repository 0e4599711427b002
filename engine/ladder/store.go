package ladder

import (
	"context"
	"errors"
)

// ErrNotFound is returned by a Tx for a key it does not hold.
var ErrNotFound = errors.New("ladder: not found")

// Store keeps the ladder. Implementations: NewMemory here, and
// engine/ladder/sqlite; laddertest runs the same tests against each.
type Store interface {
	// Update runs fn in one read-write transaction. Writers are
	// serialised; when fn returns an error nothing it wrote is kept.
	Update(ctx context.Context, fn func(Tx) error) error
	// View runs fn in a read-only transaction that sees one consistent
	// state.
	View(ctx context.Context, fn func(Tx) error) error
	Close() error
}

// BattleQuery selects battles. Zero fields select everything.
type BattleQuery struct {
	Game   *string  // only this game
	States []State  // only these states
	Player PlayerID // only battles this player sat in
	After  BattleID // only battles with a greater ID
	// BySeq orders by result sequence, oldest first (done battles only);
	// otherwise battles come newest first by ID.
	BySeq bool
	Limit int // at most this many; 0 for all
}

// Tx is one transaction's view of the store. Values are copies: changing
// one changes nothing until it is saved.
type Tx interface {
	// NextSeq returns the next number of the ladder's event sequence.
	NextSeq() (int64, error)
	// LastSeq returns the last number NextSeq gave (0 before the first),
	// without taking one: where the ladder stands now.
	LastSeq() (int64, error)

	Player(id PlayerID) (Player, error)
	PlayerByName(game, name string) (Player, error)
	// Players lists a game's players, retired ones too, by ID.
	Players(game string) ([]Player, error)
	// SavePlayer inserts p (ID 0: the store assigns one and sets it) or
	// updates it. A game's names are unique.
	SavePlayer(p *Player) error

	// SaveVersion inserts v and sets its ID.
	SaveVersion(v *Version) error
	// Versions lists a player's versions, oldest first.
	Versions(p PlayerID) ([]Version, error)
	// SaveSource keeps a source under its hash (again is a no-op).
	SaveSource(hash string, src []byte) error
	Source(hash string) ([]byte, error)

	// SaveBattle inserts b (ID 0: sets it) or updates it, seats included.
	SaveBattle(b *Battle) error
	Battle(id BattleID) (Battle, error)
	Battles(q BattleQuery) ([]Battle, error)

	AddRatingChange(c RatingChange) error
	// RatingChanges lists a player's changes, newest first; limit 0: all.
	RatingChanges(p PlayerID, limit int) ([]RatingChange, error)
	// RatingAt returns a player's last change numbered seq or less (the
	// newest of equal numbers): its After is the rating the player had
	// right after event seq. ErrNotFound when it had none by then.
	RatingAt(p PlayerID, seq int64) (RatingChange, error)
	// DeleteRatingChanges forgets the changes of the given kinds for the
	// players of a game (Rerate writes them again).
	DeleteRatingChanges(game string, kinds ...ChangeKind) error

	// Meta and SetMeta keep small settings (the ladder paused or not).
	Meta(key string) (string, error)
	SetMeta(key, value string) error
}
