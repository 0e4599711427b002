package luabind

import (
	"testing"
	"testing/fstest"

	"github.com/squarebattle/squarebattle/engine"
)

func catalogOf(t testing.TB, files map[string]string, lim Limits) *Catalog {
	t.Helper()
	fsys := fstest.MapFS{}
	for name, src := range files {
		fsys[name] = &fstest.MapFile{Data: []byte(src)}
	}
	cat, err := LoadCatalog(CatalogOptions{FS: fsys, Dir: "t", Limits: lim})
	if err != nil {
		t.Fatal(err)
	}
	return cat
}

func battle(t testing.TB, cat *Catalog, names []string, o engine.Options) (*engine.Battle, []*Team) {
	t.Helper()
	var players []*Class
	for _, n := range names {
		p, err := cat.Find(n)
		if err != nil {
			t.Fatal(err)
		}
		players = append(players, p)
	}
	b, err := NewBattle(cat, players, o)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(b.Close)
	return b.Battle, b.Teams
}

func TestSmoke(t *testing.T) {
	cat := catalogOf(t, map[string]string{
		"mover.lua": `return { name = "Mover", run = function(self, team, view, row, col)
			self.n = (self.n or 0) + 1
			local s = "x" .. self.n
			if self.n % 10 == 0 then return REPLICATE, E, nil, {n = 100} end
			return MOVE, math.random(1, 8)
		end }`,
		"sitter.lua": `return { name = "Sitter", run = function(self, team, view) for d = 1, 8 do if view[d] ~= -1 and view[d] ~= team then return ATTACK, d end end end }`,
	}, DefaultLimits())
	b, _ := battle(t, cat, []string{"mover", "sitter"}, engine.Options{Size: 20, Wrap: true, Rounds: 300, ReplicateRounds: 5, Seed: 3})
	s := b.Run()
	t.Logf("round %d winner %d teams %+v problems %v", s.Round, s.Winner, s.Teams, s.FirstProblems)
	if s.Teams[0].Stats.Births == 0 || s.Teams[0].Stats.Errors != 0 {
		t.Errorf("mover: %+v", s.Teams[0].Stats)
	}
}

// TestCloseTwice: closing a battle twice is harmless (a deferred Close
// after an explicit one is common).
func TestCloseTwice(t *testing.T) {
	cat := catalogOf(t, map[string]string{"p.lua": `return { name = "P", run = function() return WAIT end }`}, DefaultLimits())
	cls, err := cat.Find("p")
	if err != nil {
		t.Fatal(err)
	}
	b, err := NewBattle(cat, []*Class{cls, cls}, engine.Options{Size: 4, Rounds: 3, Seed: 1, Workers: 2})
	if err != nil {
		t.Fatal(err)
	}
	b.Run()
	b.Close()
	b.Close()
}
