package luabind

import (
	"io/fs"
	"strings"
	"testing"

	"github.com/squarebattle/squarebattle/scripts"
)

// TestRulesAreNoPlayer: once a folder is loaded as a game, its rules.lua
// is in no list of players (All, Players) and Find refuses it by id in any
// case, while it keeps its class for the engine; a catalog rebuilt from
// the game's source agrees. Check's static pass finds no undefined global
// in the game's shipped players.
func TestRulesAreNoPlayer(t *testing.T) {
	for _, game := range []string{"paint", "snake", "orbs", "squarebattle-lua"} {
		folder, err := fs.Sub(scripts.FS, game)
		if err != nil {
			t.Fatal(err)
		}
		g, err := LoadGame(folder, "scripts/"+game, DefaultLimits())
		if err != nil {
			t.Fatalf("%s: %v", game, err)
		}
		cats := []*Catalog{g.Catalog}
		if again, err := LoadCatalogSource(g.Catalog.Source()); err == nil && g.Info.Protocol != SquareBattleProtocol {
			cats = append(cats, again)
		}
		for i, cat := range cats {
			for _, c := range cat.All {
				if c.ID == RulesID {
					t.Errorf("%s (catalog %d): All lists the rules", game, i)
				}
			}
			for _, c := range cat.Players() {
				if c.ID == RulesID {
					t.Errorf("%s (catalog %d): Players lists the rules", game, i)
				}
			}
			for _, name := range []string{"rules", "Rules"} {
				if _, err := cat.Find(name); err == nil || !strings.Contains(err.Error(), "is the game's rules, not a player") {
					t.Errorf("%s (catalog %d): Find(%q) = %v", game, i, name, err)
				}
			}
			if _, ok := cat.classID(RulesID); !ok {
				t.Errorf("%s (catalog %d): the rules lost their class", game, i)
			}
		}
		if _, err := g.Find("nobody"); err == nil || strings.Contains(err.Error(), "rules") {
			t.Errorf("%s: Find(nobody) = %v; the known players must not name the rules", game, err)
		}
		// check's static pass finds no undefined global in a shipped
		// player of the game.
		for _, p := range g.Players() {
			if u := g.Catalog.UndefinedGlobals(p); len(u) > 0 {
				t.Errorf("%s: %s reads undefined globals %v", game, p.File, u)
			}
		}
	}
}
