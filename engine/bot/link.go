package bot

import (
	"errors"
	"fmt"
	"sync/atomic"
	"time"

	"github.com/squarebattle/squarebattle/engine"
)

// Timing is the clock bots play under (configuration section bots).
type Timing struct {
	Init  time.Duration // from starting the program to its ready
	Round time.Duration // for each round message, from writing it to the answer's newline
	// Bank is the most unused time a bot may save up: a round may run
	// over Round by what the bank holds. It starts full.
	Bank time.Duration
	// MaxFaults is the number of faults in a row (late or rejected
	// answers) that retire a team; 0 never does.
	MaxFaults int
	// NoTimeout turns every deadline off (--no-timeout).
	NoTimeout bool
}

// Time is the clock as hello tells it, 0 for no limit.
func (t Timing) Time() Time {
	if t.NoTimeout {
		return Time{}
	}
	return Time{InitMS: t.Init.Milliseconds(), RoundMS: t.Round.Milliseconds(), BankMS: t.Bank.Milliseconds()}
}

// stuckGrace is how long past an exchange's deadline the engine waits for
// the goroutine that writes and reads before it gives the round up: only a
// bot that does not read its input (the write blocks) takes it.
const stuckGrace = 100 * time.Millisecond

// maxStale bounds the late answers to earlier messages one exchange skips.
const maxStale = 1024

// link is the engine's end of one bot's conversation, one message and its
// answer at a time: it writes the message, reads the answer within the
// clock, skips late answers to earlier messages and keeps the count of
// faults in a row. Once the bot is gone (crashed, retired) nothing more is
// sent.
//
// Concurrency: a link belongs to its team's phases, which the engine never
// overlaps; the one goroutine it starts per exchange owns the connection
// until the exchange's done channel closes.
type link struct {
	conn   Conn
	timing Timing
	bank   time.Duration
	faults int   // faults in a row
	gone   error // why the bot is no longer asked; nil while it is
	// retiring is the message of a retirement to report in the team's
	// next phase.
	retiring string
	flight   *flight
	buf      []byte // the message being built, reused; a flight owns it until encoded closes
	tally    [2]int // timeouts and errors so far, to report problems sparingly
	// parse reads a line of the bot: parseLine, or parseLine2 for a
	// protocol-2 bot, whose lines may also ask for a full state.
	parse func([]byte) (inbound, error)
	// resync: the bot asked for a full state (protocol 2) in an exchange
	// that is over; the next round message is full. The team's phases
	// set and clear it.
	resync bool
	// trip is the last exchange's round trip (rt), for people: the team
	// table shows it. Written by the team's phases, read by whoever shows
	// the battle, hence atomic; it never changes what the battle does.
	trip atomic.Int64
}

func newLink(conn Conn, t Timing) link {
	return link{conn: conn, timing: t, bank: t.Bank, parse: parseLine}
}

// flight is one exchange: a message on its way and the answer to it.
type flight struct {
	at      at
	budget  time.Duration
	encoded chan struct{} // closed once the message is built: the phase's data is no longer read
	done    chan struct{} // closed once the exchange is over; the fields below are then set
	sent    atomic.Bool
	answer  inbound
	err     error
	used    time.Duration
	resync  bool // the bot asked for a full state (protocol 2)
}

// start sends a message built by encode (which appends it to the buffer
// it is given) in the background and reads the answer to it, which must
// carry where. It does nothing when the bot is gone, or when the previous
// exchange is still stuck writing to a bot that does not read: await then
// reports the round as late.
func (l *link) start(where at, encode func([]byte) []byte) {
	if !l.free() {
		return
	}
	f := &flight{at: where, budget: l.timing.Round + l.bank,
		encoded: make(chan struct{}), done: make(chan struct{})}
	l.flight = f
	go l.exchange(f, encode, l.buf[:0])
}

// free reports whether the bot may be sent a message: it is not gone,
// and no earlier exchange is still stuck writing to it.
func (l *link) free() bool {
	if l.gone != nil {
		return false
	}
	if l.flight != nil {
		select {
		case <-l.flight.done:
		default:
			return false
		}
	}
	return true
}

func (l *link) exchange(f *flight, encode func([]byte) []byte, buf []byte) {
	defer close(f.done)
	buf = encode(buf)
	l.buf = buf
	close(f.encoded)
	start := time.Now()
	var deadline time.Time
	if !l.timing.NoTimeout {
		deadline = start.Add(f.budget)
	}
	defer func() { f.used = time.Since(start) }()
	if err := l.conn.Send(buf); err != nil {
		f.err = err
		return
	}
	f.sent.Store(true)
	for stale := 0; ; stale++ {
		line, err := l.conn.Receive(deadline)
		if err != nil {
			f.err = err
			return
		}
		m, err := l.parse(line)
		if err == nil && m.Type == "resync" && stale < maxStale {
			f.resync = true // the next message is full; the answer still comes
			continue
		}
		if err == nil && m.Type == "actions" {
			var w at
			if w, err = m.where(); err == nil && w.before(f.at) && stale < maxStale {
				continue // the late answer to an earlier message
			}
			if err == nil && w != f.at {
				err = malformed("answers round %d batch %d, not round %d batch %d", w.round, w.batch, f.at.round, f.at.batch)
			}
		} else if err == nil {
			err = malformed(`a %q message, not "actions"`, m.Type)
		}
		f.answer, f.err = m, err
		return
	}
}

// outcome is what an exchange came to.
type outcome uint8

const (
	answered outcome = iota // f.answer holds the bot's answer to check
	late                    // no answer in time: one timeout
	rejected                // a line that is not the answer: one error
	lost                    // the bot is gone: a crash, and the team retires
	skipped                 // the bot is gone already, or was before this phase
)

