package tournament

import (
	"errors"
	"fmt"
	"strings"

	"github.com/squarebattle/squarebattle/engine"
)

// Format is how players are brought together.
type Format string

// The formats; see the package documentation.
const (
	RoundRobin Format = "roundrobin"
	KOTH       Format = "koth"
	Solo       Format = "solo"
)

// Formats lists every format, in the order help texts show them.
var Formats = []Format{RoundRobin, KOTH, Solo}

// ErrBadParams is wrapped by every error about tournament parameters.
var ErrBadParams = errors.New("bad tournament parameters")

// ParamError names the parameter that is wrong.
type ParamError struct {
	Param  string
	Reason string
}

func (e *ParamError) Error() string { return e.Param + ": " + e.Reason }

// Unwrap lets callers test with errors.Is(err, ErrBadParams).
func (e *ParamError) Unwrap() error { return ErrBadParams }

// ParseFormat accepts a format name in any case ("round-robin" and "rr"
// too).
func ParseFormat(s string) (Format, error) {
	switch strings.ToLower(strings.ReplaceAll(s, "-", "")) {
	case "roundrobin", "rr":
		return RoundRobin, nil
	case "koth", "kingofthehill":
		return KOTH, nil
	case "solo":
		return Solo, nil
	}
	return "", &ParamError{"format", fmt.Sprintf("unknown format %q (use roundrobin, koth or solo)", s)}
}

// Player is one entrant. The same script may enter twice; entrants are
// told apart by their index in Params.Players.
type Player struct {
	ID   string `json:"id"`   // class id, the script's base name
	Name string `json:"name"` // display name
}

// Params fix a tournament: two runs (or shards) with equal Params play the
// same battles.
type Params struct {
	Format  Format   `json:"format"`
	Games   int      `json:"games"` // per pair (roundrobin), in all (koth), per player (solo)
	Seed    uint64   `json:"seed"`
	Players []Player `json:"players"`
	// Game is the rule mod played (the --game folder name); empty for
	// SquareBattle. Columns are its score columns, the first deciding the
	// winner: with them, teams are ranked by their score columns instead of
	// squares and survival (see Ranking).
	Game    string   `json:"game,omitempty"`
	Columns []string `json:"columns,omitempty"`
	// Setup is everything else that decides a battle's outcome (arena,
	// rules, limits, a hash of every script), as key and value. The
	// package does not read it; Merge insists it is equal in every file.
	Setup map[string]string `json:"setup,omitempty"`
}

// Check reports whether the parameters make a tournament.
func (p Params) Check() error {
	minPlayers := 2
	switch p.Format {
	case RoundRobin, KOTH:
	case Solo:
		minPlayers = 1
	default:
		return &ParamError{"format", fmt.Sprintf("unknown format %q", p.Format)}
	}
	if p.Games < 1 {
		return &ParamError{"games", fmt.Sprintf("must be at least 1 (got %d)", p.Games)}
	}
	if p.Game != "" && len(p.Columns) == 0 {
		return &ParamError{"columns", fmt.Sprintf("game %s has no score columns", p.Game)}
	}
	if len(p.Players) < minPlayers {
		return &ParamError{"players", fmt.Sprintf("%s needs at least %d players (got %d)", p.Format, minPlayers, len(p.Players))}
	}
	// The schedule is built whole (Schedule), from numbers that a results
	// file may state: it is held to its bounds before it is made, in
	// arithmetic that cannot overflow.
	if battles, seats, ok := p.size(); !ok || battles > MaxBattles || seats > MaxSeats {
		return &ParamError{"games", fmt.Sprintf("%d games of %d players make more than %d battles or %d seats in all (a tournament's bound)",
			p.Games, len(p.Players), MaxBattles, MaxSeats)}
	}
	return nil
}

