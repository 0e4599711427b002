package worker

import (
	"errors"
	"time"

	"github.com/squarebattle/squarebattle/engine"
	"github.com/squarebattle/squarebattle/luabind"
)

// A rule mod's team plays in a worker as SquareBattle's does, through the
// same Seat (engine.Caller besides engine.Controller): the same start, the
// same crash handling, one request per batch of the team's calls:
//
//	mod call  round first [size players… classes…] forget(units…) calls(unit class budget view)…
//	answer    answers(fault used [value])… report lines…
//
// Views and answers are plain values (luabind.PlainEncoder); a constant
// table is sent once per worker, so the team's Lua state keeps its one copy
// of it as in this process.

// modSent is what the parent has told a worker's team of a rule mod.
type modSent struct {
	told   bool // the battle's constant facts
	plainE luabind.PlainEncoder
	plainD luabind.PlainDecoder
}

// modTeam is what a worker keeps for a rule mod's team between calls.
type modTeam struct {
	facts  engine.ModFacts
	plainD luabind.PlainDecoder
	plainE luabind.PlainEncoder
}

var _ engine.Caller = (*Seat)(nil)

// Call answers a rule mod's calls for the team (engine.Caller). When the
// worker dies or runs past its wall-clock bound, the calls go unanswered
// (the rules see nil), the fault is counted once with a problem naming the
// cause, and the next call starts a fresh worker and Lua state, as for
// SquareBattle's teams.
func (s *Seat) Call(t *engine.ModTurn) {
	if s.retired || len(t.Calls) == 0 {
		return
	}
	class := t.Calls[0].Class
	if class == engine.NoClass {
		class = s.opts.Player
	}
	if s.w == nil {
		s.mod = &modSent{} // a fresh worker knows nothing yet
	}
	if err := s.ensure(); err != nil {
		s.crash(&t.Report, class, err)
		return
	}
	m := s.mod
	e := &s.e
	e.start(kindModCall)
	e.int(t.Facts.Round)
	e.bool(!m.told)
	if !m.told {
		e.int(t.Facts.Size)
		putStrings(e, t.Facts.Players)
		putStrings(e, t.Facts.Classes)
		m.told = true
	}
	putInts(e, t.Forget)
	e.u(uint64(len(t.Calls)))
	m.plainE.Message()
	instructions := int64(0)
	for _, c := range t.Calls {
		e.int(c.Unit)
		e.int(int(c.Class))
		e.int(c.Budget)
		e.b = m.plainE.Append(e.b, c.View)
		if c.Budget > 0 {
			instructions += int64(c.Budget)
		} else {
			instructions += int64(s.limits.Instructions)
		}
	}
	timeout := s.pool.o.CallTimeout + time.Duration(instructions)*s.pool.o.PerInstruction
	kind, body, err := s.w.call(e.finish(), maxRulesReply, timeout)
	if err == nil {
		err = s.readCall(t, kind, body)
	}
	if err != nil {
		for i := range t.Answers {
			t.Answers[i] = engine.Answer{}
		}
		s.crash(&t.Report, class, err)
	}
}

// readCall decodes the answers to a batch of calls; nothing of it is kept
// unless all of it is well formed.
func (s *Seat) readCall(t *engine.ModTurn, kind byte, body []byte) error {
	if kind != kindOK {
		return s.expectOK(kind, body, nil)
	}
	d := &dec{b: body}
	if d.count(2) != len(t.Calls) {
		return errMalformed
	}
	answers := getAnswers(d, len(t.Calls), &s.mod.plainD)
	return s.readTail(d, &t.Report, func() { copy(t.Answers, answers) })
}

// modCall answers a batch of a rule mod's calls (kindModCall).
func (s *server) modCall(d *dec) []byte {
	if s.team == nil {
		return s.answer(errors.New("mod call: no team"))
	}
	if s.mod == nil {
		s.mod = &modTeam{}
	}
	m := s.mod
	const big = 1 << 40
	m.facts.Round = d.int(0, big)
	if d.bool() {
		m.facts.Size = d.int(0, big)
		m.facts.Players = getStrings(d)
		m.facts.Classes = getStrings(d)
	}
	t := &engine.ModTurn{Facts: &m.facts}
	t.Forget = getInts(d, maxUnit, -big, big)
	n := d.count(4)
	t.Calls = make([]engine.Call, n)
	t.Answers = make([]engine.Answer, n)
	m.plainD.Message()
	for i := range t.Calls {
		c := &t.Calls[i]
		c.Unit = d.int(-big, big)
		c.Class = engine.ClassID(d.int(-1, maxClasses))
		c.Budget = d.int(0, 1e9)
		if d.err == nil {
			var err error
			if c.View, d.b, err = m.plainD.Read(d.b); err != nil {
				d.fail()
			}
		}
	}
	if err := d.end(); err != nil {
		return s.answer(err)
	}
	s.team.Call(t)
	e := &s.e
	e.start(kindOK)
	e.u(uint64(n))
	putAnswers(e, t.Answers, &m.plainE)
	putReport(e, &t.Report)
	s.putLines()
	return e.finish()
}
