package engine

import (
	"fmt"
	"unicode/utf8"
)

// The backstop is the wall outside the sandbox: a controller that runs its
// team somewhere the engine cannot see into (a worker process) stops a
// call that ran past a wall-clock bound, or finds the place it ran in dead.
// Unlike every other fault, such an event does not follow from the battle's
// inputs: the same battle played again need not fire it. So a controller
// does not count it itself; it reports a Backstop in its Report, and the
// engine counts it, explains it, records it in the round's log and, for a
// retirement, stops calling the team. A re-run that must agree with a
// recording (replay --verify) hands the recorded events back through
// ReplayBackstops instead of asking the team again.

// BackstopKind says what the backstop did.
type BackstopKind uint8

const (
	// BackstopTimeout: the call ran past its wall-clock bound and was
	// stopped. It counts a timeout.
	BackstopTimeout BackstopKind = 1 + iota
	// BackstopCrash: what ran the team died (out of memory, a fatal
	// error, a signal) or broke its protocol. It counts an error.
	BackstopCrash
	// BackstopRetired: the team faulted too often; the engine no longer
	// calls its controller and its squares wait for the rest of the
	// battle. It counts nothing by itself.
	BackstopRetired
)

func (k BackstopKind) String() string {
	switch k {
	case BackstopTimeout:
		return "timeout"
	case BackstopCrash:
		return "crash"
	case BackstopRetired:
		return "retired"
	}
	return "backstop(?)"
}

// Valid reports whether k is one of the kinds above.
func (k BackstopKind) Valid() bool { return k >= BackstopTimeout && k <= BackstopRetired }

// Backstop is one event of the backstop around a team's controller. After
// a timeout or a crash the controller has dropped everything its scripts
// held (the squares live on, their data is gone, as after a memory reset)
// and the phase's squares waited.
type Backstop struct {
	Round  int  // set by the engine
	Team   int  // set by the engine
	Settle bool // set by the engine: it fired while the team heard of births and deaths, not while it decided
	// Batch is set by the engine for a rule mod's team: the batch of the
	// round's calls it fired in (ModTurn.Batch); 0 in SquareBattle.
	Batch int
	Kind  BackstopKind
	// Class is the class of the squares the call was about (its file
	// names the problem), or NoClass.
	Class ClassID
	// Message says what happened, for people: one line, at most
	// MaxBackstopText bytes once made safe (the engine clips it).
	Message string
}

// Retirement is when and why a backstop event retired a team: the round
// of the event and its message. The zero value: the team plays on.
type Retirement struct {
	Round  int
	Reason string
}

// retirementOf is what retirement event e says.
func retirementOf(e Backstop) Retirement { return Retirement{Round: e.Round, Reason: e.Message} }

// MaxBackstopText bounds a backstop event's message.
const MaxBackstopText = 2048

// MaxBackstopsPerReport bounds the events one phase of one team may
// report: a timeout or a crash, then the retirement it caused. The engine
// ignores any beyond, and a replay reader refuses them.
const MaxBackstopsPerReport = 2

// Restarter is a controller that can drop everything its team's scripts
// hold and start again as it was at the start of the battle, its squares
// still alive; what a timeout or a crash did to it. ReplayBackstops calls
// it where a recording says the backstop fired.
type Restarter interface {
	Restart()
}

// problem is how a backstop event reads among the team's problems.
func (e *Backstop) problem() Problem {
	kind := FaultError
	if e.Kind == BackstopTimeout {
		kind = FaultTimeout
	}
	return Problem{Round: e.Round, Team: e.Team, Class: e.Class, Square: -1, Kind: kind, Message: e.Message}
}

// takeBackstops counts the backstop events of team t's report of a phase
// into its stats and problems and keeps them for the round's log; a
// retirement retires the team.
func (b *Battle) takeBackstops(t int, r *Report, settle bool) {
	for i, e := range r.Backstops {
		if i == MaxBackstopsPerReport || b.teams[t].retired {
			break
		}
		e.Settle = settle
		if !admitBackstop(&e, b.round, t, len(b.opts.Classes), &b.stats[t]) {
			continue
		}
		if e.Kind == BackstopRetired {
			b.teams[t].retired, b.teams[t].retirement = true, retirementOf(e)
		}
		b.problems.add(e.problem())
		b.backstops = append(b.backstops, e)
	}
}

// MaxModBackstopsPerRound bounds the backstop events of one rule mod team
// in one round. A game with a turn queue asks a team in many batches of a
// round, and the wall may fire in each: a team whose wall fired
// MaxModBackstopsPerRound-1 times in one round is retired by the engine
// (the last event), whatever isolation.max_crashes allows. A replay reader
// refuses more, which keeps a hostile replay's round lines small.
const MaxModBackstopsPerRound = 16

