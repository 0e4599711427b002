package laddertest

import (
	"context"
	"math"
	"math/rand/v2"

	"github.com/squarebattle/squarebattle/engine/ladder"
	"github.com/squarebattle/squarebattle/engine/tournament"
)

// Sim plays ladder battles without playing Lua: a fake outcome generator
// for tests of what shows the ladder (tui, tui/ssh). Each seat's result
// is its player's strength plus noise, in squares for SquareBattle and in
// a rule mod's first score column for the others; a faulty player's
// battles end with errors of its own.
type Sim struct {
	Ladder   *ladder.Ladder
	Rand     *rand.Rand // nil: a fixed seed
	Strength map[ladder.PlayerID]float64
	Faulty   map[ladder.PlayerID]bool
	// Replay names the replay a battle is kept in (Outcome.Replay); nil
	// keeps none.
	Replay func(ladder.Battle) string
}

// Play plans, starts and finishes n battles of game and returns them
// done.
func (s *Sim) Play(ctx context.Context, game string, n int) ([]ladder.Battle, error) {
	if s.Rand == nil {
		s.Rand = rand.New(rand.NewPCG(1, 2))
	}
	var out []ladder.Battle
	for range n {
		b, err := s.Ladder.Plan(ctx, game, nil)
		if err != nil {
			return out, err
		}
		if b, err = s.Ladder.Start(ctx, b.ID); err != nil {
			return out, err
		}
		o := ladder.Outcome{Rounds: 100}
		if s.Replay != nil {
			o.Replay = s.Replay(b)
		}
		for _, seat := range b.Seats {
			perf := max(0, int(math.Round(10*(s.Strength[seat.Player]+4*s.Rand.NormFloat64()))))
			res := tournament.TeamResult{Squares: perf, Survived: 100}
			if game != "" {
				res = tournament.TeamResult{Values: []int{perf}, Survived: 100}
			}
			if s.Faulty[seat.Player] {
				res.Errors, res.Problem = 3, "p.lua:4: attempt to call a nil value (global 'move')"
			}
			o.Results = append(o.Results, res)
		}
		done, err := s.Ladder.Finish(ctx, b.ID, o)
		if err != nil {
			return out, err
		}
		out = append(out, done)
	}
	return out, nil
}
