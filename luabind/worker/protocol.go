package worker

import (
	"github.com/squarebattle/squarebattle/engine"
	"github.com/squarebattle/squarebattle/luabind"
)

// The bodies of the messages, written and read by the functions below in
// the same order. Parent to worker:
//
//	catalog  hash[32] dir entry limits×5 files(name data)… classes(id)…
//	start    hash[32] index seed size teams killers(name)… entry player
//	turn     facts squares… (see turn.go)
//	settle   facts births(parent child class row col)… deaths(square class row col killer collision)…
//	end
//
// Worker to parent: ok (for turn: intents… (see turn.go) report lines…; for settle: report lines…; for end: CPU milliseconds
// used by the worker so far) or fail (text).
//
// facts is round, then a byte of flags: 1 when the battle's constant
// facts follow (size wrap players… classes… teamcount; sent on a team's
// first call), 2 when the teams' stats follow (sent when they differ from
// the last stats sent). A report is timeouts errors problems(round class
// square kind message)….

const (
	factsConst byte = 1
	factsStats byte = 2
)

// Bounds on what the parent accepts from a worker; see also replyLimit.
const (
	maxLines     = 256     // printed lines per answer (a Team keeps 200)
	maxFaults    = 1 << 24 // faults counted in one report
	maxText      = 1 << 20 // bytes of one problem or line
	maxClasses   = 1 << 16
	maxTeams     = 1 << 16
	maxFrameIn   = 1 << 30 // worker side: the largest request (a catalog)
	replyBase    = 8 << 20 // parent side: room for problems and lines
	replyPerItem = 64      // parent side: per square, birth or death
)

// replyLimit bounds an answer to a request about n squares, births or
// deaths.
func replyLimit(n int) int { return replyBase + replyPerItem*n }

func putLimits(e *enc, l luabind.Limits) {
	e.int(l.Instructions)
	e.int(l.MemoryBytes)
	e.int(l.StringBytes)
	e.int(l.ScriptBytes)
	e.int(l.CallDepth)
}

func getLimits(d *dec) luabind.Limits {
	const big = 1 << 40
	return luabind.Limits{
		Instructions: d.int(0, big), MemoryBytes: d.int(0, big), StringBytes: d.int(0, big),
		ScriptBytes: d.int(0, big), CallDepth: d.int(0, big),
	}
}

func putStrings(e *enc, s []string) {
	e.u(uint64(len(s)))
	for _, x := range s {
		e.str(x)
	}
}

func getStrings(d *dec) []string {
	n := d.count(1)
	out := make([]string, n)
	for i := range out {
		out[i] = d.str()
	}
	return out
}

// putFacts writes the facts; sent carries what this worker's team has
// already been told (nil before its first call).
func putFacts(e *enc, f *engine.Facts, sent *factsSent) {
	e.int(f.Round)
	var flags byte
	if !sent.constants {
		flags |= factsConst
	}
	if !sent.statsValid || !equalStats(sent.stats, f.Stats) {
		flags |= factsStats
	}
	e.byte(flags)
	if flags&factsConst != 0 {
		e.int(f.Size)
		e.bool(f.Wrap)
		putStrings(e, f.Players)
		putStrings(e, f.Classes)
		e.int(f.TeamCount)
		sent.constants = true
	}
	if flags&factsStats != 0 {
		e.u(uint64(len(f.Stats)))
		for _, s := range f.Stats {
			for _, v := range [...]int{s.Squares, s.Births, s.Kills, s.Deaths, s.Collisions, s.Timeouts, s.Errors} {
				e.int(v)
			}
		}
		sent.stats = append(sent.stats[:0], f.Stats...)
		sent.statsValid = true
	}
}

// factsSent is the parent's record of what a worker's team knows.
type factsSent struct {
	constants  bool
	statsValid bool
	stats      []engine.Stats
}

func equalStats(a, b []engine.Stats) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// getFacts updates f from a facts field; the worker keeps f for the team.
func getFacts(d *dec, f *engine.Facts) {
	const big = 1 << 40
	f.Round = d.int(0, big)
	flags := d.byte()
	if flags&factsConst != 0 {
		f.Size = d.int(0, big)
		f.Wrap = d.bool()
		f.Players = getStrings(d)
		f.Classes = getStrings(d)
		f.TeamCount = d.int(0, maxTeams)
	}
	if flags&factsStats != 0 {
		n := d.count(7)
		f.Stats = make([]engine.Stats, n)
		for i := range f.Stats {
			s := &f.Stats[i]
			for _, p := range [...]*int{&s.Squares, &s.Births, &s.Kills, &s.Deaths, &s.Collisions, &s.Timeouts, &s.Errors} {
				*p = d.int(-big, big)
			}
		}
	}
}

func putReport(e *enc, r *engine.Report) {
	e.int(r.Timeouts)
	e.int(r.Errors)
	e.u(uint64(len(r.Problems)))
	for _, p := range r.Problems {
		e.int(p.Round)
		e.int(int(p.Class))
		e.int(int(p.Square))
		e.byte(byte(p.Kind))
		e.str(p.Message)
		e.str(p.Trace)
	}
}

// getReport adds a worker's report to r. Text is made safe to print again
// (engine.SafeText is idempotent): a broken worker's bytes are not trusted
// to be what a Team would have produced.
func getReport(d *dec, r *engine.Report, classes int) {
	r.Timeouts += d.int(0, maxFaults)
	r.Errors += d.int(0, maxFaults)
	n := d.count(5)
	for range n {
		p := engine.Problem{
			Round:  d.int(0, 1<<40),
			Class:  engine.ClassID(d.int(-1, int64(classes)-1)),
			Square: engine.SquareID(d.int(-1, 1<<31-1)),
			Kind:   engine.Fault(d.byte()),
		}
		msg := d.bytes()
		trace := d.bytes()
		if p.Kind > engine.FaultError || len(msg) > maxText || len(trace) > maxText {
			d.fail()
		}
		if d.err != nil {
			return
		}
		p.Message = engine.SafeText(string(msg))
		p.Trace = engine.SafeLines(string(trace))
		r.Problems = append(r.Problems, p)
	}
}

func getLines(d *dec, log *lineLog) {
	n := d.count(1)
	if n > maxLines {
		d.fail()
		return
	}
	for range n {
		b := d.bytes()
		if len(b) > maxText {
			d.fail()
		}
		if d.err != nil {
			return
		}
		log.add(engine.SafeLine(string(b)))
	}
}

// lineLog keeps the last lines a team printed, as luabind.Team does, and
// how many it ever printed (for Seat.Printed).
type lineLog struct {
	lines []string
	total int64
}

const keptLines = 200

func (l *lineLog) add(s string) {
	if len(l.lines) >= keptLines {
		copy(l.lines, l.lines[1:])
		l.lines = l.lines[:len(l.lines)-1]
	}
	l.lines = append(l.lines, s)
	l.total++
}

// since returns the lines added since there were since in all (at most the
// kept ones) and the new total.
func (l *lineLog) since(since int64) ([]string, int64) {
	n := min(l.total-since, int64(len(l.lines)))
	if n <= 0 {
		return nil, l.total
	}
	return append([]string(nil), l.lines[len(l.lines)-int(n):]...), l.total
}
