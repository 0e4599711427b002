package luabind

import (
	"math"
	"strconv"
	"strings"

	lua "github.com/yuin/gopher-lua"
)

// Numbers as Lua 5.1 writes and reads them, the same on every machine.
//
// gopher-lua prints numbers with Go's shortest representation
// (0.1+0.2 is "0.30000000000000004", 1/0 is "+Inf") and decides whether a
// number is whole with a float→int64 conversion, which Go leaves to the
// architecture for values out of range (amd64 and arm64 print 2^63
// differently). Everything the sandbox turns into text or into a Go int
// goes through the functions below instead.

// numberString formats n as Lua 5.1 does on a PC ("%.14g"), with
// infinities as "inf"/"-inf" and NaNs as "nan" or "-nan" by their sign,
// which nan.go makes the same on every machine.
func numberString(n lua.LNumber) string {
	f := float64(n)
	switch {
	case f != f && math.Signbit(f):
		return "-nan"
	case f != f:
		return "nan"
	case math.IsInf(f, 1):
		return "inf"
	case math.IsInf(f, -1):
		return "-inf"
	}
	if f == math.Trunc(f) && math.Abs(f) < 1e14 {
		// Whole numbers below 1e14 print all their digits under %.14g
		// too; this is the common case and FormatInt is faster.
		if f == 0 && math.Signbit(f) {
			return "-0"
		}
		return strconv.FormatInt(int64(f), 10)
	}
	return strconv.FormatFloat(f, 'g', 14, 64)
}

// valueString is the string a number or string argument stands for, as
// Lua's automatic coercion makes it; ok is false for other types.
func valueString(v lua.LValue) (string, bool) {
	switch v := v.(type) {
	case lua.LString:
		return string(v), true
	case lua.LNumber:
		return numberString(v), true
	}
	return "", false
}

// maxWhole is the largest magnitude a whole-number argument may have: every
// integer up to it is exact in a Lua number.
const maxWhole = 1 << 53

// toWhole converts a number to an int as Lua 5.1 does on a PC (truncation
// toward zero), or reports false when the result would depend on the
// machine: NaN, infinities and magnitudes beyond 2^53.
func toWhole(f float64) (int, bool) {
	if f != f || f > maxWhole || f < -maxWhole {
		return 0, false
	}
	return int(math.Trunc(f)), true
}

// numberArg reads argument n as a number: a number, or a string Lua would
// convert (" 0x10 ", "1e5"). Anything else is an argument error.
func numberArg(L *lua.LState, n int) float64 {
	switch v := L.Get(n).(type) {
	case lua.LNumber:
		return float64(v)
	case lua.LString:
		if f, ok := parseNumber(string(v)); ok {
			return f
		}
	}
	typeError(L, n, "number")
	return 0
}

// intArg reads argument n as a whole number (numeric strings accepted,
// fractions truncated). NaN, infinities and magnitudes beyond 2^53 are an
// argument error instead of whatever Go's conversion makes of them on this
// machine.
func intArg(L *lua.LState, n int) int {
	f := numberArg(L, n)
	i, ok := toWhole(f)
	if !ok {
		argError(L, n, "number has no integer representation ("+numberString(lua.LNumber(f))+" is not between -2^53 and 2^53)")
	}
	return i
}

// optIntArg is intArg with a default for a missing or nil argument.
func optIntArg(L *lua.LState, n, def int) int {
	if L.Get(n) == lua.LNil {
		return def
	}
	return intArg(L, n)
}

// wholeArg reads argument n as a whole number, numbers only (the rules
// API takes no strings).
func wholeArg(L *lua.LState, n int) int {
	v, ok := L.Get(n).(lua.LNumber)
	if !ok {
		typeError(L, n, "number")
	}
	i, ok := toWhole(float64(v))
	if !ok {
		argError(L, n, numberString(v)+" is not a whole number from -2^53 to 2^53")
	}
	return i
}

// cString is s up to its first zero byte: Lua 5.1 hands strings to strtod
// and strtoul as C strings, so "12\0abc" reads as 12.
func cString(s string) string {
	if i := strings.IndexByte(s, 0); i >= 0 {
		return s[:i]
	}
	return s
}

