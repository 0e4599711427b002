package luabind

import (
	"math/bits"
	"strings"

	lua "github.com/yuin/gopher-lua"

	"github.com/squarebattle/squarebattle/luabind/luapattern"
)

// chargeBytes charges for n bytes of new string data: budget and memory.
func (tm *Team) chargeBytes(L *lua.LState, n int64) {
	tm.charged += n
	tm.charge(L, n/bytesPerInstruction)
	if tm.charged > tm.headroom {
		tm.memTripped = true
		L.RaiseError("%s", errMemory.Error())
	}
}

// charge takes n instructions from the running call's budget and raises the
// budget error when they are not there.
func (tm *Team) charge(L *lua.LState, n int64) {
	if n > 0 && !tm.budget.charge(n) {
		L.RaiseError("%s", errBudget.Error())
	}
}

// checkLength refuses to build a string longer than limits.string_bytes.
func (tm *Team) checkLength(L *lua.LState, n int64) {
	if n > int64(tm.limits.StringBytes) {
		L.RaiseError("string of %d bytes is longer than the limit of %d (limits.string_bytes)", n, tm.limits.StringBytes)
	}
	tm.chargeBytes(L, n)
}

// luaConcat implements `a .. b` for rewritten scripts.
func (tm *Team) luaConcat(L *lua.LState) int {
	a, b := L.Get(1), L.Get(2)
	sa, okA := concatOperand(a)
	sb, okB := concatOperand(b)
	if okA && okB {
		tm.checkLength(L, int64(len(sa))+int64(len(sb)))
		L.Push(lua.LString(sa + sb))
		return 1
	}
	mm := L.GetMetaField(a, "__concat")
	if mm == lua.LNil {
		mm = L.GetMetaField(b, "__concat")
	}
	if mm == lua.LNil {
		bad := a
		if okA {
			bad = b
		}
		L.RaiseError("attempt to concatenate a %s value", bad.Type().String())
	}
	L.Push(mm)
	L.Push(a)
	L.Push(b)
	L.Call(2, 1)
	return 1
}

func concatOperand(v lua.LValue) (string, bool) {
	switch v := v.(type) {
	case lua.LString:
		return string(v), true
	case lua.LNumber:
		return v.String(), true
	}
	return "", false
}

func (tm *Team) wrapStrings(L *lua.LState, lib *lua.LTable) {
	orig := func(name string) *lua.LFunction { return lib.RawGetString(name).(*lua.LFunction) }
	format := orig("format")
	lib.RawSetString("dump", lua.LNil)
	lib.RawSetString("rep", L.NewFunction(tm.strRep))
	lib.RawSetString("upper", L.NewFunction(tm.strMap(strings.ToUpper)))
	lib.RawSetString("lower", L.NewFunction(tm.strMap(strings.ToLower)))
	lib.RawSetString("reverse", L.NewFunction(tm.strMap(reverse)))
	lib.RawSetString("byte", L.NewFunction(tm.strByte))
	lib.RawSetString("format", L.NewFunction(tm.strFormat(format)))
	lib.RawSetString("find", L.NewFunction(tm.strFind(true)))
	lib.RawSetString("match", L.NewFunction(tm.strFind(false)))
	lib.RawSetString("gmatch", L.NewFunction(tm.strGmatch))
	lib.RawSetString("gsub", L.NewFunction(tm.strGsub))
}

func reverse(s string) string {
	b := make([]byte, len(s))
	for i := range s {
		b[len(s)-1-i] = s[i]
	}
	return string(b)
}

func (tm *Team) strRep(L *lua.LState) int {
	s := L.CheckString(1)
	n := L.CheckInt(2)
	if n <= 0 || s == "" {
		L.Push(lua.LString(""))
		return 1
	}
	hi, total := bits.Mul64(uint64(len(s)), uint64(n))
	if hi != 0 || total > 1<<62 {
		total = 1 << 62
	}
	tm.checkLength(L, int64(total))
	L.Push(lua.LString(strings.Repeat(s, n)))
	return 1
}

