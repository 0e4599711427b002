// Package names decides when two names people read are the same name.
//
// A player's display name, a user's name and an upload's name reach other
// people's screens, where "Explorer" with a zero-width space inside, or
// with a Cyrillic "о", looks exactly like the shipped Explorer. Comparing
// bytes, or even case-folded strings, lets such a name be listed and
// fielded beside the one it imitates. Here names are compared by Key:
//
//  1. Unicode compatibility normalisation (NFKC), so full-width "Ｅｘｐｌｏｒｅｒ"
//     and ligatures fold to plain letters;
//  2. every invisible character dropped: format characters (category Cf:
//     zero-width spaces and joiners, bidi marks, the soft hyphen, tag
//     characters), variation selectors, the combining grapheme joiner,
//     Hangul fillers and other default-ignorable code points;
//  3. letters that are drawn like Latin ones mapped to them: the Cyrillic
//     and Greek look-alikes and a few others that Unicode's confusables
//     data (UTS #39) lists for Latin letters and digits, plus "0" to "o"
//     and "1", "|" to "l" — a subset of UTS #39's skeleton, chosen for the
//     alphabets people type names in (capital "I" stays "i": names must
//     stay equal whatever their case, so "Ivan" is not "lvan");
//  4. case folding.
//
// Two names with the same Key are the same name. Key is for comparing
// only: a name is shown as its owner wrote it (through engine.SafeText),
// and names that hold an invisible character are refused where they are
// given (Invisible finds it, Describe names it), so what one sees is all
// there is.
package names

import (
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"

	"golang.org/x/text/unicode/norm"
	"golang.org/x/text/unicode/runenames"
)

// Key is the form in which two names are compared; see the package
// documentation.
func Key(s string) string {
	s = norm.NFKC.String(s)
	var b strings.Builder
	b.Grow(len(s))
	for _, r := range s {
		if IsInvisible(r) {
			continue
		}
		if to, ok := lookAlike[r]; ok {
			b.WriteString(to)
			continue
		}
		b.WriteRune(unicode.ToLower(r))
	}
	k := b.String()
	// Pairs of Latin letters that read as one, after the letters are
	// mapped: "rn" looks like "m", "vv" like "w", "cl" like "d".
	for _, p := range [][2]string{{"rn", "m"}, {"vv", "w"}, {"cl", "d"}} {
		k = strings.ReplaceAll(k, p[0], p[1])
	}
	return k
}

// Same reports whether a and b are the same name to a reader.
func Same(a, b string) bool { return Key(a) == Key(b) }

// IsInvisible reports whether r draws nothing (or nothing of its own) on a
// terminal while being part of a name: format characters, variation
// selectors and the other default-ignorable code points, and unassigned
// or private-use code points whose look no one can know.
func IsInvisible(r rune) bool {
	switch {
	case unicode.Is(unicode.Cf, r), unicode.Is(unicode.Variation_Selector, r),
		unicode.Is(unicode.Other_Default_Ignorable_Code_Point, r),
		unicode.Is(unicode.Co, r), unicode.Is(unicode.Cs, r):
		return true
	case r == 0x034F, // combining grapheme joiner
		r == 0x115F, r == 0x1160, r == 0x3164, r == 0xFFA0, // Hangul fillers
		r == 0x2800,                // braille blank
		r >= 0x180B && r <= 0x180F, // Mongolian free variation selectors and vowel separator
		r == 0x17B4 || r == 0x17B5, // Khmer inherent vowels
		r >= 0xFFF0 && r <= 0xFFF8, // unassigned specials
		r == utf8.RuneError:
		return true
	case !unicode.In(r, unicode.L, unicode.M, unicode.N, unicode.P, unicode.S, unicode.Zs):
		return true // controls, separators other than the space, unassigned
	}
	return false
}

// Invisible returns the first invisible character of s (see IsInvisible)
// and its byte offset; ok is false when there is none. Whitespace other
// than the plain space counts: a tab or a no-break space hides in a name
// as well as a zero-width one.
func Invisible(s string) (r rune, at int, ok bool) {
	for i, c := range s {
		if IsInvisible(c) || (unicode.IsSpace(c) && c != ' ') {
			return c, i, true
		}
	}
	return 0, 0, false
}

// Describe names a character for an error message: "U+200B ZERO WIDTH
// SPACE".
func Describe(r rune) string {
	if name := runenames.Name(r); name != "" && !strings.HasPrefix(name, "<") {
		return fmt.Sprintf("U+%04X %s", r, name)
	}
	return fmt.Sprintf("U+%04X", r)
}

// Check returns an error when a name holds an invisible character, naming
// it and where it is ("the 9th character is U+200B ZERO WIDTH SPACE, which
// does not show").
func Check(s string) error {
	r, at, ok := Invisible(s)
	if !ok {
		return nil
	}
	n := utf8.RuneCountInString(s[:at]) + 1
	return fmt.Errorf("character %d is %s, which does not show on a screen", n, Describe(r))
}

// Visible is s as a screen may show it when it comes from someone else
// (a player's or a user's name on a table): at most max bytes of it (cut
// at a character, "…" added), every invisible character (IsInvisible, and
// whitespace other than the plain space) written as a visible escape —
// \n, \t, \r, \xHH for the other controls and bytes that are not UTF-8,
// \uHHHH or \UHHHHHHHH — and at most maxMarks combining marks kept after
// each character, so that a name stacked with thousands of them stays in
// its cell. What it returns is safe text (engine.SafeText leaves it as it
// is) and one line.
func Visible(s string, max int) string {
	cut := ""
	if max > 0 && len(s) > max {
		end := max
		for end > 0 && !utf8.RuneStart(s[end]) {
			end--
		}
		s, cut = s[:end], "…"
	}
	clean := true
	for i, r := range s {
		if (r == utf8.RuneError && isBadByte(s[i:])) || IsInvisible(r) || (unicode.IsSpace(r) && r != ' ') || unicode.Is(unicode.M, r) {
			clean = false
			break
		}
	}
	if clean {
		return s + cut
	}
	var b strings.Builder
	marks := 0
	for i := 0; i < len(s); {
		r, n := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && n <= 1:
			fmt.Fprintf(&b, `\x%02x`, s[i])
		case r == '\n':
			b.WriteString(`\n`)
		case r == '\t':
			b.WriteString(`\t`)
		case r == '\r':
			b.WriteString(`\r`)
		case r < 0x80 && (r < 0x20 || r == 0x7f):
			fmt.Fprintf(&b, `\x%02x`, r)
		case unicode.Is(unicode.M, r):
			if marks < maxMarks {
				b.WriteString(s[i : i+n])
			}
			marks++
			i += n
			continue
		case IsInvisible(r) || (unicode.IsSpace(r) && r != ' '):
			if r > 0xffff {
				fmt.Fprintf(&b, `\U%08x`, r)
			} else {
				fmt.Fprintf(&b, `\u%04x`, r)
			}
		default:
			b.WriteString(s[i : i+n])
		}
		marks = 0
		i += n
	}
	return b.String() + cut
}

// maxMarks is how many combining marks Visible keeps on one character
// (Vietnamese needs two, a few scripts three).
const maxMarks = 3

// isBadByte reports whether s starts with a byte that is not UTF-8 (a
// real U+FFFD is three bytes).
func isBadByte(s string) bool {
	_, n := utf8.DecodeRuneInString(s)
	return n == 1
}
