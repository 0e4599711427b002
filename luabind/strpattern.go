package luabind

import (
	"math"
	"strings"

	lua "github.com/yuin/gopher-lua"

	"github.com/squarebattle/squarebattle/luabind/luapattern"
)

// find, match, gmatch (and gfind) and gsub on the project's own matcher
// (luabind/luapattern), whose every step is counted: the matcher gets what
// is left of the call's budget as steps and the steps it used are charged
// back. Captures are returned through part, so none pins its subject.

// The compiled-pattern cache. Compiled patterns live outside Lua, where
// the memory census cannot see them, so the cache is bounded by entries and
// by bytes; a pattern too large to cache is compiled for the call and
// dropped. Compiling is charged on every miss. When the cache is full it is
// emptied, which is deterministic (a team's calls come in a fixed order).
const (
	maxCachedPatterns    = 256
	maxPatternCacheBytes = 256 << 10
	maxCachedPattern     = 4 << 10 // source bytes
)

type patternKey struct {
	src    string
	gmatch bool
}

type patternCache struct {
	m     map[patternKey]*luapattern.Pattern
	bytes int
}

// compiled returns pat compiled, for gmatch (no anchor) or for the others.
func (tm *Team) compiled(L *lua.LState, pat string, gmatch bool) *luapattern.Pattern {
	c := &tm.patterns
	if p, ok := c.m[patternKey{pat, gmatch}]; ok {
		return p
	}
	// Compiling walks the pattern once and allocates about 12 bytes per
	// pattern byte.
	tm.charge(L, int64(len(pat)/4+1))
	cacheIt := len(pat) <= maxCachedPattern
	if cacheIt {
		pat = strings.Clone(pat) // the key must not pin a larger string
	}
	var p *luapattern.Pattern
	var err error
	if gmatch {
		p, err = luapattern.CompileGmatch(pat)
	} else {
		p, err = luapattern.Compile(pat)
	}
	if err != nil {
		raise(L, "%s", err.Error())
	}
	if !cacheIt {
		return p
	}
	size := p.Size() + len(pat)
	if c.m == nil || len(c.m) >= maxCachedPatterns || c.bytes+size > maxPatternCacheBytes {
		c.m = make(map[patternKey]*luapattern.Pattern, 16)
		c.bytes = 0
	}
	c.m[patternKey{pat, gmatch}] = p
	c.bytes += size
	return p
}

// stepMeter lends the matcher the call's remaining budget as steps and
// charges back what it used. Steps left over from one settlement are
// carried to the next, so a gsub that settles before every callback pays
// for its steps once, not rounded up at each settlement.
type stepMeter struct {
	left  int64 // steps the matcher may still take
	start int64 // left at the last settlement
}

func (tm *Team) startSteps() stepMeter {
	n := tm.stepsLeft()
	return stepMeter{left: n, start: n}
}

// stepsLeft is the call's remaining budget in steps (a budget too large to
// convert is capped, never wrapped round to a negative count).
func (tm *Team) stepsLeft() int64 {
	return min(tm.budget.remaining(), math.MaxInt64/(2*stepsPerInstruction)) * stepsPerInstruction
}

// settle charges the steps used since the last settlement (rounded up when
// final) and raises the budget error when they exceed the budget or the
// matcher ran out; another matcher error is raised as it is.
func (tm *Team) settle(L *lua.LState, sm *stepMeter, err error, final bool) {
	used := sm.start - sm.left
	n := used / stepsPerInstruction
	if final && used%stepsPerInstruction != 0 {
		n++
	}
	carried := used - n*stepsPerInstruction
	if !tm.budget.charge(n) || err == luapattern.ErrBudget {
		tm.budget.spent = true
		L.RaiseError("%s", errBudget.Error())
	}
	if err != nil {
		raise(L, "%s", err.Error())
	}
	sm.start = tm.stepsLeft() - carried
	sm.left = sm.start
}

// pushCaptures pushes a match's captures (position captures as numbers),
// or the whole match when the pattern has none and whole is set.
func (tm *Team) pushCaptures(L *lua.LState, s string, m luapattern.Match, whole bool) int {
	if len(m.Captures) == 0 {
		if !whole {
			return 0
		}
		L.Push(tm.part(L, s, m.Start, m.End))
		return 1
	}
	for _, c := range m.Captures {
		L.Push(tm.capture(L, s, c))
	}
	return len(m.Captures)
}

