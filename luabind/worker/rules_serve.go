package worker

import (
	"errors"

	"github.com/squarebattle/squarebattle/engine"
	"github.com/squarebattle/squarebattle/luabind"
)

// rulesHost is the worker side of a battle's rules: rules.lua in its Lua
// state and, for a rule mod, the replica of the battle's board it edits.
type rulesHost struct {
	mod            *luabind.Rules
	res            *luabind.Resolver
	board          *engine.Board
	values         [][]int // the board's score columns as the parent last heard them
	calls          []engine.Call
	plainE         luabind.PlainEncoder
	plainD         luabind.PlainDecoder
	rand           engine.Rand // a resolver's placement or killer stream, for one call
	teams, classes int
}

func (h *rulesHost) close() {
	if h.mod != nil {
		h.mod.Close()
	}
	if h.res != nil {
		h.res.Close()
	}
}

// startRules loads a battle's rules (kindRulesStart).
func (s *server) startRules(d *dec) error {
	cat, ok := s.catalogNamed(d)
	if !ok {
		return errMalformed
	}
	spec := luabind.RulesSpec{Catalog: cat, Resolver: d.bool(), Extra: s.o.Extra}
	spec.Rules = engine.ClassID(d.int(0, maxClasses))
	spec.Seed = d.u()
	spec.Teams = d.int(0, maxTeams)
	spec.Budget = d.int(0, 1<<40)
	spec.Options = getOptions(d)
	spec.Classes = getStrings(d)
	spec.Wrap = d.bool()
	spec.Size = d.int(0, maxCells)
	if err := d.end(); err != nil {
		return err
	}
	if cat == nil {
		return errors.New("rules start: unknown catalog")
	}
	s.endTeam()
	h := &rulesHost{teams: spec.Teams, classes: len(spec.Classes)}
	var err error
	if spec.Resolver {
		h.res, err = luabind.LoadResolver(spec)
	} else {
		h.mod, err = luabind.LoadRules(spec)
	}
	if err != nil {
		return err
	}
	s.rules = h
	return nil
}

// rulesCall runs one call of the rules (kindRulesCall).
func (s *server) rulesCall(d *dec) []byte {
	h := s.rules
	if h == nil {
		return s.answer(errors.New("rules call: no rules"))
	}
	op := d.byte()
	var reply []byte
	var err error
	if h.mod != nil {
		reply, err = h.modCall(&s.e, op, d)
	} else {
		reply, err = h.resolverCall(&s.e, op, d)
	}
	if err != nil {
		return s.answer(err)
	}
	return reply
}

// status writes the rules' own failure, if any.
func status(e *enc, err error) {
	if err != nil {
		e.byte(rulesFailed)
		e.str(err.Error())
	} else {
		e.byte(rulesOK)
	}
}

func (h *rulesHost) modCall(e *enc, op byte, d *dec) ([]byte, error) {
	round, size, rand := d.int(0, 1<<40), d.int(0, 1<<14), getRand(d)
	if d.bool() {
		rounds, wrap, columns := d.int(0, 1<<40), d.bool(), getStrings(d)
		if d.err == nil && h.board == nil {
			h.board = engine.NewReplicaBoard(h.teams, rounds, wrap, columns)
			h.values = make([][]int, h.teams)
			for t := range h.values {
				h.values[t] = make([]int, len(columns))
			}
		}
	}
	b := h.board
	if d.err == nil && b == nil {
		d.fail()
	}
	var answers []engine.Answer
	if op == opResolve && d.err == nil {
		answers = getAnswers(d, d.count(2), &h.plainD)
	}
	if err := d.end(); err != nil {
		return nil, err
	}
	b.Resize(size)
	b.SetRound(round)
	b.Rand().SetState(rand)
	if op < opSize || op > opResolve {
		return nil, errMalformed
	}
	e.start(kindOK)
	h.modOp(e, op, answers)
	return e.finish(), nil
}

