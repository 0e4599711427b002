package engine

import (
	"errors"
	"fmt"
)

// A rule mod is a game other than SquareBattle whose rules live outside the
// engine (a rules.lua run by luabind). The engine keeps what every game
// shares: the round loop, the seeded random streams, the teams and their
// callers (the sandboxed player VMs, run in parallel), the fault counts and
// the board people watch. The rules decide everything else through the
// Rules interface and the Board they edit.

// Style says how a cell of a rule mod's board is drawn.
type Style uint8

const (
	StyleEmpty Style = iota // nothing there
	StyleUnit               // a unit of the cell's team: the team's colour
	StyleTrail              // ground the cell's team holds (paint): the team's colour, softer
	StyleWall               // impassable terrain
	StyleItem               // something to pick up (a pellet)
	StyleValue              // neutral ground shaded by its value, 0 to 255 (orbs)
	styleCount
)

// Mark is a cell's style and a value from 0 to 255 (its shade, for
// StyleValue; free for the rules otherwise).
type Mark uint16

// NewMark builds a mark.
func NewMark(s Style, value uint8) Mark { return Mark(s)<<8 | Mark(value) }

// Style returns the mark's style.
func (m Mark) Style() Style { return Style(m >> 8) }

// Value returns the mark's value.
func (m Mark) Value() uint8 { return uint8(m) }

// Valid reports whether the mark's style is one of the styles.
func (m Mark) Valid() bool { return m.Style() < styleCount }

// Call asks one player for an answer: a team's strategy (games with one
// call per team) or one unit's script (games with one call per unit).
type Call struct {
	Team  int
	Unit  int     // the unit's id, as the rules number units; 0 for team calls
	Class ClassID // the script that answers; NoClass means the team's player
	View  any     // what the player is shown, as the rules built it; opaque here
	// Budget, when above 0, is this call's instruction budget instead of
	// the configured one: games with a clock (a bank of instructions that
	// grows each round, capped per turn) set it from their bank.
	Budget int
}

// Answer is a player's answer to a Call. Value is opaque to the engine;
// when Fault is set the call timed out or failed and Value is nil.
type Answer struct {
	Value any
	Fault Fault
	Used  int // instructions the call ran, for games that keep a clock
}

// Rules are a rule mod's rules as the engine drives them. The engine calls
// them from the goroutine that steps the battle, never concurrently.
type Rules interface {
	// Setup lays out the board before round 1.
	Setup(b *Board) error
	// Next returns the next calls of the current round. A game whose units
	// act at the same time returns all of a round's calls at once; a game
	// with a turn queue returns one call at a time, seeing the board as the
	// answers before it left it. No calls end the round.
	Next(b *Board) ([]Call, error)
	// Resolve applies the answers to the calls Next just returned, in the
	// same order.
	Resolve(b *Board, calls []Call, answers []Answer) error
	// Close releases the rules' resources.
	Close()
}

// Sizer is implemented by rules that can choose the board's side
// themselves: with ModOptions.Size 0, Size runs before Setup on a board of
// side 0 (nothing can be drawn yet) whose random stream Setup continues,
// so a seed decides the size as it decides everything else. It returns 0
// when the rules do not choose.
type Sizer interface {
	Size(b *Board) (int, error)
}

// ModTurn is one team's share of a batch of calls.
type ModTurn struct {
	Team  int
	Facts *ModFacts
	// Batch numbers the batches of calls of a round from 0, in the order
	// the rules asked for them (all of a team's calls of a round are
	// batch 0 in a game whose units act at the same time): with the
	// round, it says where a backstop event fired.
	Batch   int
	Calls   []Call
	Answers []Answer // filled by the caller, one per call
	// Forget lists units of this team that are gone since the last turn,
	// so the caller can drop their private data.
	Forget []int
	Report Report
}

// ModFacts are the read-only facts every player may consult.
type ModFacts struct {
	Round, Rounds int
	Size          int
	Players       []string // display name of each team's player
	Columns       []string // the game's score columns
	Values        [][]int  // Values[team][column], as of the start of the round
	Classes       []string // class id of each ClassID
}

// Caller answers a team's calls: the rule mod's counterpart of Controller.
// The engine calls it from a worker goroutine; calls for the same team never
// overlap, calls for different teams may run at the same time.
type Caller interface {
	Call(t *ModTurn)
}

