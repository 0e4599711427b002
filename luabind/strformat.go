package luabind

import (
	"math"
	"strconv"
	"strings"

	lua "github.com/yuin/gopher-lua"
)

// string.format, the project's own. gopher-lua hands its arguments to Go's
// fmt, which prints a table argument with %v (its whole contents, uncharged
// and unbounded), numbers the Go way and %c as UTF-8. This one follows Lua
// 5.1.5 on top of C's printf: conversions c d i o u x X e E f g G q s and
// %%, flags "-+ #0", width and precision of at most two digits each, and
// the argument checks and messages of lstrlib.c. Each piece of the result is
// measured before it is built, then checked and charged through a
// byteMeter, so the result never exceeds limits.string_bytes and costs its
// length. A numeric piece is at most a few hundred bytes (a 99-wide,
// 99-digit-precise %f of 1e308), so building it before charging it is O(1).
//
// Integer conversions of numbers beyond their C type's range give what
// Debian's lua5.1 gives on a PC (fmtSigned below). NaN prints with its sign,
// which nan.go makes the same on every machine.

// fmtSpec is one conversion's flags, width and precision (-1: none).
type fmtSpec struct {
	minus, plus, space, hash, zero bool
	width, prec                    int
}

func (tm *Team) strFormat(L *lua.LState) int {
	f := strArg(L, 1)
	top := L.GetTop()
	meter := byteMeter{tm: tm}
	tm.charge(L, int64(len(f))/bytesPerInstruction)
	out := tm.takeBuild()
	var piece []byte // scratch for one numeric conversion
	arg := 1
	for i := 0; i < len(f); {
		if f[i] != '%' {
			j := strings.IndexByte(f[i:], '%')
			if j < 0 {
				j = len(f) - i
			}
			meter.add(L, j)
			out = append(out, f[i:i+j]...)
			i += j
			continue
		}
		i++
		if i < len(f) && f[i] == '%' {
			meter.add(L, 1)
			out = append(out, '%')
			i++
			continue
		}
		arg++
		if arg > top {
			argError(L, arg, "no value")
		}
		tm.charge(L, conversionCost)
		var sp fmtSpec
		i = scanFormat(L, f, i, &sp)
		conv := byte(0) // C reads the string's terminating NUL here
		if i < len(f) {
			conv = f[i]
			i++
		}
		switch conv {
		case 'd', 'i':
			piece = fmtInt(piece[:0], sp, fmtSigned(L, arg))
		case 'o', 'u', 'x', 'X':
			piece = fmtUnsigned(piece[:0], sp, conv, fmtUnsignedArg(L, arg))
		case 'c':
			piece = pad(piece[:0], sp, false, "", []byte{fmtChar(L, arg)})
			piece = cutAtNul(piece)
		case 'e', 'E', 'f', 'g', 'G':
			f := numberArg(L, arg)
			tm.charge(L, floatWork(sp, conv, f))
			piece = fmtFloat(piece[:0], sp, conv, f)
		case 'q':
			s := strArg(L, arg)
			meter.add(L, len(s)+2) // before the scan for escapes
			meter.add(L, quotedLen(s)-len(s)-2)
			tm.charge(L, int64(len(s))/bytesWalkedPerInstruction) // before the copy a byte at a time
			out = appendQuoted(out, s)
			continue
		case 's':
			s := strArg(L, arg)
			if sp.prec < 0 && len(s) >= 100 {
				// Lua keeps a long string as it is, width or not.
				meter.add(L, len(s))
				out = append(out, s...)
				continue
			}
			// C's sprintf stops at a NUL byte.
			if k := strings.IndexByte(s, 0); k >= 0 {
				s = s[:k]
			}
			if sp.prec >= 0 && len(s) > sp.prec {
				s = s[:sp.prec]
			}
			meter.add(L, max(len(s), sp.width))
			sp.zero = false
			out = pad(out, sp, false, "", []byte(s))
			continue
		default:
			msg := "invalid option '%"
			if conv != 0 {
				msg += string(conv)
			}
			raise(L, "%s' to 'format'", msg)
		}
		meter.add(L, len(piece))
		out = append(out, piece...)
	}
	L.Push(lua.LString(out))
	tm.giveBuild(out)
	return 1
}

