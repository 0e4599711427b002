package worker

import (
	"errors"
	"fmt"
	"sort"
	"time"

	"github.com/squarebattle/squarebattle/engine"
	"github.com/squarebattle/squarebattle/luabind"
)

// ModRules runs a rule mod's rules in a worker process of the pool: the
// engine.Rules it returns forwards every call to that worker as one
// request and one answer. It makes the pool a luabind.RulesSeater.
func (p *Pool) ModRules(s luabind.RulesSpec) (engine.Rules, error) {
	r, err := p.startRules(s)
	if err != nil {
		return nil, err
	}
	return &modRules{rulesSeat: r}, nil
}

// Resolver runs rules of the SquareBattle protocol in a worker process.
func (p *Pool) Resolver(s luabind.RulesSpec) (engine.Resolver, error) {
	r, err := p.startRules(s)
	if err != nil {
		return nil, err
	}
	return &resolverRules{rulesSeat: r}, nil
}

var _ luabind.RulesSeater = (*Pool)(nil)

// rulesSeat is the parent's end of a battle's rules in a worker. Unlike a
// team's seat it has no second chance: the rules decide the whole battle,
// so when their worker dies, hangs past its wall-clock bound or breaks the
// protocol, the call fails with one line naming rules.lua and the cause,
// the engine stops the battle with it (a RulesError), and every later call
// fails the same way. The worker is never reused after that.
//
// A rulesSeat belongs to the goroutine that steps its battle (the engine
// calls the rules from there only); the Pool it draws from is shared.
type rulesSeat struct {
	pool    *Pool
	w       *proc
	file    string
	budget  int
	teams   int
	classes int
	dead    error
	e       enc
	plainE  luabind.PlainEncoder
	plainD  luabind.PlainDecoder
}

func (p *Pool) startRules(s luabind.RulesSpec) (*rulesSeat, error) {
	if s.Catalog == nil {
		return nil, errors.New("worker: rules need a catalog")
	}
	cat := p.catalog(s.Catalog)
	r := &rulesSeat{pool: p, file: s.File, budget: s.Budget, teams: s.Teams, classes: len(s.Catalog.Classes())}
	if s.Resolver {
		r.classes = len(s.Classes) // births are of the players' classes
	}
	w, err := p.get()
	if err != nil {
		return nil, fmt.Errorf("%s: the rules' worker process could not start: %w", s.File, err)
	}
	r.w = w
	timeout := p.o.CallTimeout + time.Duration(len(cat.files)+1)*time.Duration(s.Catalog.Limits().Instructions+s.Budget)*p.o.PerInstruction
	if !w.catalogs.has(cat.hash) {
		kind, body, err := w.call(cat.frame, replyBase, timeout)
		if err = r.refused(kind, body, err); err != nil {
			return nil, err
		}
		w.catalogs.add(cat.hash)
	}
	e := &r.e
	e.start(kindRulesStart)
	e.b = append(e.b, cat.hash[:]...)
	e.bool(s.Resolver)
	e.int(int(s.Rules))
	e.u(s.Seed)
	e.int(s.Teams)
	e.int(s.Budget)
	names := make([]string, 0, len(s.Options))
	for name := range s.Options {
		names = append(names, name)
	}
	sort.Strings(names)
	putOptions(e, s.Options, names)
	putStrings(e, s.Classes)
	e.bool(s.Wrap)
	e.int(s.Size)
	kind, body, err := w.call(e.finish(), replyBase, timeout)
	if err = r.refused(kind, body, err); err != nil {
		return nil, err
	}
	return r, nil
}

// refused turns the answer to a start request into an error: the rules'
// own (they did not load: the worker stays healthy and goes back to the
// pool) or the worker's death.
func (r *rulesSeat) refused(kind byte, body []byte, err error) error {
	if err == nil {
		d := &dec{b: body}
		switch kind {
		case kindOK:
			if err = d.end(); err == nil {
				return nil
			}
		case kindFail:
			msg := d.str()
			if d.end() == nil {
				r.Close()
				return errors.New(msg)
			}
			err = errMalformed
		default:
			err = errMalformed
		}
	}
	return r.died(err)
}

// died kills the worker after a failed request and returns the error that
// stops the battle, naming rules.lua and the cause.
func (r *rulesSeat) died(err error) error {
	if r.dead != nil {
		return r.dead
	}
	w := r.w
	r.w = nil
	var cause string
	switch {
	case w == nil:
		cause = "is gone"
	case errors.Is(err, errTimeout):
		cause = "was killed after running past its wall-clock bound (isolation.call_timeout)"
	case errors.Is(err, errMalformed):
		cause = "sent a malformed answer and was killed"
	default:
		cause = "died: " + w.cause()
	}
	if w != nil {
		r.pool.discard(w)
	}
	r.dead = fmt.Errorf("%s: the rules' worker process %s", r.file, engine.SafeText(cause))
	return r.dead
}

