package luabind

import (
	"fmt"
	"sort"
	"strings"

	lua "github.com/yuin/gopher-lua"

	"github.com/squarebattle/squarebattle/engine/suggest"
)

// Undefined globals. In plain Lua a misspelt name (`ATACK`, `NORTH`) reads
// as nil, and a player that returns it just waits, silently. Here reading
// a global that nothing defines is an error naming it, with the nearest
// defined name as a suggestion:
//
//   - at run time, each class environment has a metatable whose __index
//     raises the error for a name no SETGLOBAL of the class's file assigns
//     (a name the file assigns somewhere, at its top level or in a
//     function, reads as nil until it is set, as in plain Lua);
//   - statically, UndefinedGlobals lists every GETGLOBAL of a file whose
//     name neither the sandbox nor the file defines, so `check` finds
//     misspellings on paths a trial battle never took.
//
// A script may replace its environment's metatable; it then gets what it
// asked for. The error is deterministic (the suggestion depends only on
// the names) and charged.

// UndefinedGlobal is one read of a global that nothing defines.
type UndefinedGlobal struct {
	Name    string
	Line    int
	Suggest string // the nearest defined name, or ""
}

// Error is the message scripts and `check` show: "X is not defined (did
// you mean Y?)".
func (u UndefinedGlobal) Error() string { return undefinedMessage(u.Name, u.Suggest) }

func undefinedMessage(name, suggest string) string {
	if suggest != "" {
		return fmt.Sprintf("%s is not defined (did you mean %s?)", name, suggest)
	}
	return name + " is not defined"
}

// removed are globals of Lua 5.1 (or of LuaJIT) the sandbox leaves out:
// they read as nil, as code probing for them (`if jit then`) expects.
var removed = func() map[string]bool {
	m := map[string]bool{"jit": true, "arg": true, "bit": true, "bit32": true, "utf8": true, "_ENV": true}
	for _, n := range unsafeGlobals {
		m[n] = true
	}
	return m
}()

// assignedGlobals adds the names of every SETGLOBAL in p and its nested
// functions to into.
func assignedGlobals(p *lua.FunctionProto, into map[string]bool) {
	for _, inst := range p.Code {
		if int(inst>>26) == lua.OP_SETGLOBAL {
			if s, ok := p.Constants[inst&0x3ffff].(lua.LString); ok {
				into[string(s)] = true
			}
		}
	}
	for _, child := range p.FunctionPrototypes {
		assignedGlobals(child, into)
	}
}

// globalReads calls read for every GETGLOBAL in p and its nested
// functions, in the order of the code.
func globalReads(p *lua.FunctionProto, read func(name string, line int)) {
	for pc, inst := range p.Code {
		if int(inst>>26) != lua.OP_GETGLOBAL {
			continue
		}
		if s, ok := p.Constants[inst&0x3ffff].(lua.LString); ok {
			line := 0
			if pc < len(p.DbgSourcePositions) {
				line = p.DbgSourcePositions[pc]
			}
			read(string(s), line)
		}
	}
	for _, child := range p.FunctionPrototypes {
		globalReads(child, read)
	}
}

// UndefinedGlobals lists, once per name and at its first line, the globals
// cls reads that neither the sandbox (libraries, API, constants) nor cls
// itself defines. It runs none of the script.
func (c *Catalog) UndefinedGlobals(cls *Class) []UndefinedGlobal {
	if cls == nil || cls.proto == nil {
		return nil
	}
	tm := NewTeam(TeamOptions{Catalog: c, Size: 1, Teams: 1})
	known := candidates(tm.base, cls.assigned)
	tm.Close()
	defined := map[string]bool{"_G": true}
	for _, k := range known {
		defined[k] = true
	}
	seen := map[string]bool{}
	var out []UndefinedGlobal
	globalReads(cls.proto, func(name string, line int) {
		if seen[name] || defined[name] || removed[name] {
			return
		}
		seen[name] = true
		out = append(out, UndefinedGlobal{Name: name, Line: line, Suggest: suggestName(name, known)})
	})
	return out
}

// candidates are the names a suggestion is drawn from, sorted: the
// string keys of base (the sandbox's globals) and the names a file
// assigns.
func candidates(base *lua.LTable, assigned map[string]bool) []string {
	names := tableNames(base)
	for n := range assigned {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}

// tableNames are the string keys of t, sorted.
func tableNames(t *lua.LTable) []string {
	var names []string
	for k, _ := t.Next(lua.LNil); k != lua.LNil; k, _ = t.Next(k) {
		if s, ok := k.(lua.LString); ok {
			names = append(names, string(s))
		}
	}
	sort.Strings(names)
	return names
}

// directionWords are the long names of the directions people guess.
var directionWords = map[string]string{
	"NORTH": "N", "SOUTH": "S", "EAST": "E", "WEST": "W",
	"NORTHEAST": "NE", "NORTHWEST": "NW", "SOUTHEAST": "SE", "SOUTHWEST": "SW",
	"NORTH_EAST": "NE", "NORTH_WEST": "NW", "SOUTH_EAST": "SE", "SOUTH_WEST": "SW",
}

// maxSuggestName is the longest name a suggestion is looked for: beyond
// it the comparison would cost more than the error is worth.
const maxSuggestName = 40

// suggestName is the name of known nearest to name: a direction's short
// name for its long one, the same name in another case, or the closest by
// edit distance within a third of the name's length. Ties go to the first
// in sorted order, so the answer depends only on the names.
func suggestName(name string, known []string) string {
	if len(name) > maxSuggestName {
		return ""
	}
	if d, ok := directionWords[strings.ToUpper(name)]; ok {
		return d
	}
	best, bestD := "", max(len(name)/3, 1)+1
	for _, k := range known {
		if strings.EqualFold(k, name) {
			return k
		}
		if len(k) > maxSuggestName || abs(len(k)-len(name)) >= bestD {
			continue
		}
		if d := suggest.Distance(strings.ToUpper(name), strings.ToUpper(k)); d < bestD {
			best, bestD = k, d
		}
	}
	return best
}

func abs(n int) int {
	if n < 0 {
		return -n
	}
	return n
}

// strictGlobals gives a class environment the metatable that makes
// reading an undefined global an error (see the top of this file).
// assigned are the names the class's file assigns.
func (tm *Team) strictGlobals(L *lua.LState, env *lua.LTable, assigned map[string]bool) {
	var known []string // the suggestions' candidates, made at the first error
	mt := L.CreateTable(0, 1)
	mt.RawSetString("__index", L.NewFunction(func(L *lua.LState) int {
		name, ok := L.Get(2).(lua.LString)
		if !ok || assigned[string(name)] || removed[string(name)] {
			L.Push(lua.LNil)
			return 1
		}
		if known == nil {
			tm.charge(L, int64(len(assigned))+100) // hashing and sorting them
			known = candidates(tm.base, assigned)
		}
		// each candidate within reach is compared letter by letter
		tm.charge(L, 10+int64(len(known))*int64(min(len(name), maxSuggestName)+1)/4)
		L.RaiseError("%s", undefinedMessage(shortName(string(name)), suggestName(string(name), known)))
		return 0
	}))
	L.SetMetatable(env, mt)
}

// shortName cuts a name for a message: a name built at run time may be
// long and hold anything.
func shortName(name string) string {
	if len(name) > maxSuggestName {
		name = name[:maxSuggestName] + "…"
	}
	return strings.ToValidUTF8(name, "?")
}
