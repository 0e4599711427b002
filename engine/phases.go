package engine

import "fmt"

// The phases of a SquareBattle round as the teams see them: each team's turn
// collected and decided, then its settlement, every controller run on a
// worker (or first sent, for a Dispatcher) and guarded so that a failing
// one costs only its own team. Apart from battle.go, which steps the round
// around them.

// collectTurn lists the team's squares that act this round and what they
// see. It runs on the team's worker: it writes only the team's own turn
// and its own squares' turn and busy fields, and reads the arena, which
// nobody changes during the phase. Doing it per team keeps the serial part
// of a round small, so the rounds scale with the workers.
func (b *Battle) collectTurn(t int) {
	tt := &b.teams[t].turn
	tt.Squares = tt.Squares[:0]
	tt.Intents = tt.Intents[:0]
	tt.Report.reset()
	team := int32(t)
	for _, id := range b.live {
		sq := &b.squares[id]
		if sq.team != team {
			continue
		}
		sq.turn = -1
		if sq.busy > 0 {
			sq.busy--
			continue
		}
		sq.turn = int32(len(tt.Squares))
		r := Ready{ID: id, Class: sq.class, Row: int(sq.cell) / b.size, Col: int(sq.cell) % b.size}
		nb := b.nbr[int(sq.cell)*8 : int(sq.cell)*8+8]
		for d, cell := range nb {
			switch {
			case cell < 0:
				r.View[d] = Wall
			case b.grid[cell] < 0:
				r.View[d] = Empty
			default:
				r.View[d] = b.squares[b.grid[cell]].team
			}
		}
		tt.Squares = append(tt.Squares, r)
		tt.Intents = append(tt.Intents, WaitIntent)
	}
}

// anySettlement reports whether some team has births or deaths to hear of;
// most rounds none does, and skipping the phase spares the workers a
// hand-off.
func (b *Battle) anySettlement() bool {
	for t := range b.teams {
		s := &b.teams[t].settlement
		if len(s.Births)+len(s.Deaths) > 0 {
			return true
		}
	}
	return false
}

type phase uint8

const (
	phaseTurn phase = iota
	phaseSettle
	phaseCount // how many phases there are
)

// runTeam runs one team's controller for a phase. It is called from worker
// goroutines; it touches only that team's state.
func (b *Battle) runTeam(t int, p phase) {
	ts := &b.teams[t]
	defer b.guard(t, p)
	sent, failed := ts.sent, ts.failed
	ts.sent, ts.failed = false, false
	if failed {
		return
	}
	switch p {
	case phaseTurn:
		if !sent {
			b.collectTurn(t) // a retired team's squares still count down their rest
		}
		if len(ts.turn.Squares) > 0 && !ts.retired {
			ts.setup.Controller.Turn(&ts.turn)
		}
	case phaseSettle:
		if len(ts.settlement.Births)+len(ts.settlement.Deaths) > 0 && !ts.retired {
			ts.setup.Controller.Settle(&ts.settlement)
		}
	}
}

// guard, deferred around a controller's call, keeps a controller bug from
// taking the other teams down: the team's squares wait this round and the
// fault is counted and shown.
func (b *Battle) guard(t int, p phase) {
	if v := recover(); v != nil {
		b.controllerFailed(t, p, v)
	}
}

func (b *Battle) controllerFailed(t int, p phase, v any) {
	ts := &b.teams[t]
	r := &ts.turn.Report
	if p == phaseSettle {
		r = &ts.settlement.Report
	}
	r.Errors++
	r.Problems = append(r.Problems, Problem{Class: NoClass, Square: -1, Kind: FaultError, Message: fmt.Sprintf("controller failed: %v", v)})
	if p == phaseTurn {
		for i := range ts.turn.Intents {
			ts.turn.Intents[i] = WaitIntent
		}
	}
}

// dispatch hands the phase to every team whose controller is a
// Dispatcher, from the battle's goroutine, before any answer is awaited.
func (b *Battle) dispatch(p phase) {
	for t := range b.teams {
		ts := &b.teams[t]
		d, ok := ts.setup.Controller.(Dispatcher)
		if !ok {
			continue
		}
		func() {
			defer func() {
				if v := recover(); v != nil {
					ts.failed = true // runTeam leaves the team alone this phase
					b.controllerFailed(t, p, v)
				}
			}()
			ts.sent = true
			switch p {
			case phaseTurn:
				b.collectTurn(t)
				if len(ts.turn.Squares) > 0 && !ts.retired {
					d.SendTurn(&ts.turn)
				}
			case phaseSettle:
				if len(ts.settlement.Births)+len(ts.settlement.Deaths) > 0 && !ts.retired {
					d.SendSettle(&ts.settlement)
				}
			}
		}()
	}
}

func (b *Battle) forEachTeam(p phase) {
	if b.dispatchers {
		b.dispatch(p)
	}
	if b.workers == nil {
		for t := range b.teams {
			b.runTeam(t, p)
		}
		return
	}
	b.workers.run(len(b.teams), b.phaseJob[p])
}
