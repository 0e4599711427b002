package luabind

import (
	"fmt"

	lua "github.com/yuin/gopher-lua"

	"github.com/squarebattle/squarebattle/engine"
)

// decode reads what run returned: action, direction, class, data. Values
// are read with type switches only, never through metamethods, which would
// run script code outside the budget. The message is empty when the answer
// is valid.
func (tm *Team) decode(r *engine.Ready, cs *classState) (engine.Intent, string) {
	L := tm.L
	in := engine.Intent{Action: engine.Wait, Child: engine.NoClass, Become: engine.NoClass}
	var ok bool
	switch a := L.Get(-4).(type) {
	case *lua.LNilType:
		if d := L.Get(-3); d != lua.LNil {
			// `return ATACK, S` once waited in silence; undefined
			// globals are errors now, but a nil from a table is not.
			return in, tm.where(cs, "run returned a direction without an action (nil: is its name misspelt? use WAIT, MOVE, ATTACK or REPLICATE)")
		}
		return in, "" // returning nothing waits
	case lua.LString:
		if in.Action, ok = engine.ParseAction(string(a)); !ok {
			return in, tm.returnedAt(cs, fmt.Sprintf("run returned unknown action %q (use WAIT, MOVE, ATTACK or REPLICATE)", clip(string(a))))
		}
	default:
		return in, tm.returnedAt(cs, "run returned a "+a.Type().String()+" as its action (use WAIT, MOVE, ATTACK or REPLICATE)")
	}
	if in.Action == engine.Wait {
		return in, ""
	}
	switch d := L.Get(-3).(type) {
	case lua.LNumber:
		// toWhole and numberString, not Go's conversion and gopher-lua's
		// String: both depend on the machine for numbers like 2^63.
		n, whole := toWhole(float64(d))
		if !whole || lua.LNumber(n) != d || n < 1 || n > 8 {
			return in, tm.returnedAt(cs, fmt.Sprintf("run returned direction %s (use NW, N, NE, E, SE, S, SW, W or 1..8)", numberString(d)))
		}
		in.Dir = engine.Direction(n - 1)
	case lua.LString:
		if in.Dir, ok = engine.ParseDirection(string(d)); !ok {
			return in, tm.returnedAt(cs, fmt.Sprintf("run returned unknown direction %q", clip(string(d))))
		}
	case *lua.LNilType:
		return in, tm.returnedAt(cs, "run returned "+in.Action.String()+" without a direction")
	default:
		return in, tm.returnedAt(cs, "run returned a "+d.Type().String()+" as its direction")
	}
	if in.Action != engine.Replicate {
		return in, ""
	}
	switch c := L.Get(-2).(type) {
	case *lua.LNilType:
		in.Child = r.Class
	case lua.LString:
		if in.Child, ok = tm.cat.classID(string(c)); !ok {
			return in, tm.returnedAt(cs, fmt.Sprintf("run asked to replicate into unknown class %q", clip(string(c))))
		}
	default:
		return in, tm.returnedAt(cs, "run returned a "+c.Type().String()+" as the class to replicate into")
	}
	switch data := L.Get(-1).(type) {
	case *lua.LNilType:
	case *lua.LTable:
		cp, err := tm.copyData(data)
		if err != "" {
			return in, tm.returnedAt(cs, err)
		}
		tm.pending[r.ID] = cp
	default:
		return in, tm.returnedAt(cs, "run returned a "+data.Type().String()+" as the child's data (use a table)")
	}
	return in, ""
}

// returnedAt prefixes a message about what run returned with the
// position of the return that gave it (budget.returned), or of the run
// function when that is unknown.
func (tm *Team) returnedAt(cs *classState, msg string) string {
	if line := tm.budget.returned; line > 0 && cs.run != nil && cs.run.Proto != nil {
		return fmt.Sprintf("%s:%d: %s", cs.run.Proto.SourceName, line, msg)
	}
	return tm.where(cs, msg)
}

// where prefixes a message with the position of the class's run function.
func (tm *Team) where(cs *classState, msg string) string {
	if cs.run != nil && cs.run.Proto != nil {
		return fmt.Sprintf("%s:%d: %s", cs.run.Proto.SourceName, cs.run.Proto.LineDefined, msg)
	}
	return msg
}

func clip(s string) string {
	if len(s) > 40 {
		return s[:40] + "…"
	}
	return s
}

// copyData deep-copies the data a parent hands its child, so that the two
// never share a table. Shared sub-tables stay shared inside the copy, a
// table that contains itself is copied as such, and keys of any type are
// copied faithfully (a table key becomes the copy of that table). The walk
// is iterative, so a deeply nested table costs heap, not goroutine stack,
// and it is bounded: at most limits.instructions entries (the budget of
// the call that made the data) and maxDataDepth levels of nesting. The
// entries copied are charged to the team's memory.
func (tm *Team) copyData(src *lua.LTable) (*lua.LTable, string) {
	type job struct {
		src, dst *lua.LTable
		depth    int
	}
	seen := map[*lua.LTable]*lua.LTable{}
	var queue []job
	fail := ""
	copyOf := func(t *lua.LTable, depth int) *lua.LTable {
		if c, ok := seen[t]; ok {
			return c
		}
		if depth > maxDataDepth && fail == "" {
			fail = fmt.Sprintf("the child's data has tables nested more than %d deep", maxDataDepth)
		}
		c := tm.L.NewTable()
		c.Metatable = t.Metatable
		seen[t] = c
		queue = append(queue, job{t, c, depth})
		return c
	}
	out := copyOf(src, 1)
	steps := 0
	for len(queue) > 0 && fail == "" {
		j := queue[len(queue)-1]
		queue = queue[:len(queue)-1]
		for k, v := j.src.Next(lua.LNil); k != lua.LNil; k, v = j.src.Next(k) {
			steps++
			if steps > tm.limits.Instructions {
				fail = fmt.Sprintf("the child's data has more than %d entries", tm.limits.Instructions)
				break
			}
			ck, cv := k, v
			if kt, ok := k.(*lua.LTable); ok {
				ck = copyOf(kt, j.depth+1)
			}
			if vt, ok := v.(*lua.LTable); ok {
				cv = copyOf(vt, j.depth+1)
			}
			j.dst.RawSet(ck, cv)
		}
	}
	tm.charged += int64(steps)*64 + int64(len(seen))*96
	return out, fail
}

// maxDataDepth bounds the nesting of a child's data.
const maxDataDepth = 200
