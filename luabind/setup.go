package luabind

import (
	"fmt"

	"github.com/squarebattle/squarebattle/engine"
)

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

// Seat is one team's controller as a battle holds it: a *Team in this
// process, or a proxy for a Team in a worker process (luabind/worker).
type Seat interface {
	engine.Controller
	Log() []string // what the team's scripts printed, most recent last
	// Printed is what was printed since a total, and the new total
	// (engine.Printer): run --log and replays follow the log with it.
	Printed(since int64) ([]string, int64)
	Close()
}

// OutsideSeat is a seat whose decisions come from outside the battle's
// inputs (a person at the keys): Outside names who decides
// (engine.OutsideHuman, ...). The engine records what such a team decides
// so that a re-run can feed it back (engine.TeamSetup.Outside); its Lua
// team may still serve it (a human's autopilot), unrecorded.
type OutsideSeat interface {
	Seat
	Outside() string
}

// outsideOf marks p as decided outside when s is an OutsideSeat.
func outsideOf(s Seat, p engine.Player) (engine.Player, bool) {
	o, ok := s.(OutsideSeat)
	if ok {
		p.Outside = o.Outside()
	}
	return p, ok
}

// OwnClassSeat is a seat whose team plays a class of its own, not one of
// the catalog's scripts: an external bot's (engine/bot). The battle's
// classes are the catalog's, then each such class once, in team order;
// Lua teams never see them (their classes() is the catalog's), so no Lua
// square can replicate into a bot's class.
type OwnClassSeat interface {
	Seat
	OwnClass() string
}

// seatClass is the class team p plays with seat s: p's in the catalog,
// or the seat's own, which is added to classes the first time.
func seatClass(cat *Catalog, p *Class, s Seat, classes *[]string) (engine.ClassID, error) {
	oc, ok := s.(OwnClassSeat)
	if !ok {
		return cat.ClassID(p), nil
	}
	id := oc.OwnClass()
	if _, script := cat.classID(id); script {
		return engine.NoClass, fmt.Errorf("class %q is both a script and a bot; rename one", id)
	}
	for i, c := range *classes {
		if c == id {
			return engine.ClassID(i), nil
		}
	}
	*classes = append(*classes, id)
	return engine.ClassID(len(*classes) - 1), nil
}

// Seater builds the seat of one team of a battle. The options are those
// NewTeam would be given.
type Seater func(TeamOptions) (Seat, error)

// Battle is an engine battle whose teams are played by Lua scripts. It owns
// the team VMs; Close releases them with the engine's workers.
type Battle struct {
	*engine.Battle
	Teams []*Team // the in-process teams; empty when seated elsewhere
	Seats []Seat  // every team's seat, in-process or not
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
	seats := make([]Seat, len(teams))
	for i, t := range teams {
		seats[i] = t
	}
	return &Battle{Battle: b, Teams: teams, Seats: seats}, nil
}

// NewSeatedBattle is NewBattle with each team's controller built by seat
// (a worker process, say) instead of an in-process Team; seat nil is
// NewBattle.
func NewSeatedBattle(cat *Catalog, players []*Class, o engine.Options, seat Seater) (*Battle, error) {
	if seat == nil {
		return NewBattle(cat, players, o)
	}
	return newSeatedBattle(cat, players, o, seat, nil)
}

// newSeatedBattle seats the teams with seat, then, when resolver is not
// nil, builds the rules with the battle's classes (the catalog's and the
// seats' own), then the battle.
func newSeatedBattle(cat *Catalog, players []*Class, o engine.Options, seat Seater, resolver func(classes []string) (engine.Resolver, error)) (*Battle, error) {
	names := make([]string, len(players))
	for i, p := range players {
		names[i] = p.DisplayName()
	}
	seats := make([]Seat, 0, len(players))
	closeAll := func() {
		for _, s := range seats {
			s.Close()
		}
	}
	o.Teams = make([]engine.TeamSetup, len(players))
	o.Classes = cat.Classes()
	for i, p := range players {
		s, err := seat(TeamOptions{Catalog: cat, Index: i, Seed: o.Seed, Size: o.Size, Teams: len(players), Killers: names})
		if err != nil {
			closeAll()
			return nil, err
		}
		seats = append(seats, s)
		class, err := seatClass(cat, p, s, &o.Classes)
		if err != nil {
			closeAll()
			return nil, err
		}
		player, outside := outsideOf(s, engine.Player{Class: class, Name: p.DisplayName(), Victory: p.Victory, Defeat: p.Defeat})
		o.Teams[i] = engine.TeamSetup{Player: player, Controller: s, Outside: outside}
	}
	if resolver != nil {
		r, err := resolver(o.Classes)
		if err != nil {
			closeAll()
			return nil, err
		}
		o.Resolver = r
	}
	b, err := engine.NewBattle(o)
	if err != nil {
		if o.Resolver != nil {
			o.Resolver.Close()
		}
		closeAll()
		return nil, err
	}
	return &Battle{Battle: b, Seats: seats}, nil
}

// Close stops the engine's workers and closes every team's seat.
func (b *Battle) Close() {
	b.Battle.Close()
	for _, s := range b.Seats {
		s.Close()
	}
}

// NewResolvedBattle is NewBattle with the rules of g, a rule mod of the
// SquareBattle protocol, in place of the built-in rules; budget bounds each
// call to them. With g nil it is NewBattle.
func NewResolvedBattle(cat *Catalog, players []*Class, o engine.Options, g *Game, budget int) (*Battle, error) {
	return NewResolvedSeatedBattle(cat, players, o, g, budget, nil)
}

// NewResolvedSeatedBattle is NewResolvedBattle with seats built by seat
// (see NewSeatedBattle). The rules of g still run in this process.
func NewResolvedSeatedBattle(cat *Catalog, players []*Class, o engine.Options, g *Game, budget int, seat Seater) (*Battle, error) {
	return NewWalledBattle(cat, players, o, g, budget, seat, nil)
}

// NewWalledBattle is NewResolvedSeatedBattle with the rules of g run by rs
// (in a worker process); rs nil runs them in this process.
func NewWalledBattle(cat *Catalog, players []*Class, o engine.Options, g *Game, budget int, seat Seater, rs RulesSeater) (*Battle, error) {
	if g == nil {
		return NewSeatedBattle(cat, players, o, seat)
	}
	resolver := func(classes []string) (engine.Resolver, error) {
		spec := g.rulesSpec(0, len(players), budget)
		spec.Resolver, spec.Classes, spec.Wrap, spec.Size = true, classes, o.Wrap, o.Size
		if rs != nil {
			return rs.Resolver(spec)
		}
		return LoadResolver(spec)
	}
	if seat == nil {
		r, err := resolver(cat.Classes())
		if err != nil {
			return nil, err
		}
		o.Resolver = r
		b, err := NewBattle(cat, players, o)
		if err != nil {
			r.Close()
			return nil, err
		}
		return b, nil
	}
	return newSeatedBattle(cat, players, o, seat, resolver)
}

// Logs returns what each team's scripts printed, most recent last: a copy,
// at most the last lines each seat keeps. Like every method of a battle, it
// is called between rounds, from the goroutine that steps the battle.
func (b *Battle) Logs() [][]string {
	out := make([][]string, len(b.Seats))
	for i, s := range b.Seats {
		out[i] = s.Log()
	}
	return out
}
