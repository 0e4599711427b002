package engine

import (
	"fmt"
)

// Player is a starting player as fielded by one team.
type Player struct {
	Class   ClassID // the class its first square runs
	Name    string  // display name
	Victory string  // speech shown when the team wins
	Defeat  string  // speech shown in the team list once the team is wiped out
	// Outside names who decides for a team whose decisions come from
	// outside the battle (OutsideBot, OutsideHuman), "" for a team of
	// scripts. A replay's header keeps it: a re-run hands such a team's
	// recorded decisions back instead of asking anyone.
	Outside string
}

// TeamSetup is one team of a battle: who it is and who decides for it.
type TeamSetup struct {
	Player     Player
	Controller Controller
	// Outside says the team's decisions come from outside the battle's
	// inputs (an external bot, a person at the keys): the engine records
	// them in the round's log (RoundLog.Answers) so that a re-run can
	// hand them back (ReplayAnswers). Player.Outside says who decides;
	// NewBattle sets it to OutsideBot when empty.
	Outside bool
}

// Options describe a battle completely: two battles with equal options and
// controllers that answer alike are identical, round for round.
type Options struct {
	Size            int  // the arena is Size × Size
	Wrap            bool // the arena is a torus; otherwise its edges are walls
	Rounds          int  // round limit
	ReplicateRounds int  // rounds parent and child sit still after replicating
	Seed            uint64
	// Workers bounds how many team controllers run at once; values below 2
	// run them one after another on the calling goroutine.
	Workers int
	Classes []string // class id of every ClassID
	Teams   []TeamSetup
	// Map, when set, replaces the random placement of the starting squares.
	// Its size must equal Size. MapFile names it in errors.
	Map     *Map
	MapFile string
	// Resolver, when set, replaces the built-in rules (placement,
	// resolution, end) and is closed with the battle.
	Resolver Resolver
}

// square is the engine's record of one square. Dead squares stay in the
// slice (ids are indexes) but leave the live list.
type square struct {
	team  int32
	class ClassID
	cell  int32
	busy  int32 // rounds left sitting still after a replication
	alive bool

	// Scratch used while a round resolves.
	turn  int32 // index into the team's Turn, or -1 when it did not act
	dest  int32 // cell at the end of the round
	next  int32 // next square standing in the same cell, or -1
	dying bool
}

type teamState struct {
	setup      TeamSetup
	turn       Turn
	settlement Settlement
	// eliminated is the round in which the team lost its last square, 0 while it lives.
	eliminated int
	// retired is set by a backstop retirement: the controller is not
	// called again and the team's squares wait. retirement says when
	// and why.
	retired    bool
	retirement Retirement
	// sent says the team's phase went to its Dispatcher already (its turn
	// collected and sent); failed, that its controller panicked doing so.
	sent, failed bool
}

// Battle is one SquareBattle battle. It is driven by one goroutine (the one
// calling Step or Run); other goroutines look at it only through Snapshots.
type Battle struct {
	opts  Options
	size  int
	round int
	over  bool

	squares []square
	live    []SquareID // ascending
	born    []SquareID // scratch: squares created this round
	grid    []SquareID // occupant of each cell at the start of a round, or -1
	nbr     []int32    // nbr[cell*8+d]: neighbouring cell, or -1 beyond a wall; shared, read-only (neighbours)

	teams   []teamState
	stats   []Stats
	facts   Facts
	killers *Rand

	// Resolution scratch, indexed by cell. A stamp equal to the current round
	// marks an entry as valid, so nothing is cleared between rounds.
	attackStamp []int32
	attackHead  []int32
	attacks     []attack
	cellStamp   []int32
	cellHead    []int32
	candidates  []int

	// A resolver's round (resolveWith), reused from round to round: the
	// acts handed over, the outcome read back.
	acts    []Act
	outcome Outcome

	problems  problemLog
	backstops []Backstop // backstop events of the round being played, for the Recorder
	answers   []Answered // outside teams' decisions of the round being played, for the Recorder
	workers   *pool
	phaseJob  [phaseCount]func(int) // runTeam for each phase, made once
	// dispatchers says some team's controller is a Dispatcher.
	dispatchers bool
	err         error // the resolver's failure that ended the battle
}

type attack struct {
	team int32
	next int32
}

