package tui

import (
	"context"

	"github.com/squarebattle/squarebattle/engine/ladder"
)

// Ladder is what a session shows of the arena's ladder (engine/ladder):
// the menu's Ladder and My players, and the exec commands ladder and
// history of tui/ssh. A session gets it through SessionOptions.Ladder or
// the hall's HallOptions.Ladder (tui/ssh passes its Options.Ladder on);
// nil is an arena without a ladder, and then nothing of it shows.
//
// Every query reads only what one screen shows: a page of the table,
// the trends and earlier ratings of the players on it, one player's page,
// the names of its opponents. The UI goroutine calls it (with a context
// that ends with the session and a deadline), so it must be safe for
// concurrent use and quick. NewLadderView makes one of a *ladder.Ladder.
type Ladder interface {
	// Games lists the games on the ladder, SquareBattle ("") first.
	Games() []LadderGame
	// Leaderboard is ladder.Ladder's: a game's table from offset, at
	// most limit lines, and how many the table has.
	Leaderboard(ctx context.Context, game string, offset, limit int) ([]ladder.Standing, int, error)
	// Mine lists owner's players on the tables of every game.
	Mine(ctx context.Context, owner string) ([]ladder.Standing, error)
	// Page is a player's page, at most limit battles and changes.
	Page(ctx context.Context, id ladder.PlayerID, limit int) (ladder.Page, error)
	// Find is the player of game that people call name ("hunter",
	// "alice/hunter", an upload's bare name when only one user has it):
	// ladder.Ladder's Find.
	Find(ctx context.Context, game, name string) (ladder.Player, error)
	// Players are the players with these IDs (a page's opponents).
	Players(ctx context.Context, ids []ladder.PlayerID) (map[ladder.PlayerID]ladder.Player, error)
	// Trends are the last n ordinals (μ − 3σ) of each player, oldest
	// first, ending with the one it has now.
	Trends(ctx context.Context, ids []ladder.PlayerID, n int) (map[ladder.PlayerID][]float64, error)
	// RatingsAt are the players' ordinals as they stood at a visit
	// (Visit.Seq); players not on the ladder then are left out.
	RatingsAt(ctx context.Context, ids []ladder.PlayerID, seq int64) (map[ladder.PlayerID]float64, error)
	// Visit records that viewer (an SSH key's fingerprint) looks at the
	// ladder now and returns their previous visit (zero: the first).
	Visit(ctx context.Context, viewer string) (ladder.Visit, error)
	// ReplayID is the arena's replay id of a ladder battle (what
	// SessionOptions.OpenReplay, `get ID` and `replay ID` take); "" when
	// it has none (pruned).
	ReplayID(b ladder.Battle) string
}

// LadderGame is one game on the ladder.
type LadderGame struct {
	Name  string // "" SquareBattle, else the rule mod's folder name
	Title string // as shown; "" the hall's source names it
}

// Ladder is the hall's ladder (HallOptions.Ladder); nil without one.
func (h *Hall) Ladder() Ladder { return h.o.Ladder }

// ladder is the session's ladder: SessionOptions.Ladder, else the
// hall's; nil without one.
func (a *App) ladder() Ladder {
	if a.so.Ladder != nil {
		return a.so.Ladder
	}
	if a.hall != nil {
		return a.hall.Ladder()
	}
	return nil
}
