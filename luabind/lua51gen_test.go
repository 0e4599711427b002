package luabind

import (
	"fmt"
	"math"
	"math/rand/v2"
	"strconv"
	"strings"
)

// generateLua51Cases makes n Lua expression lists from seed for
// TestDifferentialLua51, a fixed share of each kind.
func generateLua51Cases(seed uint64, n int) []string {
	g := caseGen{r: rand.New(rand.NewPCG(seed, seed^0x5eed))}
	kinds := []func() string{
		g.pattern, g.pattern, g.pattern, g.format, g.format, g.format,
		g.numberText, g.numberText, g.toNumber, g.bytes, g.bytes,
		g.table, g.table, g.arith, g.arith,
	}
	seen := map[string]bool{}
	var out []string
	for len(out) < n {
		c := kinds[len(out)%len(kinds)]()
		if !seen[c] {
			seen[c] = true
			out = append(out, c)
		}
	}
	return out
}

type caseGen struct{ r *rand.Rand }

func (g caseGen) pick(xs ...string) string { return xs[g.r.IntN(len(xs))] }

// quote writes b as a Lua string literal with every byte outside
// printable ASCII as \ddd.
func quote(b []byte) string {
	var sb strings.Builder
	sb.WriteByte('"')
	for _, c := range b {
		switch {
		case c == '"' || c == '\\':
			sb.WriteByte('\\')
			sb.WriteByte(c)
		case c >= 32 && c < 127:
			sb.WriteByte(c)
		default:
			fmt.Fprintf(&sb, "\\%03d", c)
		}
	}
	sb.WriteByte('"')
	return sb.String()
}

// subject is a short string over a small alphabet, now and then with any
// byte, so that patterns find something.
func (g caseGen) subject() string {
	alpha := "aab  bc1_2(x)[y]%.-+AZ\t\n"
	n := g.r.IntN(12)
	b := make([]byte, n)
	for i := range b {
		if g.r.IntN(8) == 0 {
			b[i] = byte(g.r.IntN(256))
		} else {
			b[i] = alpha[g.r.IntN(len(alpha))]
		}
	}
	return quote(b)
}

// patternText is a random pattern, well formed most of the time.
func (g caseGen) patternText() string {
	var sb strings.Builder
	if g.r.IntN(5) == 0 {
		sb.WriteByte('^')
	}
	captures := 0
	for k := g.r.IntN(5); k >= 0; k-- {
		var item string
		switch g.r.IntN(12) {
		case 0, 1:
			// No \0: Lua 5.1 reads a pattern as a C string, cut at its
			// first zero byte (%z is the way to match one); the sandbox
			// reads the whole pattern. A deliberate deviation.
			item = g.pick("a", "b", "1", " ", "x", "%.", "%%", "%(", "%-", "%z", "\\200")
		case 2:
			item = "."
		case 3, 4:
			item = "%" + g.pick("a", "d", "l", "s", "u", "w", "x", "p", "c", "z", "A", "D", "S", "W", "P")
		case 5:
			item = "[" + g.pick("", "^") + g.pick("a-c", "%d", "%s_", "ab]", "%]x", "\\1-\\31", "\\128-\\255", "%a%d", "-a", "b-") + "]"
		case 6:
			item = "%b" + g.pick("()", "[]", "ab", "xx")
		case 7:
			item = "%f[" + g.pick("%w", "%s", "a", "^%z", "%l") + "]"
		case 8:
			item = "()"
		case 9:
			if captures > 0 {
				item = fmt.Sprintf("%%%d", 1+g.r.IntN(captures))
			} else {
				item = "b"
			}
		case 10:
			item = "(" + g.pick("a", "%w+", ".-", "b*", "[ab]?") + ")"
			captures++
		default:
			item = g.pick("(", ")", "[", "%", "[a", "%b", "%f", "%g") // malformed
		}
		sb.WriteString(item)
		if g.r.IntN(3) == 0 && !strings.HasSuffix(item, ")") {
			sb.WriteString(g.pick("*", "+", "-", "?"))
		}
	}
	if g.r.IntN(6) == 0 {
		sb.WriteByte('$')
	}
	return quote([]byte(strings.ReplaceAll(sb.String(), "\\200", "\x80")))
}

func (g caseGen) init() string {
	return g.pick("1", "0", "-1", "2", "-3", "5", "12", "100", "-100", `"2"`, "1.9", "nil")
}