// takeBackstops counts the backstop events of a rule mod team's report of
// the round's batch of calls into its stats and problems and keeps them
// for the round's log; a retirement retires the team (its caller is not
// called again), and so does the last event a round may hold.
func (m *ModBattle) takeBackstops(t int, r *Report, batch int) {
	class := NoClass
	for i, e := range r.Backstops {
		if i == MaxBackstopsPerReport || m.retired[t] {
			break
		}
		e.Batch = batch
		if admitBackstop(&e, m.board.round, t, len(m.opts.Classes), &m.stats[t]) {
			m.keepBackstop(e)
			class = e.Class
		}
	}
	if !m.retired[t] && m.roundBackstops[t] >= MaxModBackstopsPerRound-1 {
		e := Backstop{Batch: batch, Kind: BackstopRetired, Class: class, Message: fmt.Sprintf(
			"team: the team is retired after the wall around it fired %d times in one round: its calls go unanswered from now on", m.roundBackstops[t])}
		admitBackstop(&e, m.board.round, t, len(m.opts.Classes), &m.stats[t])
		m.keepBackstop(e)
	}
}

// keepBackstop lists an admitted event among the problems and in the
// round's log, and retires its team at a retirement.
func (m *ModBattle) keepBackstop(e Backstop) {
	if e.Kind == BackstopRetired {
		m.retired[e.Team], m.retirements[e.Team] = true, retirementOf(e)
	}
	m.roundBackstops[e.Team]++
	m.problems.add(e.problem())
	m.backstops = append(m.backstops, e)
}

// admitBackstop stamps event e with its round and team, makes its class
// and message safe, and counts it into st (a timeout as a timeout, a crash
// as an error). It reports false for a kind it does not know, which is
// then dropped.
func admitBackstop(e *Backstop, round, team, classes int, st *Stats) bool {
	e.Round, e.Team = round, team
	if e.Class < NoClass || int(e.Class) >= classes {
		e.Class = NoClass
	}
	e.Message = ClipText(SafeText(e.Message), MaxBackstopText)
	switch e.Kind {
	case BackstopTimeout:
		st.Timeouts++
	case BackstopCrash:
		st.Errors++
	case BackstopRetired:
	default:
		return false
	}
	return true
}

// ClipText cuts s to at most n bytes on a character boundary, marking the
// cut with an ellipsis.
func ClipText(s string, n int) string {
	if len(s) <= n {
		return s
	}
	const mark = "…"
	cut := n - len(mark)
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return s[:cut] + mark
}

// ReplayBackstops returns a controller that plays inner, except in the
// phases where events (one team's recorded backstop events, in the order
// recorded) say the backstop fired: there it does not call inner but
// reports the recorded events again, and after a timeout or a crash
// restarts inner when it is a Restarter, so that the team goes on from
// the same fresh start as in the recording. The engine retires the team
// at a recorded retirement as it did then. Whether inner runs in this
// process or elsewhere makes no difference.
//
// Concurrency: like any controller, it is called for one phase at a time.
func ReplayBackstops(inner Controller, events []Backstop) Controller {
	return &replayed{inner: inner, events: events}
}

// ReplayModBackstops is ReplayBackstops for a rule mod's team: in the
// batch of a round's calls where a recorded event says the backstop
// fired, inner is not called (the calls go unanswered, as they did) and
// the events are reported again; after a timeout or a crash inner
// restarts when it is a Restarter.
//
// Concurrency: like any caller, it is called for one batch at a time.
func ReplayModBackstops(inner Caller, events []Backstop) Caller {
	return &replayed{caller: inner, events: events}
}

// replayed plays one team's recorded backstop events back: inner for
// SquareBattle, caller for a rule mod.
type replayed struct {
	inner  Controller
	caller Caller
	events []Backstop
}

func (c *replayed) Turn(t *Turn) {
	if !c.fired(where{t.Facts.Round, false, 0}, &t.Report) {
		c.inner.Turn(t)
	}
}

func (c *replayed) Settle(s *Settlement) {
	if !c.fired(where{s.Facts.Round, true, 0}, &s.Report) {
		c.inner.Settle(s)
	}
}

func (c *replayed) Call(t *ModTurn) {
	if !c.fired(where{t.Facts.Round, false, t.Batch}, &t.Report) {
		c.caller.Call(t)
	}
}

