package luabind

import (
	"math"
	"strconv"
	"strings"

	lua "github.com/yuin/gopher-lua"
)

// The base library: the project's own version of every function whose Go
// work grows with its arguments, with Lua 5.1's semantics. gopher-lua's
// builtins are one instruction however long they run: its error and assert
// copy the whole message to prefix a position, tonumber and rawequal read
// whole strings, select and unpack move any number of values, next walks
// every key a table ever had (nextkeys.go). Each function here charges the
// budget for that work before doing it (cost.go) and is refused when the
// budget left does not pay for it.
//
// pcall and xpcall are the project's too (pcall.go): gopher-lua's format a
// stack traceback for every error they catch. getmetatable and type are
// the project's for their argument errors, which gopher-lua words without
// the function's name; _VERSION remains gopher-lua's.

// openBase puts the project's base functions into base.
func (tm *Team) openBase(L *lua.LState, base *lua.LTable) {
	next := L.NewFunction(tm.luaNext)
	// A list, not a map: the order of insertion is the order pairs gives.
	for _, f := range []struct {
		name string
		fn   *lua.LFunction
	}{
		{"assert", L.NewFunction(tm.luaAssert)},
		{"error", L.NewFunction(tm.luaError)},
		{"getmetatable", L.NewFunction(luaGetMetatable)},
		{"ipairs", ipairs(L)},
		{"next", next},
		{"pairs", pairs(L, next)},
		{"print", L.NewFunction(tm.luaPrint)},
		{"rawequal", L.NewFunction(tm.luaRawEqual)},
		{"rawget", L.NewFunction(tm.luaRawGet)},
		{"rawset", L.NewFunction(tm.luaRawSet)},
		{"select", L.NewFunction(tm.luaSelect)},
		{"setmetatable", L.NewFunction(luaSetMetatable)},
		{"tonumber", L.NewFunction(tm.luaToNumber)},
		{"tostring", L.NewFunction(luaToString)},
		{"type", L.NewFunction(luaType)},
		{"unpack", L.NewFunction(tm.luaUnpack)},
	} {
		base.RawSetString(f.name, f.fn)
	}
	openPCall(L, base, tm)
}

// luaGetMetatable is getmetatable(v): v's metatable, or its __metatable
// field when it has one. gopher-lua's own reads its argument with
// CheckAny, whose error names no function ("bad argument #1 to
// (anonymous)") where Lua says 'getmetatable'.
func luaGetMetatable(L *lua.LState) int {
	L.Push(L.GetMetatable(checkAny(L, 1)))
	return 1
}

// luaType is type(v), with Lua's argument error for a missing v.
func luaType(L *lua.LState) int {
	L.Push(lua.LString(checkAny(L, 1).Type().String()))
	return 1
}

// luaToString is tostring without memory addresses: a script that keyed its
// decisions on an address would make battles irreproducible.
//
// As in Lua 5.1, tostring returns whatever a __tostring metamethod
// returns, a string or not; print and the other callers of toString
// insist on a string.
func luaToString(L *lua.LState) int {
	v := checkAny(L, 1)
	if mm := L.GetMetaField(v, "__tostring"); mm != lua.LNil {
		mustCall(L, mm, runError)
		L.Push(mm)
		L.Push(v)
		L.Call(1, 1)
		return 1
	}
	L.Push(lua.LString(toString(L, v)))
	return 1
}

// mustCall raises, through fail, Lua's error for calling fn when fn
// cannot be called: "attempt to call a number value". gopher-lua's Call
// would say "attempt to call a non-function object" and add a position.
// fail is runError for a metamethod a builtin calls (Lua 5.1 gives no
// position inside a C function), raise for one that stands for a VM
// operation in the calling Lua code.
func mustCall(L *lua.LState, fn lua.LValue, fail func(L *lua.LState, format string, args ...any)) {
	if !callable(L, fn) {
		fail(L, "attempt to call a %s value", fn.Type().String())
	}
}

