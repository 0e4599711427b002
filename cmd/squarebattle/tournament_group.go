package main

import (
	"strconv"

	"github.com/squarebattle/squarebattle/config"
	"github.com/squarebattle/squarebattle/engine"
	"github.com/squarebattle/squarebattle/engine/tournament"
	"github.com/squarebattle/squarebattle/luabind"
	"github.com/squarebattle/squarebattle/luabind/battle"
	"github.com/squarebattle/squarebattle/luabind/worker"
)

// groupOf returns the worker groups a SquareBattle tournament of cfg plays
// in behind the wall, and how many battles it plays at once: isolation.lanes
// groups side by side (worker.Lanes), each playing isolation.team_slots
// battles at once (or the cores if more, over all lanes). One worker of a
// lane plays a player's teams of all that lane's battles, each in its own
// Lua state, and a round of them costs a request per worker rather than
// one per team (worker.Group). Without process isolation, or with
// team_slots 1, it returns nil: each team then has a worker of its own.
func groupOf(cfg config.Config) (*worker.Lanes, int, error) {
	slots, lanes := cfg.Isolation.TeamSlots, max(cfg.Isolation.Lanes, 1)
	if slots <= 1 {
		return nil, 0, nil
	}
	p, err := poolOf(cfg)
	if p == nil || err != nil {
		return nil, 0, err
	}
	return p.Lanes(lanes, slots, cfg.Limits.MemoryMiB), max(slots*lanes, battle.Workers(cfg)), nil
}

// playGrouped is playGame with every battle's teams seated in a lane of
// lanes: team t on a worker of its player (and of its place among the
// battle's teams of that player, so that two teams of one battle never
// share a worker).
func playGrouped(cat *luabind.Catalog, classes []*luabind.Class, o engine.Options, lanes *worker.Lanes, rec *gameRecorder) tournament.Play {
	return func(g tournament.Game) (tournament.Result, error) {
		lane := lanes.Join()
		defer lane.Leave()
		return playGame(cat, classes, o, lane.Seater(groupKeys(g)), rec, nil)(g)
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
