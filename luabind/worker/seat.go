package worker

import (
	"crypto/sha256"
	"errors"
	"fmt"
	"time"

	"github.com/squarebattle/squarebattle/engine"
	"github.com/squarebattle/squarebattle/luabind"
)

// catalogMsg is a catalog encoded once for every worker that needs it.
type catalogMsg struct {
	cat   *luabind.Catalog
	hash  [32]byte
	frame []byte
	files []string // each class's file, for problems
}

// keptMsgs bounds the encoded catalogs a pool remembers.
const keptMsgs = 8

// catalog returns the encoded form of cat, encoding it on first use.
func (p *Pool) catalog(cat *luabind.Catalog) *catalogMsg {
	p.catMu.Lock()
	defer p.catMu.Unlock()
	for _, m := range p.catalogs {
		if m.cat == cat {
			return m
		}
	}
	var body enc
	putSource(&body, cat.Source())
	ids := cat.Classes()
	putStrings(&body, ids)
	body.str(cat.Source().Require)
	m := &catalogMsg{cat: cat, hash: sha256.Sum256(body.b)}
	var e enc
	e.start(kindCatalog)
	e.b = append(e.b, m.hash[:]...)
	e.b = append(e.b, body.b...)
	m.frame = e.finish()
	for i := range ids {
		m.files = append(m.files, cat.Class(engine.ClassID(i)).File)
	}
	if len(p.catalogs) == keptMsgs {
		p.catalogs = p.catalogs[1:]
	}
	p.catalogs = append(p.catalogs, m)
	return m
}

// Seat returns the controller of one team played in a worker process; it
// is a luabind.Seater. The worker is taken from the pool at the team's
// first call and given back by Close.
func (p *Pool) Seat(o luabind.TeamOptions) (luabind.Seat, error) {
	if o.Catalog == nil {
		return nil, errors.New("worker: a seat needs a catalog")
	}
	return &Seat{pool: p, opts: o, cat: p.catalog(o.Catalog), limits: o.Catalog.Limits()}, nil
}

// Seat is the engine.Controller of one team whose Lua state lives in a
// worker process. Every Turn and Settle is one request and one answer.
// When the worker dies or runs past its wall-clock bound, the squares of
// the phase wait, the fault is reported as an engine.Backstop (the engine
// counts a timeout for the wall clock, an error for any other death, and
// shows why), and the next call starts a fresh worker and Lua state:
// squares keep living, their data is lost, as after a memory reset. After
// MaxCrashes the team is retired: its squares wait for the rest of the
// battle.
type Seat struct {
	pool    *Pool
	opts    luabind.TeamOptions
	cat     *catalogMsg
	limits  luabind.Limits
	w       *proc
	sent    factsSent
	log     lineLog
	crashes int
	retired bool
	e       enc
	intents []engine.Intent
	// inFlight is the phase (*engine.Turn or *engine.Settlement) whose
	// request SendTurn or SendSettle sent, flightErr how sending failed.
	inFlight  any
	flightErr error
	mod       *modSent // a rule mod's team: what its worker has been told

	// A seat of a Group (grp not nil) has no worker of its own: its team
	// lives in slot of host, a worker of its key, and its requests go out
	// in the group's waves; pending is the one in flight.
	grp     *Group
	key     string
	host    *hosted
	slot    uint64
	pending *call
	spare   *call // a call answered and read, for the next request
}

// ensure makes sure the seat has a worker playing its team.
func (s *Seat) ensure() error {
	if s.grp != nil {
		if s.host != nil {
			// Only this seat's goroutine sets or clears host; whether
			// the worker died since, queue finds out under the mutex.
			return nil
		}
		return s.grp.attach(s)
	}
	if s.w != nil {
		return nil
	}
	w, err := s.pool.get()
	if err != nil {
		return err
	}
	s.w = w
	s.sent = factsSent{}
	timeout := s.timeout(len(s.cat.files))
	if !w.catalogs.has(s.cat.hash) {
		if err := s.expectOK(w.call(s.cat.frame, replyBase, timeout)); err != nil {
			return err
		}
		w.catalogs.add(s.cat.hash)
	}
	return s.expectOK(w.call(s.startFrame(), replyBase, timeout))
}