func (g caseGen) pattern() string {
	s, p := g.subject(), g.patternText()
	switch g.r.IntN(7) {
	case 0:
		return fmt.Sprintf("string.find(%s, %s, %s)", s, p, g.init())
	case 1:
		return fmt.Sprintf("string.find(%s, %s, %s, %s)", s, p, g.init(), g.pick("true", "false", "1"))
	case 2:
		return fmt.Sprintf("string.match(%s, %s, %s)", s, p, g.init())
	case 3:
		return fmt.Sprintf("G(%s, %s)", s, p)
	case 4:
		return fmt.Sprintf("string.gsub(%s, %s, %s, %s)", s, p, g.pick(`"<%0>"`, `"%1"`, `"-"`, `""`, `"%%"`, `"%2"`, `"x%"`, "0.5", "1e15"), g.pick("nil", "1", "2", "0", "-1", `"1"`))
	case 5:
		return fmt.Sprintf("string.gsub(%s, %s, %s)", s, p, g.pick(`{a = "A", b = 1.5, [" "] = false}`, `{}`, `{a = {}}`,
			`function(x) return x end`, `function(x) return nil end`, `function(x, y) return y end`, `function() return 0.1 + 0.2 end`, `function() return {} end`))
	default:
		return fmt.Sprintf("(string.gsub(%s, %s, string.upper))", s, p)
	}
}

var (
	fmtInts   = []string{"0", "1", "42", "-42", "255", "3.7", "-3.7", "2^31", "-2^53", "2^53", `"17"`, `"0x1f"`, `" 9 "`, "65", "-1", "256", "200", "1e15", "0/0", "1/0", `"x"`, "{}", "nil", "true"}
	fmtFloats = []string{"0", "-0.0", "1/3", "-2.5", "1e20", "1e-5", "123456789", "0.5", "1.5", "2.5", "1/0", "-1/0", "0/0", "100000", "1e15", `"3.14159"`, "1e-300", "1e300", "0.1", "-1e-10", "9.9999999", "999999.5", "5e-324", "2^63", `"abc"`, "nil"}
	fmtStrs   = []string{`""`, `"abc"`, `"a\0b"`, `string.rep("x", 120)`, "12.5", "1e100", `"hello world"`, `"\r\n\"\\"`, "-0.0", "0.1+0.2", "nil", "true", "{}", `"\200\255\1"`, "1/0"}
)

func (g caseGen) spec() string {
	flags := []string{"", "-", "+", " ", "#", "0", "-0", "+0", "#0", "- ", "+ ", "-#", "0#", "+-#0 "}
	return "%" + g.pick(flags...) + g.pick("", "1", "5", "12", "20", "99", "100") + g.pick("", ".", ".0", ".1", ".3", ".10", ".20", ".99", ".100")
}

func (g caseGen) format() string {
	conv := g.pick("d", "i", "u", "c", "x", "X", "o", "e", "E", "f", "g", "G", "q", "s", "%")
	var arg string
	switch {
	case strings.Contains("diucxXo", conv):
		arg = g.pick(fmtInts...)
	case strings.Contains("eEfgG", conv):
		arg = g.pick(fmtFloats...)
	default:
		arg = g.pick(fmtStrs...)
	}
	if g.r.IntN(4) == 0 {
		other := g.pick("d", "s", "g", "x", "c", "q")
		return fmt.Sprintf("string.format(%q, %s, %s)", "<"+g.spec()+conv+"|%"+other+">", arg, g.pick(fmtInts...))
	}
	return fmt.Sprintf("string.format(%q, %s)", g.spec()+conv, arg)
}

var edgeNumbers = []string{"0", "-0", "0.1+0.2", "(0.1+0.7)*10", "1e15", "1e14", "1e16", "123456789012345", "99999999999999", "2^53", "2^53+1", "2^63", "-2^63", "2^64",
	"1e308", "1e309", "-1e309", "5e-324", "2.2250738585072014e-308", "0.1", "1/3", "-1/3", "2/3", "1e-5", "1e-4", "0.0001", "1e100", "1/0", "-1/0", "0/0", "-(0/0)",
	"100", "-7", "3.0", "1.5e300", "12345678901234567890", "0.30000000000000004", "7.999999999999999", "1e21", "-1e-310", "255", "65536", "4294967296", "math.pi", "-math.pi", "math.huge"}

func (g caseGen) number() string { return g.pick(edgeNumbers...) }