// parseNumber reads a string as Lua 5.1's tonumber(s) does with glibc's
// strtod: surrounding white space, an optional sign, then a decimal number
// with optional fraction and exponent, a hexadecimal integer or float
// ("0x1F", "0x1.8p3"), "inf"/"infinity", or "nan" with an optional
// "(chars)" of letters, digits and underscores. Nothing else may follow.
// This is the one reading of numerals for every coercion of a string to a
// number (arithmetic, unary minus, for loops, library arguments, tonumber):
// none may fall back to Go's syntax (strconv's "0b101", "0o17", "1_000"),
// which gopher-lua's own coercion accepts. The work is linear in len(s);
// callers charge for it.
func parseNumber(s string) (float64, bool) {
	s = cString(s)
	s = strings.Trim(s, " \t\n\v\f\r")
	if s == "" {
		return 0, false
	}
	body := s
	neg := false
	if body[0] == '+' || body[0] == '-' {
		neg = body[0] == '-'
		body = body[1:]
	}
	var f float64
	switch {
	case len(body) > 1 && body[0] == '0' && (body[1] == 'x' || body[1] == 'X'):
		v, ok := parseHex(body[2:])
		if !ok {
			return 0, false
		}
		f = v
	case strings.EqualFold(body, "inf") || strings.EqualFold(body, "infinity"):
		f = math.Inf(1)
	case nanSyntax(body):
		if neg {
			return negNaN, true
		}
		return posNaN, true
	default:
		if !decimalSyntax(body) {
			return 0, false
		}
		v, err := strconv.ParseFloat(body, 64)
		if err != nil {
			// Out of range: strtod gives ±HUGE_VAL or 0, as ParseFloat
			// does alongside its error.
			if ne, ok := err.(*strconv.NumError); !ok || ne.Err != strconv.ErrRange {
				return 0, false
			}
		}
		f = v
	}
	if neg {
		f = -f
	}
	return f, true
}

// nanSyntax reports whether s is what strtod reads as a NaN: "nan",
// in any case, alone or followed by "(" letters, digits or underscores ")".
func nanSyntax(s string) bool {
	if len(s) < 3 || !strings.EqualFold(s[:3], "nan") {
		return false
	}
	rest := s[3:]
	if rest == "" {
		return true
	}
	if len(rest) < 2 || rest[0] != '(' || rest[len(rest)-1] != ')' {
		return false
	}
	for _, c := range []byte(rest[1 : len(rest)-1]) {
		if !(c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c == '_') {
			return false
		}
	}
	return true
}

// decimalSyntax reports whether s is digits, an optional point and digits
// (at least one digit in all), then an optional exponent: the only decimal
// form strtod takes, and narrower than Go's (no underscores, no "Inf").
func decimalSyntax(s string) bool {
	i, digits := 0, 0
	for i < len(s) && s[i] >= '0' && s[i] <= '9' {
		i++
		digits++
	}
	if i < len(s) && s[i] == '.' {
		i++
		for i < len(s) && s[i] >= '0' && s[i] <= '9' {
			i++
			digits++
		}
	}
	if digits == 0 {
		return false
	}
	if i < len(s) && (s[i] == 'e' || s[i] == 'E') {
		i++
		if i < len(s) && (s[i] == '+' || s[i] == '-') {
			i++
		}
		start := i
		for i < len(s) && s[i] >= '0' && s[i] <= '9' {
			i++
		}
		if i == start {
			return false
		}
	}
	return i == len(s)
}

// parseHex reads the part of a hexadecimal number after "0x": hex digits,
// an optional point and hex digits, an optional binary exponent "p±d".
func parseHex(s string) (float64, bool) {
	i, digits := 0, 0
	isHex := func(c byte) bool {
		return c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F'
	}
	for i < len(s) && isHex(s[i]) {
		i++
		digits++
	}
	if i < len(s) && s[i] == '.' {
		i++
		for i < len(s) && isHex(s[i]) {
			i++
			digits++
		}
	}
	if digits == 0 {
		return 0, false
	}
	exp := ""
	if i < len(s) && (s[i] == 'p' || s[i] == 'P') {
		start := i
		i++
		if i < len(s) && (s[i] == '+' || s[i] == '-') {
			i++
		}
		d := i
		for i < len(s) && s[i] >= '0' && s[i] <= '9' {
			i++
		}
		if i == d {
			return 0, false
		}
		exp = s[start:i]
	}
	if i != len(s) {
		return 0, false
	}
	mantissa := s[:len(s)-len(exp)]
	if exp == "" {
		exp = "p0"
	}
	v, err := strconv.ParseFloat("0x"+mantissa+exp, 64)
	if err != nil {
		if ne, ok := err.(*strconv.NumError); !ok || ne.Err != strconv.ErrRange {
			return 0, false
		}
	}
	return v, true
}