// NewBattle checks the options and places the starting squares.
func NewBattle(o Options) (*Battle, error) {
	o.Teams = append([]TeamSetup(nil), o.Teams...) // check names outside players; the caller's slice stays as given
	if err := o.check(); err != nil {
		return nil, err
	}
	cells := o.Size * o.Size
	b := &Battle{
		opts:        o,
		size:        o.Size,
		grid:        make([]SquareID, cells),
		nbr:         neighbours(o.Size, o.Wrap),
		teams:       make([]teamState, len(o.Teams)),
		stats:       make([]Stats, len(o.Teams)),
		killers:     NewRand(o.Seed, StreamKillers),
		attackStamp: make([]int32, cells),
		attackHead:  make([]int32, cells),
		cellStamp:   make([]int32, cells),
		cellHead:    make([]int32, cells),
	}
	for i := range b.grid {
		b.grid[i] = -1
	}
	players := make([]string, len(o.Teams))
	for i, t := range o.Teams {
		b.teams[i].setup = t
		b.teams[i].turn.Team = i
		b.teams[i].settlement.Team = i
		b.teams[i].turn.Facts = &b.facts
		b.teams[i].settlement.Facts = &b.facts
		players[i] = t.Player.Name
	}
	b.facts = Facts{Size: o.Size, Wrap: o.Wrap, Players: players, Stats: b.stats, Classes: o.Classes, TeamCount: len(o.Teams)}
	if err := b.place(); err != nil {
		return nil, err
	}
	remote := 0
	for _, t := range o.Teams {
		if _, ok := t.Controller.(Dispatcher); ok {
			remote++
		}
	}
	b.dispatchers = remote > 0
	// When every team decides elsewhere, the battle's goroutine only sends
	// and reads: helpers would have nothing to do but take the processor
	// from the processes doing the work (they poll before they sleep).
	if o.Workers > 1 && len(o.Teams) > 1 && remote < len(o.Teams) {
		b.workers = newPool(min(o.Workers, len(o.Teams)))
		for ph := range b.phaseJob {
			b.phaseJob[ph] = func(t int) { b.runTeam(t, phase(ph)) }
		}
	}
	return b, nil
}

func (o *Options) check() error {
	switch {
	case o.Size < 1:
		return &OptionError{"size", fmt.Sprintf("must be at least 1 (got %d)", o.Size)}
	case o.Size > 1<<14:
		return &OptionError{"size", fmt.Sprintf("must be at most %d (got %d)", 1<<14, o.Size)}
	case o.Rounds < 0:
		return &OptionError{"rounds", fmt.Sprintf("must not be negative (got %d)", o.Rounds)}
	case o.ReplicateRounds < 0:
		return &OptionError{"replicate rounds", fmt.Sprintf("must not be negative (got %d)", o.ReplicateRounds)}
	case len(o.Teams) == 0:
		return &OptionError{"teams", "no players"}
	case o.Map == nil && len(o.Teams) > o.Size*o.Size:
		return &OptionError{"teams", fmt.Sprintf("%d teams do not fit on a %d×%d arena", len(o.Teams), o.Size, o.Size)}
	}
	for i, t := range o.Teams {
		if t.Controller == nil {
			return &OptionError{fmt.Sprintf("team %d", i), "has no controller"}
		}
		if t.Player.Class < 0 || int(t.Player.Class) >= len(o.Classes) {
			return &OptionError{fmt.Sprintf("team %d", i), fmt.Sprintf("class %d is not one of the %d classes", t.Player.Class, len(o.Classes))}
		}
		if err := checkOutside(i, &o.Teams[i].Player, t.Outside); err != nil {
			return err
		}
	}
	if o.Map != nil {
		if o.Map.Size != o.Size {
			return &OptionError{"map", fmt.Sprintf("is %d×%d but the arena size is %d", o.Map.Size, o.Map.Size, o.Size)}
		}
		if err := o.Map.check(len(o.Teams), o.MapFile); err != nil {
			return err
		}
	}
	return nil
}

// place puts the starting squares on the arena: from the map in reading
// order (top row first, left to right), or one square per team on a random
// empty cell, teams in order.
func (b *Battle) place() error {
	if m := b.opts.Map; m != nil {
		for r := b.size - 1; r >= 0; r-- {
			for c := 0; c < b.size; c++ {
				if t := m.Cells[r*b.size+c]; t != Empty {
					b.spawn(t, b.opts.Teams[t].Player.Class, int32(r*b.size+c), 0)
				}
			}
		}
	} else if r := b.opts.Resolver; r != nil {
		if err := b.placeWith(r); err != nil {
			return err
		}
	} else {
		rng := NewRand(b.opts.Seed, StreamPlacement)
		empty := make([]int32, len(b.grid))
		for i := range empty {
			empty[i] = int32(i)
		}
		for t := range b.opts.Teams {
			k := rng.IntN(len(empty))
			cell := empty[k]
			empty[k] = empty[len(empty)-1]
			empty = empty[:len(empty)-1]
			b.spawn(t, b.opts.Teams[t].Player.Class, cell, 0)
		}
	}
	b.live = b.live[:0]
	for id := range b.squares {
		b.live = append(b.live, SquareID(id))
		sq := &b.squares[id]
		b.grid[sq.cell] = SquareID(id)
		b.stats[sq.team].Squares++
	}
	return nil
}

