package tui

import (
	"context"
	"path/filepath"
	"strings"

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
	return &ladderView{l: l, o: o}
}

type ladderView struct {
	l *ladder.Ladder
	o LadderViewOptions
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
	return v.l.Leaderboard(ctx, game, offset, limit)
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
