package engine

import (
	"strings"
	"testing"
	"unicode/utf8"
)

func TestSafeText(t *testing.T) {
	for _, c := range []struct{ in, text, line string }{
		{"", "", ""},
		{"Explorer", "Explorer", "Explorer"},
		{"Crème brûlée ☃ 日本", "Crème brûlée ☃ 日本", "Crème brûlée ☃ 日本"},
		{`back\slash \x1b`, `back\slash \x1b`, `back\slash \x1b`},
		{"\x1b[2J\x1b[31mred", `\x1b[2J\x1b[31mred`, `\x1b[2J\x1b[31mred`},
		{"\x1b]0;pwned\x07", `\x1b]0;pwned\x07`, `\x1b]0;pwned\x07`},
		{"a\r\nteam 0 Winner", `a\r\nteam 0 Winner`, `a\r\nteam 0 Winner`},
		{"a\tb", `a\tb`, "a\tb"},
		{"nul\x00del\x7f", `nul\x00del\x7f`, `nul\x00del\x7f`},
		{"c1 \u009b31m \u0085", `c1 \u009b31m \u0085`, `c1 \u009b31m \u0085`},
		{"raw \x9b31m", `raw \x9b31m`, `raw \x9b31m`},
		{"bad \xff\xfe utf8 \xe2\x82", `bad \xff\xfe utf8 \xe2\x82`, `bad \xff\xfe utf8 \xe2\x82`},
		{"bidi \u202egnp.exe\u202c \u2066x\u2069", `bidi \u202egnp.exe\u202c \u2066x\u2069`, `bidi \u202egnp.exe\u202c \u2066x\u2069`},
		{"marks \u200e\u200f\u061c sep \u2028\u2029", `marks \u200e\u200f\u061c sep \u2028\u2029`, `marks \u200e\u200f\u061c sep \u2028\u2029`},
		{"kept \u00a0\u00ff\u200b\ufeff", "kept \u00a0\u00ff\u200b\ufeff", "kept \u00a0\u00ff\u200b\ufeff"},
	} {
		got, line := SafeText(c.in), SafeLine(c.in)
		if got != c.text {
			t.Errorf("SafeText(%q) = %q, want %q", c.in, got, c.text)
		}
		if line != c.line {
			t.Errorf("SafeLine(%q) = %q, want %q", c.in, line, c.line)
		}
		if again := SafeText(got); again != got {
			t.Errorf("SafeText is not idempotent on %q: %q", got, again)
		}
		if IsSafeText(c.in) != (got == c.in) {
			t.Errorf("IsSafeText(%q) = %v", c.in, IsSafeText(c.in))
		}
		checkShowable(t, got, false)
		checkShowable(t, line, true)
	}
}

// checkShowable fails when s holds anything a terminal would obey.
func checkShowable(t *testing.T, s string, tabs bool) {
	t.Helper()
	if !utf8.ValidString(s) {
		t.Errorf("%q is not UTF-8", s)
	}
	for _, r := range s {
		if (r < 0x20 && !(tabs && r == '\t')) || r == 0x7f || unsafeRune(r) {
			t.Errorf("%q holds %U", s, r)
		}
	}
}

func FuzzSafeText(f *testing.F) {
	f.Add("\x1b[2J\r\n\u009b\u202e\xff")
	f.Fuzz(func(t *testing.T, s string) {
		got := SafeText(s)
		checkShowable(t, got, false)
		checkShowable(t, SafeLine(s), true)
		if SafeText(got) != got {
			t.Errorf("not idempotent on %q", s)
		}
		if IsSafeText(s) && got != s {
			t.Errorf("changed safe text %q", s)
		}
		if strings.Contains(got, "\x1b") {
			t.Errorf("ESC left in %q", got)
		}
	})
}

func BenchmarkSafeText(b *testing.B) {
	s := strings.Repeat("An honest line of text, nothing to escape. ", 4)
	for b.Loop() {
		SafeText(s)
	}
}
