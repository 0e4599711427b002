package luabind

import (
	"math/bits"
	"strings"

	lua "github.com/yuin/gopher-lua"
)

// The string library, the project's own from end to end: gopher-lua's
// functions do Go work that no instruction count sees (rep, format,
// patterns), format numbers the Go way, treat strings as UTF-8 (upper,
// lower) and hand out substrings that pin their parent's memory. Every
// function here charges its work before doing it (cost.go), reads integer
// arguments through intArg (never Go's float→int conversion) and takes
// numbers where strings are expected as Lua 5.1 writes them.
//
// This file: the library table and the simple functions. strformat.go has
// format, strpattern.go find, match, gmatch, gfind and gsub.

// stringLibrary builds the team's string table (openLibraries then gives
// strings a protected metatable whose __index is a private copy of it, see
// isolate.go). The table is built here in a fixed order rather than taken from
// gopher-lua, whose table holds its own functions, a __index field Lua's
// has not, and keys inserted in Go map order (so `pairs(string)` would
// change from run to run).
func (tm *Team) stringLibrary(L *lua.LState) *lua.LTable {
	gmatch := L.NewFunction(tm.strGmatch)
	funcs := []struct {
		name string
		fn   lua.LValue
	}{
		{"byte", L.NewFunction(tm.strByte)},
		{"char", L.NewFunction(tm.strChar)},
		{"find", L.NewFunction(tm.strFind)},
		{"format", L.NewFunction(tm.strFormat)},
		{"gfind", gmatch}, // Lua 5.1's deprecated name for gmatch
		{"gmatch", gmatch},
		{"gsub", L.NewFunction(tm.strGsub)},
		{"len", L.NewFunction(strLen)},
		{"lower", L.NewFunction(tm.strLower)},
		{"match", L.NewFunction(tm.strMatch)},
		{"rep", L.NewFunction(tm.strRep)},
		{"reverse", L.NewFunction(tm.strReverse)},
		{"sub", L.NewFunction(tm.strSub)},
		{"upper", L.NewFunction(tm.strUpper)},
	}
	lib := L.CreateTable(0, len(funcs))
	for _, f := range funcs {
		lib.RawSetString(f.name, f.fn)
	}
	return lib
}

// strArg reads argument n as a string: a string, or a number written as Lua
// 5.1 writes it ("%.14g"), not as Go does.
func strArg(L *lua.LState, n int) string {
	switch v := L.Get(n).(type) {
	case lua.LString:
		return string(v)
	case lua.LNumber:
		return numberString(v)
	}
	typeError(L, n, "string")
	return ""
}

// optStrArg is strArg with a default for a missing or nil argument.
func optStrArg(L *lua.LState, n int, def string) string {
	if L.Get(n) == lua.LNil {
		return def
	}
	return strArg(L, n)
}

// Substrings and pinning. A Go substring shares its parent's bytes, so a
// one-byte sub of a megabyte string would keep the megabyte alive while
// the memory census counts one byte. Every string this library returns
// therefore keeps at most max(its length, pinSlack) bytes alive: a part of
// a string longer than pinSlack is copied (and its bytes charged); only a
// part of a short string, or the whole string, is shared. By induction
// over the library's results this holds however the parts are chained
// (a rule such as "copy when less than a quarter" is not closed under
// chaining: quarters of quarters of quarters pin the first parent). Lua
// copies every substring, so the copying costs no more than Lua's own.
const pinSlack = 64

// byteStrings are the 256 one-byte strings, boxed once: s:sub(i, i) and
// single-byte captures allocate nothing.
var byteStrings = func() (t [256]lua.LValue) {
	for i := range t {
		t[i] = lua.LString([]byte{byte(i)})
	}
	return t
}()

// byteNumbers are the numbers 0 to 255, boxed once, for string.byte.
var byteNumbers = func() (t [256]lua.LValue) {
	for i := range t {
		t[i] = lua.LNumber(i)
	}
	return t
}()

var emptyString lua.LValue = lua.LString("")

// part returns s[i:j] (0-based, j exclusive) as a Lua string that pins at
// most max(j-i, pinSlack) bytes, see pinSlack.
func (tm *Team) part(L *lua.LState, s string, i, j int) lua.LValue {
	n := j - i
	switch {
	case n == len(s):
		return lua.LString(s)
	case n <= 0:
		return emptyString
	case n == 1:
		return byteStrings[s[i]]
	case len(s) <= pinSlack:
		return lua.LString(s[i:j])
	}
	tm.chargeBytes(L, int64(n))
	return lua.LString(strings.Clone(s[i:j]))
}

// relPos turns a Lua 5.1 string position (negative: from the end) into a
// non-negative one, as lstrlib.c's posrelat does.
func relPos(pos, l int) int {
	if pos < 0 {
		pos += l + 1
	}
	return max(pos, 0)
}

// strLen is string.len: O(1), charged nothing beyond its call.
func strLen(L *lua.LState) int {
	L.Push(lua.LNumber(len(strArg(L, 1))))
	return 1
}

func (tm *Team) strSub(L *lua.LState) int {
	s := strArg(L, 1)
	l := len(s)
	i := relPos(intArg(L, 2), l)
	j := relPos(optIntArg(L, 3, -1), l)
	i = max(i, 1)
	j = min(j, l)
	if i > j {
		L.Push(emptyString)
		return 1
	}
	L.Push(tm.part(L, s, i-1, j))
	return 1
}

