package tui

import (
	"strconv"

	"github.com/gdamore/tcell/v2"
)

// glyphs are the characters the UI draws with, Unicode or plain ASCII for
// terminals and locales that cannot show the block elements.
type glyphs struct {
	ascii    bool
	bar      string   // vertical separator
	swatch   string   // a team's colour sample, two columns
	spark    []string // sparkline levels, lowest first
	dot      string
	ellipsis string
	plot     plotKind // how a plot's dots are drawn (ladderplot.go)
}

var (
	unicodeGlyphs = glyphs{bar: "│", swatch: "██", spark: []string{"▁", "▂", "▃", "▄", "▅", "▆", "▇", "█"}, dot: "·", ellipsis: "…"}
	asciiGlyphs   = glyphs{ascii: true, bar: "|", swatch: "##", spark: []string{"_", ".", "-", "~", "=", "+", "*", "#"}, dot: "-", ellipsis: "~", plot: plotASCII}
)

// runeFallbacks is every character outside ASCII that the UI's own texts
// use, with the ASCII character a terminal that cannot show it gets
// instead. Each stand-in is one column wide, like the character it
// replaces, so a layout is the same in both. tcell substitutes them cell by
// cell as it encodes the screen for the terminal's character set (see
// registerFallbacks), whichever string the character came in; without an
// entry tcell would send "?". TestGlyphFallbacks keeps this list complete.
var runeFallbacks = map[rune]string{
	// box drawing (tcell knows some of these; its choice and ours agree)
	'│': "|", '─': "-", '┌': "+", '┐': "+", '└': "+", '┘': "+",
	// block elements: the arena's half blocks, swatches, sparklines
	'▀': "#", '█': "#", '▁': "_", '▂': ".", '▃': "-", '▄': "~", '▅': "=", '▆': "+", '▇': "*",
	// punctuation and signs in texts
	'◆': "@", '·': "-", '…': "~", '×': "x", '✗': "x", '“': "\"", '”': "\"", '‘': "'", '’': "'", '—': "-", '–': "-",
	// the ladder: its plot's axes, the rating's letters and signs
	'┤': "+", '┴': "+", 'μ': "u", 'σ': "s", '±': "+", '−': "-", '▶': ">",
}

// ASCIIFallback is the one-column ASCII stand-in the UI has for r (ok
// false: none), for a terminal that tcell believes can show r but whose
// user's locale is not UTF-8 (tui/ssh turns a session's output into ASCII
// with it).
func ASCIIFallback(r rune) (string, bool) {
	s, ok := runeFallbacks[r]
	return s, ok
}

// registerFallbacks tells the screen the ASCII stand-in of every
// character in runeFallbacks. tcell uses a fallback only for a character
// the terminal's character set (Screen.CharacterSet: the locale's, e.g.
// US-ASCII under LANG=C) cannot encode, so a UTF-8 terminal still gets the
// real ones.
func registerFallbacks(s tcell.Screen) {
	for r, sub := range runeFallbacks {
		s.RegisterRuneFallback(r, sub)
	}
}

// glyphsFor picks the glyph set the screen can show: Unicode when its
// character set encodes the half block the arena is drawn with and the
// separator (a terminal's line-drawing set counts for the separator),
// ASCII otherwise. The arena's half blocks have no one-character stand-in,
// so an ASCII screen draws the arena a cell per square, teams as digits.
// Plots take braille cells where the character set has them, else half
// blocks (a Unicode screen), else ASCII.
func glyphsFor(s tcell.Screen) glyphs {
	if !s.CanDisplay('▀', false) || !s.CanDisplay('│', false) {
		return asciiGlyphs
	}
	g := unicodeGlyphs
	if !s.CanDisplay(rune(0x28ff), false) { // the full braille cell
		g.plot = plotBlocks
	}
	return g
}

// teamGlyph is how a team's square looks in ASCII mode: 0-9, then A-Z.
var teamGlyph = func() []string {
	var g []string
	for i := range 10 {
		g = append(g, strconv.Itoa(i))
	}
	for c := 'A'; c <= 'Z'; c++ {
		g = append(g, string(c))
	}
	return g
}()

func glyphOf(team int) string { return teamGlyph[team%len(teamGlyph)] }
