package tui

import (
	"errors"
	"fmt"
	"log/slog"
	"time"
)

// Hall errors. Each is returned as is or wrapped with the battle's ID.
var (
	// ErrNoBattle: no live battle has that ID (or the user may not watch it).
	ErrNoBattle = errors.New("no such battle")
	// ErrHallClosed: the hall was closed; nothing new starts.
	ErrHallClosed = errors.New("the hall is closed")
	// ErrOverCap: a private battle asked for more than the hall allows
	// (see CapError for which cap).
	ErrOverCap = errors.New("over the hall's cap")
)

// CapError says which cap a private battle's setup broke. It unwraps to
// ErrOverCap.
type CapError struct {
	What       string // "board size" or "round limit"
	Asked, Cap int
}

func (e *CapError) Error() string {
	return fmt.Sprintf("%s %d is over this server's cap of %d", e.What, e.Asked, e.Cap)
}

func (e *CapError) Unwrap() error { return ErrOverCap }

// FeaturedOptions describe the featured battle: the one the hall keeps
// running so that there is always something to watch.
type FeaturedOptions struct {
	// Game is the game played ("" SquareBattle, else a GameSource's ID).
	Game string
	// Players are the class ids of the teams; empty picks up to four
	// starting players from the source, by the battle's seed.
	Players []string
	// Size and Rounds of each featured battle; 0 takes Settings'.
	Size, Rounds int
	// Seed 0 draws a fresh seed for every featured battle; any other
	// value plays that seed every time (the same battle again).
	Seed uint64
	// Linger is how long a finished featured battle stays on show before
	// the next one starts; 0 means 10 s, a negative value none.
	Linger time.Duration
}

// HallOptions configure a Hall. The zero value of a cap means no cap.
type HallOptions struct {
	// Source builds every battle of the hall; a GameSource offers rule
	// mods too. The hall calls it from its own goroutines and from
	// sessions' goroutines, so it must be safe for concurrent use.
	Source Source
	// Settings are the pace (speed, rewind, frame cap of the drivers) and
	// the lobby's defaults for the hall's battles.
	Settings Settings
	Featured FeaturedOptions
	// MaxPrivate is how many private battles run at once (each costs
	// CPU); more wait in a queue, their position shown to their owners.
	// 0 means 2.
	MaxPrivate int
	// MaxSize and MaxRounds cap private battles' setups (0: no cap).
	MaxSize, MaxRounds int
	// ReplayDir, when set, receives every finished battle as a replay,
	// written atomically (temp + rename); "" saves none.
	ReplayDir string
	// NewSeed draws seeds (nil: math/rand); tests fix it.
	NewSeed func() uint64
	// Logger receives one line per battle event (start, end, saved,
	// stopped); nil discards them.
	Logger *slog.Logger
}

// BattleInfo describes one live battle as the battle list shows it. It is a
// copy: it does not change when the battle moves on.
type BattleInfo struct {
	ID            string // what `watch ID` takes
	Title         string // the players, "A vs B vs C"
	Owner         string // "" for the featured battle
	Shared        bool   // others may watch it
	Featured      bool
	Round, Rounds int
	Viewers       int // sessions watching it now, its owner included
	Players       []string
	Over          bool // it ended and is still on show
	Queued        bool // a private battle waiting for a free slot
}

// Hall holds the live battles many sessions can watch: the featured battle
// (always running; a new one starts when it ends) and the battles sessions
// started (private to their owner until shared). One driver goroutine per
// battle publishes immutable frames; it never waits for a viewer: each
// viewer has a mailbox of one frame that a newer frame replaces.
//
// Concurrency: every method is safe for concurrent use.
type Hall struct {
	o HallOptions
}

// NewHall starts a hall and its featured battle.
func NewHall(o HallOptions) (*Hall, error) {
	if o.Source == nil {
		return nil, errors.New("hall: no source")
	}
	return &Hall{o: o}, nil
}

// Close stops every battle, saves those that ended (and, when ReplayDir
// is set, the unfinished ones as unfinished replays), and waits for the
// hall's goroutines. Sessions watching see the battle stop; Close does
// not end them (their ctx does).
func (h *Hall) Close() error { return nil }

// Battles lists what user may watch: the featured battle, the shared
// ones, and user's own (queued ones included), the featured first and the
// rest by ID.
func (h *Hall) Battles(user string) []BattleInfo { return nil }

// Stop ends a live battle (an admin's order), saving it as Close does. It
// returns ErrNoBattle for an unknown ID. Stopping the featured battle
// starts the next one.
func (h *Hall) Stop(id string) error { return fmt.Errorf("%s: %w", id, ErrNoBattle) }
