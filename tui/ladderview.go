package tui

import (
	"context"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/squarebattle/squarebattle/engine/ladder"
)

// LadderViewOptions say what NewLadderView cannot learn from the ladder.
type LadderViewOptions struct {
	// Title names a game ("" is SquareBattle); nil, or "" from it, lets
	// the hall's source name it (a GameSource's game name), else its
	// folder name.
	Title func(game string) string
	// ReplayID is the arena's replay id of a ladder battle ("" none);
	// nil takes the base name of the battle's Replay without its
	// extensions ("replays/ladder-12.sbr" is "ladder-12").
	ReplayID func(ladder.Battle) string
}

// NewLadderView is the Ladder of l: the hall's view of it.
func NewLadderView(l *ladder.Ladder, o LadderViewOptions) Ladder {
	return &ladderView{l: l, o: o, boards: map[string]sharedBoard{}, now: time.Now}
}

// boardFresh is how long a game's table, read whole and sorted, serves
// every viewer of the view. The ladder sorts all of a game's players to
// rank any of them, so without it each page a viewer moves to, and each
// viewer's refresh, cost a read of the whole table: hundreds of viewers
// holding PgDn on a ladder of thousands of players kept the store busy.
// A table a second old is as good to look at.
const boardFresh = time.Second

// ladderView is safe for concurrent use: the hall's sessions share one.
type ladderView struct {
	l *ladder.Ladder
	o LadderViewOptions

	// mu guards boards and is held while one is read, so that viewers
	// asking at once wait for one read rather than each making its own.
	mu     sync.Mutex
	boards map[string]sharedBoard // by game
	now    func() time.Time
}

// sharedBoard is a game's whole table as read at a time.
type sharedBoard struct {
	at   time.Time
	rows []ladder.Standing
}

func (v *ladderView) Games() []LadderGame {
	var out []LadderGame
	for _, g := range v.l.Games() {
		title := ""
		if v.o.Title != nil {
			title = v.o.Title(g.Name)
		}
		out = append(out, LadderGame{Name: g.Name, Title: title})
	}
	return out
}

func (v *ladderView) Leaderboard(ctx context.Context, game string, offset, limit int) ([]ladder.Standing, int, error) {
	rows, err := v.board(ctx, game)
	if err != nil {
		return nil, 0, err
	}
	total := len(rows)
	offset = min(max(offset, 0), total)
	end := total
	if limit > 0 {
		end = min(offset+limit, total)
	}
	return slices.Clone(rows[offset:end]), total, nil
}

// board is game's whole table, read again once it is boardFresh old. Only
// the ladder's own games are kept, whatever a caller names.
func (v *ladderView) board(ctx context.Context, game string) ([]ladder.Standing, error) {
	if !slices.ContainsFunc(v.l.Games(), func(g ladder.Game) bool { return g.Name == game }) {
		rows, _, err := v.l.Leaderboard(ctx, game, 0, 0)
		return rows, err
	}
	v.mu.Lock()
	defer v.mu.Unlock()
	now := v.now()
	if b, ok := v.boards[game]; ok && now.Sub(b.at) < boardFresh && !now.Before(b.at) {
		return b.rows, nil
	}
	rows, _, err := v.l.Leaderboard(ctx, game, 0, 0)
	if err != nil {
		return nil, err
	}
	v.boards[game] = sharedBoard{at: now, rows: rows}
	return rows, nil
}

func (v *ladderView) Mine(ctx context.Context, owner string) ([]ladder.Standing, error) {
	return v.l.Owned(ctx, owner)
}

func (v *ladderView) Page(ctx context.Context, id ladder.PlayerID, limit int) (ladder.Page, error) {
	return v.l.History(ctx, id, limit)
}

func (v *ladderView) Find(ctx context.Context, game, name string) (ladder.Player, error) {
	return v.l.Find(ctx, game, name)
}

func (v *ladderView) Players(ctx context.Context, ids []ladder.PlayerID) (map[ladder.PlayerID]ladder.Player, error) {
	return v.l.PlayersByID(ctx, ids)
}

func (v *ladderView) Trends(ctx context.Context, ids []ladder.PlayerID, n int) (map[ladder.PlayerID][]float64, error) {
	return v.l.Trends(ctx, ids, n)
}

func (v *ladderView) RatingsAt(ctx context.Context, ids []ladder.PlayerID, seq int64) (map[ladder.PlayerID]float64, error) {
	return v.l.RatingsAt(ctx, ids, seq)
}

func (v *ladderView) Visit(ctx context.Context, viewer string) (ladder.Visit, error) {
	return v.l.Visit(ctx, viewer)
}

func (v *ladderView) ReplayID(b ladder.Battle) string {
	if v.o.ReplayID != nil {
		return v.o.ReplayID(b)
	}
	if b.Replay == "" {
		return ""
	}
	id, _, _ := strings.Cut(filepath.Base(b.Replay), ".")
	return id
}