func (g caseGen) numberText() string {
	x := g.number()
	switch g.r.IntN(6) {
	case 0:
		return "tostring(" + x + ")"
	case 1:
		return "(" + x + ") .. \"\""
	case 2:
		return "\"x=\" .. " + x + " .. \"|\" .. " + g.number()
	case 3:
		return "table.concat({" + x + ", " + g.number() + "}, \",\")"
	case 4:
		return "string.format(\"%s|%.14g|%d\", " + x + ", " + x + ", 3)"
	default:
		return "select(2, pcall(error, " + x + "))"
	}
}

// numeral is text that may or may not read as a number.
func (g caseGen) numeral() string {
	var sb strings.Builder
	sb.WriteString(g.pick("", "", " ", "\t", "\n", "  "))
	sb.WriteString(g.pick("", "", "-", "+", "--"))
	switch g.r.IntN(4) {
	case 0:
		sb.WriteString(g.pick("0x", "0X", "0x", "0"))
		sb.WriteString(g.pick("10", "ff", "FF", "1p4", "", "g", "7fffffffffffffff", "ffffffffffffffffff", "1.8"))
	default:
		sb.WriteString(g.pick("", "0", "1", "010", "123", "9", "08", "1.5", ".5", "5.", ".", "1e5", "1e+5", "1E-3", "1e", "e5", "inf", "nan", "infinity", "1..2", "12a", "1 2", "z", "zz", "777", "101"))
	}
	sb.WriteString(g.pick("", "", " ", "\n", "x", "\x00"))
	return quote([]byte(sb.String()))
}

func (g caseGen) toNumber() string {
	s := g.numeral()
	switch g.r.IntN(5) {
	case 0, 1:
		return "tonumber(" + s + ")"
	case 2:
		return "tonumber(" + s + ", " + g.pick("2", "8", "10", "16", "36", "1", "37", "0", `"16"`, "16.5", "nil", "-1") + ")"
	case 3:
		return s + " + 0"
	default:
		return "tostring(tonumber(" + s + "))"
	}
}

// anyBytes is a string of up to 10 bytes of any value.
func (g caseGen) anyBytes() string {
	b := make([]byte, g.r.IntN(10))
	for i := range b {
		b[i] = byte(g.r.IntN(256))
	}
	return quote(b)
}

func (g caseGen) index() string {
	return g.pick("0", "1", "2", "3", "-1", "-2", "-3", "5", "10", "-10", "100", "-100", `"2"`, `"-1"`, "2.7", "-2.7", "nil", `" 3 "`, `"0x2"`)
}

func (g caseGen) bytes() string {
	s := g.anyBytes()
	switch g.r.IntN(10) {
	case 0:
		return fmt.Sprintf("string.sub(%s, %s, %s)", s, g.index(), g.index())
	case 1:
		return fmt.Sprintf("string.byte(%s, %s, %s)", s, g.index(), g.index())
	case 2:
		args := make([]string, g.r.IntN(4))
		for i := range args {
			args[i] = g.pick(strconv.Itoa(g.r.IntN(256)), "-1", "256", `"65"`, "65.9", "0")
		}
		return "string.char(" + strings.Join(args, ", ") + ")"
	case 3:
		return fmt.Sprintf("string.rep(%s, %s)", s, g.pick("0", "1", "2", "3", "-1", `"2"`, "2.9"))
	case 4:
		return fmt.Sprintf("string.upper(%s), string.lower(%s)", s, s)
	case 5:
		return fmt.Sprintf("string.reverse(%s), string.len(%s), #%s", s, s, s)
	case 6:
		return fmt.Sprintf("string.format(\"%%q\", %s)", s)
	case 7:
		return fmt.Sprintf("(%s):sub(%s), (%s):byte(%s)", s, g.index(), s, g.index())
	case 8:
		return fmt.Sprintf("%s < %s, %s == %s, %s <= %s", s, g.anyBytes(), s, s, s, g.anyBytes())
	default:
		return fmt.Sprintf("string.find(%s, %s, %s, true)", s, g.anyBytes(), g.index())
	}
}

// list is a table constructor of up to six values, some of them holes.
func (g caseGen) list() string {
	n := g.r.IntN(7)
	vals := make([]string, n)
	for i := range vals {
		vals[i] = g.pick("1", "2", "3", "10", "-5", "2.5", `"a"`, `"b"`, `"10"`, "0.1", "1e15")
	}
	if n > 0 && g.r.IntN(5) == 0 {
		vals[g.r.IntN(n)] = "nil"
	}
	return "{" + strings.Join(vals, ", ") + "}"
}

