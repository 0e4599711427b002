package luabind

import (
	"fmt"

	lua "github.com/yuin/gopher-lua"

	"github.com/squarebattle/squarebattle/engine"
)

// maxUnit bounds the unit ids a rule mod may use: a unit's private table
// lives in a slice indexed by its id.
const maxUnit = 1 << 16

// Call answers a rule mod's calls for this team (engine.Caller). Each call
// runs the class's entry function as entry(view, memory): view is a fresh
// copy of what the rules chose to show, memory the unit's private table,
// kept from call to call (unit 0 is the team's own memory, for games with
// one call per team). The first value returned is the answer, copied out
// as plain data; anything else (a function, a table holding itself) is an
// error, and so is running out of budget, as in SquareBattle.
func (tm *Team) Call(t *engine.ModTurn) {
	tm.facts = &engine.Facts{Round: t.Facts.Round, Size: t.Facts.Size, Players: t.Facts.Players, Classes: t.Facts.Classes, TeamCount: len(t.Facts.Players)}
	tm.phaseStamp++
	for _, u := range t.Forget {
		if u >= 0 && u < len(tm.selves) {
			tm.selves[u] = nil
		}
	}
	for i, c := range t.Calls {
		t.Answers[i] = tm.modCall(t, c)
	}
}

func (tm *Team) modCall(t *engine.ModTurn, c engine.Call) engine.Answer {
	class := c.Class
	if class == engine.NoClass {
		class = tm.opts.Player
	}
	fail := func(kind engine.Fault, msg string) engine.Answer {
		tm.modProblem(t, class, c.Unit, kind, msg, "")
		return engine.Answer{Fault: kind}
	}
	if class < 0 || int(class) >= len(tm.classes) {
		return fail(engine.FaultError, fmt.Sprintf("class %d does not exist", class))
	}
	if c.Unit < 0 || c.Unit >= maxUnit {
		return fail(engine.FaultError, fmt.Sprintf("unit %d is out of range (0 to %d)", c.Unit, maxUnit-1))
	}
	cs := tm.class(class)
	if cs.err != "" {
		return fail(engine.FaultError, cs.err)
	}
	if tm.beforeCall() {
		tm.memoryReset(&t.Report, t.Facts.Round, cs)
		if cs = tm.class(class); cs.err != "" {
			return engine.Answer{Fault: engine.FaultError}
		}
	}
	L := tm.L
	if tm.kept == nil {
		tm.kept = map[*plainTable]*lua.LTable{}
	}
	// The view is charged to the team's memory by the entries built in its
	// state: a constant table already kept there costs nothing again.
	var built int64
	view := fromPlainKept(L, c.View, tm.kept, &built)
	tm.charged += built * 40
	L.Push(cs.run)
	L.Push(view)
	L.Push(tm.self(engine.SquareID(c.Unit)))
	limit := tm.limits.Instructions
	if c.Budget > 0 {
		limit = c.Budget
	}
	fault, msg, used := tm.callWithin(2, 1, limit)
	trace := tm.trace
	var answer any
	if fault == engine.NoFault {
		// Copying the answer is the team's work: each entry copied (a
		// shared sub-table once per place it appears, as the rules will
		// build it) is paid from what is left of the call's budget, and an
		// answer bigger than that is refused before it is copied further.
		cp := newPlainCopier()
		left := tm.budget.remaining()
		cp.limit = int(min(int64(maxPlainEntries), left*valuesPerInstruction))
		var err error
		answer, err = cp.plain(L.Get(-1))
		paid := int64(cp.entries) / valuesPerInstruction
		used += int(min(paid, left))
		if err != nil {
			fault, msg, trace = engine.FaultError, tm.returnedAt(cs, "the answer is "+err.Error()), ""
		}
	}
	L.SetTop(0)
	if fault != engine.NoFault {
		tm.modProblem(t, class, c.Unit, fault, tm.located(class, cs, msg), trace)
		if tm.memTripped {
			tm.memoryReset(&t.Report, t.Facts.Round, cs)
		}
		return engine.Answer{Fault: fault, Used: used}
	}
	return engine.Answer{Value: answer, Used: used}
}

// modProblem reports a fault sparingly, as problem does for SquareBattle.
func (tm *Team) modProblem(t *engine.ModTurn, class engine.ClassID, unit int, kind engine.Fault, msg, trace string) {
	round := t.Facts.Round
	if class >= 0 && int(class) < len(tm.classes) {
		cs := &tm.classes[class]
		if !cs.firstOfKind(kind) && tm.lastProblemRound == round {
			return
		}
	}
	tm.lastProblemRound = round
	t.Report.Problems = append(t.Report.Problems, engine.Problem{Class: class, Square: engine.SquareID(unit), Kind: kind, Message: msg, Trace: trace})
}

// Team is the player side of both SquareBattle and the rule mods.
var (
	_ engine.Controller = (*Team)(nil)
	_ engine.Caller     = (*Team)(nil)
)
