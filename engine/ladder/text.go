package ladder

import (
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/squarebattle/squarebattle/engine"
)

// Text the ladder keeps must read back the same from every store:
// PostgreSQL refuses a string that is not UTF-8 or holds a NUL byte (the
// whole transaction fails), where SQLite and the memory store keep it. So
// the keys and names that identify (a player's name and owner, a viewer's
// key: Enter, Visit) are refused with an error naming them; a display name,
// which only shows, is made valid (each bad byte U+FFFD); and the texts a
// battle produces (a seat's Problem, a failed battle's Error), which must
// never stop the ladder, are made valid and clipped to MaxText bytes: a
// script's error message may be as long as its budget lets it build, and
// is kept once per seat per battle.

// MaxText bounds a problem or a failure kept with a battle or a player.
const MaxText = 1024

// checkText refuses s, the key given, unless it is UTF-8 without NUL. The
// error quotes at most the first 64 bytes of s.
func checkText(key, s string) error {
	if !utf8.ValidString(s) || strings.IndexByte(s, 0) >= 0 {
		shown, more := s, ""
		if len(shown) > 64 {
			shown, more = shown[:64], "…"
		}
		return fmt.Errorf("ladder: %s %q%s: not UTF-8 text without NUL bytes", key, shown, more)
	}
	return nil
}

// validText makes s UTF-8 without NUL: each bad byte, and each NUL,
// becomes U+FFFD.
func validText(s string) string {
	if !utf8.ValidString(s) {
		s = strings.ToValidUTF8(s, "\uFFFD")
	}
	return strings.ReplaceAll(s, "\x00", "\uFFFD")
}

// cleanText makes s valid (validText) and at most MaxText bytes, cut at a
// character and marked with "…".
func cleanText(s string) string {
	return engine.ClipText(validText(s), MaxText)
}
