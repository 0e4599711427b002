package main

import (
	"context"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/squarebattle/squarebattle/engine"
	"github.com/squarebattle/squarebattle/engine/ladder"
	"github.com/squarebattle/squarebattle/luabind/battle/ranked"
)

// `submit --wait`: after an upload is stored, the session stays to print
// each rated battle of the new version as it ends, then the rank it
// settled at.

// The rank has settled when it stayed the same over settleSame battles
// after at least settleMin; past settleMax battles or waitLimit the wait
// ends anyway.
const (
	settleMin  = 5
	settleSame = 3
	settleMax  = 40
	waitLimit  = 15 * time.Minute
)

// waitRated serves `submit --wait` for player (its class id).
func (al *arenaLadder) waitRated(ctx context.Context, player string, w io.Writer) int {
	if !al.a.cfg.Serve.Ladder.Enabled {
		fmt.Fprintln(w, "the ladder is not playing here (serve.ladder.enabled is false): nothing to wait for")
		return exitFailure
	}
	p, err := al.l.PlayerByName(ctx, "", player)
	if err != nil {
		fmt.Fprintf(w, "%s is not on the ladder: %v\n", player, err)
		return exitFailure
	}
	battles := make(chan ladder.Battle, 256)
	stop := al.onFinished(func(b ladder.Battle) {
		for _, s := range b.Seats {
			if s.Player == p.ID && s.Version == p.Version {
				select {
				case battles <- b:
				default: // a reader that fell that far behind sees the rank at the end
				}
			}
		}
	})
	defer stop()
	fmt.Fprintf(w, "waiting for the rated battles of %s (the ladder plays them in the background; ^C stops waiting, not the ladder)\n", engine.SafeText(player))
	limit := time.NewTimer(waitLimit)
	defer limit.Stop()
	n, same, last := 0, 0, 0
	for {
		select {
		case <-ctx.Done():
			return exitFailure
		case <-limit.C:
			fmt.Fprintf(w, "not settled after %s and %d battles; ssh HOST history %s shows what comes next\n", waitLimit, n, engine.SafeText(player))
			return exitOK
		case b := <-battles:
			if b.State != ladder.Done {
				fmt.Fprintf(w, "battle %s: not played (%s); it counts for nobody\n", ranked.ReplayID(b.ID), engine.SafeText(b.Error))
				continue
			}
			n++
			pg, err := al.l.History(ctx, p.ID, 1)
			if err != nil {
				fmt.Fprintf(w, "the ladder cannot be read: %v\n", err)
				return exitFailure
			}
			total, _ := al.tableSize(ctx, "")
			fmt.Fprintln(w, al.battleLine(ctx, b, p.ID, pg.Rank, total))
			if pg.Rank == last {
				same++
			} else {
				same = 0
			}
			last = pg.Rank
			if n >= settleMin && same >= settleSame || n >= settleMax {
				r := pg.Rating
				fmt.Fprintf(w, "settled: rank %d of %d after %d battles, rating %.2f (μ %.2f, σ %.2f)\n", pg.Rank, total, n, r.Ordinal(), r.Mu, r.Sigma)
				return exitOK
			}
		}
	}
}

// tableSize is how many players game's table lists.
func (al *arenaLadder) tableSize(ctx context.Context, game string) (int, error) {
	_, n, err := al.l.Leaderboard(ctx, game, 0, 1)
	return n, err
}

// battleLine says how battle b went for player me, in one line.
func (al *arenaLadder) battleLine(ctx context.Context, b ladder.Battle, me ladder.PlayerID, rank, total int) string {
	var mine ladder.Seat
	var others []string
	for _, s := range b.Seats {
		if s.Player == me {
			mine = s
			continue
		}
		name := fmt.Sprint(s.Player)
		if p, err := al.l.Player(ctx, s.Player); err == nil {
			name = p.Display
			if name == "" {
				name = p.Name
			}
		}
		others = append(others, engine.SafeText(name))
	}
	change := mine.After.Ordinal() - mine.Before.Ordinal()
	return fmt.Sprintf("battle %s: place %d of %d against %s; rating %.2f (%+.2f); rank %d of %d",
		ranked.ReplayID(b.ID), mine.Place, len(b.Seats), strings.Join(others, ", "), mine.After.Ordinal(), change, rank, total)
}