// modOp runs one call of a rule mod's rules on the replica and writes its
// part of the answer. A resolve that succeeds is followed at once by the
// call the engine always makes next, turns, whose part follows: one round
// trip per batch of calls instead of two (a turn queue asks one unit a
// batch). The engine reads nothing of the board in between, so running it
// early changes nothing.
func (h *rulesHost) modOp(e *enc, op byte, answers []engine.Answer) {
	b := h.board
	var err error
	var side int
	var calls []engine.Call
	switch op {
	case opSize:
		side, err = h.mod.Size(b)
	case opSetup:
		err = h.mod.Setup(b)
	case opNext:
		calls, err = h.mod.Next(b)
		h.calls = calls
	case opResolve:
		err = h.mod.Resolve(b, h.calls, answers)
	}
	status(e, err)
	putRand(e, b.Rand().State())
	h.putChanges(e)
	if err != nil {
		return
	}
	switch op {
	case opSize:
		e.int(side)
	case opNext:
		h.plainE.Message()
		e.u(uint64(len(calls)))
		for _, c := range calls {
			e.int(c.Team)
			e.int(c.Unit)
			e.int(int(c.Class))
			e.int(c.Budget)
			e.b = h.plainE.Append(e.b, c.View)
		}
	case opResolve:
		h.modOp(e, opNext, nil)
	}
}

// putChanges writes what the last call changed on the replica board.
func (h *rulesHost) putChanges(e *enc) {
	b := h.board
	var cells enc
	n := 0
	b.TakeChanges(func(cell, team int, m engine.Mark) {
		cells.int(cell)
		cells.int(team)
		cells.int(int(m))
		n++
	})
	e.u(uint64(n))
	e.b = append(e.b, cells.b...)
	var vals enc
	n = 0
	for t := range h.values {
		for c := range h.values[t] {
			if v := b.Value(t, c); v != h.values[t][c] {
				h.values[t][c] = v
				vals.int(t)
				vals.int(c)
				vals.int(v)
				n++
			}
		}
	}
	e.u(uint64(n))
	e.b = append(e.b, vals.b...)
	decided, winner := b.Decision()
	e.bool(decided)
	e.int(winner)
	var forgets enc
	n = 0
	for t := range b.Teams() {
		if units := b.TakeForgotten(t); len(units) > 0 {
			forgets.int(t)
			putInts(&forgets, units)
			n++
		}
	}
	e.u(uint64(n))
	e.b = append(e.b, forgets.b...)
}

func (h *rulesHost) resolverCall(e *enc, op byte, d *dec) ([]byte, error) {
	e.start(kindOK)
	switch op {
	case opPlace:
		size, teams := d.int(0, maxCells), d.int(0, maxTeams)
		h.rand.SetState(getRand(d))
		if err := d.end(); err != nil {
			return nil, err
		}
		cells, err := h.res.Place(size, teams, &h.rand)
		status(e, err)
		putRand(e, h.rand.State())
		if err == nil {
			putInts(e, cells)
		}
	case opSettle:
		round, next := d.int(0, 1<<40), engine.SquareID(d.int(0, 1<<31-1))
		h.rand.SetState(getRand(d))
		n := d.count(6)
		acts := make([]engine.Act, n)
		for i := range acts {
			acts[i] = getAct(d, h.classes)
		}
		if err := d.end(); err != nil {
			return nil, err
		}
		var out engine.Outcome
		err := h.res.Resolve(round, acts, next, &h.rand, &out)
		status(e, err)
		putRand(e, h.rand.State())
		if err == nil {
			putInts(e, out.Dest)
			e.u(uint64(len(out.Births)))
			for _, x := range out.Births {
				e.int(int(x.Parent))
				e.int(x.Cell)
				e.int(int(x.Class))
			}
			e.u(uint64(len(out.Deaths)))
			for _, x := range out.Deaths {
				e.int(int(x.Square))
				e.int(x.Killer)
				e.bool(x.Collision)
				e.bool(x.Own)
			}
		}
	case opOver:
		round, rounds := d.int(0, 1<<40), d.int(0, 1<<40)
		squares := getInts(d, maxTeams, 0, 1<<40)
		if err := d.end(); err != nil {
			return nil, err
		}
		over, err := h.res.Over(round, rounds, squares)
		status(e, err)
		if err == nil {
			e.bool(over)
		}
	default:
		return nil, errMalformed
	}
	return e.finish(), nil
}