// startFrame encodes the request that starts the seat's team.
func (s *Seat) startFrame() []byte {
	e := &s.e
	e.start(kindStart)
	e.b = append(e.b, s.cat.hash[:]...)
	e.int(s.opts.Index)
	e.u(s.opts.Seed)
	e.int(s.opts.Size)
	e.int(s.opts.Teams)
	putStrings(e, s.opts.Killers)
	e.str(s.opts.Entry)
	e.int(int(s.opts.Player))
	return e.finish()
}

// heldCatalogs mirrors a worker's list of kept catalogs
// (server.loadCatalog): the parent sends a catalog only to a worker that
// does not hold it.
type heldCatalogs [][32]byte

func (l heldCatalogs) has(h [32]byte) bool {
	for _, c := range l {
		if c == h {
			return true
		}
	}
	return false
}

// add records that the worker now holds h, the oldest dropped as it drops
// it.
func (l *heldCatalogs) add(h [32]byte) {
	if len(*l) == keptCatalogs {
		*l = (*l)[1:]
	}
	*l = append(*l, h)
}

// failure is a worker's refusal of a request: it is alive, but the parent
// and it disagree, which the parent treats as it treats a crash.
type failure string

func (f failure) Error() string { return "the worker refused: " + string(f) }

func (s *Seat) expectOK(kind byte, body []byte, err error) error {
	if err != nil {
		return err
	}
	d := &dec{b: body}
	switch kind {
	case kindOK:
		return d.end()
	case kindFail:
		msg := d.str()
		if d.end() != nil || len(msg) > maxText {
			return errMalformed
		}
		return failure(engine.SafeText(msg))
	}
	return errMalformed
}

// timeout is the wall-clock bound of a request about n squares.
func (s *Seat) timeout(n int) time.Duration {
	o := &s.pool.o
	return o.CallTimeout + time.Duration(n+1)*time.Duration(s.limits.Instructions)*o.PerInstruction
}

// SendTurn sends the request for the intents of the team's ready squares;
// Turn reads the answer. Between the two the worker decides while the
// engine sends the other teams theirs (engine.Dispatcher).
func (s *Seat) SendTurn(t *engine.Turn) {
	if s.retired || len(t.Squares) == 0 {
		return
	}
	s.forget()
	s.inFlight, s.flightErr = t, s.sendTurn(t)
}

func (s *Seat) sendTurn(t *engine.Turn) error {
	if err := s.ensure(); err != nil {
		return err
	}
	e := &s.e
	e.start(kindTurn)
	putFacts(e, t.Facts, &s.sent)
	putSquares(e, t.Squares)
	s.send(e.finish(), len(t.Squares))
	return nil
}

// send sends a request about n squares, births or deaths; recv reads its
// answer.
func (s *Seat) send(frame []byte, n int) {
	if s.grp != nil {
		c := s.spare
		if c == nil {
			c = new(call)
		}
		s.spare = nil
		s.grp.queue(s, c, frame, replyLimit(n), s.timeout(n)-s.pool.o.CallTimeout)
		s.pending = c
		return
	}
	s.w.send(frame)
}

func (s *Seat) recv(n int) (byte, []byte, error) {
	if s.grp != nil {
		c := s.pending
		s.pending = nil
		if c == nil {
			return 0, nil, errMalformed
		}
		kind, body, err := s.grp.await(c)
		// The answer stays in c until the seat's next request, which
		// comes after it is decoded.
		s.spare = c
		return kind, body, err
	}
	return s.w.recv(replyLimit(n), s.timeout(n))
}

// Turn asks the worker for the intents of the team's ready squares, or
// reads its answer when SendTurn asked already.
func (s *Seat) Turn(t *engine.Turn) {
	if s.retired || len(t.Squares) == 0 {
		return
	}
	class := t.Squares[0].Class
	err := s.flightErr
	if s.inFlight != t {
		s.forget()
		err = s.sendTurn(t)
	}
	s.inFlight, s.flightErr = nil, nil
	if err == nil {
		var kind byte
		var body []byte
		kind, body, err = s.recv(len(t.Squares))
		if err == nil {
			err = s.readTurn(t, kind, body)
		}
	}
	if err != nil {
		s.crash(&t.Report, class, err)
	}
}

