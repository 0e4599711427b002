package worker

import (
	"strings"
	"testing"

	"github.com/squarebattle/squarebattle/engine"
)

// TestTraceCrossesWall: a problem's traceback (engine.Problem.Trace) is the
// same whether the team runs in this process or behind the wall.
func TestTraceCrossesWall(t *testing.T) {
	cat := catalogOf(t, map[string]string{
		"spin.lua": `local function spin()
  while true do end
end
return { name = "Spin", run = function()
  spin()
end }`,
		"idle.lua": idle,
	})
	o := engine.Options{Size: 6, Rounds: 2, Seed: 1, Workers: 1}
	want := battle(t, cat, []string{"spin", "idle"}, o, nil).Run()
	if len(want.FirstProblems) == 0 || !strings.HasPrefix(want.FirstProblems[0].Trace, "scripts/spin.lua:2: in function 'spin'\n") {
		t.Fatalf("in process: %+v, want a traceback starting at spin's loop", want.FirstProblems)
	}
	p := testPool(t, Options{Size: 1})
	sameBattle(t, battle(t, cat, []string{"spin", "idle"}, o, p.Seat).Run(), want)
}
