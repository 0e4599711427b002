package ranked

import (
	"encoding/json"
	"fmt"

	"github.com/squarebattle/squarebattle/config"
	"github.com/squarebattle/squarebattle/engine/ladder"
	"github.com/squarebattle/squarebattle/luabind"
	"github.com/squarebattle/squarebattle/luabind/battle"
)

// Game is one game on the ladder and how its battles are played.
type Game struct {
	// Name is "" for SquareBattle, else the rule mod's folder name.
	Name string
	// Config is the configuration battles of the game play under: arena
	// size and round limit already those of its ladder.
	Config config.Config
	// Mod is the rule mod, loaded from its folder with its players; nil
	// for SquareBattle.
	Mod *luabind.Game
	// Teams is how many teams a battle seats.
	Teams int
}

// Ladder is how the ladder knows the game: its teams, its score columns,
// and the settings every battle planned for it copies.
func (g Game) Ladder() (ladder.Game, error) {
	lg := ladder.Game{Name: g.Name, Teams: g.Teams}
	if g.Mod != nil {
		lg.Columns = g.Mod.Info.Columns
	}
	rc := battle.RulesConfig{Arena: g.Config.Arena, Rules: g.Config.Rules, Limits: g.Config.Limits}
	if g.Mod != nil {
		rc.Options = g.Mod.OptionsSet()
	}
	rc.Rules.TimeLimit = 0 // a wall clock would make a battle depend on the machine
	data, err := json.Marshal(rc)
	if err != nil {
		return ladder.Game{}, err
	}
	lg.Config = string(data)
	return lg, nil
}

// configOf is the configuration battle b plays under: the game's, with the
// arena, rules and limits the battle was planned with.
func (g Game) configOf(b ladder.Battle) (config.Config, error) {
	cfg := g.Config
	if b.Config == "" {
		return cfg, nil
	}
	rc := battle.RulesConfig{Arena: cfg.Arena, Rules: cfg.Rules, Limits: cfg.Limits}
	if err := json.Unmarshal([]byte(b.Config), &rc); err != nil {
		return cfg, fmt.Errorf("battle %d: its settings: %w", b.ID, err)
	}
	cfg.Arena, cfg.Rules, cfg.Limits = rc.Arena, rc.Rules, rc.Limits
	if err := cfg.Validate(); err != nil {
		return cfg, fmt.Errorf("battle %d: its settings: %w", b.ID, err)
	}
	return cfg, nil
}
