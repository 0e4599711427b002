package battle

import (
	"strings"

	"github.com/squarebattle/squarebattle/engine"
	"github.com/squarebattle/squarebattle/engine/tournament"
)

// ResultOf turns a finished battle's snapshot into its tournament result.
// A rule mod's teams also carry their score columns and whether they won;
// their squares are the cells showing one of their units, and they all
// lasted every round played.
func ResultOf(s *engine.Snapshot) tournament.Result {
	r := tournament.Result{Rounds: s.Round, Teams: make([]tournament.TeamResult, len(s.Teams))}
	for t, tv := range s.Teams {
		st := tv.Stats
		tr := tournament.TeamResult{Squares: st.Squares, Survived: s.Round, Births: st.Births, Kills: st.Kills,
			Deaths: st.Deaths, Collisions: st.Collisions, Timeouts: st.Timeouts, Errors: st.Errors}
		if tv.Eliminated > 0 {
			tr.Survived = tv.Eliminated
		}
		for _, p := range s.FirstProblems {
			if p.Team == t {
				tr.Problem = strings.TrimSpace(p.Message)
				break
			}
		}
		if s.Columns != nil { // a rule mod
			tr.Values, tr.Won = append([]int{}, tv.Values...), s.Winner == t
		}
		r.Teams[t] = tr
	}
	return r
}