// ModTeam is one team of a rule mod battle.
type ModTeam struct {
	Player Player
	Caller Caller
	// Outside says the team's answers come from outside the battle's
	// inputs (TeamSetup.Outside): the engine records them, encoded by
	// ModOptions.Codec, so that a re-run can hand them back
	// (ReplayModAnswers).
	Outside bool
}

// ModOptions describe a rule mod battle completely: equal options, rules
// and callers that answer alike give identical battles.
type ModOptions struct {
	Size    int // the board's side; 0 asks the rules (Sizer)
	Wrap    bool
	Rounds  int
	Seed    uint64
	Workers int      // as in Options
	Columns []string // score columns; the first is the score that decides the winner
	Classes []string
	Teams   []ModTeam
	Rules   Rules
	// Codec writes the answers of Outside teams into the round's log and
	// reads them back; required when any team is Outside.
	Codec AnswerCodec
}

// StreamRules is the random stream the rules draw from.
const StreamRules uint64 = 3

// Board is the state of a rule mod battle that people see: what is on every
// cell, every team's score columns, and whether the battle is over. The
// rules edit it; the engine turns it into snapshots. It belongs to the
// goroutine that steps the battle.
type Board struct {
	size, rounds int
	round        int
	wrap         bool
	teams        int
	cells        []int32
	marks        []Mark
	values       [][]int
	columns      []string
	rand         *Rand
	over         bool
	winner       int
	decided      bool // the rules named the winner
	forget       [][]int
	journal      *journal // cells set since the last TakeChanges; nil unless a replica
}

// Size is the side of the square board.
func (b *Board) Size() int { return b.size }

// Wrap reports whether the board's edges wrap.
func (b *Board) Wrap() bool { return b.wrap }

// Round is the round being played (0 during Setup).
func (b *Board) Round() int { return b.round }

// Rounds is the round limit.
func (b *Board) Rounds() int { return b.rounds }

// Teams is the number of teams.
func (b *Board) Teams() int { return b.teams }

// Rand is the rules' seeded random stream.
func (b *Board) Rand() *Rand { return b.rand }

// Columns are the score columns' names.
func (b *Board) Columns() []string { return b.columns }

// ErrOffBoard is returned for a cell outside the board.
var ErrOffBoard = errors.New("cell is off the board")

func (b *Board) index(row, col int) (int, error) {
	if row < 0 || row >= b.size || col < 0 || col >= b.size {
		return 0, fmt.Errorf("%w: row %d, column %d on a %d×%d board", ErrOffBoard, row, col, b.size, b.size)
	}
	return row*b.size + col, nil
}

// Set draws a cell: team (or Empty) and mark.
func (b *Board) Set(row, col, team int, m Mark) error {
	i, err := b.index(row, col)
	if err != nil {
		return err
	}
	if team < Empty || team >= b.teams {
		return fmt.Errorf("team %d is not one of the %d teams", team, b.teams)
	}
	if m.Style() >= styleCount {
		return fmt.Errorf("style %d is not a style", m.Style())
	}
	b.cells[i], b.marks[i] = int32(team), m
	if b.journal != nil {
		b.journal.note(i)
	}
	return nil
}

// At returns what a cell shows.
func (b *Board) At(row, col int) (team int, m Mark, err error) {
	i, err := b.index(row, col)
	if err != nil {
		return Empty, 0, err
	}
	return int(b.cells[i]), b.marks[i], nil
}

// SetValue sets one of a team's score columns.
func (b *Board) SetValue(team, column, v int) error {
	if team < 0 || team >= b.teams || column < 0 || column >= len(b.columns) {
		return fmt.Errorf("no column %d of team %d", column, team)
	}
	b.values[team][column] = v
	return nil
}

// Value returns one of a team's score columns.
func (b *Board) Value(team, column int) int {
	if team < 0 || team >= b.teams || column < 0 || column >= len(b.columns) {
		return 0
	}
	return b.values[team][column]
}

// Forget tells the team's caller that a unit is gone.
func (b *Board) Forget(team, unit int) {
	if team >= 0 && team < b.teams {
		b.forget[team] = append(b.forget[team], unit)
	}
}