// where is the phase of a battle an event fired: a round, then in
// SquareBattle the turn or the settlement, in a rule mod the batch of the
// round's calls.
type where struct {
	round  int
	settle bool
	batch  int
}

func whereOf(e Backstop) where { return where{e.Round, e.Settle, e.Batch} }

// before reports whether p comes before q in a battle.
func (p where) before(q where) bool {
	switch {
	case p.round != q.round:
		return p.round < q.round
	case p.settle != q.settle:
		return q.settle
	}
	return p.batch < q.batch
}

// fired reports the events recorded for this phase, if any, and whether
// there were some. Events of phases the re-run skipped (it has gone past
// them) are dropped: the re-run differs there already, and the
// comparison with the recording says so.
func (c *replayed) fired(now where, r *Report) bool {
	for len(c.events) > 0 && whereOf(c.events[0]).before(now) {
		c.events = c.events[1:]
	}
	n := 0
	for n < len(c.events) && whereOf(c.events[n]) == now {
		n++
	}
	if n == 0 {
		return false
	}
	restart := false
	for _, e := range c.events[:n] {
		e.Round, e.Team, e.Settle, e.Batch = 0, 0, false, 0 // the engine sets them
		r.Backstops = append(r.Backstops, e)
		restart = restart || e.Kind == BackstopTimeout || e.Kind == BackstopCrash
	}
	c.events = c.events[n:]
	var inner any = c.inner
	if c.caller != nil {
		inner = c.caller
	}
	if rs, ok := inner.(Restarter); ok && restart {
		rs.Restart()
	}
	return true
}

// checkBackstops refuses a round whose backstop events could not have come
// from a battle: a team or class out of range, an unknown kind, a message
// too long, a phase the game does not have, events out of the engine's
// order, more than one phase's worth for a team, more than a rule mod
// team's round may hold, or any event after the team's retirement. It is
// what keeps a hostile replay's events small: at most
// MaxBackstopsPerReport per team and phase, each of bounded size, and in
// a rule mod at most MaxModBackstopsPerRound per team and round.
func (t *Timeline) checkBackstops(l *RoundLog) error {
	if len(l.Backstops) == 0 {
		return nil
	}
	teams, mod := len(t.cur.stats), t.cur.mod()
	if t.retired == nil {
		t.retired = make([]bool, teams)
	}
	bad := func(format string, args ...any) error {
		return &RoundError{Round: l.Round, Reason: "backstop event: " + fmt.Sprintf(format, args...)}
	}
	retired := append([]bool(nil), t.retired...)
	var round map[int]int // a rule mod team's events this round
	if mod {
		round = map[int]int{}
	}
	last, run := -1, 0 // the phase and team of the previous event, and how many it had
	for _, e := range l.Backstops {
		switch {
		case e.Team < 0 || e.Team >= teams:
			return bad("team %d is out of range", e.Team)
		case !e.Kind.Valid():
			return bad("unknown kind %d", e.Kind)
		case e.Class < NoClass || int(e.Class) >= len(t.start.Classes):
			return bad("class %d is out of range", e.Class)
		case len(e.Message) > MaxBackstopText:
			return bad("a message of %d bytes (at most %d)", len(e.Message), MaxBackstopText)
		case e.Round != l.Round:
			return bad("it says round %d", e.Round)
		case retired[e.Team]:
			return bad("team %d was retired already", e.Team)
		case mod && e.Settle:
			return bad("a rule mod's teams have no settle phase")
		case !mod && e.Batch != 0:
			return bad("batch %d in a SquareBattle round", e.Batch)
		case e.Batch < 0 || e.Batch >= maxModBatches:
			return bad("batch %d is out of range", e.Batch)
		}
		key := e.Team
		switch {
		case mod:
			key += e.Batch * teams
			if round[e.Team]++; round[e.Team] > MaxModBackstopsPerRound {
				return bad("more than %d for team %d in one round", MaxModBackstopsPerRound, e.Team)
			}
		case e.Settle:
			key += teams
		}
		switch {
		case key < last:
			return bad("out of order")
		case key == last:
			run++
		default:
			last, run = key, 1
		}
		if run > MaxBackstopsPerReport {
			return bad("more than %d for team %d in one phase", MaxBackstopsPerReport, e.Team)
		}
		if e.Kind == BackstopRetired {
			retired[e.Team] = true
		}
	}
	t.retired = retired
	for _, e := range l.Backstops {
		if e.Kind == BackstopRetired {
			if t.retirements == nil {
				t.retirements = make([]Retirement, teams)
			}
			t.retirements[e.Team] = retirementOf(e)
		}
	}
	return nil
}