func (g caseGen) numList() string {
	n := g.r.IntN(12)
	vals := make([]string, n)
	for i := range vals {
		vals[i] = strconv.Itoa(g.r.IntN(10) - 3)
	}
	return "{" + strings.Join(vals, ", ") + "}"
}

func (g caseGen) table() string {
	switch g.r.IntN(9) {
	case 0:
		return fmt.Sprintf("table.concat(%s, %s, %s, %s)", g.list(), g.pick(`""`, `", "`, "1", `"\0"`), g.pick("nil", "1", "2", "0", "-1"), g.pick("nil", "2", "3", "5", "0"))
	case 1:
		return fmt.Sprintf("I(%s, %s)", g.list(), g.pick("9", `"x"`, "nil"))
	case 2:
		return fmt.Sprintf("I(%s, %s, %s)", g.list(), g.pick("1", "2", "0", "-1", "4", "8", "10", `"2"`, "2.5", "100"), g.pick("9", `"x"`))
	case 3:
		return fmt.Sprintf("R(%s%s)", g.list(), g.pick("", ", 1", ", 2", ", 0", ", -1", ", 4", ", 7", `, "1"`))
	case 4:
		return fmt.Sprintf("S(%s, %s)", g.numList(), g.pick("nil", "function(a, b) return a > b end", "function(a, b) return a < b end",
			"function(a, b) return a <= b end", "function(a, b) return true end", "function(a, b) return false end"))
	case 5:
		return fmt.Sprintf("S(%s)", g.pick(`{"b", "a", "c", "B", "10", "9"}`, `{"x", 1}`, `{"\200", "\1", "a", ""}`))
	case 6:
		return fmt.Sprintf("table.maxn(%s), table.getn(%s)", g.pick(g.list(), "{[1.5] = 1}", "{[-3] = 1, [2] = 2}", "{[1e300] = 1}", "{n = 3}", "{[2^53] = 1, 5}"), g.list())
	case 7:
		return fmt.Sprintf("unpack(%s, %s, %s)", g.list(), g.pick("nil", "1", "2", "-1", `"2"`, "0"), g.pick("nil", "2", "3", "5", `"3"`))
	default:
		return fmt.Sprintf("select(%s%s)", g.pick("1", "2", "-1", "-2", `"2"`, `"#"`, "0", "5", "-5", "2.5"), strings.TrimSuffix(", "+strings.Trim(g.list(), "{}"), ", "))
	}
}

func (g caseGen) operand() string {
	return g.pick(append([]string{`"10"`, `" 0x10 "`, `"1e1"`, `"3.5"`, `"-2"`, `"010"`, `" 7 "`, `"1e"`, `"abc"`, `""`, "2", "3", "-0.5", "7"}, edgeNumbers[:20]...)...)
}

func (g caseGen) arith() string {
	a, b := g.operand(), g.operand()
	switch g.r.IntN(5) {
	case 0, 1:
		return fmt.Sprintf("tostring(%s %s %s)", a, g.pick("+", "-", "*", "/", "%", "^"), b)
	case 2:
		return fmt.Sprintf("%s %s %s", a, g.pick("+", "-", "*", "/", "%", "^"), b)
	case 3:
		return fmt.Sprintf("-(%s), %s .. %s", a, a, b)
	default:
		return fmt.Sprintf("math.%s(%s, %s)", g.pick("max", "min", "fmod", "mod", "pow", "atan2", "floor", "ceil", "abs", "sqrt", "modf", "frexp", "ldexp", "log", "exp"), a, g.pick("2", `"3"`, "0.5", "-1"))
	}
}

// Issue 24's families: each probes one mechanism by which the sandbox
// differed from Lua 5.1.5, with variants drawn at random so that a fix of
// the one example does not pass.
//
//   - coercion: numeric strings in arithmetic, unary minus, for loops and
//     library arguments, in Lua's syntax and in syntaxes only Go reads
//     ("0b101", "0o17", "1_000", "0x_1", "nan(1)");
//   - random: math.random's argument counts, types and numeric strings;
//   - results: unpack and string.byte near LUAI_MAXCSTACK results;
//   - math: log10 at and around powers of ten (digit counting), rad and
//     deg to the last bit, the argument order of the two-argument
//     functions;
//   - intFormat: %d %i %o %u %x %X %c of whole numbers beyond 2^53, 2^63
//     and 2^64, negative, infinite and NaN;
//   - where: errors of library functions called from Lua, straight from
//     pcall, from another library function (gsub, sort, foreach, xpcall)
//     and as metamethods, with the position shown (W);
//   - args: library functions called with missing, nil and wrongly typed
//     arguments, for the function's name and the argument's number;
//   - order: table.sort and < on values that do not compare.
func generateIssue24Cases(seed uint64, n int) []string {
	g := caseGen{r: rand.New(rand.NewPCG(seed, seed^0x24))}
	kinds := []func() string{
		g.coercion, g.coercion, g.coercion, g.randomArgs, g.results, g.mathExact, g.mathExact,
		g.intFormat, g.intFormat, g.where, g.where, g.args, g.args, g.args, g.order,
	}
	seen := map[string]bool{}
	var out []string
	for tries := 0; len(out) < n && tries < 50*n; tries++ {
		c := kinds[tries%len(kinds)]()
		if !seen[c] {
			seen[c] = true
			out = append(out, c)
		}
	}
	return out
}

