package luabind

import (
	"fmt"
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