// scanFormat reads the flags, width and precision of a conversion starting
// at f[i] (just after the '%') and returns the index of the conversion
// letter, with Lua 5.1's limits: fewer than six flags, two digits each.
func scanFormat(L *lua.LState, f string, i int, sp *fmtSpec) int {
	start := i
	for ; i < len(f) && strings.IndexByte("-+ #0", f[i]) >= 0; i++ {
		switch f[i] {
		case '-':
			sp.minus = true
		case '+':
			sp.plus = true
		case ' ':
			sp.space = true
		case '#':
			sp.hash = true
		case '0':
			sp.zero = true
		}
	}
	if i-start >= 6 {
		raise(L, "invalid format (repeated flags)")
	}
	digits := func(i int) (int, int) {
		n := 0
		for k := 0; k < 2 && i < len(f) && isDigit(f[i]); k++ {
			n = n*10 + int(f[i]-'0')
			i++
		}
		return n, i
	}
	sp.width, i = digits(i)
	sp.prec = -1
	if i < len(f) && f[i] == '.' {
		sp.prec, i = digits(i + 1)
	}
	if i < len(f) && isDigit(f[i]) {
		raise(L, "invalid format (width or precision too long)")
	}
	return i
}

func isDigit(c byte) bool { return c >= '0' && c <= '9' }

// The integer conversions convert a number as lstrlib.c does with the C
// casts of Debian's lua5.1 on amd64 (gcc's cvttsd2si), the same bits on
// every machine: %d and %i print (long)x, %o %u %x %X (unsigned long)x
// and %c the low byte of (int)x. Each cast truncates toward zero where the
// result fits; where it does not (and for NaN), amd64 gives the "integer
// indefinite" value, the lowest integer of the width, which is what these
// print: string.format("%d", 2^63) is -9223372036854775808, as in lua5.1
// on a PC. (An arm64 build of Lua saturates instead; the sandbox follows
// the PC.)

// fmtSigned is (long)x for %d and %i.
func fmtSigned(L *lua.LState, n int) int64 {
	f := numberArg(L, n)
	if f >= -0x1p63 && f < 0x1p63 {
		return int64(f)
	}
	return math.MinInt64 // out of range, infinite or NaN
}

// fmtUnsignedArg is (unsigned long)x for %o, %u, %x and %X, as gcc
// compiles it for amd64: below 2^63 (NaN included) a signed conversion,
// so -1 is ffffffffffffffff and NaN 8000000000000000; from 2^63 a signed
// conversion of x-2^63 with the top bit flipped, so 2^64 and more are 0.
func fmtUnsignedArg(L *lua.LState, n int) uint64 {
	f := numberArg(L, n)
	switch {
	case f >= -0x1p63 && f < 0x1p63:
		return uint64(int64(f))
	case f >= 0x1p63 && f < 0x1p64:
		return uint64(f)
	case f >= 0x1p64:
		return 0
	}
	return 1 << 63 // below -2^63, or NaN
}

// fmtChar is the byte %c prints: the low byte of (int)x, 0 (which ends
// the piece, as C's strlen does) when x does not fit in 32 bits.
func fmtChar(L *lua.LState, n int) byte {
	f := numberArg(L, n)
	if f > -0x1p31-1 && f < 0x1p31 {
		return byte(int64(f))
	}
	return 0
}

// pad appends sign+body to dst padded to the width: with spaces on the left,
// on the right for '-', or with zeros after the sign when zeros is set.
func pad(dst []byte, sp fmtSpec, zeros bool, sign string, body []byte) []byte {
	fill := sp.width - len(sign) - len(body)
	if sp.minus {
		return appendFill(append(append(dst, sign...), body...), blanks, fill)
	}
	if !zeros {
		dst = appendFill(dst, blanks, fill)
	}
	dst = append(dst, sign...)
	if zeros {
		dst = appendFill(dst, noughts, fill)
	}
	return append(dst, body...)
}