// forget drops a request sent for a phase the engine then did not ask
// about (only after a panic in the engine's dispatch): its answer would
// come out of turn, so the worker goes, as after a crash but uncounted.
func (s *Seat) forget() {
	if s.inFlight != nil && s.grp != nil {
		s.grp.forget(s)
		s.pending = nil
	}
	if s.inFlight != nil && s.w != nil {
		s.pool.discard(s.w)
		s.w = nil
	}
	s.inFlight, s.flightErr = nil, nil
}

// readTurn decodes a turn's answer; nothing of it is kept unless all of it
// is well formed.
func (s *Seat) readTurn(t *engine.Turn, kind byte, body []byte) error {
	if kind != kindOK {
		return s.expectOK(kind, body, nil)
	}
	d := &dec{b: body}
	classes := len(s.cat.files)
	s.intents = getIntents(d, len(t.Squares), classes, s.intents)
	return s.readTail(d, &t.Report, func() { copy(t.Intents, s.intents) })
}

// readTail decodes the report and the printed lines that end every answer
// and, only when the whole answer is well formed, runs keep (which takes
// what came before them) and keeps them.
func (s *Seat) readTail(d *dec, into *engine.Report, keep func()) error {
	var rep engine.Report
	getReport(d, &rep, len(s.cat.files))
	var lines lineLog
	getLines(d, &lines)
	if err := d.end(); err != nil {
		return err
	}
	if keep != nil {
		keep()
	}
	mergeReport(into, &rep)
	for _, l := range lines.lines {
		s.log.add(l)
	}
	return nil
}

func mergeReport(dst, src *engine.Report) {
	dst.Timeouts += src.Timeouts
	dst.Errors += src.Errors
	dst.Problems = append(dst.Problems, src.Problems...)
}

// SendSettle sends the births and deaths; Settle reads the answer
// (engine.Dispatcher).
func (s *Seat) SendSettle(st *engine.Settlement) {
	if s.retired {
		return
	}
	s.forget()
	s.inFlight, s.flightErr = st, s.sendSettle(st)
}

func (s *Seat) sendSettle(st *engine.Settlement) error {
	if err := s.ensure(); err != nil {
		return err
	}
	e := &s.e
	e.start(kindSettle)
	putFacts(e, st.Facts, &s.sent)
	e.u(uint64(len(st.Births)))
	for _, b := range st.Births {
		e.int(int(b.Parent))
		e.int(int(b.Child))
		e.int(int(b.Class))
		e.int(b.Row)
		e.int(b.Col)
	}
	e.u(uint64(len(st.Deaths)))
	for _, dd := range st.Deaths {
		e.int(int(dd.Square))
		e.int(int(dd.Class))
		e.int(dd.Row)
		e.int(dd.Col)
		e.int(dd.Killer)
		e.bool(dd.Collision)
	}
	s.send(e.finish(), len(st.Births)+len(st.Deaths))
	return nil
}

// Settle tells the worker's team about births and deaths, or reads its
// answer when SendSettle told it already.
func (s *Seat) Settle(st *engine.Settlement) {
	if s.retired {
		return
	}
	class := engine.NoClass
	if len(st.Births) > 0 {
		class = st.Births[0].Class
	} else if len(st.Deaths) > 0 {
		class = st.Deaths[0].Class
	}
	err := s.flightErr
	if s.inFlight != st {
		s.forget()
		err = s.sendSettle(st)
	}
	s.inFlight, s.flightErr = nil, nil
	if err == nil {
		var kind byte
		var body []byte
		n := len(st.Births) + len(st.Deaths)
		kind, body, err = s.recv(n)
		if err == nil && kind != kindOK {
			err = s.expectOK(kind, body, nil)
		}
		if err == nil {
			err = s.readSettle(st, body)
		}
	}
	if err != nil {
		s.crash(&st.Report, class, err)
	}
}