// toString is tostring(v) as a Go string: the __tostring metamethod (run
// under the budget), numbers as Lua 5.1 prints them, other values by type
// name only.
func toString(L *lua.LState, v lua.LValue) string {
	if mm := L.GetMetaField(v, "__tostring"); mm != lua.LNil {
		mustCall(L, mm, runError)
		L.Push(mm)
		L.Push(v)
		L.Call(1, 1)
		r := L.Get(-1)
		L.Pop(1)
		if s, ok := valueString(r); ok {
			return s
		}
		raise(L, "'__tostring' must return a string")
	}
	switch v := v.(type) {
	case lua.LString:
		return string(v)
	case lua.LNumber:
		return numberString(v)
	case lua.LBool:
		if v {
			return "true"
		}
		return "false"
	case *lua.LNilType:
		return "nil"
	default:
		return v.Type().String()
	}
}

// luaPrint adds one line to the team's log. The line is cut at
// maxPrintLine bytes while it is built, so a huge argument is never
// copied, and arguments past the cut are not even converted.
func (tm *Team) luaPrint(L *lua.LState) int {
	top := L.GetTop()
	// The log keeps maxLogLines lines and shifts them on each new one.
	tm.charge(L, printCost+int64(top)/valuesPerInstruction)
	var sb strings.Builder
	cut := false
	for i := 1; i <= top && !cut; i++ {
		if i > 1 {
			sb.WriteByte('\t')
		}
		s := toString(L, L.Get(i))
		if room := maxPrintLine - sb.Len(); len(s) > room {
			s, cut = s[:max(room, 0)], true
		}
		sb.WriteString(s)
	}
	tm.chargeBytes(L, int64(sb.Len()))
	line := sb.String()
	if cut {
		line += "…"
	}
	tm.printed(line)
	return 0
}

const (
	maxPrintLine = 240
	printCost    = 2 // instructions per print, for the log kept by the team
)

// luaError is error(message [, level]). A string (or number) message gets
// the position of the function level steps up the stack, "file:line: ",
// when level > 0 and that function is Lua code, as in Lua 5.1; the new
// message is charged by its bytes. Other values are raised unchanged.
func (tm *Team) luaError(L *lua.LState) int {
	obj := L.Get(1)
	level := optIntArg(L, 2, 1)
	if s, ok := valueString(obj); ok && level > 0 {
		obj = lua.LString(tm.positioned(L, level, s))
	}
	L.Error(obj, 0)
	return 0
}

// luaAssert is assert(v [, message]): all its arguments when v is true,
// else an error "file:line: message" (default "assertion failed!").
func (tm *Team) luaAssert(L *lua.LState) int {
	if lua.LVAsBool(checkAny(L, 1)) {
		return L.GetTop()
	}
	msg := "assertion failed!"
	if L.Get(2) != lua.LNil {
		s, ok := valueString(L.Get(2))
		if !ok {
			typeError(L, 2, "string")
		}
		msg = s
	}
	L.Error(lua.LString(tm.positioned(L, 1, msg)), 0)
	return 0
}

// positioned returns msg prefixed with the position of the function level
// steps up from the running builtin, charging the copy.
func (tm *Team) positioned(L *lua.LState, level int, msg string) string {
	pos := position(L, level)
	if pos == "" {
		return msg
	}
	tm.chargeBytes(L, int64(len(pos)+len(msg)))
	return pos + msg
}

// position is Lua's luaL_where: "file:line: " of the function level steps
// up the stack from the running builtin (1: its caller), or "" when that
// function is a Go function or there is none.
func position(L *lua.LState, level int) string {
	dbg, ok := L.GetStack(level)
	if !ok {
		return ""
	}
	if _, err := L.GetInfo("Sl", dbg, lua.LNil); err != nil || dbg.CurrentLine <= 0 {
		return ""
	}
	return dbg.Source + ":" + strconv.Itoa(dbg.CurrentLine) + ": "
}