// strByte is string.byte with the number of results bounded.
func (tm *Team) strByte(L *lua.LState) int {
	s := strArg(L, 1)
	l := len(s)
	i := relPos(optIntArg(L, 2, 1), l)
	j := relPos(optIntArg(L, 3, i), l)
	i = max(i, 1)
	j = min(j, l)
	if i > j {
		return 0
	}
	n := j - i + 1
	if int64(n) > stackRoom(L) {
		raise(L, "stack overflow (string slice too long)") // luaL_checkstack's words
	}
	tm.chargeValues(L, int64(n))
	for k := i; k <= j; k++ {
		L.Push(byteNumbers[s[k-1]])
	}
	return n
}

// strChar is string.char: every argument a whole number from 0 to 255.
func (tm *Team) strChar(L *lua.LState) int {
	n := L.GetTop()
	tm.chargeValues(L, int64(n))
	tm.checkLength(L, int64(n))
	b := make([]byte, n)
	for i := 1; i <= n; i++ {
		c := intArg(L, i)
		if c < 0 || c > 255 {
			argError(L, i, "invalid value")
		}
		b[i-1] = byte(c)
	}
	if n == 1 {
		L.Push(byteStrings[b[0]])
	} else {
		L.Push(lua.LString(b))
	}
	return 1
}

// strRep is string.rep, its length checked before anything is allocated.
func (tm *Team) strRep(L *lua.LState) int {
	s := strArg(L, 1)
	n := intArg(L, 2)
	if n <= 0 || s == "" {
		L.Push(emptyString)
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

// strUpper and strLower change the ASCII letters only and leave every
// other byte as it is (Lua 5.1 in the C locale): strings are bytes, and
// a byte that is not valid UTF-8 stays that byte.
func (tm *Team) strUpper(L *lua.LState) int { return tm.strCase(L, 'a', 'z') }
func (tm *Team) strLower(L *lua.LState) int { return tm.strCase(L, 'A', 'Z') }

func (tm *Team) strCase(L *lua.LState, lo, hi byte) int {
	s := strArg(L, 1)
	tm.charge(L, int64(len(s))/bytesPerInstruction)
	k := 0
	for k < len(s) && (s[k] < lo || s[k] > hi) {
		k++
	}
	if k == len(s) { // nothing to change: the same string
		if _, ok := L.Get(1).(lua.LString); ok {
			L.Push(L.Get(1))
		} else {
			L.Push(lua.LString(s))
		}
		return 1
	}
	tm.charge(L, int64(len(s)-k)/bytesWalkedPerInstruction)
	tm.chargeMemory(L, int64(len(s)))
	b := []byte(s)
	for ; k < len(b); k++ {
		if c := b[k]; c >= lo && c <= hi {
			b[k] = c ^ 0x20
		}
	}
	L.Push(lua.LString(b))
	return 1
}

// strReverse reverses bytes, not characters, as Lua does.
func (tm *Team) strReverse(L *lua.LState) int {
	s := strArg(L, 1)
	if len(s) <= 1 {
		L.Push(lua.LString(s))
		return 1
	}
	tm.chargeBytes(L, int64(len(s)))
	tm.charge(L, int64(len(s))/bytesWalkedPerInstruction)
	b := make([]byte, len(s))
	for i := range len(s) {
		b[len(s)-1-i] = s[i]
	}
	L.Push(lua.LString(b))
	return 1
}

// luaConcat implements `a .. b .. c ...` for rewritten scripts: the
// rewriter passes a whole right-nested chain in one call, and it is
// evaluated as Lua 5.1's luaV_concat does: from the right, each run of
// strings and numbers joined at once (one allocation, its length checked
// and charged before it is built), a __concat metamethod for any other pair.
func (tm *Team) luaConcat(L *lua.LState) int {
	n := L.GetTop()
	if n == 2 {
		if a, ok := L.Get(1).(lua.LString); ok {
			if b, ok := L.Get(2).(lua.LString); ok {
				tm.checkLength(L, int64(len(a))+int64(len(b)))
				L.Push(a + b)
				return 1
			}
		}
	}
	for n > 1 {
		sb, okB := concatOperand(L.Get(n))
		sa, okA := concatOperand(L.Get(n - 1))
		if !okA || !okB {
			a, b := L.Get(n-1), L.Get(n)
			mm := L.GetMetaField(a, "__concat")
			if mm == lua.LNil {
				mm = L.GetMetaField(b, "__concat")
			}
			if mm == lua.LNil {
				bad, at := a, n-1
				if okA {
					bad, at = b, n
				}
				kind, name := argumentName(L, at) // errnames.go
				L.RaiseError("%s", typeErrorText("concatenate", kind, name, bad))
			}
			mustCall(L, mm, raise)
			L.SetTop(n)
			L.Push(mm)
			L.Push(a)
			L.Push(b)
			L.Call(2, 1)
			L.Replace(n-1, L.Get(-1))
			n--
			L.SetTop(n)
			continue
		}
		// The longest run of strings and numbers ending at n.
		first := n - 1
		total := int64(len(sa)) + int64(len(sb))
		for first > 1 {
			s, ok := concatOperand(L.Get(first - 1))
			if !ok {
				break
			}
			first--
			total += int64(len(s))
		}
		tm.checkLength(L, total)
		buf := make([]byte, 0, total)
		for k := first; k <= n; k++ {
			s, _ := concatOperand(L.Get(k))
			buf = append(buf, s...)
		}
		L.Replace(first, lua.LString(buf))
		n = first
		L.SetTop(n)
	}
	if n == 0 {
		return 0
	}
	L.SetTop(1)
	return 1
}

// concatOperand is the text of a string or number operand of `..`.
func concatOperand(v lua.LValue) (string, bool) { return valueString(v) }
