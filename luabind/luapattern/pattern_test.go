package luapattern

import (
	"errors"
	"strings"
	"testing"
)

// The expected values below are what Lua 5.1.5 prints for
// string.find(subject, pattern, init+1), string.gsub and string.gmatch
// (checked with the lua5.1 interpreter), in the format of luaFind: 1-based
// inclusive start and end, then the captures (strings quoted, position
// captures as numbers).

// findCases are string.find cases; TestAgainstLua51 also runs them through
// the real interpreter.
var findCases = []struct {
	pat, subj string
	init      int
	want      string
}{
	// Plain characters, the empty pattern, embedded zero bytes.
	{"", "", 0, `1 0`},
	{"", "alo", 0, `1 0`},
	{"", "alo", 3, `4 3`},
	{"a", "a\x00o a\x00o a\x00o", 0, `1 1`},
	{"a\x00o", "a\x00o a\x00o a\x00o", 1, `5 7`},
	{"\x00ab", "a\x00a\x00a\x00a\x00\x00ab", 1, `9 11`},
	{"b\x00", "a\x00a\x00a\x00a\x00\x00ab", 0, `nil`},
	{"\x00", "", 0, `nil`},
	{"12", "alo123alo", 0, `4 5`},
	{"^12", "alo123alo", 0, `nil`},
	{"alo", "alo123alo", 1, `7 9`},
	{"x", "abc", 0, `nil`},

	// '.' and the classes (C locale: bytes >= 128 are in no class).
	{".", "", 0, `nil`},
	{".", "\x00", 0, `1 1`},
	{"a.c", "xabcx", 0, `2 4`},
	{"%a+", "  hello1", 0, `3 7`},
	{"%d+", "ab12c", 0, `3 4`},
	{"%l%u", "aBc", 0, `1 2`},
	{"%u%l", "aBc", 0, `2 3`},
	{"%p+", "a!?b", 0, `2 3`},
	{"%s+", "a \t\n\v\f\r b", 0, `2 8`},
	{"%x+", "zzBeef12g", 0, `3 8`},
	{"%c", "a\x7fb", 0, `2 2`},
	{"%z", "a\x00b", 0, `2 2`},
	{"%w+", "_ab12_", 0, `2 5`},
	{"%A+", "ab12cd", 0, `3 4`},
	{"%W", "ab_c", 0, `3 3`},
	{"%S+", "  xy ", 0, `3 4`},
	{"%D+", "12ab3", 0, `3 4`},
	{"%Z+", "\x00ab\x00", 0, `2 3`},
	{"%a", "\xe9", 0, `nil`},
	{"%A", "\xe9", 0, `1 1`},
	{"%p", "\x80", 0, `nil`},
	{"%.", "a.b", 0, `2 2`},
	{"%%", "50%", 0, `3 3`},
	{"%]", "a]", 0, `2 2`},
	{"%g", "xgy", 0, `2 2`}, // %g is no class in 5.1: a literal 'g'

	// Sets.
	{"[abc]+", "xxbcaz", 0, `3 5`},
	{"[^abc]+", "abxyzc", 0, `3 5`},
	{"[a-c]+", "zzabcd", 0, `3 5`},
	{"[%d%s]+", "ab1 2c", 0, `3 5`},
	{"[%a_][%w_]*", "12 _foo9 bar", 0, `4 8`},
	{"[]]", "a]", 0, `2 2`},
	{"[]a]+", "x]a]", 0, `2 4`},
	{"[^]]+", "ab]", 0, `1 2`},
	{"[^]a]", "]ab", 0, `3 3`},
	{"[a-]+", "b-a-c", 0, `2 4`},
	{"[-a]+", "b-a-c", 0, `2 4`},
	{"[%]]", "x]", 0, `2 2`},
	{"[%a-z]", "-", 0, `1 1`}, // %a, '-', 'z': no range after a class
	{"[%-]", "a-", 0, `2 2`},
	{"[a-%%]", "]", 0, `1 1`}, // Lua 5.1 quirk: range a-%, then "%]" read as an escaped ']'
	{"[a-%]]", "x]", 0, `2 2`},
	{"[z-a]", "az", 0, `nil`},
	{"[\x80-\xff]+", "ab\x80\xfe\xffc", 0, `3 5`},
	{"[^%s]+", "  ab ", 0, `3 4`},
	{"[.]", "a.", 0, `2 2`},
	{"[a.]+", "xa.a", 0, `2 4`},
	{"[%w%.]+", "  a.b1 ", 0, `3 6`},

	// Quantifiers.
	{"a*", "aaab", 0, `1 3`},
	{"a*", "baaa", 0, `1 0`},
	{"a+", "baaa", 0, `2 4`},
	{"a+", "bbb", 0, `nil`},
	{"a-", "aaa", 0, `1 0`},
	{"a-b", "aaab", 0, `1 4`},
	{"a-$", "aaa", 0, `1 3`},
	{"a?b", "ab", 0, `1 2`},
	{"a?b", "b", 0, `1 1`},
	{"a?a?a", "aa", 0, `1 2`},
	{".-b", "aabab", 0, `1 3`},
	{".*b", "aabab", 0, `1 5`},
	{"^.-$", "hello", 0, `1 5`},
	{"[ab]*b", "ababc", 0, `1 4`},
	{"a*a*a*b", "aaaab", 0, `1 5`},
	{"x*", "", 0, `1 0`},
	{"*", "a*b", 0, `2 2`},  // a leading quantifier is a literal
	{"a**", "a*", 0, `1 2`}, // a*, then a literal '*'
	{"+", "+", 0, `1 1`},

	// Anchors.
	{"^a", "ba", 0, `nil`},
	{"^a", "ab", 0, `1 1`},
	{"^a", "aaa", 1, `2 2`}, // the anchor holds at init
	{"a$", "aba", 0, `3 3`},
	{"a$b", "a$b", 0, `1 3`}, // '$' not at the end is a literal
	{"$", "abc", 0, `4 3`},
	{"^$", "", 0, `1 0`},
	{"^$", "a", 0, `nil`},
	{"^^", "^a", 0, `1 1`}, // the second '^' is a literal
	{"b^", "ab^", 0, `2 3`},
	{"$$", "a$", 0, `2 2`},
	{"^(a*)", "bbb", 0, `1 0 ""`},

	// Captures.
	{"^(%w+)%s*=%s*(%w+)$", "key = value", 0, `1 11 "key" "value"`},
	{"(%d+)-(%d+)", "tel 123-456", 0, `5 11 "123" "456"`},
	{"()a()", "xa", 0, `2 2 2 3`},
	{"()", "abc", 0, `1 0 1`},
	{"()", "abc", 3, `4 3 4`},
	{"((a)(b))", "ab", 0, `1 2 "ab" "a" "b"`},
	{"(a(b()c)d)", "abcd", 0, `1 4 "abcd" "bc" 3`},
	{"(h)(e)(l)(l)(o)", "hello", 0, `1 5 "h" "e" "l" "l" "o"`},
	{"(a*(.)%w(%s*))", "aaab c", 0, `1 5 "aaab " "a" " "`},
	{"(.-)c", "abcabc", 0, `1 3 "ab"`},
	{"(%a*)", "", 0, `1 0 ""`},
	{"(a)*", "a*", 0, `1 2 "a"`}, // a quantifier after ')' is a literal
	{strings.Repeat("()", 32), "", 0, `1 0` + strings.Repeat(" 1", 32)},

	// Back-references.
	{"(a)%1", "baa", 0, `2 3 "a"`},
	{"(a+)b%1", "aabaa", 0, `1 5 "aa"`},
	{"([\"'])(.-)%1", `x = 'a"b' .. "c"`, 0, `5 9 "'" "a\"b"`},
	{"(%w+) %1", "hello hello world", 0, `1 11 "hello"`},
	{"()%1", "  ", 0, `nil`},           // a position capture never matches as a back-reference
	{"(a*)%1$", "aaaa", 0, `1 4 "aa"`}, // backtracks into the capture
	{"(a)%1*", "aa*", 0, `1 3 "a"`},    // literal '*' after the back-reference

	// %b.
	{"%b()", "a(b(c)d)e", 0, `2 8`},
	{"%b()", "a(b(c)d", 0, `4 6`},
	{"%b()", "((", 0, `nil`},
	{`%b""`, `x"a"b"`, 0, `2 4`}, // the closing delimiter is tested first
	{"%b()*", "()*", 0, `1 3`},   // literal '*' after %b
	{"^%b[]", "[[x]]y", 0, `1 5`},

	// %f.
	{"%f[%w]%w+", "  hello world", 0, `3 7`},
	{"%f[%w]%w+", "  hello world", 3, `9 13`},
	{"%f[%W]", "hello", 0, `6 5`},
	{"%f[%z]", "ab", 0, `3 2`},
	{"%f[%Z]", "ab", 0, `1 0`},
	{"%f[%a]", "123abc", 0, `4 3`},
	{"%f[a]", "aaa", 1, `nil`},
	{"%f[%l]%a+%f[%A]", "THE (quick) fox", 0, `6 10`},
	{"%f[^%z]", "\x00\x00x", 0, `3 2`},
}