// numericText is a string literal that Lua 5.1 may or may not read as a
// number; about half are in syntaxes only Go's parsers take.
func (g caseGen) numericText() string {
	var sb strings.Builder
	sb.WriteString(g.pick("", "", " ", "\t", "\n "))
	sb.WriteString(g.pick("", "", "", "-", "+"))
	switch g.r.IntN(3) {
	case 0:
		sb.WriteString(g.pick("0b101", "0B11", "0o17", "0O7", "1_000", "1_0", "0x_1f", "0x1_0", "1e1_0", "1__0", "_1", "1_",
			"0b", "0o", "0x1p4", "0X1P-2", "0x.8", "0x1.", "0x", "0xg", "0x1p", "1e", ".e1", "1..2", "0b1.1"))
	case 1:
		sb.WriteString(g.pick("nan(1)", "NaN(abc_9)", "nan()", "nan(", "nan(1", "nan(-)", "inf", "Infinity", "infinit", "nan", "INF", "nan(x)y"))
	default:
		sb.WriteString(g.pick("10", "7", "2.5", ".5", "5.", "1e2", "1E-1", "0x10", "0XfF", "010", "0", "3e0", "12a", "1 2", "", "x"))
	}
	sb.WriteString(g.pick("", "", "", " ", "\n", "\v", "x", "\x00", "\x001"))
	return quote([]byte(sb.String()))
}

func (g caseGen) coercion() string {
	s, t := g.numericText(), g.numericText()
	num := g.pick("2", "3", "-1", "0.5", "10")
	op := g.pick("+", "-", "*", "/", "%", "^")
	switch g.r.IntN(12) {
	case 0:
		return fmt.Sprintf("%s %s %s", s, op, num)
	case 1:
		return fmt.Sprintf("%s %s %s", num, op, s)
	case 2:
		return fmt.Sprintf("%s %s %s", s, op, t)
	case 3:
		return "-" + s
	case 4:
		// Through locals: the error names the variable.
		return fmt.Sprintf("(function() local a, b = %s, %s return a %s b end)()", s, num, op)
	case 5:
		return fmt.Sprintf("(function() local s = %s return -s end)()", s)
	case 6:
		return fmt.Sprintf("FOR(%s)", g.pick(s+", 3", "1, "+s, "1, 5, "+s, s+", "+t))
	case 7:
		return fmt.Sprintf("math.%s(%s)", g.pick("floor", "abs", "sqrt", "ceil", "exp", "log10", "frexp", "modf"), s)
	case 8:
		return fmt.Sprintf("math.%s(%s, %s)", g.pick("max", "min", "fmod", "pow", "ldexp", "atan2"), s, g.pick(num, t))
	case 9:
		return fmt.Sprintf("string.%s", g.pick("rep(\"ab\", "+s+")", "sub(\"abcdef\", "+s+")", "sub(\"abcdef\", 2, "+s+")",
			"byte(\"abcdef\", "+s+")", "char(65, "+s+")", "format(\"%d|%5.1f\", "+s+", "+s+")"))
	case 10:
		return g.pick("tonumber("+s+")", "tonumber("+s+", 16)", "unpack({1, 2, 3}, "+s+")", "select("+s+", \"a\", \"b\", \"c\")")
	default:
		return fmt.Sprintf("table.insert({1, 2}, %s, 9)", s)
	}
}

// smallArg is an argument for a whole-number parameter: numbers, numeric
// strings, and what is neither.
func (g caseGen) smallArg() string {
	return g.pick("1", "2", "3", "10", "0", "-1", "-3", "2.5", "-2.5", `"3"`, `" 0x4 "`, `"2e0"`, `"0b11"`, `"x"`, "nil", "{}", "true", "1e300", "0/0")
}

