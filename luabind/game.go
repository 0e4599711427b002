package luabind

import (
	"fmt"
	"io/fs"
	"math"
	"sort"
	"strconv"
	"strings"

	"github.com/squarebattle/squarebattle/engine"
)

// RulesFile is the file that makes a folder a game; RulesID is its class id.
const (
	RulesFile = "rules.lua"
	RulesID   = "rules"
)

// Game is a rule mod: a folder holding rules.lua and the game's players.
type Game struct {
	Dir     string // the folder, as named in messages
	Info    RulesInfo
	Catalog *Catalog // the folder's scripts, rules.lua included
	Rules   engine.ClassID
	Limits  Limits
	// options are the rules' options with the configured values applied
	// (SetOptions); set holds the ones configured.
	options map[string]any
	set     map[string]string
}

// SetOptions applies configured option values (the configuration's options
// section: name to text) over the defaults the rules declare. A name the
// rules do not declare, or a value of the wrong kind, is an error naming
// the key. Call it before the game's battles start, not while they run.
func (g *Game) SetOptions(values map[string]string) error {
	g.options = map[string]any{}
	for name, def := range g.Info.Options {
		g.options[name] = def
	}
	g.set = nil
	var names []string
	for name := range values {
		names = append(names, name)
	}
	sort.Strings(names)
	for _, name := range names {
		text := values[name]
		def, ok := g.Info.Options[name]
		if !ok {
			var known []string
			for k := range g.Info.Options {
				known = append(known, k)
			}
			sort.Strings(known)
			list := "it has none"
			if len(known) > 0 {
				list = "its options: " + strings.Join(known, ", ")
			}
			return fmt.Errorf("options.%s: %s has no option %s (%s)", name, g.Dir, name, list)
		}
		var v any
		var err error
		switch def.(type) {
		case float64:
			var f float64
			if f, err = strconv.ParseFloat(strings.TrimSpace(text), 64); err != nil || math.IsNaN(f) || math.IsInf(f, 0) {
				return fmt.Errorf("options.%s: must be a number (got %q)", name, text)
			}
			v = f
		case bool:
			var b bool
			if b, err = strconv.ParseBool(strings.TrimSpace(text)); err != nil {
				return fmt.Errorf("options.%s: must be true or false (got %q)", name, text)
			}
			v = b
		default:
			v = text
		}
		g.options[name] = v
		if g.set == nil {
			g.set = map[string]string{}
		}
		g.set[name] = text
	}
	return nil
}

// OptionsSet returns the options configured by SetOptions, as given.
func (g *Game) OptionsSet() map[string]string { return g.set }

// OptionValues are the values of every option the rules declare, the
// configured ones applied (an external bot's hello lists them): a new map.
func (g *Game) OptionValues() map[string]any {
	opts := g.options
	if opts == nil {
		opts = g.Info.Options
	}
	out := make(map[string]any, len(opts))
	for k, v := range opts {
		out[k] = v
	}
	return out
}

// LoadGame loads a game folder. A rules.lua that does not load is an error
// naming its file and line; broken players are kept in the catalog with
// their errors, as in SquareBattle.
func LoadGame(fsys fs.FS, dir string, limits Limits) (*Game, error) {
	cat, err := LoadCatalog(CatalogOptions{FS: fsys, Dir: dir, Limits: limits, Entry: "-"})
	if err != nil {
		return nil, err
	}
	g := &Game{Dir: dir, Catalog: cat, Limits: cat.limits}
	id, ok := cat.classID(RulesID)
	if !ok {
		for _, c := range cat.All {
			if c.ID == RulesID && c.Err != nil {
				return nil, c.Err
			}
		}
		return nil, fmt.Errorf("%s: no %s", dir, RulesFile)
	}
	cat.markRules(RulesID)
	g.Rules = id
	g.Info, err = readInfo(cat, id, g.Limits.Instructions)
	if err != nil {
		return nil, err
	}
	if g.Info.Protocol == SquareBattleProtocol {
		// The players are SquareBattle's, not the folder's.
		return g, nil
	}
	cat.requireEntry(g.Info.Entry, RulesID)
	g.Rules, _ = cat.classID(RulesID)
	return g, nil
}

