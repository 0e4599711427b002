package engine

import (
	"errors"
	"fmt"
)

// A Resolver replaces the built-in SquareBattle rules while keeping its
// players: squares, views, intents, replication and the eliminated hooks
// stay the engine's, and the resolver decides where the starting squares
// go, what a round's intents do and when the battle ends. It is how a
// rules script re-implements SquareBattle (scripts/squarebattle-lua), and
// the built-in stages are the reference it is tested against.
//
// The engine checks what a resolver answers (cells in range, deaths of
// squares that live, no two survivors on one cell) and stops the battle
// with a RulesError rather than corrupt it.
type Resolver interface {
	// Place returns the starting cell of each team's first square.
	// placement is the battle's placement stream.
	Place(size, teams int, placement *Rand) ([]int, error)
	// Resolve decides a round. acts lists every live square in ascending
	// id; children born this round get ids from nextID up, in the order
	// of out.Births. killers is the battle's killer stream. out's lists
	// come empty but may keep last round's capacity: a resolver appends
	// to them (or replaces them) and keeps none of them past the call.
	Resolve(round int, acts []Act, nextID SquareID, killers *Rand, out *Outcome) error
	// Over reports whether the battle ends after this round, given every
	// team's squares.
	Over(round, rounds int, squares []int) (bool, error)
	Close()
}

// Act is one live square and what it does this round, already checked by
// the engine: faults, busy squares and actions beyond a wall are waits.
type Act struct {
	Square SquareID
	Team   int
	Cell   int
	Action Action
	Target int     // the cell aimed at, -1 for a wait
	Child  ClassID // the class a replication creates
}

// Outcome is a resolver's decision for a round.
type Outcome struct {
	Dest   []int // the cell each act's square ends the round on
	Births []BirthOrder
	Deaths []DeathOrder // in the order they happen (eliminated hooks run in it)
}

// BirthOrder creates a square: Parent replicates into Cell.
type BirthOrder struct {
	Parent SquareID
	Cell   int
	Class  ClassID
}

// DeathOrder kills a square, crediting Killer.
type DeathOrder struct {
	Square    SquareID
	Killer    int
	Collision bool // died in a shared cell rather than an attacked one
	Own       bool // the shared cell held a square of its own team
}

// Err is the rules failure that ended the battle, if any.
func (b *Battle) Err() error { return b.err }

func (b *Battle) rulesFailed(err error) {
	b.err = &RulesError{Round: b.round, Err: err}
	b.problems.add(Problem{Round: b.round, Team: -1, Class: NoClass, Square: -1, Kind: FaultError, Message: b.err.Error()})
	b.over = true
}

// placeWith puts the starting squares where the resolver says.
func (b *Battle) placeWith(r Resolver) error {
	cells, err := r.Place(b.size, len(b.teams), NewRand(b.opts.Seed, StreamPlacement))
	if err != nil {
		return &RulesError{Err: err}
	}
	if len(cells) != len(b.teams) {
		return &RulesError{Err: fmt.Errorf("placed %d squares for %d teams", len(cells), len(b.teams))}
	}
	used := map[int]bool{}
	for t, c := range cells {
		if c < 0 || c >= len(b.grid) || used[c] {
			return &RulesError{Err: fmt.Errorf("team %d placed on cell %d, which is off the arena or taken", t, c)}
		}
		used[c] = true
		b.spawn(t, b.opts.Teams[t].Player.Class, int32(c), 0)
	}
	return nil
}

