package luabind

import (
	"testing"

	"github.com/squarebattle/squarebattle/engine"
)

// TestCensusSlicesMatchNext: the census walks gopher-lua's table slices
// directly; it must count exactly what walking the tables with Next counts, on tables with array parts, holes, deleted keys, string and
// non-string keys, cycles, metatables and closures.
func TestCensusSlicesMatchNext(t *testing.T) {
	if !tableLayoutOK {
		t.Fatal("gopher-lua's LTable layout changed: the census is on its slow path (see memory.go)")
	}
	cat := catalogOf(t, map[string]string{"hoard.lua": `return { name = "Hoard", run = function(self, team, view, row, col)
		self.n = (self.n or 0) + 1
		local t = {1, 2, 3, nil, 5, x = "abc", [2.5] = true, [self] = "me"}
		t[100] = "far"
		t.gone = 1
		t.gone = nil
		t[7] = nil
		t.cycle = t
		t.mt = setmetatable({}, {__index = t, name = "m" .. self.n})
		t.f = function() return t end
		self[self.n % 5] = t
		self["k" .. self.n % 7] = {row, col, "s" .. row}
		team_memory[row * 100 + col] = self.n
	end }`}, DefaultLimits())
	b, teams := battle(t, cat, []string{"hoard", "hoard"}, engine.Options{Size: 8, Wrap: true, Rounds: 20, Seed: 5})
	for range 12 {
		b.Step()
	}
	t.Cleanup(func() { censusSlices = true })
	for i, tm := range teams {
		censusSlices = true
		fast, _ := tm.census()
		censusSlices = false
		slow, _ := tm.census()
		t.Logf("team %d: %d bytes", i, fast)
		if fast != slow || fast < 10000 {
			t.Errorf("team %d: census over the slices %d bytes, through Next %d", i, fast, slow)
		}
	}
}