// A tournament's schedule is held whole in memory, a Game and its seats
// for every battle: these bound it (a few hundred megabytes at most).
const (
	// MaxBattles bounds the battles of one tournament.
	MaxBattles = 1 << 20
	// MaxSeats bounds the seats of all its battles added up (every
	// battle seats one, two or every player).
	MaxSeats = 1 << 24
)

// size is how many battles and seats in all the schedule has, and false
// when either passes MaxSeats (so that nothing overflows on the way).
func (p Params) size() (battles, seats int, ok bool) {
	n, g := len(p.Players), p.Games
	if g < 1 || n < 1 || g > MaxSeats || n > MaxSeats {
		return 0, 0, false
	}
	perGame, seatsPer := 0, 0 // battles per game, seats per battle
	switch p.Format {
	case RoundRobin:
		if n > 1<<12 { // n(n-1) past MaxSeats
			return 0, 0, false
		}
		perGame, seatsPer = n*(n-1), 2
	case KOTH:
		perGame, seatsPer = 1, n
	case Solo:
		perGame, seatsPer = n, 1
	default:
		return 0, 0, false
	}
	if perGame > MaxSeats/g {
		return 0, 0, false
	}
	battles = perGame * g
	if seatsPer > MaxSeats/max(battles, 1) {
		return 0, 0, false
	}
	return battles, battles * seatsPer, true
}

// Game is one battle of the schedule.
type Game struct {
	Index int    `json:"index"` // position in the schedule
	Round int    `json:"round"` // k: the rating period, and in solo the seed players are compared on
	Seed  uint64 `json:"seed"`  // the battle seed
	Seats []int  `json:"seats"` // Seats[t] is the entrant (index into Params.Players) playing team t
}

// streamSchedule is the random stream of the tournament seed that battle
// seeds and seatings are drawn from.
const streamSchedule uint64 = 0x746f75726e // "tourn"

// Battles returns how many battles the schedule has, without building it.
func (p Params) Battles() int {
	n := len(p.Players)
	switch p.Format {
	case RoundRobin:
		return p.Games * n * (n - 1)
	case KOTH:
		return p.Games
	case Solo:
		return p.Games * n
	}
	return 0
}

// Schedule lists the battles in order. It is a pure function of the
// format, the number of games and players and the seed (Setup plays no
// part). The order is round by round: all of game k's battles come before
// any of game k+1's.
func (p Params) Schedule() []Game {
	rng := engine.NewRand(p.Seed, streamSchedule)
	seed := func() uint64 {
		s := rng.Uint64() & (1<<53 - 1) // a JSON number holds it exactly
		if s == 0 {
			s = 1
		}
		return s
	}
	n := len(p.Players)
	games := make([]Game, 0, p.Battles())
	add := func(k int, s uint64, seats ...int) {
		games = append(games, Game{Index: len(games), Round: k, Seed: s, Seats: seats})
	}
	switch p.Format {
	case RoundRobin:
		for k := 0; k < p.Games; k++ {
			for a := 0; a < n; a++ {
				for b := a + 1; b < n; b++ {
					s := seed()
					add(k, s, a, b)
					add(k, s, b, a)
				}
			}
		}
	case KOTH:
		base := make([]int, n)
		for i := range base {
			base[i] = i
		}
		for i := n - 1; i > 0; i-- { // Fisher–Yates
			j := rng.IntN(i + 1)
			base[i], base[j] = base[j], base[i]
		}
		for k := 0; k < p.Games; k++ {
			seats := make([]int, n)
			for t := range seats {
				seats[t] = base[(t+k)%n]
			}
			add(k, seed(), seats...)
		}
	case Solo:
		for k := 0; k < p.Games; k++ {
			s := seed()
			for e := 0; e < n; e++ {
				add(k, s, e)
			}
		}
	}
	return games
}

// group is the set of results ranked against each other: one battle, or
// in solo every battle of one round.
func (p Params) group(g Game) int {
	if p.Format == Solo {
		return g.Round
	}
	return g.Index
}