// spawn creates a square record and returns its id. The caller puts it on
// the grid and in the live list.
func (b *Battle) spawn(team int, class ClassID, cell int32, busy int32) SquareID {
	id := SquareID(len(b.squares))
	b.squares = append(b.squares, square{team: int32(team), class: class, cell: cell, dest: cell, busy: busy, alive: true, turn: -1, next: -1})
	return id
}

// Round is the number of the last round played (0 before the first).
func (b *Battle) Round() int { return b.round }

// Over reports whether the battle has ended.
func (b *Battle) Over() bool { return b.over }

// End ends the battle now, as the interactive time limit does: the team
// with the most squares at this moment wins. Ending an ended battle does
// nothing.
func (b *Battle) End() { b.over = true }

// Stats returns one team's running totals. Like every other method it
// belongs to the goroutine that steps the battle; viewers use Snapshot.
func (b *Battle) Stats(team int) Stats { return b.stats[team] }

// Options returns the options the battle was created with.
func (b *Battle) Options() Options { return b.opts }

// Run plays rounds until the battle ends and releases the worker goroutines.
func (b *Battle) Run() *Snapshot {
	for b.Step() {
	}
	b.Close()
	return b.Snapshot()
}

// Close stops the worker goroutines. The battle must not be stepped after.
func (b *Battle) Close() {
	if b.workers != nil {
		b.workers.stop()
		b.workers = nil
	}
	if b.opts.Resolver != nil {
		b.opts.Resolver.Close()
		b.opts.Resolver = nil
	}
}

// Step plays one round. It reports whether a round was played, which is false
// once the battle is over.
func (b *Battle) Step() bool {
	if b.over {
		return false
	}
	b.round++
	b.facts.Round = b.round
	b.backstops = b.backstops[:0]
	b.answers = b.answers[:0]
	b.forEachTeam(phaseTurn) // each team collects its own turn, then decides it
	for t := range b.teams {
		if b.teams[t].setup.Outside {
			b.takeAnswers(t, false)
		}
		b.mergeReport(t, &b.teams[t].turn.Report)
		b.takeBackstops(t, &b.teams[t].turn.Report, false)
	}
	if r := b.opts.Resolver; r != nil {
		if err := b.resolveWith(r); err != nil {
			b.rulesFailed(err)
			return true
		}
	} else {
		b.resolve()
	}
	if b.anySettlement() {
		b.forEachTeam(phaseSettle)
	}
	for t := range b.teams {
		if b.teams[t].setup.Outside {
			b.takeAnswers(t, true)
		}
		b.mergeReport(t, &b.teams[t].settlement.Report)
		b.takeBackstops(t, &b.teams[t].settlement.Report, true)
	}
	b.checkEnd()
	return true
}

func (b *Battle) mergeReport(t int, r *Report) {
	b.stats[t].Timeouts += r.Timeouts
	b.stats[t].Errors += r.Errors
	for _, p := range r.Problems {
		p.Team = t
		if p.Round == 0 {
			p.Round = b.round
		}
		b.problems.add(p)
	}
}

func (b *Battle) checkEnd() {
	alive := 0
	for t := range b.teams {
		if b.stats[t].Squares > 0 {
			alive++
		} else if b.teams[t].eliminated == 0 {
			b.teams[t].eliminated = b.round
		}
	}
	if r := b.opts.Resolver; r != nil {
		squares := make([]int, len(b.teams))
		for t := range b.teams {
			squares[t] = b.stats[t].Squares
		}
		over, err := r.Over(b.round, b.opts.Rounds, squares)
		if err != nil {
			b.rulesFailed(err)
		}
		b.over = b.over || over
		return
	}
	switch {
	case len(b.teams) >= 2 && alive <= 1:
		b.over = true
	case alive == 0:
		b.over = true
	case b.round >= b.opts.Rounds:
		b.over = true
	}
}

// Winner returns the team with the most squares, or -1 when the lead is
// shared or nobody has a square left.
func (b *Battle) Winner() int { return winnerOf(b.stats) }

func winnerOf(stats []Stats) int {
	best, winner := 0, -1
	for t := range stats {
		switch n := stats[t].Squares; {
		case n > best:
			best, winner = n, t
		case n == best && n > 0:
			winner = -1
		}
	}
	return winner
}
