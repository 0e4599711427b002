package luabind

import (
	"errors"
	"fmt"
	"strings"

	lua "github.com/yuin/gopher-lua"

	"github.com/squarebattle/squarebattle/engine"
)

// rulesVM is a rules script loaded in a Lua state of its own: the table it
// returned and the game table its functions get. Rules (rule mods) and
// Resolver (SquareBattle's players under rules in Lua) are both built on
// it; what differs is the game table and which functions they call.
type rulesVM struct {
	tm     *Team
	cs     *classState
	file   string
	budget int         // instructions per call (limits.rules_instructions)
	game   *lua.LTable // set by the owner before the first run
	used   int64       // instructions run by all calls so far
}

// loadRulesVM runs the rules class id of cat in a fresh sandboxed state;
// extra are globals only a worker's tests add (TeamOptions.Extra).
func loadRulesVM(cat *Catalog, id engine.ClassID, seed uint64, teams, budget int, extra ...Global) (*rulesVM, error) {
	teams = max(teams, 1)
	tm := NewTeam(TeamOptions{Catalog: cat, Seed: seed, Size: 1, Teams: teams, Killers: make([]string, teams), Entry: "-", Extra: extra})
	tm.limits.Instructions = budget
	tm.facts = &engine.Facts{}
	cs := tm.class(id)
	if cs.err != "" {
		tm.Close()
		return nil, errors.New(cs.err)
	}
	return &rulesVM{tm: tm, cs: cs, file: cat.loaded[id].File, budget: budget}, nil
}

// function returns a function of the rules' table, or nil.
func (v *rulesVM) function(name string) *lua.LFunction {
	fn, _ := v.cs.table.RawGetString(name).(*lua.LFunction)
	return fn
}

// Close releases the Lua state.
func (v *rulesVM) Close() { v.tm.Close() }

// where is the file and line a rules function starts on.
func where(fn *lua.LFunction) string {
	return fmt.Sprintf("%s:%d", fn.Proto.SourceName, fn.Proto.LineDefined)
}

// overMemory is the error of a rules call that found the rules' Lua state
// over its memory bound, before or during the call.
func (v *rulesVM) overMemory(fn *lua.LFunction, name string) error {
	return fmt.Errorf("%s: %s: %v: the rules' Lua heap is over %d MiB (limits.memory_mib)", where(fn), name, errMemory, v.tm.limits.MemoryBytes>>20)
}

// run calls fn(game, args...) under the rules budget and returns its first
// nret results. A failure is one line naming the rules file and line.
func (v *rulesVM) run(name string, fn *lua.LFunction, nret int, args ...lua.LValue) ([]lua.LValue, error) {
	L := v.tm.L
	if v.tm.beforeCall() {
		return nil, v.overMemory(fn, name)
	}
	L.Push(fn)
	L.Push(v.game)
	for _, a := range args {
		L.Push(a)
	}
	fault, msg, used := v.tm.callWithin(1+len(args), nret, v.budget)
	v.used += int64(used)
	defer L.SetTop(0)
	switch fault {
	case engine.NoFault:
		out := make([]lua.LValue, nret)
		for i := range out {
			out[i] = L.Get(i + 1)
		}
		return out, nil
	case engine.FaultTimeout:
		return nil, fmt.Errorf("%s: %s ran more than %d instructions (limits.rules_instructions)", where(fn), name, v.budget)
	}
	if v.tm.memTripped {
		return nil, v.overMemory(fn, name)
	}
	if !strings.HasPrefix(msg, v.file) {
		msg = where(fn) + ": " + msg
	}
	return nil, errors.New(msg)
}