func (tm *Team) strMap(f func(string) string) lua.LGFunction {
	return func(L *lua.LState) int {
		s := L.CheckString(1)
		tm.chargeBytes(L, int64(len(s)))
		L.Push(lua.LString(f(s)))
		return 1
	}
}

// strByte is string.byte with the number of results bounded.
func (tm *Team) strByte(L *lua.LState) int {
	s := L.CheckString(1)
	i := L.OptInt(2, 1)
	j := L.OptInt(3, i)
	i, j = strRange(len(s), i, j)
	if i > j {
		return 0
	}
	n := j - i + 1
	if n > maxResults {
		L.RaiseError("string slice too long")
	}
	tm.charge(L, int64(n/8))
	for k := i; k <= j; k++ {
		L.Push(lua.LNumber(s[k-1]))
	}
	return n
}

// strRange converts Lua 1-based, possibly negative positions to a clamped
// closed range [i, j] of 1-based positions.
func strRange(l, i, j int) (int, int) {
	if i < 0 {
		i = l + i + 1
	}
	if j < 0 {
		j = l + j + 1
	}
	if i < 1 {
		i = 1
	}
	if j > l {
		j = l
	}
	return i, j
}

// strFormat checks the format before handing it to gopher-lua's own
// string.format: widths and precisions have at most two digits (as in Lua
// 5.1), %s of a table uses the address-free tostring, and the result size is
// checked before it is built.
func (tm *Team) strFormat(orig *lua.LFunction) lua.LGFunction {
	return func(L *lua.LState) int {
		f := L.CheckString(1)
		arg := 1
		size := int64(len(f))
		for i := 0; i < len(f); i++ {
			if f[i] != '%' {
				continue
			}
			i++
			if i < len(f) && f[i] == '%' {
				continue
			}
			start := i
			for i < len(f) && strings.IndexByte("-+ #0", f[i]) >= 0 {
				i++
			}
			if i-start > 5 {
				L.RaiseError("invalid format (repeated flags)")
			}
			digits := 0
			for i < len(f) && f[i] >= '0' && f[i] <= '9' {
				i, digits = i+1, digits+1
			}
			if i < len(f) && f[i] == '.' {
				i++
				d2 := 0
				for i < len(f) && f[i] >= '0' && f[i] <= '9' {
					i, d2 = i+1, d2+1
				}
				digits = max(digits, d2)
			}
			if digits > 2 {
				L.RaiseError("invalid format (width or precision too long)")
			}
			if i >= len(f) {
				L.RaiseError("invalid option '%%' to 'format'")
			}
			arg++
			v := L.Get(arg)
			switch f[i] {
			case 's', 'q':
				s, ok := concatOperand(v)
				if !ok && v != lua.LNil || v == lua.LNil && arg <= L.GetTop() {
					s = toString(L, v)
					L.Replace(arg, lua.LString(s))
				}
				size += 2*int64(len(s)) + 100
			case 'c', 'd', 'i', 'o', 'u', 'x', 'X', 'e', 'E', 'f', 'g', 'G':
				size += 100 + 330 // %f of 1e308 prints 309 digits
			default:
				L.RaiseError("invalid option '%%%c' to 'format'", f[i])
			}
		}
		tm.checkLength(L, size)
		top := L.GetTop()
		L.Push(orig)
		for k := 1; k <= top; k++ {
			L.Push(L.Get(k))
		}
		L.Call(top, 1)
		return 1
	}
}