// The fill a width asks for, appended as a block: a byte at a time, a
// 99-wide conversion took about as long as 100 plain instructions, and
// a format of eight of them, charged by its bytes (1 per 128), ran 16–21
// times a full-budget call (BenchmarkHostileCall, str-format-pad).
const (
	blanks  = "                                                                                                    "
	noughts = "0000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000"
)

// appendFill appends n bytes of fill (blanks or noughts) to dst.
func appendFill(dst []byte, fill string, n int) []byte {
	for n > 0 {
		k := min(n, len(fill))
		dst = append(dst, fill[:k]...)
		n -= k
	}
	return dst
}

func cutAtNul(b []byte) []byte {
	for k, c := range b {
		if c == 0 {
			return b[:k]
		}
	}
	return b
}

// signOf is the sign C prints before a number.
func signOf(sp fmtSpec, neg bool) string {
	switch {
	case neg:
		return "-"
	case sp.plus:
		return "+"
	case sp.space:
		return " "
	}
	return ""
}

// withPrecision applies an integer conversion's precision to its digits:
// at least prec digits, and none at all for a zero with precision 0.
func withPrecision(digits []byte, prec int) []byte {
	if prec < 0 {
		return digits
	}
	if prec == 0 && len(digits) == 1 && digits[0] == '0' {
		return digits[:0]
	}
	if n := prec - len(digits); n > 0 {
		z := make([]byte, n, n+len(digits))
		for k := range z {
			z[k] = '0'
		}
		digits = append(z, digits...)
	}
	return digits
}

func fmtInt(dst []byte, sp fmtSpec, v int64) []byte {
	neg := v < 0
	u := uint64(v)
	if neg {
		u = -u
	}
	var buf [24]byte
	digits := withPrecision(strconv.AppendUint(buf[:0], u, 10), sp.prec)
	return pad(dst, sp, sp.zero && sp.prec < 0, signOf(sp, neg), digits)
}

func fmtUnsigned(dst []byte, sp fmtSpec, conv byte, u uint64) []byte {
	base := 10
	switch conv {
	case 'o':
		base = 8
	case 'x', 'X':
		base = 16
	}
	var buf [24]byte
	digits := withPrecision(strconv.AppendUint(buf[:0], u, base), sp.prec)
	if conv == 'X' {
		for k, c := range digits {
			if c >= 'a' && c <= 'f' {
				digits[k] = c - 'a' + 'A'
			}
		}
	}
	prefix := ""
	switch {
	case sp.hash && conv == 'o' && (len(digits) == 0 || digits[0] != '0'):
		prefix = "0"
	case sp.hash && conv == 'x' && u != 0:
		prefix = "0x"
	case sp.hash && conv == 'X' && u != 0:
		prefix = "0X"
	}
	return pad(dst, sp, sp.zero && sp.prec < 0, prefix, digits)
}

// fmtFloat is C's %e, %f and %g (and upper-case %E, %G).
func fmtFloat(dst []byte, sp fmtSpec, conv byte, f float64) []byte {
	upper := conv == 'E' || conv == 'G'
	neg := math.Signbit(f) // a NaN's too, as glibc prints it (nan.go)
	if math.IsInf(f, 0) || f != f {
		body := "inf"
		if f != f {
			body = "nan"
		}
		if upper {
			body = strings.ToUpper(body)
		}
		return pad(dst, sp, false, signOf(sp, neg), []byte(body))
	}
	a := math.Abs(f)
	prec := sp.prec
	if prec < 0 {
		prec = 6
	}
	var buf [512]byte
	var body []byte
	switch conv {
	case 'f':
		body = strconv.AppendFloat(buf[:0], a, 'f', prec, 64)
		if sp.hash && prec == 0 {
			body = append(body, '.')
		}
	case 'e', 'E':
		body = expForm(buf[:0], a, prec, sp.hash)
	case 'g', 'G':
		p := max(prec, 1)
		x := 0 // the decimal exponent after rounding to p digits
		if a != 0 {
			e := strconv.AppendFloat(buf[:0], a, 'e', p-1, 64)
			k := strings.LastIndexByte(string(e), 'e')
			x, _ = strconv.Atoi(string(e[k+1:]))
		}
		if x >= -4 && x < p {
			body = strconv.AppendFloat(buf[:0], a, 'f', p-1-x, 64)
			if !sp.hash {
				body = trimZeros(body)
			} else if p-1-x == 0 {
				body = append(body, '.')
			}
		} else {
			body = expForm(buf[:0], a, p-1, sp.hash)
			if !sp.hash {
				k := strings.LastIndexByte(string(body), 'e')
				exp := string(body[k:])
				body = append(trimZeros(body[:k]), exp...)
			}
		}
	}
	if upper {
		for k, c := range body {
			if c == 'e' {
				body[k] = 'E'
			}
		}
	}
	return pad(dst, sp, sp.zero, signOf(sp, neg), body)
}