func TestFind(t *testing.T) {
	for _, c := range findCases {
		if got := luaFind(c.pat, c.subj, c.init); got != c.want {
			t.Errorf("find(%q, %q, %d) = %s, want %s", c.subj, c.pat, c.init+1, got, c.want)
		}
	}
}

func TestCompileErrors(t *testing.T) {
	cases := []struct{ pat, msg string }{
		{"%", "malformed pattern (ends with '%')"},
		{"a%", "malformed pattern (ends with '%')"},
		{"[a", "malformed pattern (missing ']')"},
		{"[", "malformed pattern (missing ']')"},
		{"[]", "malformed pattern (missing ']')"},
		{"[^]", "malformed pattern (missing ']')"},
		{"[%", "malformed pattern (missing ']')"},
		{"[a%]", "malformed pattern (missing ']')"},
		{"[a-%]", "malformed pattern (missing ']')"},
		{"%f", "missing '[' after '%f' in pattern"},
		{"%fa", "missing '[' after '%f' in pattern"},
		{"%f[a", "malformed pattern (missing ']')"},
		{"%b", "unbalanced pattern"},
		{"%ba", "unbalanced pattern"},
		{")", "invalid pattern capture"},
		{"(a))", "invalid pattern capture"},
		{"%0", "invalid capture index"},
		{"%1", "invalid capture index"},
		{"(a%1)", "invalid capture index"},
		{"(a)%2", "invalid capture index"},
		{"(", "unfinished capture"},
		{"(()", "unfinished capture"},
		{"a(b(c)", "unfinished capture"},
		{strings.Repeat("()", 33), "too many captures"},
		{strings.Repeat("(", 33) + strings.Repeat(")", 33), "too many captures"},
	}
	for _, c := range cases {
		_, err := Compile(c.pat)
		var pe *Error
		if !errors.As(err, &pe) {
			t.Errorf("Compile(%q) = %v, want *Error %q", c.pat, err, c.msg)
			continue
		}
		if pe.Msg != c.msg || pe.Error() != c.msg || pe.Pattern != c.pat {
			t.Errorf("Compile(%q) = %+v, want message %q", c.pat, pe, c.msg)
		}
	}
}