// compiled returns a compiled pattern from the team's small cache.
func (tm *Team) compiled(L *lua.LState, pat string, gmatch bool) *luapattern.Pattern {
	key := pat
	if gmatch {
		key = "\x00g" + pat
	}
	if p, ok := tm.patterns[key]; ok {
		return p
	}
	tm.charge(L, int64(len(pat)/4+1))
	var p *luapattern.Pattern
	var err error
	if gmatch {
		p, err = luapattern.CompileGmatch(pat)
	} else {
		p, err = luapattern.Compile(pat)
	}
	if err != nil {
		L.RaiseError("%s", err.Error())
	}
	if len(tm.patterns) >= 256 {
		clear(tm.patterns)
	}
	tm.patterns[key] = p
	return p
}

// steps runs a matcher with the call's remaining budget converted to steps
// and charges what it used.
func (tm *Team) steps(L *lua.LState, run func(steps *int64) error) {
	left := tm.budget.remaining()
	steps := left * stepsPerInstruction
	err := run(&steps)
	used := (left*stepsPerInstruction - steps + stepsPerInstruction - 1) / stepsPerInstruction
	if !tm.budget.charge(used) || err == luapattern.ErrBudget {
		tm.budget.spent = true
		L.RaiseError("%s", errBudget.Error())
	}
	if err != nil {
		L.RaiseError("%s", err.Error())
	}
}

func pushCaptures(L *lua.LState, s string, m luapattern.Match, wholeIfNone bool) int {
	if len(m.Captures) == 0 {
		if !wholeIfNone {
			return 0
		}
		L.Push(lua.LString(s[m.Start:m.End]))
		return 1
	}
	for _, c := range m.Captures {
		L.Push(captureValue(s, c))
	}
	return len(m.Captures)
}

func captureValue(s string, c luapattern.Capture) lua.LValue {
	if c.Position {
		return lua.LNumber(c.Start + 1)
	}
	return lua.LString(s[c.Start:c.End])
}

const patternSpecials = "^$*+?.([%-"

// strFind is string.find (find=true) or string.match.
func (tm *Team) strFind(find bool) lua.LGFunction {
	return func(L *lua.LState) int {
		s := L.CheckString(1)
		pat := L.CheckString(2)
		init := L.OptInt(3, 1)
		if init < 0 {
			init = len(s) + init + 1
		}
		if init < 1 {
			init = 1
		}
		if init > len(s)+1 {
			L.Push(lua.LNil)
			return 1
		}
		plain := find && (L.ToBool(4) || !strings.ContainsAny(pat, patternSpecials))
		if plain {
			tm.charge(L, int64(len(s)-init+1)/bytesPerInstruction)
			k := strings.Index(s[init-1:], pat)
			if k < 0 {
				L.Push(lua.LNil)
				return 1
			}
			L.Push(lua.LNumber(init + k))
			L.Push(lua.LNumber(init + k + len(pat) - 1))
			return 2
		}
		p := tm.compiled(L, pat, false)
		var m luapattern.Match
		var ok bool
		tm.steps(L, func(steps *int64) (err error) {
			m, ok, err = p.Find(s, init-1, steps)
			return err
		})
		if !ok {
			L.Push(lua.LNil)
			return 1
		}
		if find {
			L.Push(lua.LNumber(m.Start + 1))
			L.Push(lua.LNumber(m.End))
			return 2 + pushCaptures(L, s, m, false)
		}
		return pushCaptures(L, s, m, true)
	}
}

func (tm *Team) strGmatch(L *lua.LState) int {
	s := L.CheckString(1)
	p := tm.compiled(L, L.CheckString(2), true)
	pos := 0
	L.Push(L.NewFunction(func(L *lua.LState) int {
		if pos > len(s) {
			return 0
		}
		var m luapattern.Match
		var ok bool
		tm.steps(L, func(steps *int64) (err error) {
			m, ok, err = p.Find(s, pos, steps)
			return err
		})
		if !ok {
			pos = len(s) + 1
			return 0
		}
		pos = m.End
		if m.End == m.Start {
			pos++ // an empty match: move on one byte, as Lua 5.1 does
		}
		return pushCaptures(L, s, m, true)
	}))
	return 1
}

