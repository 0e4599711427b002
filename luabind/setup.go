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
