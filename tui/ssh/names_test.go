package ssh

import (
	"strings"
	"testing"
)

// TestNameMessages: a refused name is told the actual problem: upper case
// says names are lower case and suggests the lower-cased name (when that
// one would do), a bad character is named (escaped when it does not
// print), a bad first character and the length say so; the message holds
// no control character.
func TestNameMessages(t *testing.T) {
	for _, tt := range []struct {
		name string
		want string // the whole reason
	}{
		{"", "is empty"},
		{"Upper", `has upper case: names are lower case only; use "upper"`},
		{"hUNTER", `has upper case: names are lower case only; use "hunter"`},
		{"Hunter_2-X", `has upper case: names are lower case only; use "hunter_2-x"`},
		{"-Hunter", `has upper case (names are lower case only) and, lower-cased, must start with a letter or a digit, not '-'`},
		{strings.Repeat("A", 25), "has upper case (names are lower case only) and, lower-cased, is 25 characters long: at most 24"},
		{"Upper Case", "may not hold a space: only a-z, 0-9, _ and -"},
		{"a/b", "may not hold '/': only a-z, 0-9, _ and -"},
		{"../../etc/passwd", "may not hold '.': only a-z, 0-9, _ and -"},
		{"a.b", "may not hold '.': only a-z, 0-9, _ and -"},
		{"a\x07b", `may not hold '\a': only a-z, 0-9, _ and -`},
		{"a\x1b[31m", `may not hold '\x1b': only a-z, 0-9, _ and -`},
		{"héllo", "may not hold 'é': only a-z, 0-9, _ and -"},
		{"名前", "may not hold '名': only a-z, 0-9, _ and -"},
		{"a\u202eb", `may not hold '\u202e': only a-z, 0-9, _ and -`},
		{"a\xffb", "may not hold the byte 0xff (not UTF-8): only a-z, 0-9, _ and -"},
		{"-x", "must start with a letter or a digit, not '-'"},
		{"_x", "must start with a letter or a digit, not '_'"},
		{strings.Repeat("a", 25), "is 25 characters long: at most 24"},
		{strings.Repeat("a", 24), ""},
		{"x_1-y", ""},
		{"0day", ""},
	} {
		t.Run(tt.name, func(t *testing.T) {
			if got := nameProblem(tt.name); got != tt.want {
				t.Errorf("nameProblem(%q) = %q, want %q", tt.name, got, tt.want)
			}
			err := checkName("player name", tt.name)
			if (err == nil) != (tt.want == "") {
				t.Fatalf("checkName(%q) = %v", tt.name, err)
			}
			if err != nil {
				msg := err.Error()
				if !strings.HasPrefix(msg, "player name ") || !strings.HasSuffix(msg, tt.want) {
					t.Errorf("checkName(%q) = %q", tt.name, msg)
				}
				if strings.ContainsFunc(msg, func(r rune) bool { return r < 0x20 || r == 0x7f || r == 0x202e }) {
					t.Errorf("checkName(%q): message %q holds control characters", tt.name, msg)
				}
			}
		})
	}
}
