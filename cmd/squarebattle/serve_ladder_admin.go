package main

import (
	"context"
	"errors"
	"fmt"
	"io"

	"github.com/squarebattle/squarebattle/engine"
	"github.com/squarebattle/squarebattle/engine/ladder"
	"github.com/squarebattle/squarebattle/luabind/battle/ranked"
)

// admin runs `ssh HOST ladder-admin ...` (tui/ssh checked the caller is
// an admin and the arguments' shape).
func (al *arenaLadder) admin(ctx context.Context, args []string, out, errw io.Writer) int {
	fail := func(err error) int {
		fmt.Fprintf(errw, "squarebattle: %s\n", engine.SafeText(err.Error()))
		if errors.Is(err, ladder.ErrNotFound) || errors.Is(err, ladder.ErrUnknownGame) {
			return exitBadInput
		}
		return exitFailure
	}
	switch args[0] {
	case "pause", "resume":
		if err := al.l.Pause(ctx, args[0] == "pause"); err != nil {
			return fail(err)
		}
		if args[0] == "pause" {
			fmt.Fprintln(out, "ladder paused: no new battles are planned; those playing finish and count")
		} else {
			fmt.Fprintln(out, "ladder resumed")
		}
	case "reset":
		p, err := al.find(ctx, args[1])
		if err != nil {
			return fail(err)
		}
		if err := al.l.ResetRating(ctx, p.ID); err != nil {
			return fail(err)
		}
		after, err := al.l.Player(ctx, p.ID)
		if err != nil {
			return fail(err)
		}
		fmt.Fprintf(out, "%s of %s: rating %.2f ± %.2f reset to %.2f ± %.2f\n", engine.SafeText(p.Name), gameTitle(p.Game),
			p.Rating.Mu, p.Rating.Sigma, after.Rating.Mu, after.Rating.Sigma)
	case "rerate":
		games := al.games
		if len(args) == 2 {
			name := args[1]
			if name == squareBattleGame {
				name = ""
			}
			games = nil
			for _, g := range al.games {
				if g.Name == name {
					games = append(games, g)
				}
			}
			if games == nil {
				return fail(fmt.Errorf("%w: %q", ladder.ErrUnknownGame, args[1]))
			}
		}
		status := exitOK
		for _, g := range games {
			rd, err := ranked.Rederive(ctx, al.l, al.replays, g.Name)
			if err != nil {
				return fail(err)
			}
			n, err := al.l.Rerate(ctx, g.Name)
			if err != nil {
				return fail(err)
			}
			fmt.Fprintf(out, "%s: %d battles re-rated from the stored results; %d replays agree with them, %d pruned, %d differ, %d unreadable\n",
				gameTitle(g.Name), n, rd.Checked, rd.Pruned, len(rd.Differ), len(rd.Unreadable))
			for _, line := range append(rd.Differ, rd.Unreadable...) {
				fmt.Fprintf(errw, "  %s\n", engine.SafeText(line))
				status = exitFailure
			}
		}
		return status
	}
	return exitOK
}

// find is a player of any game by its name (a class id: explorer,
// alice.hunter).
func (al *arenaLadder) find(ctx context.Context, name string) (ladder.Player, error) {
	for _, g := range al.games {
		p, err := al.l.PlayerByName(ctx, g.Name, name)
		if err == nil {
			return p, nil
		}
		if !errors.Is(err, ladder.ErrNotFound) {
			return p, err
		}
	}
	return ladder.Player{}, fmt.Errorf("%w: no player %q on the ladder", ladder.ErrNotFound, name)
}
