package luabind

import (
	"testing"

	"github.com/squarebattle/squarebattle/engine"
)

// TestViewRefilled: a script that scribbles on, shrinks or grows the view
// table still sees its eight neighbours on its next call.
func TestViewRefilled(t *testing.T) {
	cat := catalogOf(t, map[string]string{"scribble.lua": `return { name = "Scribble", run = function(self, team, view)
		for d = 1, 8 do
			if type(view[d]) ~= "number" then error("view[" .. d .. "] is " .. type(view[d])) end
		end
		self.n = (self.n or 0) + 1
		local k = self.n % 4
		if k == 0 then for d = 1, 8 do view[d] = "x" end
		elseif k == 1 then for d = 1, 8 do table.remove(view) end
		elseif k == 2 then view[3] = nil view[8] = nil
		else view[9] = 1 view[20] = 2 end
	end }`}, DefaultLimits())
	b, _ := battle(t, cat, []string{"scribble", "scribble"}, engine.Options{Size: 6, Wrap: true, Rounds: 12, Seed: 2})
	s := b.Run()
	for i, tm := range s.Teams {
		if tm.Stats.Errors+tm.Stats.Timeouts != 0 {
			t.Errorf("team %d: %+v, problems %v", i, tm.Stats, s.FirstProblems)
		}
	}
}