// Finish ends the battle after this round; winner is a team or -1 for a
// draw.
func (b *Board) Finish(winner int) {
	b.over, b.decided = true, true
	b.winner = winner
	if winner < -1 || winner >= b.teams {
		b.winner = -1
	}
}

// ModBattle is a battle of a rule mod. Like Battle, it is driven by one
// goroutine; others look at it through Snapshots.
type ModBattle struct {
	opts    ModOptions
	board   Board
	facts   ModFacts
	stats   []Stats
	turns   []ModTurn
	err     error
	ended   bool
	workers *pool
	callJob func(int) // callTeam for teams with calls, made once
	// retired marks the teams a backstop event retired: their callers
	// are not called again. backstops are the events of the round being
	// played, for the Recorder; roundBackstops counts each team's.
	retired        []bool
	retirements    []Retirement // when and why, per team
	backstops      []Backstop
	roundBackstops []int
	// answers are the Outside teams' answers of the round being played,
	// for the Recorder.
	answers []Answered
	// Problems: rules failures and the players' problems.
	problems problemLog
}

// RulesError is a failure of the rules themselves (a rules script that
// raised an error or ran past its budget). It ends the battle.
type RulesError struct {
	Round int
	Err   error
}

func (e *RulesError) Error() string {
	if e.Round == 0 {
		return fmt.Sprintf("rules, setting up: %v", e.Err)
	}
	return fmt.Sprintf("rules, round %d: %v", e.Round, e.Err)
}

func (e *RulesError) Unwrap() error { return e.Err }

// maxModSize bounds a rule mod board's side.
const maxModSize = 1 << 14

// MaxColumns bounds a rule mod's score columns: a mod that names more is
// refused when it loads, and replays and results files hold it too.
const MaxColumns = 64

// askSize runs the rules' Size on bd, a board of side 0, and checks the
// side they chose.
func askSize(rules Rules, bd *Board) (int, error) {
	size := 0
	if s, ok := rules.(Sizer); ok {
		var err error
		if size, err = s.Size(bd); err != nil {
			return 0, &RulesError{Err: err}
		}
	}
	if size < 1 || size > maxModSize {
		return 0, &OptionError{"size", fmt.Sprintf("0 asks the rules, which chose %d (not between 1 and %d)", size, maxModSize)}
	}
	return size, nil
}

// ModSize is the side NewModBattle gives a board of options with Size 0
// and these rounds, wrap, seed and teams: what the rules choose for them
// (Sizer), asked on a board of its own, as NewModBattle asks. A lobby
// shows it before the battle starts. rules must be fresh (loaded for this
// seed and nothing run yet) and are not closed.
func ModSize(rules Rules, seed uint64, teams, rounds int, wrap bool) (int, error) {
	if teams < 1 {
		return 0, &OptionError{"teams", "no players"}
	}
	bd := &Board{rounds: rounds, wrap: wrap, teams: teams, winner: -1,
		values: make([][]int, teams), rand: NewRand(seed, StreamRules), forget: make([][]int, teams)}
	return askSize(rules, bd)
}