// timeout is the wall-clock bound of a rules call about n items (answers,
// acts): the floor, the rules' budget at PerInstruction (many times what a
// full budget takes) and room to copy the items.
func (r *rulesSeat) timeout(n int) time.Duration {
	o := &r.pool.o
	return o.CallTimeout + time.Duration(int64(r.budget)+100*int64(n))*o.PerInstruction
}

// call sends the request in r.e and returns a decoder over the answer
// after its status; failed is the rules' own failure, err the worker's.
func (r *rulesSeat) call(n int) (d *dec, failed error, err error) {
	if r.dead != nil {
		return nil, nil, r.dead
	}
	kind, body, err := r.w.call(r.e.finish(), maxRulesReply, r.timeout(n))
	if err != nil {
		return nil, nil, r.died(err)
	}
	if kind != kindOK {
		return nil, nil, r.died(errMalformed)
	}
	return r.status(&dec{b: body})
}

// status reads the status of one call's part of an answer.
func (r *rulesSeat) status(d *dec) (_ *dec, failed error, err error) {
	switch d.byte() {
	case rulesOK:
	case rulesFailed:
		failed = errors.New(d.str())
	default:
		d.fail()
	}
	if d.err != nil {
		return nil, nil, r.died(errMalformed)
	}
	return d, failed, nil
}

// Close ends the rules in their worker and gives the worker back to the
// pool, or kills it if it does not answer.
func (r *rulesSeat) Close() {
	w := r.w
	if w == nil {
		return
	}
	r.w = nil
	r.pool.release(w)
}

// release ends what a worker plays and gives it back to the pool, or
// kills it if it does not answer.
func (p *Pool) release(w *proc) {
	var e enc
	e.start(kindEnd)
	kind, body, err := w.call(e.finish(), replyBase, p.o.CallTimeout)
	if err == nil && kind == kindOK {
		d := &dec{b: body}
		cpu := d.i()
		if d.end() == nil {
			p.put(w, cpu)
			return
		}
	}
	p.discard(w)
}

// modRules is a rule mod's engine.Rules in a worker. The worker edits a
// replica of the board; each answer carries the changes, applied here to
// the battle's board.
type modRules struct {
	*rulesSeat
	told bool // the board's constants were sent
	// ahead is the answer of the turns call the worker ran right after
	// the last resolve (see rulesHost.modOp), for the engine's next Next.
	ahead    []byte
	hasAhead bool
}

var (
	_ engine.Rules = (*modRules)(nil)
	_ engine.Sizer = (*modRules)(nil)
)

func (m *modRules) request(op byte, b *engine.Board) {
	e := &m.e
	e.start(kindRulesCall)
	e.byte(op)
	e.int(b.Round())
	e.int(b.Size())
	putRand(e, b.Rand().State())
	e.bool(!m.told)
	if !m.told {
		e.int(b.Rounds())
		e.bool(b.Wrap())
		putStrings(e, b.Columns())
		m.told = true
	}
}

// apply reads the changes of a call into b; failed is returned as the
// call's error when they were well formed.
func (m *modRules) apply(b *engine.Board, d *dec, failed error, err error) error {
	if err != nil {
		return err
	}
	b.Rand().SetState(getRand(d))
	for range d.count(3) {
		cell, team, mark := d.int(0, maxCells), d.int(-1, maxTeams), engine.Mark(d.int(0, 0xffff))
		if d.err == nil && b.SetCell(cell, team, mark) != nil {
			d.fail()
		}
	}
	for range d.count(3) {
		t, c, v := d.int(0, maxTeams), d.int(0, 1<<20), d.i()
		if d.err == nil && b.SetValue(t, c, int(v)) != nil {
			d.fail()
		}
	}
	decided, winner := d.bool(), d.int(-1, int64(b.Teams())-1)
	if decided && d.err == nil {
		b.Finish(winner)
	}
	for range d.count(2) {
		t := d.int(0, int64(b.Teams())-1)
		for _, u := range getInts(d, maxUnit, 0, maxUnit-1) {
			b.Forget(t, u)
		}
	}
	if d.err != nil {
		return m.died(errMalformed)
	}
	return failed
}

func (m *modRules) Size(b *engine.Board) (int, error) {
	m.request(opSize, b)
	d, failed, err := m.call(0)
	if err = m.apply(b, d, failed, err); err != nil {
		return 0, err
	}
	side := d.int(0, 1<<40)
	if d.end() != nil {
		return 0, m.died(errMalformed)
	}
	return side, nil
}