// await waits for the exchange begun by start and says what came of it,
// with a message for people when it was a fault. It counts late and
// rejected answers towards MaxFaults; the caller calls fault or ok once it
// has checked an answer.
func (l *link) await(where at) (outcome, *inbound, string) {
	if l.gone != nil {
		return skipped, nil, ""
	}
	f := l.flight
	if f == nil || f.at != where {
		return late, nil, fmt.Sprintf("has not read round %d's message yet: it does not read its input", l.stuckAt())
	}
	<-f.encoded
	if l.timing.NoTimeout {
		<-f.done
	} else {
		timer := time.NewTimer(f.budget + stuckGrace)
		select {
		case <-f.done:
			timer.Stop()
		case <-timer.C:
			if !f.sent.Load() { // still writing: the bot does not read
				l.trip.Store(rt(f.budget, true))
				l.bank = 0
				return late, nil, fmt.Sprintf("took more than %v and has not read the message yet", f.budget.Round(time.Millisecond))
			}
			<-f.done // reading, which ends at the deadline
		}
	}
	l.flight = nil
	l.resync = l.resync || f.resync
	switch {
	case f.err == nil:
		l.trip.Store(rt(f.used, false))
		l.spend(f.used)
		return answered, &f.answer, ""
	case errors.Is(f.err, ErrLate):
		l.trip.Store(rt(f.budget, true))
		l.bank = 0
		return late, nil, fmt.Sprintf("no answer within %v", f.budget.Round(time.Millisecond))
	case errors.Is(f.err, ErrMalformed):
		l.trip.Store(rt(f.used, false))
		l.spend(f.used)
		return rejected, nil, f.err.Error()
	}
	return lost, nil, f.err.Error()
}

// settle waits for the exchange at where, hands its answer to decode (an
// answer decode refuses is rejected, as a malformed line is) and counts
// what it came to into r (report).
func (l *link) settle(r *engine.Report, where at, class engine.ClassID, decode func(*inbound) error) {
	o, m, why := l.await(where)
	if o == answered {
		if err := decode(m); err != nil {
			o, why = rejected, err.Error()
		}
	}
	l.report(r, o, why, where.round, class)
}

// stuckAt is the round of the exchange stuck writing.
func (l *link) stuckAt() int {
	if l.flight == nil {
		return 0
	}
	return l.flight.at.round
}

// spend takes an answer's time off the clock: time under the round's
// share goes into the bank, up to its cap; time over it comes out.
func (l *link) spend(used time.Duration) {
	if l.timing.NoTimeout {
		return
	}
	if used <= l.timing.Round {
		l.bank = min(l.timing.Bank, l.bank+l.timing.Round-used)
		return
	}
	l.bank = max(0, l.bank-(used-l.timing.Round))
}

// report counts what an exchange came to into r: a timeout or an error
// with its problem (sparingly, see noted), or a crash and the
// retirement it causes, or a retirement after MaxFaults faults in a row.
// class names the bot's squares in problems and events.
func (l *link) report(r *engine.Report, o outcome, why string, round int, class engine.ClassID) {
	switch o {
	case answered:
		l.faults = 0
		return
	case skipped:
		return
	case lost:
		l.retire(r, engine.BackstopCrash, class, "bot: round "+fmt.Sprint(round)+": "+why, "it crashed: "+why)
		return
	}
	kind, i := engine.FaultTimeout, 0
	if o == rejected {
		kind, i = engine.FaultError, 1
	}
	if kind == engine.FaultTimeout {
		r.Timeouts++
	} else {
		r.Errors++
	}
	if l.noted(i) {
		r.Problems = append(r.Problems, engine.Problem{Class: class, Square: -1, Kind: kind,
			Message: fmt.Sprintf("bot: round %d: %s", round, why)})
	}
	l.faults++
	if l.timing.MaxFaults > 0 && l.faults >= l.timing.MaxFaults {
		// The retirement is reported in the team's next phase: a phase
		// with a backstop event counts nothing else, and this fault
		// must count.
		l.gone = errors.New("retired")
		l.retiring = fmt.Sprintf("bot: retired after %d faults in a row (the last: %s): it is not asked again", l.faults, why)
		l.close()
	}
}

// retired reports a retirement decided in an earlier phase, once, and
// says whether it did.
func (l *link) retired(r *engine.Report, class engine.ClassID) bool {
	if l.retiring == "" {
		return false
	}
	r.Backstops = append(r.Backstops, engine.Backstop{Kind: engine.BackstopRetired, Class: class, Message: l.retiring})
	l.retiring = ""
	return true
}

// noted counts one more fault of a kind (0 timeouts, 1 errors) and
// reports whether it is worth a problem: the first ten of the battle,
// then every hundredth, so that a bot late every round, or wrong for
// every square, does not flood the problems people read.
func (l *link) noted(kind int) bool {
	l.tally[kind]++
	n := l.tally[kind]
	return n <= 10 || n%100 == 0
}

// retire reports an event of kind (a crash) saying what, and the
// retirement it causes, saying why (engine.TeamView.Retired shows it),
// and stops the bot.
func (l *link) retire(r *engine.Report, kind engine.BackstopKind, class engine.ClassID, what, why string) {
	if l.gone == nil {
		l.gone = errors.New(what)
	}
	r.Backstops = append(r.Backstops,
		engine.Backstop{Kind: kind, Class: class, Message: what},
		engine.Backstop{Kind: engine.BackstopRetired, Class: class, Message: "bot: retired, " + why})
	l.close()
}

// close stops the bot; an exchange in flight ends with an error.
func (l *link) close() { l.conn.Close() }
