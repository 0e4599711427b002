package tui

import (
	"strconv"

	"github.com/gdamore/tcell/v2"
	"github.com/rivo/uniseg"

	"github.com/squarebattle/squarebattle/engine"
)

// rect is a region of the screen.
type rect struct{ x, y, w, h int }

// canvas draws text on the screen. Every frame writes every cell it owns:
// tcell compares each cell with what the terminal already shows and sends
// only the differences, so nothing is ever cleared between frames (a clear
// would resend the whole screen, which over SSH is the difference between
// smooth and sluggish).
type canvas struct {
	s tcell.Screen
	g glyphs
}

// text writes str at (x, y) within width columns, cutting it with an
// ellipsis when it is too long and padding it with spaces when it is short.
// It returns the columns the text took.
//
// Every string drawn passes here, so here script-supplied text is made safe
// once more (engine.SafeText, which leaves safe text as it is): tcell sends
// a cell's runes to the terminal as they are, and a control character has
// no width, so ESC and what follows it would travel together, raw, in one
// cell.
func (c canvas) text(x, y, width int, str string, st tcell.Style) int {
	if width <= 0 {
		return 0
	}
	str = engine.SafeText(str)
	if textWidth(str) > width {
		str = truncate(str, width-1) + c.g.ellipsis
	}
	end := x + width
	for str != "" && x < end {
		rest, w := c.s.Put(x, y, str, st)
		if w == 0 {
			break
		}
		x += w
		str = rest
	}
	used := width - (end - x)
	c.blank(x, y, end-x, st)
	return used
}

// right writes str right-aligned in width columns.
func (c canvas) right(x, y, width int, str string, st tcell.Style) {
	n := textWidth(str)
	if n < width {
		c.blank(x, y, width-n, st)
		x, width = x+width-n, n
	}
	c.text(x, y, width, str, st)
}

// blank writes n spaces.
func (c canvas) blank(x, y, n int, st tcell.Style) {
	for i := 0; i < n; i++ {
		c.s.Put(x+i, y, " ", st)
	}
}

// fill blanks a rectangle.
func (c canvas) fill(r rect, st tcell.Style) {
	for y := r.y; y < r.y+r.h; y++ {
		c.blank(r.x, y, r.w, st)
	}
}

// truncate keeps the longest prefix of str that fits width columns.
func truncate(str string, width int) string {
	out, w, state := 0, 0, -1
	rest := str
	for rest != "" {
		var cluster string
		var cw int
		cluster, rest, cw, state = uniseg.FirstGraphemeClusterInString(rest, state)
		if w+cw > width {
			break
		}
		w += cw
		out += len(cluster)
	}
	return str[:out]
}

// wrap breaks text into lines of at most width columns at spaces.
func wrap(text string, width int) []string {
	if width < 1 {
		return nil
	}
	var lines []string
	line := ""
	for _, word := range splitWords(text) {
		switch {
		case line == "":
			line = word
		case textWidth(line)+1+textWidth(word) <= width:
			line += " " + word
		default:
			lines = append(lines, line)
			line = word
		}
		for textWidth(line) > width {
			cut := truncate(line, width)
			if cut == "" {
				break
			}
			lines = append(lines, cut)
			line = line[len(cut):]
		}
	}
	if line != "" {
		lines = append(lines, line)
	}
	return lines
}

func splitWords(s string) []string {
	var words []string
	start := -1
	for i, ch := range s {
		space := ch == ' ' || ch == '\t' || ch == '\n' || ch == '\r'
		switch {
		case space && start >= 0:
			words = append(words, s[start:i])
			start = -1
		case !space && start < 0:
			start = i
		}
	}
	if start >= 0 {
		words = append(words, s[start:])
	}
	return words
}

// count formats a statistic to fit width columns: 1234567 becomes 1235k.
func count(n, width int) string {
	s := strconv.Itoa(n)
	if len(s) <= width {
		return s
	}
	for _, u := range []struct {
		div    int
		suffix string
	}{{1_000, "k"}, {1_000_000, "M"}, {1_000_000_000, "G"}} {
		s = strconv.Itoa((n+u.div/2)/u.div) + u.suffix
		if len(s) <= width {
			return s
		}
	}
	return s
}