func (tm *Team) strGsub(L *lua.LState) int {
	s := L.CheckString(1)
	p := tm.compiled(L, L.CheckString(2), false)
	repl := L.CheckAny(3)
	switch repl.(type) {
	case lua.LString, lua.LNumber, *lua.LTable, *lua.LFunction:
	default:
		L.ArgError(3, "string/function/table expected, got "+repl.Type().String())
	}
	maxN := L.OptInt(4, len(s)+1)
	var out []byte
	grow := func(n int) {
		tm.checkLength(L, int64(len(out)+n))
	}
	pos, count := 0, 0
	for count < maxN {
		var m luapattern.Match
		var ok bool
		tm.steps(L, func(steps *int64) (err error) {
			m, ok, err = p.MatchAt(s, pos, steps)
			return err
		})
		if ok {
			count++
			whole := s[m.Start:m.End]
			var add string
			keep := false
			switch r := repl.(type) {
			case lua.LString, lua.LNumber:
				rs, _ := concatOperand(r)
				b, err := luapattern.Expand(nil, rs, s, m)
				if err != nil {
					L.RaiseError("%s", err.Error())
				}
				add = string(b)
			case *lua.LTable:
				key := lua.LValue(lua.LString(whole))
				if len(m.Captures) > 0 {
					key = captureValue(s, m.Captures[0])
				}
				add, keep = replacement(L, L.GetTable(r, key), whole)
			case *lua.LFunction:
				L.Push(r)
				n := pushCaptures(L, s, m, true)
				L.Call(n, 1)
				v := L.Get(-1)
				L.Pop(1)
				add, keep = replacement(L, v, whole)
			}
			if keep {
				add = whole
			}
			grow(len(add))
			out = append(out, add...)
		}
		switch {
		case ok && m.End > pos:
			pos = m.End
		case pos < len(s):
			grow(1)
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
		grow(len(s) - pos)
		out = append(out, s[pos:]...)
	}
	L.Push(lua.LString(out))
	L.Push(lua.LNumber(count))
	return 2
}

// replacement interprets a gsub table or function result: false or nil
// keeps the original text.
func replacement(L *lua.LState, v lua.LValue, whole string) (string, bool) {
	switch v := v.(type) {
	case *lua.LNilType:
		return "", true
	case lua.LBool:
		if !bool(v) {
			return "", true
		}
	case lua.LString:
		return string(v), false
	case lua.LNumber:
		return v.String(), false
	}
	L.RaiseError("invalid replacement value (a %s)", v.Type().String())
	return "", false
}

// tableConcat is table.concat with the result size checked before building.
func (tm *Team) tableConcat(L *lua.LState) int {
	t := L.CheckTable(1)
	sep := L.OptString(2, "")
	i := L.OptInt(3, 1)
	n, _ := border(t)
	j := L.OptInt(4, n)
	if i > j {
		L.Push(lua.LString(""))
		return 1
	}
	if int64(j)-int64(i) > int64(tm.limits.StringBytes) {
		L.RaiseError("table.concat range too large")
	}
	var total int64
	for k := i; k <= j; k++ {
		s, ok := concatOperand(t.RawGet(lua.LNumber(k)))
		if !ok {
			L.RaiseError("invalid value (at index %d) in table for 'concat'", k)
		}
		total += int64(len(s))
		if k < j {
			total += int64(len(sep))
		}
		if total > int64(tm.limits.StringBytes) {
			break
		}
	}
	tm.checkLength(L, total)
	var sb strings.Builder
	sb.Grow(int(total))
	for k := i; k <= j; k++ {
		s, _ := concatOperand(t.RawGet(lua.LNumber(k)))
		sb.WriteString(s)
		if k < j {
			sb.WriteString(sep)
		}
	}
	L.Push(lua.LString(sb.String()))
	return 1
}