func (tm *Team) capture(L *lua.LState, s string, c luapattern.Capture) lua.LValue {
	if c.Position {
		return lua.LNumber(c.Start + 1)
	}
	return tm.part(L, s, c.Start, c.End)
}

// patternSpecials are the bytes that make string.find match a pattern
// rather than search for plain text (lstrlib.c's SPECIALS).
const patternSpecials = "^$*+?.([%-"

// plainPattern reports whether find may search for pat as plain text: no
// special byte before its first NUL (lstrlib.c reads it with strpbrk).
func plainPattern(pat string) bool {
	if k := strings.IndexByte(pat, 0); k >= 0 {
		pat = pat[:k]
	}
	return !strings.ContainsAny(pat, patternSpecials)
}

func (tm *Team) strFind(L *lua.LState) int  { return tm.find(L, true) }
func (tm *Team) strMatch(L *lua.LState) int { return tm.find(L, false) }

// find is string.find (find set) or string.match, as lstrlib.c's
// str_find_aux: init is relative to the end when negative and clamped to
// [1, #s+1].
func (tm *Team) find(L *lua.LState, find bool) int {
	s := strArg(L, 1)
	pat := strArg(L, 2)
	init := relPos(optIntArg(L, 3, 1), len(s)) - 1
	init = min(max(init, 0), len(s))
	if find && (lua.LVAsBool(L.Get(4)) || plainPattern(pat)) {
		tm.charge(L, int64(len(s)-init+len(pat))/bytesPerInstruction)
		k := strings.Index(s[init:], pat)
		if k < 0 {
			L.Push(lua.LNil)
			return 1
		}
		L.Push(lua.LNumber(init + k + 1))
		L.Push(lua.LNumber(init + k + len(pat)))
		return 2
	}
	p := tm.compiled(L, pat, false)
	sm := tm.startSteps()
	m, ok, err := p.Find(s, init, &sm.left)
	tm.settle(L, &sm, err, true)
	if !ok {
		L.Push(lua.LNil)
		return 1
	}
	if find {
		L.Push(lua.LNumber(m.Start + 1))
		L.Push(lua.LNumber(m.End))
		return 2 + tm.pushCaptures(L, s, m, false)
	}
	return tm.pushCaptures(L, s, m, true)
}

// strGmatch is string.gmatch (and gfind). Its iterator is a Lua closure
// of one shared Go function whose upvalues hold the subject, the pattern
// and the position: the memory census walks upvalues, so it sees the
// subject an iterator keeps alive. The compiled pattern is looked up in the
// cache at each step (and recompiled, charged, if it was dropped) rather
// than held where the census cannot see it. As in Lua 5.1, a malformed
// pattern is an error of the first step, not of gmatch itself.
func (tm *Team) strGmatch(L *lua.LState) int {
	s := strArg(L, 1)
	pat := strArg(L, 2)
	L.Push(L.NewClosure(tm.gmatchIter, lua.LString(s), lua.LString(pat), lua.LNumber(0)))
	return 1
}

func (tm *Team) gmatchIter(L *lua.LState) int {
	s, _ := L.Get(lua.UpvalueIndex(1)).(lua.LString)
	pat, _ := L.Get(lua.UpvalueIndex(2)).(lua.LString)
	pos, _ := L.Get(lua.UpvalueIndex(3)).(lua.LNumber)
	if int(pos) > len(s) {
		return 0
	}
	p := tm.compiled(L, string(pat), true)
	sm := tm.startSteps()
	m, next, ok, err := p.GmatchNext(string(s), int(pos), &sm.left)
	tm.settle(L, &sm, err, true)
	L.Replace(lua.UpvalueIndex(3), lua.LNumber(next))
	if !ok {
		return 0
	}
	return tm.pushCaptures(L, string(s), m, true)
}