// luaToNumber is tonumber(e [, base]) as in Lua 5.1: base 10 reads the
// string as the Lua parser reads numerals (parseNumber); another base,
// from 2 to 36, reads an unsigned integer in that base with an optional
// sign, as strtoul does (a leading "0x" allowed in base 16). Bytes parsed
// are charged first, at the rate of numerals (cost.go).
func (tm *Team) luaToNumber(L *lua.LState) int {
	base := optIntArg(L, 2, 10)
	if base == 10 {
		switch v := checkAny(L, 1).(type) {
		case lua.LNumber:
			L.Push(v)
			return 1
		case lua.LString:
			tm.charge(L, int64(len(v))/numeralBytesPerInstruction)
			if f, ok := parseNumber(string(v)); ok {
				L.Push(lua.LNumber(f))
				return 1
			}
		}
		L.Push(lua.LNil)
		return 1
	}
	s, ok := valueString(L.Get(1))
	if !ok {
		typeError(L, 1, "string")
	}
	if base < 2 || base > 36 {
		argError(L, 2, "base out of range")
	}
	tm.charge(L, int64(len(s))/numeralBytesPerInstruction)
	if f, ok := parseInBase(s, base); ok {
		L.Push(lua.LNumber(f))
	} else {
		L.Push(lua.LNil)
	}
	return 1
}

// parseInBase reads s as strtoul(s, &end, base) followed by nothing but
// white space, as Lua 5.1 on a 64-bit PC does: a value beyond 2^64-1 is
// 2^64-1, as strtoul saturates, and a minus sign negates modulo 2^64.
func parseInBase(s string, base int) (float64, bool) {
	const space = " \t\n\v\f\r"
	s = strings.TrimLeft(cString(s), space)
	neg := false
	if s != "" && (s[0] == '+' || s[0] == '-') {
		neg = s[0] == '-'
		s = s[1:]
	}
	if base == 16 && len(s) > 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X') && digitValue(s[2]) < 16 {
		s = s[2:]
	}
	var n uint64
	saturated := false
	i := 0
	for ; i < len(s); i++ {
		d := digitValue(s[i])
		if d >= base {
			break
		}
		if !saturated {
			if n > (math.MaxUint64-uint64(d))/uint64(base) {
				saturated = true
			} else {
				n = n*uint64(base) + uint64(d)
			}
		}
	}
	if i == 0 || strings.TrimLeft(s[i:], space) != "" {
		return 0, false
	}
	if saturated {
		return math.MaxUint64, true // strtoul's ULONG_MAX, whatever the sign
	}
	if neg {
		n = -n // strtoul negates in unsigned arithmetic: "-1" is 2^64-1
	}
	return float64(n), true
}

// digitValue is the value of c as a digit in bases up to 36, or 36.
func digitValue(c byte) int {
	switch {
	case c >= '0' && c <= '9':
		return int(c - '0')
	case c >= 'a' && c <= 'z':
		return int(c-'a') + 10
	case c >= 'A' && c <= 'Z':
		return int(c-'A') + 10
	}
	return 36
}

// luaSelect is select(n, ...) and select('#', ...). The values returned
// are moved to the caller: charged per value.
func (tm *Team) luaSelect(L *lua.LState) int {
	n := L.GetTop()
	if s, ok := L.Get(1).(lua.LString); ok && len(s) > 0 && s[0] == '#' {
		L.Push(lua.LNumber(n - 1))
		return 1
	}
	i := intArg(L, 1)
	if i < 0 {
		i = n + i
	} else if i > n {
		i = n
	}
	if i < 1 {
		argError(L, 1, "index out of range")
	}
	tm.charge(L, int64(n-i)/valuesPerInstruction)
	return n - i
}

// luaUnpack is unpack(t [, i [, j]]), its result count bounded and
// charged by the entries read.
func (tm *Team) luaUnpack(L *lua.LState) int {
	t := checkTable(L, 1)
	i := optIntArg(L, 2, 1)
	var j int
	if L.Get(3) == lua.LNil {
		j = tm.checkedBorder(L, t)
	} else {
		j = intArg(L, 3)
	}
	if i > j {
		return 0
	}
	n := int64(j) - int64(i) + 1
	if n > stackRoom(L) {
		raise(L, "too many results to unpack")
	}
	tm.charge(L, listReadCost(i, j))
	for k := i; k <= j; k++ {
		L.Push(listAt(t, k))
	}
	return int(n)
}