func TestAnchored(t *testing.T) {
	for _, c := range []struct {
		pat          string
		find, gmatch bool
	}{
		{"^a", true, false},
		{"a^", false, false},
		{"", false, false},
		{"^", true, false},
	} {
		if got := MustCompile(c.pat).Anchored(); got != c.find {
			t.Errorf("Compile(%q).Anchored() = %v", c.pat, got)
		}
		p, err := CompileGmatch(c.pat)
		if err != nil || p.Anchored() != c.gmatch {
			t.Errorf("CompileGmatch(%q) = %v, %v", c.pat, p, err)
		}
	}
}

func TestMatchAt(t *testing.T) {
	steps := bigBudget
	p := MustCompile("^(%a+)")
	m, ok, err := p.MatchAt("12abc3", 2, &steps)
	if err != nil || !ok || m.Start != 2 || m.End != 5 || len(m.Captures) != 1 || m.Captures[0] != (Capture{2, 5, false}) {
		t.Errorf("MatchAt = %+v %v %v", m, ok, err)
	}
	if _, ok, _ := p.MatchAt("12abc3", 1, &steps); ok {
		t.Error("MatchAt matched at a digit")
	}
	// MatchAt does not search further along the subject.
	if _, ok, _ := MustCompile("b").MatchAt("ab", 0, &steps); ok {
		t.Error("MatchAt searched past its position")
	}
	// Out-of-range positions are clamped.
	if m, ok, _ := MustCompile("$").MatchAt("ab", 10, &steps); !ok || m.Start != 2 {
		t.Errorf("MatchAt(10) = %+v %v", m, ok)
	}
	if m, ok, _ := MustCompile("a").Find("ab", -5, &steps); !ok || m.Start != 0 {
		t.Errorf("Find(-5) = %+v %v", m, ok)
	}
}

