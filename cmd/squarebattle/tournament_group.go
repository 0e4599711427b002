package main

import (
	"strconv"

	"github.com/squarebattle/squarebattle/config"
	"github.com/squarebattle/squarebattle/engine"
	"github.com/squarebattle/squarebattle/engine/tournament"
	"github.com/squarebattle/squarebattle/luabind"
	"github.com/squarebattle/squarebattle/luabind/worker"
)

// groupOf returns the worker group a SquareBattle tournament of cfg plays
// in behind the wall, and how many battles it plays at once
// (isolation.team_slots, or the cores if more): one worker plays a
// player's teams of all those battles, each in its own Lua state, and a
// round of them costs a request per worker rather than one per team
// (worker.Group). Without process isolation, or with team_slots 1, it
// returns nil: each team then has a worker of its own.
func groupOf(cfg config.Config) (*worker.Group, int, error) {
	slots := cfg.Isolation.TeamSlots
	if slots <= 1 {
		return nil, 0, nil
	}
	p, err := poolOf(cfg)
	if p == nil || err != nil {
		return nil, 0, err
	}
	return p.Group(slots, cfg.Limits.MemoryMiB), max(slots, workers(cfg)), nil
}

// playGrouped is playGame with every battle's teams seated in grp: team t
// on a worker of its player (and of its place among the battle's teams of
// that player, so that two teams of one battle never share a worker).
func playGrouped(cat *luabind.Catalog, classes []*luabind.Class, o engine.Options, grp *worker.Group, rec *gameRecorder) tournament.Play {
	return func(g tournament.Game) (tournament.Result, error) {
		grp.Join()
		defer grp.Leave()
		return playGame(cat, classes, o, grp.Seater(groupKeys(g)), rec, nil)(g)
	}
}

// groupKeys names the worker of each team of a game: its player's index
// in the tournament and how many teams of the game that player has before.
func groupKeys(g tournament.Game) []string {
	keys := make([]string, len(g.Seats))
	seen := map[int]int{}
	for t, e := range g.Seats {
		keys[t] = strconv.Itoa(e) + "/" + strconv.Itoa(seen[e])
		seen[e]++
	}
	return keys
}
