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
	Kind   BackstopKind
	// Class is the class of the squares the call was about (its file
	// names the problem), or NoClass.
	Class ClassID
	// Message says what happened, for people: one line, at most
	// MaxBackstopText bytes once made safe (the engine clips it).
	Message string
}

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
			b.teams[t].retired = true
		}
		b.problems.add(e.problem())
		b.backstops = append(b.backstops, e)
	}
}

// takeBackstops counts the backstop events of a rule mod team's report
// and lists them among its problems. The caller itself stops asking a
// retired team. Rule mod replays do not record these events yet, so a
// replay of such a battle shows the round of the fault as a difference.
func (m *ModBattle) takeBackstops(t int, r *Report) {
	for i, e := range r.Backstops {
		if i == MaxBackstopsPerReport {
			break
		}
		if admitBackstop(&e, m.board.round, t, len(m.opts.Classes), &m.stats[t]) {
			m.problems.add(e.problem())
		}
	}
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
	e.Message = clipText(SafeText(e.Message), MaxBackstopText)
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

// clipText cuts s to at most n bytes on a character boundary, marking the
// cut with an ellipsis.
func clipText(s string, n int) string {
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

type replayed struct {
	inner  Controller
	events []Backstop
}

func (c *replayed) Turn(t *Turn) {
	if !c.fired(t.Facts.Round, false, &t.Report) {
		c.inner.Turn(t)
	}
}

func (c *replayed) Settle(s *Settlement) {
	if !c.fired(s.Facts.Round, true, &s.Report) {
		c.inner.Settle(s)
	}
}

// fired reports the events recorded for this phase, if any, and whether
// there were some. Events of phases the re-run skipped (it has gone past
// them) are dropped: the re-run differs there already, and the
// comparison with the recording says so.
func (c *replayed) fired(round int, settle bool, r *Report) bool {
	for len(c.events) > 0 && before(c.events[0], round, settle) {
		c.events = c.events[1:]
	}
	n := 0
	for n < len(c.events) && c.events[n].Round == round && c.events[n].Settle == settle {
		n++
	}
	if n == 0 {
		return false
	}
	restart := false
	for _, e := range c.events[:n] {
		e.Round, e.Team, e.Settle = 0, 0, false // the engine sets them
		r.Backstops = append(r.Backstops, e)
		restart = restart || e.Kind == BackstopTimeout || e.Kind == BackstopCrash
	}
	c.events = c.events[n:]
	if rs, ok := c.inner.(Restarter); ok && restart {
		rs.Restart()
	}
	return true
}

// before reports whether e belongs to a phase earlier than (round, settle).
func before(e Backstop, round int, settle bool) bool {
	return e.Round < round || (e.Round == round && !e.Settle && settle)
}

// checkBackstops refuses a round whose backstop events could not have come
// from a battle: a team or class out of range, an unknown kind, a message
// too long, events out of the engine's order, more than one phase's worth
// for a team, or any event after the team's retirement. It is what keeps
// a hostile replay's events small: at most MaxBackstopsPerReport per team
// and phase, each of bounded size.
func (t *Timeline) checkBackstops(l *RoundLog) error {
	if len(l.Backstops) == 0 {
		return nil
	}
	teams := len(t.cur.stats)
	if t.retired == nil {
		t.retired = make([]bool, teams)
	}
	bad := func(format string, args ...any) error {
		return &RoundError{Round: l.Round, Reason: "backstop event: " + fmt.Sprintf(format, args...)}
	}
	retired := append([]bool(nil), t.retired...)
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
		}
		key := e.Team
		if e.Settle {
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
	return nil
}