func TestCaptureValue(t *testing.T) {
	steps := bigBudget
	m, ok, err := MustCompile("(%a+)()").Find("  ab", 0, &steps)
	if err != nil || !ok {
		t.Fatal(ok, err)
	}
	if got := m.Captures[0].Value("  ab"); got != "ab" {
		t.Errorf("capture 1 = %q", got)
	}
	if got := m.Captures[1].Value("  ab"); got != "5" {
		t.Errorf("capture 2 = %q", got)
	}
	if n := MustCompile("(a)()(b)").NumCaptures(); n != 3 {
		t.Errorf("NumCaptures = %d", n)
	}
	if s := MustCompile("^x").String(); s != "^x" {
		t.Errorf("String = %q", s)
	}
}

// gsubCases are string.gsub cases with a string replacement (max < 0: no
// limit argument); TestAgainstLua51 also runs them through the interpreter.
var gsubCases = []struct {
	pat, subj, repl string
	max             int
	want            string
}{
	{"(%w+)", "hello world", "<%1>", -1, `"<hello> <world>" 2`},
	{"%w+", "hello world", "%0 %0", 1, `"hello hello world" 1`},
	{"(%w+)%s*(%w+)", "hello world", "%2 %1", -1, `"world hello" 1`},
	{"", "hello", "-", -1, `"-h-e-l-l-o-" 6`},
	{"", "abc", "-", 2, `"-a-bc" 2`},
	{"x*", "abc", "-", 0, `"abc" 0`},
	{"%w", "abc", "%1%1", -1, `"aabbcc" 3`}, // no captures: %1 is the whole match
	{"()%w", "abc", "%1", -1, `"123" 3`},
	{"b", "abc", "%%", -1, `"a%c" 1`},
	{"b", "abc", "%x", -1, `"axc" 1`},       // Lua 5.1: an unknown escape is the character
	{"b", "abc", "x%", -1, `"ax\x00c" 1`},   // Lua 5.1 reads the terminating NUL
	{"^a", "aaa", "x", -1, `"xaa" 1`},       // anchored: one attempt
	{"^b", "abc", "x", -1, `"abc" 0`},       // anchored and no match at 0
	{"%w*", "abc", "-", -1, `"--" 2`},       // then the empty match at the end
	{"%s*", "a b", "_", -1, `"_a__b_" 4`},   // empty, " ", empty after it, empty at the end
	{"a-", "aaa", "x", -1, `"xaxaxax" 4`},   // only empty matches
	{"(a)(b)?", "ab", "[%2]", -1, `"ab" 0`}, // '?' after ')' is a literal
	{"(a)(b)?", "ab?", "[%2]", -1, `"[b]" 1`},
	{"(%a)", "abc", "%2", -1, `error: invalid capture index`},
	{"%a", "abc", "%2", -1, `error: invalid capture index`},
	{"x", "abc", "%9", -1, `"abc" 0`}, // no match, the replacement is never read
	{"(", "abc", "x", -1, `error: unfinished capture`},
}