// NewModBattle checks the options and lets the rules set the board up.
func NewModBattle(o ModOptions) (*ModBattle, error) {
	switch {
	case o.Size < 0 || o.Size > maxModSize:
		return nil, &OptionError{"size", fmt.Sprintf("must be between 1 and %d, or 0 to let the rules choose (got %d)", maxModSize, o.Size)}
	case o.Rounds < 0:
		return nil, &OptionError{"rounds", fmt.Sprintf("must not be negative (got %d)", o.Rounds)}
	case len(o.Teams) == 0:
		return nil, &OptionError{"teams", "no players"}
	case o.Rules == nil:
		return nil, &OptionError{"rules", "none"}
	}
	o.Teams = append([]ModTeam(nil), o.Teams...) // checkOutside names outside players; the caller's slice stays as given
	for i, t := range o.Teams {
		if t.Caller == nil {
			return nil, &OptionError{fmt.Sprintf("team %d", i), "has no caller"}
		}
		if t.Outside && o.Codec == nil {
			return nil, &OptionError{fmt.Sprintf("team %d", i), "is decided outside the battle, and the options have no Codec to record its answers"}
		}
		if err := checkOutside(i, &o.Teams[i].Player, t.Outside); err != nil {
			return nil, err
		}
	}
	n := len(o.Teams)
	m := &ModBattle{stats: make([]Stats, n), turns: make([]ModTurn, n), retired: make([]bool, n), retirements: make([]Retirement, n), roundBackstops: make([]int, n)}
	bd := &m.board
	*bd = Board{rounds: o.Rounds, wrap: o.Wrap, teams: n, winner: -1,
		values: make([][]int, n), columns: o.Columns, rand: NewRand(o.Seed, StreamRules), forget: make([][]int, n)}
	if o.Size == 0 {
		size, err := askSize(o.Rules, bd)
		if err != nil {
			return nil, err
		}
		o.Size = size
	}
	m.opts = o
	bd.size = o.Size
	bd.cells, bd.marks = make([]int32, o.Size*o.Size), make([]Mark, o.Size*o.Size)
	for i := range bd.cells {
		bd.cells[i] = Empty
	}
	players := make([]string, n)
	for t := range o.Teams {
		bd.values[t] = make([]int, len(o.Columns))
		players[t] = o.Teams[t].Player.Name
		m.turns[t] = ModTurn{Team: t, Facts: &m.facts}
	}
	m.facts = ModFacts{Rounds: o.Rounds, Size: o.Size, Players: players, Columns: o.Columns, Values: bd.values, Classes: o.Classes}
	if err := o.Rules.Setup(bd); err != nil {
		return nil, &RulesError{Err: err}
	}
	if o.Workers > 1 && n > 1 {
		m.workers = newPool(min(o.Workers, n))
		m.callJob = func(t int) {
			if len(m.turns[t].Calls) > 0 {
				m.callTeam(t)
			}
		}
	}
	return m, nil
}

// Round is the number of the last round played.
func (m *ModBattle) Round() int { return m.board.round }

// Over reports whether the battle has ended.
func (m *ModBattle) Over() bool { return m.ended }

// End ends the battle now (the interactive time limit).
func (m *ModBattle) End() { m.ended = true }

// Err is the rules failure that ended the battle, if any.
func (m *ModBattle) Err() error { return m.err }

// Winner is the team the rules named, or else the one with the highest
// score (the first column); -1 for a tie.
func (m *ModBattle) Winner() int {
	if m.board.decided {
		return m.board.winner
	}
	return modWinner(m.board.values)
}

// modWinner is the team with the highest first score column, or -1 for a
// tie or a game without columns.
func modWinner(values [][]int) int {
	best, winner := 0, -1
	for t, v := range values {
		if len(v) == 0 {
			return -1
		}
		switch {
		case t == 0 || v[0] > best:
			best, winner = v[0], t
		case v[0] == best:
			winner = -1
		}
	}
	return winner
}

// Close stops the worker goroutines and the rules.
func (m *ModBattle) Close() {
	if m.workers != nil {
		m.workers.stop()
		m.workers = nil
	}
	if m.opts.Rules != nil {
		m.opts.Rules.Close()
		m.opts.Rules = nil
	}
}

// Step plays one round; false once the battle is over.
func (m *ModBattle) Step() bool {
	if m.ended {
		return false
	}
	bd := &m.board
	bd.round++
	m.facts.Round = bd.round
	m.backstops = m.backstops[:0]
	m.answers = m.answers[:0]
	clear(m.roundBackstops)
	if err := m.play(); err != nil {
		m.err = &RulesError{Round: bd.round, Err: err}
		m.problems.add(Problem{Round: bd.round, Team: -1, Class: NoClass, Square: -1, Kind: FaultError, Message: m.err.Error()})
		m.ended = true
		return true
	}
	if bd.over || bd.round >= bd.rounds {
		m.ended = true
	}
	return true
}

// play runs a round: batches of calls until the rules have none left.
func (m *ModBattle) play() error {
	rules := m.opts.Rules
	for batch := 0; ; batch++ {
		if batch >= maxModBatches {
			return errors.New("more than a million turns in one round")
		}
		calls, err := rules.Next(&m.board)
		if err != nil {
			return err
		}
		if len(calls) == 0 {
			return nil
		}
		answers, err := m.ask(calls, batch)
		if err != nil {
			return err
		}
		if err := rules.Resolve(&m.board, calls, answers); err != nil {
			return err
		}
	}
}