// floatWork is what fmtFloat's conversion of f costs beyond the bytes it
// writes, in instructions, charged before it is done. strconv prints up to
// 18 significant digits with a fixed-size algorithm (Ryū); for more, and
// for every %f, it falls back to exact decimal arithmetic whose work grows
// with the square of the binary exponent: %.99e of 2^-1022 or %f of 1e308
// took 6-36 µs for a result of about a hundred bytes, so a format string
// of "%.99e"s ran 400 times longer than its count said. The charge is one
// instruction per 512 of the exponent squared (2,250 for the smallest
// subnormal), and one per 16 digits of precision.
func floatWork(sp fmtSpec, conv byte, f float64) int64 {
	if math.IsInf(f, 0) || f != f || f == 0 {
		return 0
	}
	prec := sp.prec
	if prec < 0 {
		prec = 6
	}
	switch conv {
	case 'e', 'E':
		if prec+1 <= 18 {
			return 0
		}
	case 'g', 'G':
		// %g prints at most max(prec, 1) digits, in %e or in %f form;
		// the %f form is used only when the number is below 10^prec.
		if prec <= 18 {
			return 0
		}
	}
	_, e := math.Frexp(f)
	if f := math.Abs(f); f < 0x1p-1022 {
		e -= 52 // a subnormal's digits reach as far down as its last bit
	}
	return int64(e)*int64(e)/512 + int64(prec)/16
}

// expForm is C's %.{prec}e of a non-negative finite number; '#' keeps the
// point when there are no decimals.
func expForm(dst []byte, a float64, prec int, hash bool) []byte {
	b := strconv.AppendFloat(dst, a, 'e', prec, 64)
	if hash && prec == 0 {
		k := strings.LastIndexByte(string(b), 'e')
		b = append(b[:k], append([]byte{'.'}, b[k:]...)...)
	}
	return b
}

// trimZeros drops the trailing zeros of a number's decimals, and the point
// if nothing is left after it (%g without '#').
func trimZeros(b []byte) []byte {
	if strings.IndexByte(string(b), '.') < 0 {
		return b
	}
	for len(b) > 0 && b[len(b)-1] == '0' {
		b = b[:len(b)-1]
	}
	if len(b) > 0 && b[len(b)-1] == '.' {
		b = b[:len(b)-1]
	}
	return b
}

// quotedLen is the length of %q of s: quotes, and one extra byte for each
// '"', '\\', newline and carriage return, three for each NUL.
func quotedLen(s string) int {
	n := len(s) + 2
	for k := 0; k < len(s); k++ {
		switch s[k] {
		case '"', '\\', '\n', '\r':
			n++
		case 0:
			n += 3
		}
	}
	return n
}

// appendQuoted is Lua 5.1's %q: a string Lua reads back as the same bytes.
func appendQuoted(dst []byte, s string) []byte {
	dst = append(dst, '"')
	for k := 0; k < len(s); k++ {
		switch c := s[k]; c {
		case '"', '\\', '\n':
			dst = append(dst, '\\', c)
		case '\r':
			dst = append(dst, '\\', 'r')
		case 0:
			dst = append(dst, '\\', '0', '0', '0')
		default:
			dst = append(dst, c)
		}
	}
	return append(dst, '"')
}