func TestGsub(t *testing.T) {
	for _, c := range gsubCases {
		if got := luaGsub(c.pat, c.subj, c.repl, c.max); got != c.want {
			t.Errorf("gsub(%q, %q, %q, %d) = %s, want %s", c.subj, c.pat, c.repl, c.max, got, c.want)
		}
	}
}

func TestExpand(t *testing.T) {
	subj := "key = 42"
	m := Match{Start: 0, End: 8, Captures: []Capture{{0, 3, false}, {6, 8, false}, {6, 6, true}}}
	cases := []struct {
		repl, want, err string
	}{
		{"%1:%2@%3", "key:42@7", ""},
		{"[%0]", "[key = 42]", ""},
		{"100%%", "100%", ""},
		{"%4", "", "invalid capture index"},
		{"%q", "q", ""},
		{"", "", ""},
	}
	for _, c := range cases {
		got, err := Expand([]byte(">"), c.repl, subj, m)
		if c.err != "" {
			if err == nil || err.Error() != c.err {
				t.Errorf("Expand(%q) error = %v, want %q", c.repl, err, c.err)
			}
			continue
		}
		if err != nil || string(got) != ">"+c.want {
			t.Errorf("Expand(%q) = %q, %v, want %q", c.repl, got, err, ">"+c.want)
		}
	}
}

// gmatchCases are string.gmatch cases; TestAgainstLua51 also runs them
// through the interpreter.
var gmatchCases = []struct{ pat, subj, want string }{
	{"%a+", "hello world from Lua", `"hello" | "world" | "from" | "Lua"`},
	{"(%w+)=(%w+)", "k=v, a=b", `"k" "v" | "a" "b"`},
	{"", "abc", `"" | "" | "" | ""`},
	{"^a", "^a^aa", `"^a" | "^a"`}, // no anchor in gmatch: '^' is a literal
	{"()", "abc", `1 | 2 | 3 | 4`},
	{"a*", "baaac", `"" | "aaa" | "" | ""`},
	{"%d+", "no digits", ``},
}

func TestGmatch(t *testing.T) {
	for _, c := range gmatchCases {
		if got := luaGmatch(c.pat, c.subj); got != c.want {
			t.Errorf("gmatch(%q, %q) = %s, want %s", c.subj, c.pat, got, c.want)
		}
	}
	// Continuing past the end finds nothing.
	steps := bigBudget
	p, _ := CompileGmatch("")
	if _, _, ok, err := p.GmatchNext("ab", 3, &steps); ok || err != nil {
		t.Errorf("GmatchNext past the end = %v, %v", ok, err)
	}
}

func TestConcurrentUse(t *testing.T) {
	p := MustCompile("(%w+)=(%w+)")
	done := make(chan string, 8)
	for i := 0; i < 8; i++ {
		go func() {
			var s string
			for j := 0; j < 1000; j++ {
				steps := int64(10000)
				m, _, _ := p.Find("  key=value ", 0, &steps)
				s = formatMatch("  key=value ", m, func(x string) string { return x })
			}
			done <- s
		}()
	}
	for i := 0; i < 8; i++ {
		if s := <-done; s != "3 11 key value" {
			t.Errorf("concurrent Find = %q", s)
		}
	}
}