// readSettle decodes a settle's answer; nothing of it is kept unless all of
// it is well formed.
func (s *Seat) readSettle(st *engine.Settlement, body []byte) error {
	return s.readTail(&dec{b: body}, &st.Report, nil)
}

// crash handles a worker that died, hung or broke the protocol: it is
// killed and the next call starts over. The fault is reported to the
// engine as a backstop event, which the engine counts, explains and
// records in the replay: it need not happen again when the battle is
// played again, so a re-run hands the recorded event back instead.
func (s *Seat) crash(rep *engine.Report, class engine.ClassID, err error) {
	what := "the team's worker process"
	var cause string
	kind := engine.BackstopCrash
	if s.grp != nil {
		s.dropSlot()
		// The worker played this player's teams of other battles too,
		// and the error is how it died, the same for every team it
		// held whatever request met its death (see Group).
		what = "the worker process of this player's teams"
		kind, cause = faultOf(err, err.Error)
	} else if w := s.w; w != nil {
		s.w = nil
		s.pool.discard(w)
		kind, cause = faultOf(err, func() string { return "died: " + w.cause() })
	} else {
		cause = "could not start: " + err.Error()
	}
	s.crashes++
	file := "team"
	if class >= 0 && int(class) < len(s.cat.files) {
		file = s.cat.files[class]
	}
	waited, waits := "its squares waited", "its squares wait"
	if s.mod != nil { // a rule mod's team
		waited, waits = "its calls went unanswered", "its calls go unanswered"
	}
	msg := fmt.Sprintf("%s: %s %s; %s and its Lua state was reset (crash %d of %d, isolation.max_crashes)",
		file, what, engine.SafeText(cause), waited, s.crashes, s.pool.o.MaxCrashes)
	rep.Backstops = append(rep.Backstops, engine.Backstop{Kind: kind, Class: class, Message: msg})
	if s.crashes >= s.pool.o.MaxCrashes {
		s.retired = true
		rep.Backstops = append(rep.Backstops, engine.Backstop{Kind: engine.BackstopRetired, Class: class,
			Message: fmt.Sprintf("%s: the team is retired after %d worker crashes (isolation.max_crashes): %s from now on", file, s.crashes, waits)})
	}
}

// Restart gives the worker back and starts the team afresh at the next
// call, as after a crash: a re-run that replays a recorded crash calls it
// (engine.Restarter).
func (s *Seat) Restart() { s.Close() }

// Log returns what the team's scripts printed, most recent last.
func (s *Seat) Log() []string { return append([]string(nil), s.log.lines...) }

// Printed returns the lines printed since the team had printed since lines
// in all (at most the last it keeps) and the new total (engine.Printer).
func (s *Seat) Printed(since int64) ([]string, int64) { return s.log.since(since) }

// Close ends the team in its worker and gives the worker back to the pool,
// or kills it if it does not answer.
func (s *Seat) Close() {
	s.forget()
	if s.grp != nil {
		s.grp.forget(s)
		return
	}
	w := s.w
	if w == nil {
		return
	}
	s.w = nil
	e := &s.e
	e.start(kindEnd)
	kind, body, err := w.call(e.finish(), replyBase, s.pool.o.CallTimeout)
	if err == nil && kind == kindOK {
		d := &dec{b: body}
		cpu := d.i()
		if d.end() == nil {
			s.pool.put(w, cpu)
			return
		}
	}
	s.pool.discard(w)
}

// dropSlot is crash for a seat of a Group: the team leaves its slot (its
// worker is already gone when it died or hung) and the next call starts
// it afresh.
func (s *Seat) dropSlot() {
	s.grp.forget(s)
	s.pending = nil
}

// faultOf says how a failed request counts and why it failed; died
// names the cause of a worker that died.
func faultOf(err error, died func() string) (engine.BackstopKind, string) {
	var f failure
	switch {
	case errors.Is(err, errTimeout):
		return engine.BackstopTimeout, "was killed after running past its wall-clock bound (isolation.call_timeout)"
	case errors.Is(err, errMalformed):
		return engine.BackstopCrash, "sent a malformed answer and was killed"
	case errors.As(err, &f):
		return engine.BackstopCrash, err.Error()
	}
	return engine.BackstopCrash, died()
}
