package names

import (
	"strings"
	"testing"
)

// TestSame: names that read alike are the same name; names that read
// differently are not.
func TestSame(t *testing.T) {
	same := [][2]string{
		{"Explorer", "Explorer"},
		{"Explorer", "explorer"},
		{"Explorer", "EXPLORER"},
		{"Explorer", "Ex\u200bplorer"},     // zero-width space
		{"Explorer", "Explorer\u200d"},     // zero-width joiner at the end
		{"Explorer", "\u2060Explorer"},     // word joiner
		{"Explorer", "Expl\u00adorer"},     // soft hyphen
		{"Explorer", "Expl\u200eorer"},     // left-to-right mark
		{"Explorer", "Explor\ufe0fer"},     // variation selector
		{"Explorer", "Expl\u034forer"},     // combining grapheme joiner
		{"Explorer", "Expl\U000e0041orer"}, // a tag character
		{"Explorer", "Εxplorer"},           // Greek capital epsilon
		{"Explorer", "Exрlorer"},           // Cyrillic small er
		{"Explorer", "Explоrеr"},           // Cyrillic o and e
		{"Explorer", "Ｅｘｐｌｏｒｅｒ"},           // full width
		{"Explorer", "𝐄𝐱𝐩𝐥𝐨𝐫𝐞𝐫"},           // mathematical bold
		{"Explorer", "Exp1orer"},           // digit one for l
		{"IVAN", "ivan"},
		{"Ivan", "Іvan"},         // Cyrillic capital i
		{"Explorer", "Expl0rer"}, // digit zero for o
		{"Wanderer", "Wanderer"},
		{"Hungry", "Ηungry"},     // Greek capital eta
		{"Pinwheel", "Ріnwhееl"}, // Cyrillic Р, і, е
		{"Borg", "Воrg"},         // Cyrillic В, о
		{"Modern", "Modem"},      // rn reads as m
		{"Line Dancer", "Line Dancer"},
		{"café", "cafe\u0301"}, // composed or not
		{"Slither", "ꜱlither"}, // small capital s
	}
	for _, p := range same {
		if !Same(p[0], p[1]) {
			t.Errorf("%q and %q should be the same name (keys %q and %q)", p[0], p[1], Key(p[0]), Key(p[1]))
		}
	}
	differ := [][2]string{
		{"Explorer", "Explorers"},
		{"Explorer", "Exploder"},
		{"Wanderer", "Wonderer"},
		{"Tweedledee", "Tweedledum"},
		{"café", "cafe"},
		{"Line Dancer", "LineDancer"},
		{"Hunter", "Hunter 2"},
		{"Ann", "Anna"},
	}
	for _, p := range differ {
		if Same(p[0], p[1]) {
			t.Errorf("%q and %q should be different names (key %q)", p[0], p[1], Key(p[0]))
		}
	}
}

