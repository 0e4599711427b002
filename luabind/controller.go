package luabind

import (
	"fmt"
	"strings"
	"unsafe"

	lua "github.com/yuin/gopher-lua"

	"github.com/squarebattle/squarebattle/engine"
)

// Team as SquareBattle's engine.Controller: the turn that asks every ready
// square for its intent, the settlement that hands data to the newborn and
// runs the eliminated hooks, and the problems they report. A rule mod calls
// its teams through modcall.go instead; both share the Team of team.go.

// Turn asks every ready square of the team for its intent.
func (tm *Team) Turn(t *engine.Turn) {
	tm.facts = t.Facts
	tm.phaseStamp++
	clear(tm.pending)
	clear(tm.plans)
	for i := range t.Squares {
		t.Intents[i] = tm.turn(t, &t.Squares[i])
	}
}

func (tm *Team) turn(t *engine.Turn, r *engine.Ready) engine.Intent {
	cs := tm.class(r.Class)
	if cs.err != "" {
		tm.problem(t, &t.Report, r.Class, r.ID, engine.FaultError, cs.err, "")
		return engine.Intent{Action: engine.Wait, Child: engine.NoClass, Become: engine.NoClass, Fault: engine.FaultError}
	}
	self := tm.self(r.ID)
	if tm.beforeCall() {
		tm.memoryReset(&t.Report, t.Facts.Round, cs)
		self = tm.self(r.ID)
		cs = tm.class(r.Class)
		if cs.err != "" {
			return engine.Intent{Action: engine.Wait, Child: engine.NoClass, Become: engine.NoClass, Fault: engine.FaultError}
		}
	}
	L := tm.L
	tm.fillView(&r.View)
	L.Push(cs.run)
	L.Push(self)
	L.Push(tm.num(tm.index))
	L.Push(tm.view)
	L.Push(tm.num(r.Row))
	L.Push(tm.num(r.Col))
	tm.inRun, tm.become, tm.cur = true, engine.NoClass, r
	fault, msg := tm.call(5, 4)
	tm.inRun, tm.cur = false, nil
	trace := tm.trace
	var in engine.Intent
	if fault == engine.NoFault {
		trace = ""
		in, msg = tm.decode(r, cs)
		if msg != "" {
			fault = engine.FaultError
		}
	}
	L.SetTop(0)
	if fault != engine.NoFault {
		msg = tm.located(r.Class, cs, msg)
		tm.problem(t, &t.Report, r.Class, r.ID, fault, msg, trace)
		if tm.memTripped {
			tm.memoryReset(&t.Report, t.Facts.Round, cs)
		}
		return engine.Intent{Action: engine.Wait, Child: engine.NoClass, Become: engine.NoClass, Fault: fault}
	}
	in.Become = tm.become
	return in
}

// fillView writes a square's eight neighbours into the shared view table.
// A script may have changed the table, so all eight are written each call.
// While its array part still has the eight slots (all a script can do to
// it short of shrinking it), they are stored straight into the array, as
// RawSetInt would but without a call per slot.
func (tm *Team) fillView(v *[8]int32) {
	if tableLayoutOK {
		if a := (*lTable)(unsafe.Pointer(tm.view)).array; len(a) >= 8 {
			a = a[:8]
			for d, n := range v {
				a[d] = tm.num(int(n))
			}
			return
		}
	}
	for d, n := range v {
		tm.view.RawSetInt(d+1, tm.num(int(n)))
	}
}

// problem reports a fault for people to read: always the first of each class,
// then at most one per round, so a script failing on every square does not
// flood the log.
func (tm *Team) problem(t *engine.Turn, rep *engine.Report, class engine.ClassID, id engine.SquareID, kind engine.Fault, msg, trace string) {
	cs := &tm.classes[class]
	round := t.Facts.Round
	if !cs.firstOfKind(kind) && tm.lastProblemRound == round {
		return
	}
	tm.lastProblemRound = round
	rep.Problems = append(rep.Problems, engine.Problem{Class: class, Square: id, Kind: kind, Message: msg, Trace: trace})
}

// inHook places a hook's problem at the line that raised it, or at the
// hook's own line when the message carries none (budget, non-string error
// values), and names the hook after the position: "file:12: eliminated: …".
func (tm *Team) inHook(class engine.ClassID, fn *lua.LFunction, hook, msg string) string {
	file := tm.cat.loaded[class].File + ":"
	if rest, ok := strings.CutPrefix(msg, file); ok {
		if line, text, ok := strings.Cut(rest, ": "); ok {
			return file + line + ": " + hook + ": " + text
		}
	}
	return fmt.Sprintf("%s%d: %s: %s", file, fn.Proto.LineDefined, hook, msg)
}

// Settle gives newborn squares their initial data and runs the eliminated
// hooks of the team's dead squares.
func (tm *Team) Settle(s *engine.Settlement) {
	tm.facts = s.Facts
	tm.phaseStamp++
	for _, b := range s.Births {
		data, ok := tm.pending[b.Parent]
		if !ok {
			tm.self(b.Child) // a fresh self, as it always was
			continue
		}
		// The parent's data is the child's self: no table is made only to
		// be replaced at once (nothing could have reached it).
		tm.growSelves(b.Child)
		tm.selves[b.Child] = data
		delete(tm.pending, b.Parent)
	}
	for _, d := range s.Deaths {
		tm.eliminated(s, d)
		if int(d.Square) < len(tm.selves) {
			tm.selves[d.Square] = nil
		}
	}
}

func (tm *Team) eliminated(s *engine.Settlement, d engine.Death) {
	cs := tm.class(d.Class)
	if cs.eliminated == nil {
		return
	}
	L := tm.L
	L.Push(cs.eliminated)
	L.Push(tm.self(d.Square))
	L.Push(tm.num(tm.index))
	L.Push(tm.killers[d.Killer])
	L.Push(tm.num(d.Row))
	L.Push(tm.num(d.Col))
	L.Push(tm.num(d.Killer))
	fault, msg := tm.call(6, 0)
	L.Pop(L.GetTop())
	if fault == engine.NoFault {
		return
	}
	switch fault {
	case engine.FaultTimeout:
		s.Report.Timeouts++
	default:
		s.Report.Errors++
	}
	cs2 := &tm.classes[d.Class]
	if cs2.firstOfKind(fault) || tm.lastProblemRound != s.Facts.Round {
		tm.lastProblemRound = s.Facts.Round
		s.Report.Problems = append(s.Report.Problems, engine.Problem{Class: d.Class, Square: d.Square, Kind: fault, Message: tm.inHook(d.Class, cs.eliminated, "eliminated", msg), Trace: tm.trace})
	}
	if tm.memTripped {
		tm.memoryReset(&s.Report, s.Facts.Round, cs)
	}
}
