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