func (m *modRules) Setup(b *engine.Board) error {
	m.request(opSetup, b)
	d, failed, err := m.call(0)
	if err = m.apply(b, d, failed, err); err != nil {
		return err
	}
	if d.end() != nil {
		return m.died(errMalformed)
	}
	return nil
}

func (m *modRules) Next(b *engine.Board) ([]engine.Call, error) {
	var d *dec
	var failed, err error
	if m.hasAhead {
		m.hasAhead = false
		d, failed, err = m.status(&dec{b: m.ahead})
	} else {
		m.request(opNext, b)
		d, failed, err = m.call(0)
	}
	if err = m.apply(b, d, failed, err); err != nil {
		return nil, err
	}
	n := d.count(5)
	if n > maxUnit {
		d.fail()
	}
	var calls []engine.Call
	m.plainD.Message()
	for range n {
		c := engine.Call{Team: d.int(0, int64(m.teams)-1), Unit: d.int(0, maxUnit-1),
			Class: engine.ClassID(d.int(-1, int64(m.classes)-1)), Budget: d.int(0, 1e9)}
		if d.err != nil {
			break
		}
		var perr error
		if c.View, d.b, perr = m.plainD.Read(d.b); perr != nil {
			d.fail()
			break
		}
		calls = append(calls, c)
	}
	if d.end() != nil {
		return nil, m.died(errMalformed)
	}
	return calls, nil
}

func (m *modRules) Resolve(b *engine.Board, calls []engine.Call, answers []engine.Answer) error {
	m.request(opResolve, b)
	e := &m.e
	e.u(uint64(len(answers)))
	putAnswers(e, answers, &m.plainE)
	d, failed, err := m.call(len(answers))
	if err = m.apply(b, d, failed, err); err != nil {
		return err
	}
	// What follows is the next turns call's answer, read when the engine
	// asks for it.
	m.ahead, m.hasAhead = append(m.ahead[:0], d.b...), true
	return nil
}

// resolverRules is rules of the SquareBattle protocol in a worker. The
// placement and killer streams go there and back with each call.
type resolverRules struct{ *rulesSeat }

var _ engine.Resolver = (*resolverRules)(nil)

func (r *resolverRules) Place(size, teams int, placement *engine.Rand) ([]int, error) {
	e := &r.e
	e.start(kindRulesCall)
	e.byte(opPlace)
	e.int(size)
	e.int(teams)
	putRand(e, placement.State())
	d, failed, err := r.call(0)
	if err != nil {
		return nil, err
	}
	placement.SetState(getRand(d))
	if failed != nil {
		return nil, failed
	}
	cells := getInts(d, teams, -1<<62, 1<<62)
	if d.end() != nil {
		return nil, r.died(errMalformed)
	}
	return cells, nil
}

func (r *resolverRules) Resolve(round int, acts []engine.Act, nextID engine.SquareID, killers *engine.Rand, out *engine.Outcome) error {
	e := &r.e
	e.start(kindRulesCall)
	e.byte(opSettle)
	e.int(round)
	e.int(int(nextID))
	putRand(e, killers.State())
	e.u(uint64(len(acts)))
	for i := range acts {
		putAct(e, &acts[i])
	}
	d, failed, err := r.call(len(acts))
	if err != nil {
		return err
	}
	killers.SetState(getRand(d))
	if failed != nil {
		return failed
	}
	const big = 1 << 62
	out.Dest = getInts(d, len(acts), -big, big)
	nb := d.count(3)
	if nb > len(acts) {
		d.fail()
	}
	for range nb {
		out.Births = append(out.Births, engine.BirthOrder{Parent: engine.SquareID(d.int(-1<<31, 1<<31-1)), Cell: d.int(-big, big),
			Class: engine.ClassID(d.int(0, int64(r.classes)-1))})
	}
	nd := d.count(4)
	if nd > len(acts)+nb {
		d.fail()
	}
	for range nd {
		out.Deaths = append(out.Deaths, engine.DeathOrder{Square: engine.SquareID(d.int(-1<<31, 1<<31-1)), Killer: d.int(-big, big),
			Collision: d.bool(), Own: d.bool()})
	}
	if d.end() != nil {
		return r.died(errMalformed)
	}
	return nil
}

func (r *resolverRules) Over(round, rounds int, squares []int) (bool, error) {
	e := &r.e
	e.start(kindRulesCall)
	e.byte(opOver)
	e.int(round)
	e.int(rounds)
	putInts(e, squares)
	d, failed, err := r.call(len(squares))
	if err != nil {
		return false, err
	}
	if failed != nil {
		return false, failed
	}
	over := d.bool()
	if d.end() != nil {
		return false, r.died(errMalformed)
	}
	return over, nil
}