// maxModBatches bounds the batches of calls in one round.
const maxModBatches = 1 << 20

// ask hands each team its calls, runs the teams (in parallel when there
// are workers) and puts the answers back in the order of calls. batch
// numbers this batch of calls in the round.
func (m *ModBattle) ask(calls []Call, batch int) ([]Answer, error) {
	n := len(m.turns)
	for t := range m.turns {
		tt := &m.turns[t]
		tt.Batch = batch
		tt.Calls, tt.Answers = tt.Calls[:0], tt.Answers[:0]
		tt.Report.reset()
	}
	for _, c := range calls {
		if c.Team < 0 || c.Team >= n {
			return nil, fmt.Errorf("a call for team %d, which does not exist", c.Team)
		}
		tt := &m.turns[c.Team]
		tt.Calls = append(tt.Calls, c)
		tt.Answers = append(tt.Answers, Answer{})
	}
	busy := 0
	for t := range m.turns {
		if len(m.turns[t].Calls) > 0 {
			busy++
		}
	}
	if m.workers != nil && busy > 1 {
		m.workers.run(len(m.turns), m.callJob)
	} else {
		for t := range m.turns {
			if len(m.turns[t].Calls) > 0 {
				m.callTeam(t)
			}
		}
	}
	for t := range m.turns {
		if m.opts.Teams[t].Outside && len(m.turns[t].Calls) > 0 && !m.retired[t] {
			m.takeAnswers(t, batch)
		}
	}
	answers := make([]Answer, len(calls))
	next := make([]int, n)
	for i, c := range calls {
		tt := &m.turns[c.Team]
		answers[i] = tt.Answers[next[c.Team]]
		next[c.Team]++
		switch answers[i].Fault {
		case FaultTimeout:
			m.stats[c.Team].Timeouts++
		case FaultError:
			m.stats[c.Team].Errors++
		}
	}
	for t := range m.turns {
		r := &m.turns[t].Report
		m.stats[t].Timeouts += r.Timeouts
		m.stats[t].Errors += r.Errors
		m.takeBackstops(t, r, batch)
		for _, p := range r.Problems {
			p.Team = t
			if p.Round == 0 {
				p.Round = m.board.round
			}
			m.problems.add(p)
		}
	}
	return answers, nil
}

// callTeam runs one team's caller, unless a backstop event retired the
// team: its calls then go unanswered. A caller that panics loses its
// calls (counted as errors), never the battle.
func (m *ModBattle) callTeam(t int) {
	tt := &m.turns[t]
	tt.Forget, m.board.forget[t] = m.board.forget[t], nil
	if m.retired[t] {
		return
	}
	defer func() {
		if v := recover(); v != nil {
			tt.Report.Errors++
			tt.Report.Problems = append(tt.Report.Problems, Problem{Class: NoClass, Square: -1, Kind: FaultError, Message: fmt.Sprintf("caller failed: %v", v)})
			for i := range tt.Answers {
				tt.Answers[i] = Answer{}
			}
		}
	}()
	m.opts.Teams[t].Caller.Call(tt)
}

// Snapshot takes a picture of the battle as it is now.
func (m *ModBattle) Snapshot() *Snapshot {
	bd := &m.board
	s := &Snapshot{
		Round:         bd.round,
		Rounds:        bd.rounds,
		Size:          bd.size,
		Seed:          m.opts.Seed,
		Over:          m.ended,
		Winner:        -1,
		Cells:         append([]int32(nil), bd.cells...),
		Marks:         append([]Mark(nil), bd.marks...),
		Columns:       bd.columns,
		Teams:         make([]TeamView, bd.teams),
		FirstProblems: append([]Problem(nil), m.problems.first...),
		Problems:      m.problems.latest(),
		Classes:       m.opts.Classes,
	}
	if m.ended {
		s.Winner = m.Winner()
	}
	for t := range s.Teams {
		st := m.stats[t]
		st.Squares = 0
		s.Teams[t] = TeamView{Team: t, Player: m.opts.Teams[t].Player, Stats: st, Values: append([]int(nil), bd.values[t]...), Retired: m.retirements[t]}
	}
	for i, c := range bd.cells {
		if c >= 0 && bd.marks[i].Style() == StyleUnit {
			s.Teams[c].Stats.Squares++
		}
	}
	return s
}
