package luabind

import (
	"errors"

	"github.com/squarebattle/squarebattle/engine"
)

// RulesSpec describes the rules of one battle completely enough to load
// them in another process: rules.lua of a game's catalog, the battle's seed
// and teams, the rules budget and the configured options. The catalog is
// rebuilt there from its Source.
type RulesSpec struct {
	Catalog *Catalog
	Rules   engine.ClassID // rules.lua's class in Catalog
	File    string         // rules.lua as messages name it
	Seed    uint64
	Teams   int
	Budget  int            // instructions per call (limits.rules_instructions)
	Options map[string]any // the options' values (float64, bool or string)
	// Of rules of the SquareBattle protocol (a Resolver): the players'
	// classes, whether the arena wraps, and its side.
	Resolver bool
	Classes  []string
	Wrap     bool
	Size     int
	// Extra are globals only a worker's tests add (TeamOptions.Extra).
	Extra []Global
}

// RulesSeater runs a battle's rules somewhere other than this process (a
// worker process, luabind/worker): the outer wall for rules.lua as a
// Seater is for the teams. The rules it returns answer exactly as LoadRules
// and LoadResolver would here.
type RulesSeater interface {
	ModRules(RulesSpec) (engine.Rules, error)
	Resolver(RulesSpec) (engine.Resolver, error)
}

// rulesSpec is the spec of a battle of g.
func (g *Game) rulesSpec(seed uint64, teams, budget int) RulesSpec {
	opts := g.options
	if opts == nil {
		opts = g.Info.Options // SetOptions was not called: the defaults
	}
	return RulesSpec{Catalog: g.Catalog, Rules: g.Rules, File: g.Catalog.Class(g.Rules).File,
		Seed: seed, Teams: teams, Budget: budget, Options: opts}
}

// LoadRules loads the rules of a rule mod as NewModBattle does.
func LoadRules(s RulesSpec) (*Rules, error) {
	if s.Catalog == nil {
		return nil, errors.New("rules: no catalog")
	}
	r, err := NewRules(s.Catalog, s.Rules, s.Seed, s.Teams, s.Budget, s.Extra...)
	if err != nil {
		return nil, err
	}
	// Read only from here on: battles of one game may start at once.
	r.options = s.Options
	return r, nil
}

// LoadResolver loads rules of the SquareBattle protocol as
// NewResolvedBattle does.
func LoadResolver(s RulesSpec) (*Resolver, error) {
	if s.Catalog == nil {
		return nil, errors.New("rules: no catalog")
	}
	r, err := NewResolver(s.Catalog, s.Rules, s.Classes, s.Wrap, s.Budget, s.Extra...)
	if err != nil {
		return nil, err
	}
	// Place tells the rules the arena's size and teams, but a battle that
	// starts from a map never calls it.
	r.size, r.teams = s.Size, s.Teams
	return r, nil
}

// BoardSize is the side of the board a battle of the game with this seed
// and number of teams is played on when no size is given (engine.ModSize):
// the one the rules' size function chooses. The rules run in this process,
// as readInfo runs them (they are the game's, trusted), under budget; it
// is 0 when the rules choose no size (RulesInfo.Sizes).
func (g *Game) BoardSize(seed uint64, teams, rounds int, wrap bool, budget int) (int, error) {
	if !g.Info.Sizes {
		return 0, nil
	}
	r, err := LoadRules(g.rulesSpec(seed, teams, budget))
	if err != nil {
		return 0, err
	}
	defer r.Close()
	return engine.ModSize(r, seed, teams, rounds, wrap)
}