// resolveWith is resolve through the resolver: the engine applies the
// intents' checks, asks the resolver, then applies its outcome.
func (b *Battle) resolveWith(r Resolver) error {
	for t := range b.teams {
		s := &b.teams[t].settlement
		s.Births = s.Births[:0]
		s.Deaths = s.Deaths[:0]
		s.Report.reset()
	}
	acts := b.acts[:0]
	for _, id := range b.live {
		sq := &b.squares[id]
		sq.dest, sq.next, sq.dying = sq.cell, -1, false
		a := Act{Square: id, Team: int(sq.team), Cell: int(sq.cell), Action: Wait, Target: -1, Child: NoClass}
		if sq.turn >= 0 {
			b.checkIntent(id, sq, &a)
		}
		acts = append(acts, a)
	}
	b.acts = acts
	out := &b.outcome
	out.Dest, out.Births, out.Deaths = out.Dest[:0], out.Births[:0], out.Deaths[:0]
	if err := r.Resolve(b.round, acts, SquareID(len(b.squares)), b.killers, out); err != nil {
		return err
	}
	if len(out.Dest) != len(acts) {
		return fmt.Errorf("%d destinations for %d squares", len(out.Dest), len(acts))
	}
	for i, a := range acts {
		d := out.Dest[i]
		if d != a.Cell && (a.Action != Move || d != a.Target) {
			return fmt.Errorf("square %d cannot end on cell %d", a.Square, d)
		}
		b.squares[a.Square].dest = int32(d)
	}
	busy := int32(b.opts.ReplicateRounds)
	b.born = b.born[:0]
	for _, x := range out.Births {
		if int(x.Parent) >= len(b.squares) || !b.squares[x.Parent].alive || x.Cell < 0 || x.Cell >= len(b.grid) || x.Class < 0 || int(x.Class) >= len(b.opts.Classes) {
			return fmt.Errorf("birth from square %d into cell %d of class %d is impossible", x.Parent, x.Cell, x.Class)
		}
		team := int(b.squares[x.Parent].team)
		child := b.spawn(team, x.Class, int32(x.Cell), busy)
		b.squares[x.Parent].busy = busy
		b.born = append(b.born, child)
		b.stats[team].Births++
		b.stats[team].Squares++
		b.teams[team].settlement.Births = append(b.teams[team].settlement.Births, Birth{
			Parent: x.Parent, Child: child, Class: x.Class, Row: x.Cell / b.size, Col: x.Cell % b.size,
		})
	}
	b.live = append(b.live, b.born...)
	for _, d := range out.Deaths {
		if int(d.Square) >= len(b.squares) || !b.squares[d.Square].alive || b.squares[d.Square].dying || d.Killer < 0 || d.Killer >= len(b.teams) {
			return fmt.Errorf("square %d cannot die (killed by team %d)", d.Square, d.Killer)
		}
		b.die(d.Square, d.Killer, d.Collision, d.Own)
	}
	b.stageBury()
	// cellStamp is the built-in stages' scratch, which a resolver's battle
	// does not run: here it marks the cells a survivor stands on.
	stamp := int32(b.round)
	for _, id := range b.live {
		c := b.squares[id].cell
		if b.cellStamp[c] == stamp {
			return errors.New("two squares survive on one cell")
		}
		b.cellStamp[c] = stamp
	}
	return nil
}

// checkIntent does what stageIntents does before the rules proper: counts
// faults, carries out a change of class, rejects impossible intents and
// finds the target cell. The result is in a.
func (b *Battle) checkIntent(id SquareID, sq *square, a *Act) {
	team := int(sq.team)
	in := b.teams[team].turn.Intents[sq.turn]
	switch in.Fault {
	case FaultTimeout:
		b.stats[team].Timeouts++
		return
	case FaultError:
		b.stats[team].Errors++
		return
	}
	if in.Become != NoClass {
		if int(in.Become) >= len(b.opts.Classes) || in.Become < 0 {
			b.invalid(team, id, sq.class, fmt.Sprintf("cannot become class %d", in.Become))
			return
		}
		sq.class = in.Become
	}
	if in.Action == Wait {
		return
	}
	if !in.Dir.Valid() {
		b.invalid(team, id, sq.class, fmt.Sprintf("%s in direction %d", in.Action, in.Dir))
		return
	}
	target := b.nbr[int(sq.cell)*8+int(in.Dir)]
	if target < 0 {
		return
	}
	switch in.Action {
	case Move, Attack:
	case Replicate:
		if in.Child < 0 || int(in.Child) >= len(b.opts.Classes) {
			b.invalid(team, id, sq.class, fmt.Sprintf("cannot replicate into class %d", in.Child))
			return
		}
		a.Child = in.Child
	default:
		b.invalid(team, id, sq.class, fmt.Sprintf("unknown action %d", in.Action))
		return
	}
	a.Action, a.Target = in.Action, int(target)
}
