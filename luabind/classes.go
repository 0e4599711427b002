package luabind

import (
	"fmt"
	"strings"

	lua "github.com/yuin/gopher-lua"

	"github.com/squarebattle/squarebattle/engine"
)

// A team's classes: each script instantiated in the team's Lua state the
// first time one of its squares needs it, and what the team remembers of
// it. Apart from team.go, which builds and runs the state itself.

// classState is one class instantiated inside a team's Lua state.
type classState struct {
	loaded     bool
	env        *lua.LTable
	table      *lua.LTable // what the script returned
	run        *lua.LFunction
	eliminated *lua.LFunction
	err        string // why the class cannot run in this team, if it cannot
	// reported holds a bit for each kind of fault (1 << engine.Fault) of
	// which this class's first problem was reported: the first of each
	// kind always is, so a class that errs every round still shows its
	// first timeout.
	reported uint32
}

// firstOfKind reports whether kind is new for the class, and marks it.
func (cs *classState) firstOfKind(kind engine.Fault) bool {
	bit := uint32(1) << (uint(kind) & 31)
	first := cs.reported&bit == 0
	cs.reported |= bit
	return first
}

// class instantiates a class in the team's state on first use: a fresh
// environment copied from the base library, the chunk run once in it.
func (tm *Team) class(id engine.ClassID) *classState {
	cs := &tm.classes[id]
	if cs.loaded {
		return cs
	}
	cs.loaded = true
	cls := tm.cat.loaded[id]
	L := tm.L
	env := L.CreateTable(0, 64)
	for k, v := tm.base.Next(lua.LNil); k != lua.LNil; k, v = tm.base.Next(k) {
		env.RawSet(k, v)
	}
	ownLibraries(L, env, tm.base)
	env.RawSetString("_G", env)
	tm.strictGlobals(L, env, cls.assigned)
	cs.env = env
	fn := L.NewFunctionFromProto(cls.proto)
	fn.Env = env
	tm.budget.reset(tm.limits.Instructions * loadBudgetFactor)
	L.Push(fn)
	L.Push(tm.concat)
	L.Push(tm.length)
	err := tm.catch.pcall(L, 2, 1)
	tm.narrowStack(L)
	if err != nil {
		msg := tm.errorText(err)
		if tm.budget.spent && !tm.memTripped {
			msg = tm.catch.at(fmt.Sprintf("%s: its top level ran more than %d instructions (limits.instructions); do heavy set-up in the first call of run", errBudget, tm.limits.Instructions*loadBudgetFactor))
		}
		if !strings.HasPrefix(msg, cls.File+":") {
			msg = cls.File + ": " + msg
		}
		cs.err = msg
		return cs
	}
	ret := L.Get(-1)
	L.Pop(1)
	t, ok := ret.(*lua.LTable)
	if !ok {
		cs.err = fmt.Sprintf("%s: the script must return a table, it returned %s", cls.File, ret.Type())
		return cs
	}
	cs.table = t
	entry := tm.opts.Entry
	if entry == "" {
		entry = "run"
	}
	if entry == "-" {
		return cs
	}
	cs.run, _ = t.RawGetString(entry).(*lua.LFunction)
	cs.eliminated, _ = t.RawGetString("eliminated").(*lua.LFunction)
	if cs.run == nil {
		cs.err = fmt.Sprintf("%s: the returned table has no %s function", cls.File, entry)
	}
	return cs
}

// loadBudgetFactor is how many per-call budgets a script's top level may
// use when it is loaded. It is one. Every command that loads a folder
// (players, check, run, tournament, the lobby) runs the top level of every
// file in it, fielded or not, to read names and speeches, so a file allowed
// more would stall all of them for everyone; and the shipped scripts need
// at most about a hundred instructions to declare their tables. A player
// with heavy set-up does it lazily in its first call of run, where the work
// is its own team's.
const loadBudgetFactor = 1
