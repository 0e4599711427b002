package luabind

import (
	"testing"

	"github.com/squarebattle/squarebattle/engine"
)

// TestFirstProblemOfEachKind: a class whose first square errs every round
// and whose second then runs out of budget (two squares from the map) gets
// its first timeout
// reported, not only its errors (problems are reported sparingly, one a
// round after a class's first; the first of each kind now always is).
func TestFirstProblemOfEachKind(t *testing.T) {
	cat := catalogOf(t, map[string]string{
		"p.lua": `local last, n = -1, 0
return { name = "P", run = function(self, team, view, row, col)
  if round() ~= last then last, n = round(), 0 end
  n = n + 1
  if n == 1 then error("first square") end
  while true do end
end }`,
		"q.lua": `return { name = "Q", run = function() return WAIT end }`,
	}, DefaultLimits())
	for _, tc := range []struct{ rounds int }{{6}, {20}} {
		m := &engine.Map{Size: 8, Cells: make([]int, 64)}
		for i := range m.Cells {
			m.Cells[i] = engine.Empty
		}
		m.Cells[9], m.Cells[12], m.Cells[50] = 0, 0, 1 // two squares of P, one of Q
		b, _ := battle(t, cat, []string{"p", "q"}, engine.Options{Size: 8, Rounds: tc.rounds, Seed: 2, Map: m})
		for b.Step() {
		}
		s := b.Snapshot()
		kinds := map[engine.Fault]int{}
		for _, p := range s.FirstProblems {
			if p.Team == 0 {
				kinds[p.Kind]++
			}
		}
		t.Logf("%d rounds: team P %+v", tc.rounds, s.Teams[0].Stats)
		if s.Teams[0].Stats.Timeouts == 0 || s.Teams[0].Stats.Errors == 0 {
			t.Errorf("%d rounds: the team lost %d turns to timeouts and %d to errors; the test needs both", tc.rounds, s.Teams[0].Stats.Timeouts, s.Teams[0].Stats.Errors)
		}
		if kinds[engine.FaultError] == 0 || kinds[engine.FaultTimeout] == 0 {
			t.Errorf("%d rounds: first problems of team P by kind %v, want its first error and its first timeout", tc.rounds, kinds)
		}
	}
}