func (g caseGen) randomArgs() string {
	args := make([]string, g.r.IntN(5))
	for i := range args {
		args[i] = g.smallArg()
	}
	return "RND(" + strings.Join(args, ", ") + ")"
}

// results asks unpack and string.byte for about LUAI_MAXCSTACK (8,000)
// results, less the arguments on the stack.
func (g caseGen) results() string {
	n := 7990 + g.r.IntN(14)
	switch g.r.IntN(6) {
	case 0:
		return fmt.Sprintf("select('#', unpack({}, 1, %d))", n)
	case 1:
		return fmt.Sprintf("select('#', unpack(setmetatable({}, {}), %d, %d))", 3, n+2)
	case 2:
		return fmt.Sprintf("W(unpack, {}, 1, %d) == nil", n)
	case 3:
		return fmt.Sprintf("select('#', string.byte(string.rep(\"x\", %d), 1, -1))", n)
	case 4:
		return fmt.Sprintf("select('#', (string.rep(\"ab\", %d)):byte(%d, %s))", n, -n, g.pick("-1", "-2", "nil"))
	default:
		return fmt.Sprintf("select('#', string.byte(string.rep(\"x\", %d), %s))", n+10, g.pick("1, -1", "-"+fmt.Sprint(n), "5, "+fmt.Sprint(n+4)))
	}
}

// mathExact is log10 at and around powers of ten, rad and deg: results
// that must agree with glibc's to the last bit (EXACT), and the argument
// errors of the two-argument functions.
func (g caseGen) mathExact() string {
	switch g.r.IntN(6) {
	case 0:
		k := g.r.IntN(331) - 30
		return fmt.Sprintf("EXACT(math.log10(1e%d), math.log10(10^%d))", k, min(max(k, -22), 22))
	case 1:
		// Digit counting: the number of digits of n.
		d := 1 + g.r.IntN(15)
		x := g.r.Int64N(int64(math.Pow10(d)))
		return fmt.Sprintf("EXACT(math.floor(math.log10(%d)) + 1, math.floor(math.log10(%d)) + 1, math.floor(math.log10(%s)) + 1)",
			max(x, 1), int64(math.Pow10(d-1)), g.pick("1e15", "999999", "99999999999999", "10^"+fmt.Sprint(d)))
	case 2, 3:
		x := g.pick(strconv.Itoa(g.r.IntN(721)-360), fmt.Sprintf("%.3f", g.r.Float64()*720-360), "math.pi", "1e300", "-0.0", "1e-300", "1/0", "0/0",
			fmt.Sprint(g.r.IntN(1000000)), fmt.Sprintf("%g", g.r.NormFloat64()*1e6))
		return fmt.Sprintf("EXACT(math.%s(%s))", g.pick("rad", "deg"), x)
	default:
		args := make([]string, g.r.IntN(3))
		for i := range args {
			args[i] = g.pick("2", "0.5", `"3"`, "nil", "{}", `"x"`, "-1")
		}
		return fmt.Sprintf("math.%s(%s)", g.pick("fmod", "mod", "pow", "atan2", "ldexp", "max", "min", "frexp", "modf", "log10", "rad", "deg"), strings.Join(args, ", "))
	}
}

// bigNumbers are whole numbers at and beyond 2^53, 2^63 and 2^64, and the
// values no integer holds.
var bigNumbers = []string{"2^53", "2^53+2", "2^53*3", "2^62", "2^63", "-2^63", "2^63-1024", "2^63+2048", "2^64", "2^64-2048", "-2^63-2048",
	"-2^64", "1e19", "-1e19", "1e300", "-1e300", "2^31", "-2^31", "2^31-0.5", "-2^31-0.5", "-2^31-1", "2^32+65", "-(2^60+1)", "2^60+1",
	"1/0", "-1/0", "0/0", "-(0/0)", "-0.0", "-0.5", `"9007199254740994"`, `" 0x7ffffffffffffc00 "`, "65", "-1", "255.9"}

func (g caseGen) intFormat() string {
	conv := g.pick("d", "i", "o", "u", "x", "X", "c", "d", "x")
	flags := g.pick("", "", "-", "+", " ", "#", "0", "-#", "+0", "#0")
	width := g.pick("", "", "5", "12", "25")
	prec := g.pick("", "", ".0", ".3", ".20")
	spec := "%" + flags + width + prec + conv
	if g.r.IntN(3) == 0 {
		return fmt.Sprintf("string.format(%q, %s, %s)", "["+spec+"|%d]", g.pick(bigNumbers...), g.pick(bigNumbers...))
	}
	return fmt.Sprintf("string.format(%q, %s)", "["+spec+"]", g.pick(bigNumbers...))
}