// luaMaxCStack is Lua 5.1's LUAI_MAXCSTACK: lua_checkstack refuses to grow
// a C function's stack past this many values, its arguments included, so
// unpack and string.byte return at most 8,000 values less their
// arguments (unpack(t, 1, 7997) is the most with three arguments). The
// values are charged as they are read; 8,000 of them are 128 KiB of the
// registry, far inside its bound (team.go).
const luaMaxCStack = 8000

// stackRoom is how many results the running builtin may push, as
// lua_checkstack counts: LUAI_MAXCSTACK less the values on its stack.
func stackRoom(L *lua.LState) int64 {
	return int64(luaMaxCStack - L.GetTop())
}

// luaRawEqual is rawequal(a, b); two strings of the same length are
// compared byte by byte, charged.
func (tm *Team) luaRawEqual(L *lua.LState) int {
	a, b := checkAny(L, 1), checkAny(L, 2)
	if sa, ok := a.(lua.LString); ok {
		if sb, ok := b.(lua.LString); ok && len(sa) == len(sb) {
			tm.charge(L, int64(len(sa))/bytesPerInstruction)
		}
	}
	L.Push(lua.LBool(a == b))
	return 1
}

// keyCost is the charge for hashing a key: its bytes when it is a string.
func keyCost(k lua.LValue) int64 {
	if s, ok := k.(lua.LString); ok {
		return int64(len(s)) / bytesPerInstruction
	}
	return 0
}

// luaRawGet is rawget(t, k).
func (tm *Team) luaRawGet(L *lua.LState) int {
	t := checkTable(L, 1)
	k := checkAny(L, 2)
	tm.charge(L, keyCost(k))
	L.Push(t.RawGet(k))
	return 1
}

// luaRawSet is rawset(t, k, v); it returns t, as Lua 5.1's does.
func (tm *Team) luaRawSet(L *lua.LState) int {
	t := checkTable(L, 1)
	k := checkAny(L, 2)
	v := checkAny(L, 3)
	switch k := k.(type) {
	case *lua.LNilType:
		runError(L, "table index is nil") // lua_rawset's, inside rawset: no position
	case lua.LNumber:
		if k != k {
			runError(L, "table index is NaN")
		}
	}
	tm.charge(L, keyCost(k))
	L.RawSet(t, k, v)
	L.Push(t)
	return 1
}

// luaSetMetatable is setmetatable(t, mt) as in Lua 5.1: tables only (in
// gopher-lua, setmetatable(1, mt) would set the metatable of every number
// in the state), and never over a metatable with a __metatable field.
//
// A missing second argument is not nil: Lua 5.1 reads lua_type(L, 2),
// LUA_TNONE, and setmetatable(t) is "bad argument #2 to 'setmetatable'
// (nil or table expected)".
func luaSetMetatable(L *lua.LState) int {
	t := checkTable(L, 1)
	mt := L.Get(2)
	if L.GetTop() < 2 || mt.Type() != lua.LTNil && mt.Type() != lua.LTTable {
		argError(L, 2, "nil or table expected")
	}
	if old, ok := t.Metatable.(*lua.LTable); ok && old.RawGetString("__metatable") != lua.LNil {
		raise(L, "cannot change a protected metatable")
	}
	t.Metatable = mt
	L.Push(t)
	return 1
}

// wrapArgCounts makes math.max and math.min charge for the arguments they
// read: one call may pass thousands.
func (tm *Team) wrapArgCounts(L *lua.LState, lib *lua.LTable, names ...string) {
	for _, name := range names {
		fn, ok := lib.RawGetString(name).(*lua.LFunction)
		if !ok || !fn.IsG {
			continue
		}
		g := fn.GFunction
		lib.RawSetString(name, L.NewFunction(func(L *lua.LState) int {
			tm.charge(L, int64(L.GetTop())/valuesPerInstruction)
			return g(L)
		}))
	}
}
