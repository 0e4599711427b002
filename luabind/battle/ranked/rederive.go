package ranked

import (
	"context"
	"fmt"
	"reflect"

	"github.com/squarebattle/squarebattle/engine/ladder"
	"github.com/squarebattle/squarebattle/engine/replay"
	"github.com/squarebattle/squarebattle/engine/tournament"
	"github.com/squarebattle/squarebattle/luabind/battle"
)

// Rederived says how the stored results of a game's battles compare with
// their replays.
type Rederived struct {
	Checked    int      // battles whose replay was read and agrees
	Pruned     int      // battles done whose replay is gone (nothing to check)
	Differ     []string // one line per battle whose replay says otherwise
	Unreadable []string
}

// Rederive reads the replay of every battle of game that is done and
// derives its result from the replay alone (the final round's board and
// statistics), then compares it with the stored result: places, squares,
// how long each team lasted, errors and timeouts, a rule mod's columns and
// winner. When nothing differs, the stored results are the replays', so
// Ladder.Rerate, which rates from the stored results, rates from the
// replays.
func Rederive(ctx context.Context, l *ladder.Ladder, reps *Replays, game string) (Rederived, error) {
	var out Rederived
	bs, err := l.Battles(ctx, ladder.BattleQuery{Game: &game, States: []ladder.State{ladder.Done}, BySeq: true})
	if err != nil {
		return out, err
	}
	var g ladder.Game
	for _, lg := range l.Games() {
		if lg.Name == game {
			g = lg
		}
	}
	for _, b := range bs {
		if b.Replay == "" {
			out.Pruned++
			continue
		}
		rep, err := replay.Open(reps.Path(b.ID))
		if err != nil || rep.Result == nil {
			out.Unreadable = append(out.Unreadable, fmt.Sprintf("%s: %v", ReplayID(b.ID), err))
			continue
		}
		final := rep.Timeline.At(rep.Timeline.Last())
		got := battle.ResultOf(final).Teams
		if why := differs(g, b, got); why != "" {
			out.Differ = append(out.Differ, fmt.Sprintf("%s: %s", ReplayID(b.ID), why))
			continue
		}
		out.Checked++
	}
	return out, nil
}

// differs says how results derived from a replay differ from battle b's.
func differs(g ladder.Game, b ladder.Battle, got []tournament.TeamResult) string {
	if len(got) != len(b.Seats) {
		return fmt.Sprintf("%d teams in the replay, %d seats", len(got), len(b.Seats))
	}
	places := ladder.Places(g, got)
	for i, s := range b.Seats {
		want, have := s.Result, got[i]
		want.Problem, have.Problem = "", "" // the replay may withhold messages
		if !reflect.DeepEqual(normal(want), normal(have)) {
			return fmt.Sprintf("team %d: stored %+v, replay %+v", i, want, have)
		}
		if places[i] != s.Place {
			return fmt.Sprintf("team %d: stored place %d, replay place %d", i, s.Place, places[i])
		}
	}
	return ""
}

// normal makes an empty Values nil, as a stored result may keep it.
func normal(r tournament.TeamResult) tournament.TeamResult {
	if len(r.Values) == 0 {
		r.Values = nil
	}
	return r
}