// failing are library calls that raise an error, each with the function
// as a value and its arguments: arguments of the wrong type, and the
// library's own errors (luaL_error).
var failing = [][2]string{
	{"string.rep", ""}, {"string.rep", `"x"`}, {"string.rep", `{}, 2`}, {"string.sub", `"x", {}`}, {"string.format", `"%d", "x"`},
	{"string.format", `"%y", 1`}, {"string.format", `"%d"`}, {"string.format", `"%123d", 1`}, {"string.char", `256`}, {"string.char", `"x"`},
	{"string.find", `"x", "%"`}, {"string.find", `"x", "(%"`}, {"string.gsub", `"x", "x", {x = {}}`}, {"string.gsub", `"x", "x", true`},
	{"string.gsub", `"x", "(", ""`}, {"string.byte", `{}`}, {"string.lower", ``}, {"string.len", `nil`}, {"string.gmatch", `"x"`},
	{"math.floor", `"x"`}, {"math.floor", ``}, {"math.fmod", `1`}, {"math.max", ``}, {"math.ldexp", `1, {}`}, {"math.random", `1, 2, 3`},
	{"math.random", `0`}, {"math.random", `3, 1`}, {"math.random", `"x"`}, {"table.insert", `{}, 1, 2, 3`}, {"table.insert", `nil, 1`},
	{"table.concat", `{{}}`}, {"table.concat", `{}, {}`}, {"table.remove", ``}, {"table.sort", `{3, 1, 2}, 1`}, {"table.setn", `{}`},
	{"table.maxn", `1`}, {"table.foreach", `{}`}, {"unpack", `{}, 1, 1e5`}, {"unpack", `nil`}, {"select", `0`}, {"select", `-5, 1`},
	{"select", `{}`}, {"tonumber", `"10", 99`}, {"tonumber", ``}, {"type", ``},
	{"setmetatable", `{}`}, {"setmetatable", `{}, 1`}, {"setmetatable", `1, {}`}, {"setmetatable", `setmetatable({}, {__metatable = 1}), {}`},
	{"rawget", `1`}, {"rawset", `{}`}, {"rawset", `{}, nil, 1`}, {"rawequal", `1`}, {"next", `{}, "nokey"`}, {"next", ``},
	{"ipairs", ``}, {"ipairs", `nil`}, {"pairs", `1`}, {"assert", `false`}, {"assert", `nil, "m"`}, {"assert", `false, {}`},
	{"assert", ``}, {"error", `"m"`}, {"error", `"m", 2`}, {"error", `"m", 0`}, {"error", ``}, {"pcall", ``}, {"xpcall", `print`},
}

// where raises a library function's error from each kind of caller, and
// shows the message with its position (W).
func (g caseGen) where() string {
	f := failing[g.r.IntN(len(failing))]
	args := f[1]
	sep := ""
	if args != "" {
		sep = ", "
	}
	k := g.r.IntN(6)
	if f[0] == "math.random" {
		k %= 4 // another library function calling it would draw numbers
	}
	switch k {
	case 0, 1:
		return fmt.Sprintf("W(%s%s%s)", f[0], sep, args) // straight from pcall
	case 2:
		return fmt.Sprintf("W(function() local r = %s(%s) return r end)", f[0], args) // from Lua code
	case 3:
		return fmt.Sprintf("W(function() local t = {f = %s} local r = t.f(%s) return r end)", f[0], args)
	case 4:
		// As a metamethod, called by the VM from Lua code.
		return fmt.Sprintf("W(function() local t = setmetatable({}, {__index = %s}) return t.x end)", f[0])
	default:
		// From another library function (a C function in Lua 5.1).
		return g.pick(
			fmt.Sprintf("W(string.gsub, \"ab\", \"%%w\", %s)", f[0]),
			fmt.Sprintf("W(string.gsub, \"a1\", \"(%%w)(%%w)\", %s)", f[0]),
			fmt.Sprintf("W(table.sort, {3, 1, 2}, %s)", f[0]),
			fmt.Sprintf("W(table.foreach, {\"x\"}, %s)", f[0]),
			fmt.Sprintf("W(table.foreachi, {\"x\", {}}, %s)", f[0]),
			fmt.Sprintf("W(xpcall, error, %s)", f[0]),
			fmt.Sprintf("W(function() return xpcall(%s, function(m) return \"H:\" .. tostring(m) end) end)", f[0]),
			fmt.Sprintf("W(tostring, setmetatable({}, {__tostring = %s}))", f[0]))
	}
}