// strGsub is string.gsub. Its cost is linear: the matcher's steps, and the
// result's bytes charged as they are appended (byteMeter), never the whole
// result again at each replacement.
func (tm *Team) strGsub(L *lua.LState) int {
	s := strArg(L, 1)
	pat := strArg(L, 2)
	repl := L.Get(3)
	maxN := optIntArg(L, 4, len(s)+1) // before repl's type, as lstrlib.c reads them
	var replText string
	switch r := repl.(type) {
	case lua.LString, lua.LNumber:
		replText, _ = valueString(r)
	case *lua.LTable, *lua.LFunction:
	default:
		argError(L, 3, "string/function/table expected")
	}
	p := tm.compiled(L, pat, false)
	meter := byteMeter{tm: tm}
	out := tm.takeBuild()
	sm := tm.startSteps()
	pos, count := 0, 0
	for count < maxN {
		if sm.left -= attemptSteps; sm.left < 0 {
			tm.settle(L, &sm, luapattern.ErrBudget, true)
		}
		m, ok, err := p.MatchAt(s, pos, &sm.left)
		if err != nil {
			tm.settle(L, &sm, err, true)
		}
		if ok {
			count++
			switch r := repl.(type) {
			case *lua.LTable, *lua.LFunction:
				// The callback or a metamethod runs Lua under the
				// same budget: settle the steps so far first.
				tm.settle(L, &sm, nil, false)
				var v lua.LValue
				if t, isTable := r.(*lua.LTable); isTable {
					key := tm.part(L, s, m.Start, m.End)
					if len(m.Captures) > 0 {
						key = tm.capture(L, s, m.Captures[0])
					}
					v = tm.gsubLookup(L, t, key)
				} else {
					L.Push(r)
					L.Call(tm.pushCaptures(L, s, m, true), 1)
					v = L.Get(-1)
					L.Pop(1)
				}
				sm = tm.startSteps()
				out = tm.appendReplacement(L, &meter, out, v, s[m.Start:m.End])
			default:
				n, err := luapattern.ExpandSize(replText, s, m)
				if err != nil {
					raise(L, "%s", err.Error())
				}
				meter.add(L, n)
				out, _ = luapattern.Expand(out, replText, s, m)
			}
		}
		switch {
		case ok && m.End > pos:
			pos = m.End
		case pos < len(s):
			meter.add(L, 1)
			out = append(out, s[pos])
			pos++
		default:
			pos = len(s) + 1
		}
		if pos > len(s) || p.Anchored() {
			break
		}
	}
	if pos < len(s) {
		meter.add(L, len(s)-pos)
		out = append(out, s[pos:]...)
	}
	tm.settle(L, &sm, nil, true)
	L.Push(lua.LString(out))
	tm.giveBuild(out)
	L.Push(lua.LNumber(count))
	return 2
}

// gsubLookup is t[key] for gsub's table replacement as Lua 5.1's
// luaV_gettable does it inside the C function gsub: the raw entry, else
// t's __index (a function called with t and key, or a value indexed in
// turn), at most lua.MaxTableGetLoop tables deep; indexing a value with no
// __index is "attempt to index a number value", with no position (Lua
// 5.1 adds none inside a C function), never gopher-lua's message. Each
// table after the first is charged the key's bytes (hashed again there).
func (tm *Team) gsubLookup(L *lua.LState, t *lua.LTable, key lua.LValue) lua.LValue {
	var cur lua.LValue = t
	for i := range lua.MaxTableGetLoop {
		if i > 0 {
			tm.charge(L, keyCost(key))
		}
		var mm lua.LValue
		if tt, ok := cur.(*lua.LTable); ok {
			if v := tt.RawGet(key); v != lua.LNil {
				return v
			}
			if mm = L.GetMetaField(tt, "__index"); mm == lua.LNil {
				return lua.LNil
			}
		} else if mm = L.GetMetaField(cur, "__index"); mm == lua.LNil {
			runError(L, "attempt to index a %s value", cur.Type().String())
		}
		if f, ok := mm.(*lua.LFunction); ok {
			L.Push(f)
			L.Push(cur)
			L.Push(key)
			L.Call(2, 1)
			v := L.Get(-1)
			L.Pop(1)
			return v
		}
		cur = mm
	}
	runError(L, "loop in gettable")
	return lua.LNil
}

// appendReplacement appends what a gsub table or function gave for a
// match: false or nil keep the match itself, a string or a number replace
// it, anything else is an error.
func (tm *Team) appendReplacement(L *lua.LState, meter *byteMeter, out []byte, v lua.LValue, whole string) []byte {
	var add string
	switch v := v.(type) {
	case *lua.LNilType:
		add = whole
	case lua.LBool:
		if v {
			raise(L, "invalid replacement value (a boolean)")
		}
		add = whole
	case lua.LString:
		add = string(v)
	case lua.LNumber:
		add = numberString(v)
	default:
		raise(L, "invalid replacement value (a %s)", v.Type().String())
	}
	meter.add(L, len(add))
	return append(out, add...)
}
