package engine

import (
	"strings"
	"unicode/utf8"
)

// Text that scripts supply (names, speeches, printed lines, error messages,
// a rule mod's titles) ends up on an operator's terminal, in tournament
// tables and in replay files that other people open. A terminal obeys what
// it is sent: ESC and CSI sequences recolour or clear it, OSC sets its title
// or its clipboard, CR and LF let a name forge lines of a results table,
// bidi overrides reorder what is shown. SafeText and SafeLine turn such
// text into something that only ever shows itself.
//
// What is escaped, always as visible backslash sequences:
//   - C0 controls (NUL..US, which includes ESC, CR, LF and TAB) and DEL: \xHH,
//     with \t, \n and \r written as such because people read them;
//   - C1 controls U+0080..U+009F (8-bit CSI among them): \u0080..\u009f;
//   - bytes that are not valid UTF-8: \xHH, one per byte (a lone 0x9b is a
//     CSI to some terminals);
//   - bidi controls that reorder text (U+061C, U+200E, U+200F, U+202A..U+202E,
//     U+2066..U+2069) and the line and paragraph separators U+2028, U+2029:
//     \uHHHH.
//
// Everything else is kept, backslashes included, so safe text comes back
// unchanged (no allocation) and escaping twice is escaping once.

// SafeText makes s safe to show on a terminal or in a table cell.
func SafeText(s string) string { return safe(s, false) }

// SafeLines is SafeText of each line of s: a traceback (Problem.Trace)
// keeps its line breaks and nothing else a terminal would act on.
func SafeLines(s string) string {
	lines := strings.Split(s, "\n")
	for i, l := range lines {
		lines[i] = SafeText(l)
	}
	return strings.Join(lines, "\n")
}

// SafeLine is SafeText keeping horizontal tabs: for free-running lines, such
// as what a script printed (print separates its arguments with tabs), that
// are not cells of a table. A tab only moves the cursor right.
func SafeLine(s string) string { return safe(s, true) }

// IsSafeText reports whether SafeText would leave s unchanged.
func IsSafeText(s string) bool { return firstUnsafe(s, false) < 0 }

func safe(s string, tabs bool) string {
	i := firstUnsafe(s, tabs)
	if i < 0 {
		return s
	}
	var b strings.Builder
	b.Grow(len(s) + 16)
	b.WriteString(s[:i])
	for i < len(s) {
		r, n := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && n <= 1:
			writeByteEscape(&b, s[i])
		case r == '\t' && tabs:
			b.WriteByte('\t')
		case r == '\t':
			b.WriteString(`\t`)
		case r == '\n':
			b.WriteString(`\n`)
		case r == '\r':
			b.WriteString(`\r`)
		case r < 0x20 || r == 0x7f:
			writeByteEscape(&b, byte(r))
		case unsafeRune(r):
			b.WriteString(`\u`)
			const hex = "0123456789abcdef"
			b.WriteByte(hex[r>>12&15])
			b.WriteByte(hex[r>>8&15])
			b.WriteByte(hex[r>>4&15])
			b.WriteByte(hex[r&15])
		default:
			b.WriteString(s[i : i+n])
		}
		i += n
	}
	return b.String()
}

// firstUnsafe returns the index of the first byte that needs escaping, or
// -1. ASCII is checked a byte at a time without decoding.
func firstUnsafe(s string, tabs bool) int {
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			if (c < 0x20 && !(tabs && c == '\t')) || c == 0x7f {
				return i
			}
			i++
			continue
		}
		r, n := utf8.DecodeRuneInString(s[i:])
		if (r == utf8.RuneError && n <= 1) || unsafeRune(r) {
			return i
		}
		i += n
	}
	return -1
}

// unsafeRune reports the non-ASCII runes that steer a terminal.
func unsafeRune(r rune) bool {
	switch {
	case r >= 0x80 && r <= 0x9f:
		return true
	case r == 0x061c, r == 0x200e, r == 0x200f, r == 0x2028, r == 0x2029:
		return true
	case r >= 0x202a && r <= 0x202e, r >= 0x2066 && r <= 0x2069:
		return true
	}
	return false
}

func writeByteEscape(b *strings.Builder, c byte) {
	const hex = "0123456789abcdef"
	b.WriteString(`\x`)
	b.WriteByte(hex[c>>4])
	b.WriteByte(hex[c&15])
}