// readInfo loads the rules once to read what they declare.
func readInfo(cat *Catalog, id engine.ClassID, budget int) (RulesInfo, error) {
	vm, err := loadRulesVM(cat, id, 0, 1, budget)
	if err != nil {
		return RulesInfo{}, err
	}
	defer vm.Close()
	r := &Rules{rulesVM: vm, cat: cat, rules: id}
	return r.Info()
}

// Players returns the game's starting players (rules.lua is not one).
func (g *Game) Players() []*Class { return g.Catalog.Players() }

// Find looks a player up among the game's players (Catalog.Find).
func (g *Game) Find(name string) (*Class, error) { return g.Catalog.Find(name) }

// ModBattle is a rule mod battle whose rules and players are Lua.
type ModBattle struct {
	*engine.ModBattle
	Teams []*Team // the in-process teams; empty when seated elsewhere
	Seats []Seat  // every team's seat, in-process or not
}

// NewModBattle fields players[i] as team i. o.Rules, o.Teams, o.Columns
// and o.Classes are filled in; rulesBudget bounds each call to the rules.
func NewModBattle(g *Game, players []*Class, o engine.ModOptions, rulesBudget int) (*ModBattle, error) {
	return NewWalledModBattle(g, players, o, rulesBudget, nil, nil)
}

// NewWalledModBattle is NewModBattle with each team's seat built by seat
// (a worker process; the seat must be an engine.Caller too) and the rules
// run by rs (in a worker process of their own); nil runs either in this
// process.
func NewWalledModBattle(g *Game, players []*Class, o engine.ModOptions, rulesBudget int, seat Seater, rs RulesSeater) (*ModBattle, error) {
	cat := g.Catalog
	names := make([]string, len(players))
	for i, p := range players {
		names[i] = p.DisplayName()
	}
	var teams []*Team
	seats := make([]Seat, 0, len(players))
	closeAll := func() {
		for _, s := range seats {
			s.Close()
		}
	}
	o.Teams = make([]engine.ModTeam, len(players))
	classes := cat.Classes()
	for i, p := range players {
		to := TeamOptions{Catalog: cat, Index: i, Seed: o.Seed, Size: o.Size, Teams: len(players), Killers: names, Entry: g.Info.Entry, Player: cat.ClassID(p)}
		var s Seat
		if seat != nil {
			var err error
			if s, err = seat(to); err != nil {
				closeAll()
				return nil, err
			}
		} else {
			tm := NewTeam(to)
			teams = append(teams, tm)
			s = tm
		}
		seats = append(seats, s)
		caller, ok := s.(engine.Caller)
		if !ok {
			closeAll()
			return nil, fmt.Errorf("team %d's seat cannot play a rule mod", i)
		}
		id, err := seatClass(cat, p, s, &classes)
		if err != nil {
			closeAll()
			return nil, err
		}
		player, outside := outsideOf(s, engine.Player{Class: id, Name: p.DisplayName(), Victory: p.Victory, Defeat: p.Defeat})
		o.Teams[i] = engine.ModTeam{Player: player, Caller: caller, Outside: outside}
	}
	spec := g.rulesSpec(o.Seed, len(players), rulesBudget)
	var rules engine.Rules
	var err error
	if rs != nil {
		rules, err = rs.ModRules(spec)
	} else {
		rules, err = LoadRules(spec)
	}
	if err != nil {
		closeAll()
		return nil, err
	}
	o.Rules = rules
	o.Columns = g.Info.Columns
	o.Classes = classes
	b, err := engine.NewModBattle(o)
	if err != nil {
		rules.Close()
		closeAll()
		return nil, err
	}
	return &ModBattle{ModBattle: b, Teams: teams, Seats: seats}, nil
}

// Close stops the battle and closes every team's seat.
func (b *ModBattle) Close() {
	b.ModBattle.Close()
	for _, s := range b.Seats {
		s.Close()
	}
}