// library are the library functions whose argument checks args probes,
// with the most arguments each is worth calling with. Left out: print
// (the log), math.random (RND), gcinfo and tostring and getmetatable of
// tables and strings (addresses; the sandbox's string metatable is
// hidden), string.dump (not in the sandbox), error of a table (printed by
// address).
var library = []struct {
	name string
	max  int
}{
	{"assert", 2}, {"ipairs", 2}, {"next", 2}, {"pairs", 1}, {"rawequal", 2}, {"rawget", 2}, {"rawset", 3}, {"select", 3},
	{"setmetatable", 2}, {"tonumber", 2}, {"type", 1}, {"unpack", 3}, {"pcall", 2}, {"xpcall", 2},
	{"string.byte", 3}, {"string.char", 3}, {"string.find", 4}, {"string.format", 3}, {"string.gmatch", 2}, {"string.gsub", 4},
	{"string.len", 1}, {"string.lower", 1}, {"string.match", 3}, {"string.rep", 2}, {"string.reverse", 1}, {"string.sub", 3},
	{"string.upper", 1}, {"table.concat", 4}, {"table.insert", 3}, {"table.maxn", 1}, {"table.remove", 2}, {"table.sort", 2},
	{"table.getn", 1}, {"table.setn", 2}, {"table.foreach", 2}, {"table.foreachi", 2},
	{"math.abs", 1}, {"math.acos", 1}, {"math.atan2", 2}, {"math.ceil", 1}, {"math.cos", 1}, {"math.deg", 1}, {"math.exp", 1},
	{"math.floor", 1}, {"math.fmod", 2}, {"math.frexp", 1}, {"math.ldexp", 2}, {"math.log", 1}, {"math.log10", 1}, {"math.max", 3},
	{"math.min", 3}, {"math.mod", 2}, {"math.modf", 1}, {"math.pow", 2}, {"math.rad", 1}, {"math.sqrt", 1}, {"math.tan", 1},
	{"math.randomseed", 1}, {"tostring", 0}, {"getmetatable", 0}, {"error", 0},
}

// args calls a library function with missing, nil and wrongly typed
// arguments, straight (show names the function and the argument) or as a
// method of a string.
func (g caseGen) args() string {
	f := library[g.r.IntN(len(library))]
	n := g.r.IntN(f.max + 1)
	args := make([]string, n)
	for i := range args {
		args[i] = g.pick("nil", "nil", "true", "1", "2", "-1", "2.5", `"x"`, `"2"`, `"%d"`, `" 0x3 "`, "{}", "{1, 2, 3}", "function() end")
	}
	if n > 0 && g.r.IntN(4) == 0 {
		args = args[:n-1] // a missing argument after the given ones
	}
	call := f.name + "(" + strings.Join(args, ", ") + ")"
	if strings.HasPrefix(f.name, "string.") && g.r.IntN(5) == 0 {
		// As a method: self is not counted in argument errors.
		call = fmt.Sprintf("(%s):%s(%s)", g.pick(`"abc"`, `"12"`), strings.TrimPrefix(f.name, "string."), strings.Join(args, ", "))
	}
	return call
}

// order sorts lists whose values do not all compare, and compares such
// values with <, for the words of the errors.
func (g caseGen) order() string {
	vals := []string{"1", "2", `"x"`, `"y"`, "{}", "true", "false", "function() end", "lt", "lt2"}
	n := 2 + g.r.IntN(4)
	list := make([]string, n)
	for i := range list {
		list[i] = g.pick(vals...)
	}
	const mts = "local mt = {__lt = function(a, b) return rawequal(a, b) end} local lt, lt2 = setmetatable({}, mt), setmetatable({}, mt) "
	switch g.r.IntN(4) {
	case 0:
		return fmt.Sprintf("W(function() %s local t = {%s} table.sort(t) return #t end)", mts, strings.Join(list, ", "))
	case 1:
		return fmt.Sprintf("W(function() %s table.sort({%s}, function(a, b) return a < b end) end)", mts, strings.Join(list, ", "))
	case 2:
		return fmt.Sprintf("W(table.sort, {%s, %s})", g.pick(vals[:8]...), g.pick(vals[:8]...))
	default:
		return fmt.Sprintf("W(function() %s local a, b = %s, %s return a %s b end)", mts, list[0], list[1], g.pick("<", "<=", ">", ">="))
	}
}
