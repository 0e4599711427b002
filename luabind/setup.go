package luabind

import "github.com/squarebattle/squarebattle/engine"

// Teams builds one Lua controller per player, in order: team i plays
// players[i]. The caller closes the returned teams after the battle.
func Teams(cat *Catalog, players []*Class, seed uint64, size int) ([]engine.TeamSetup, []*Team) {
	names := make([]string, len(players))
	for i, p := range players {
		names[i] = p.DisplayName()
	}
	setups := make([]engine.TeamSetup, len(players))
	teams := make([]*Team, len(players))
	for i, p := range players {
		teams[i] = NewTeam(TeamOptions{Catalog: cat, Index: i, Seed: seed, Size: size, Teams: len(players), Killers: names})
		setups[i] = engine.TeamSetup{
			Player:     engine.Player{Class: cat.ClassID(p), Name: p.DisplayName(), Victory: p.Victory, Defeat: p.Defeat},
			Controller: teams[i],
		}
	}
	return setups, teams
}

// Battle is an engine battle whose teams are played by Lua scripts. It owns
// the team VMs; Close releases them with the engine's workers.
type Battle struct {
	*engine.Battle
	Teams []*Team
}

// NewBattle fields players[i] as team i and fills in o.Teams and o.Classes
// from the catalog.
func NewBattle(cat *Catalog, players []*Class, o engine.Options) (*Battle, error) {
	setups, teams := Teams(cat, players, o.Seed, o.Size)
	o.Teams = setups
	o.Classes = cat.Classes()
	b, err := engine.NewBattle(o)
	if err != nil {
		for _, t := range teams {
			t.Close()
		}
		return nil, err
	}
	return &Battle{Battle: b, Teams: teams}, nil
}

// Close stops the engine's workers and closes every team's Lua state.
func (b *Battle) Close() {
	b.Battle.Close()
	for _, t := range b.Teams {
		t.Close()
	}
}

// NewResolvedBattle is NewBattle with the rules of g, a rule mod of the
// SquareBattle protocol, in place of the built-in rules; budget bounds each
// call to them. With g nil it is NewBattle.
func NewResolvedBattle(cat *Catalog, players []*Class, o engine.Options, g *Game, budget int) (*Battle, error) {
	if g == nil {
		return NewBattle(cat, players, o)
	}
	r, err := NewResolver(g.Catalog, g.Rules, cat.Classes(), o.Wrap, budget)
	if err != nil {
		return nil, err
	}
	// Place tells the rules the arena's size and teams, but a battle that
	// starts from a map never calls it.
	r.size, r.teams = o.Size, len(players)
	o.Resolver = r
	b, err := NewBattle(cat, players, o)
	if err != nil {
		r.Close()
		return nil, err
	}
	return b, nil
}