// TestInvisible: every invisible character is found, where it is, and
// described; visible names pass.
func TestInvisible(t *testing.T) {
	for _, tc := range []struct {
		s    string
		r    rune
		at   int
		desc string
	}{
		{"Ex\u200bplorer", 0x200b, 2, "U+200B ZERO WIDTH SPACE"},
		{"Ex\u200cplorer", 0x200c, 2, "U+200C ZERO WIDTH NON-JOINER"},
		{"\ufeffBOM", 0xfeff, 0, "U+FEFF ZERO WIDTH NO-BREAK SPACE"},
		{"a\u00adb", 0xad, 1, "U+00AD SOFT HYPHEN"},
		{"a\u202eb", 0x202e, 1, "U+202E RIGHT-TO-LEFT OVERRIDE"},
		{"a\u3164b", 0x3164, 1, "U+3164 HANGUL FILLER"},
		{"a\u2800b", 0x2800, 1, "U+2800 BRAILLE PATTERN BLANK"},
		{"a\u00a0b", 0xa0, 1, "U+00A0 NO-BREAK SPACE"},
		{"a\tb", '\t', 1, "U+0009"},
		{"a\ue000b", 0xe000, 1, "U+E000"},
		{"a\U000e0001b", 0xe0001, 1, "U+E0001 LANGUAGE TAG"},
		{"ok\xffname", 0xfffd, 2, "U+FFFD REPLACEMENT CHARACTER"},
	} {
		r, at, ok := Invisible(tc.s)
		if !ok || r != tc.r || at != tc.at {
			t.Errorf("Invisible(%q) = %U at %d (%v), want %U at %d", tc.s, r, at, ok, tc.r, tc.at)
			continue
		}
		if d := Describe(r); d != tc.desc {
			t.Errorf("Describe(%U) = %q, want %q", r, d, tc.desc)
		}
		if err := Check(tc.s); err == nil || !strings.Contains(err.Error(), tc.desc) {
			t.Errorf("Check(%q) = %v", tc.s, err)
		}
	}
	for _, s := range []string{"Explorer", "Line Dancer", "Über Bot", "探検家", "Ñandú", "R2-D2 (v3)", "snake_01", "😀 Smiley"} {
		if err := Check(s); err != nil {
			t.Errorf("Check(%q) = %v, want nil", s, err)
		}
	}
}

// FuzzKey: Key never panics, is idempotent, and drops every invisible
// character.
func FuzzKey(f *testing.F) {
	for _, s := range []string{"Explorer", "Ex\u200bplorer", "Ｅｘｐ", "rnrn", "\xff\xfe"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		k := Key(s)
		if Key(k) != Key(Key(k)) {
			t.Errorf("Key is not stable on %q", s)
		}
		for _, r := range k {
			if IsInvisible(r) && r != 0xfffd {
				t.Errorf("Key(%q) = %q keeps %U", s, k, r)
			}
		}
	})
}

// TestVisible: what Visible shows of hostile names: controls, invisible
// characters and bytes that are not UTF-8 as escapes, long names cut at a
// character, stacked combining marks bounded; plain and foreign names as
// they are.
func TestVisible(t *testing.T) {
	zalgo := "Z" + strings.Repeat("\u0301", 5000)
	for _, c := range []struct {
		in   string
		max  int
		want string
	}{
		{"Explorer", 0, "Explorer"},
		{"忍者 Shadow Ninja", 0, "忍者 Shadow Ninja"},
		{"café", 0, "café"},
		{"cafe\u0301", 0, "cafe\u0301"},
		{"Viê\u0323t", 0, "Viê\u0323t"},
		{"Ex\u200bplorer", 0, `Ex\u200bplorer`},
		{"a\x1b[2Jb", 0, `a\x1b[2Jb`},
		{"line\nforged\r\tx", 0, `line\nforged\r\tx`},
		{"bad\xffbyte", 0, `bad\xffbyte`},
		{"\u202eevil", 0, `\u202eevil`},
		{"tag\U000e0041", 0, `tag\U000e0041`},
		{"no\u00a0break", 0, `no\u00a0break`},
		{"\u0085c1", 0, `\u0085c1`},
		{"abcdef", 4, "abcd…"},
		{"忍者忍者", 7, "忍者…"}, // cut at a character, not inside one
		{zalgo, 0, "Z\u0301\u0301\u0301"},
		{zalgo, 100, "Z\u0301\u0301\u0301…"},
		{strings.Repeat("\x00", 10000), 8, `\x00\x00\x00\x00\x00\x00\x00\x00…`},
	} {
		got := Visible(c.in, c.max)
		if got != c.want {
			t.Errorf("Visible(%+.40q, %d) = %+q, want %+q", c.in, c.max, got, c.want)
		}
		if strings.ContainsAny(got, "\n\r\t\x1b") {
			t.Errorf("Visible(%+.40q) holds a control: %+q", c.in, got)
		}
	}
}
