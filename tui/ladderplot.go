package tui

import (
	"math"

	"github.com/gdamore/tcell/v2"
)

// A player's rating over time, drawn in the terminal as a line of dots:
// braille cells hold 2×4 dots each, half blocks 1×2, ASCII 1×3 (_ - ').
// glyphsFor picks the finest the screen can show (glyphs.plot).

// plotKind is how a plot's dots are drawn.
type plotKind int

const (
	plotBraille plotKind = iota // U+2800..U+28FF: 2 dots across, 4 down
	plotBlocks                  // ▀ ▄ █: 1 across, 2 down
	plotASCII                   // ' - _ |: 1 across, 3 down
)

// dots is how many dots a cell of kind holds across and down.
func (k plotKind) dots() (across, down int) {
	switch k {
	case plotBraille:
		return 2, 4
	case plotBlocks:
		return 1, 2
	}
	return 1, 3
}

// braille's bit of the dot at (x, y) of a cell, y down from the top.
var brailleBit = [4][2]rune{{0x01, 0x08}, {0x02, 0x10}, {0x04, 0x20}, {0x40, 0x80}}

// plotDots places values (oldest first) on a grid of w×h dots, the first
// value at the left edge and the last at the right, lo at the bottom row
// and hi at the top (values all equal: the middle row), each point joined
// to the next by a line. on[x][y] has y up from the bottom. xOf maps a
// value's index to its column.
func plotDots(values []float64, lo, hi float64, w, h int) (on [][]bool, xOf func(int) int) {
	on = make([][]bool, w)
	for x := range on {
		on[x] = make([]bool, h)
	}
	n := len(values)
	xOf = func(i int) int {
		if n < 2 {
			return w / 2
		}
		return int(math.Round(float64(i) * float64(w-1) / float64(n-1)))
	}
	yOf := func(v float64) int {
		if hi-lo < 1e-9 {
			return h / 2
		}
		y := int(math.Round((v - lo) / (hi - lo) * float64(h-1)))
		return max(0, min(h-1, y))
	}
	for i, v := range values {
		x, y := xOf(i), yOf(v)
		on[x][y] = true
		if i+1 < n {
			dotLine(on, x, y, xOf(i+1), yOf(values[i+1]))
		}
	}
	return on, xOf
}

// dotLine sets the dots from (x0, y0) to (x1, y1) (Bresenham's).
func dotLine(on [][]bool, x0, y0, x1, y1 int) {
	dx, dy := abs(x1-x0), -abs(y1-y0)
	sx, sy := 1, 1
	if x0 > x1 {
		sx = -1
	}
	if y0 > y1 {
		sy = -1
	}
	e := dx + dy
	for {
		on[x0][y0] = true
		if x0 == x1 && y0 == y1 {
			return
		}
		e2 := 2 * e
		if e2 >= dy {
			e += dy
			x0 += sx
		}
		if e2 <= dx {
			e += dx
			y0 += sy
		}
	}
}

func abs(n int) int {
	if n < 0 {
		return -n
	}
	return n
}

// cellGlyph is what one cell shows of its dots, across × down, given as
// dot(i, j) with j down from the cell's top.
func cellGlyph(kind plotKind, dot func(i, j int) bool) string {
	switch kind {
	case plotBraille:
		var bits rune
		for j := range 4 {
			for i := range 2 {
				if dot(i, j) {
					bits |= brailleBit[j][i]
				}
			}
		}
		if bits == 0 {
			return " "
		}
		return string(0x2800 + bits)
	case plotBlocks:
		switch top, bottom := dot(0, 0), dot(0, 1); {
		case top && bottom:
			return "█"
		case top:
			return "▀"
		case bottom:
			return "▄"
		}
		return " "
	}
	set := 0
	for j := range 3 {
		if dot(0, j) {
			set++
		}
	}
	switch {
	case set > 1:
		return "|"
	case dot(0, 0):
		return "'"
	case dot(0, 1):
		return "-"
	case dot(0, 2):
		return "_"
	}
	return " "
}

// plot draws values (oldest first) as a line in r, lo at the bottom and
// hi at the top; it returns the column of r each value's index is drawn
// at (for marks under the plot).
func (c canvas) plot(r rect, values []float64, lo, hi float64, st tcell.Style) func(int) int {
	across, down := c.g.plot.dots()
	w, h := r.w*across, r.h*down
	if w < 1 || h < 1 {
		return func(int) int { return r.x }
	}
	on, xOf := plotDots(values, lo, hi, w, h)
	for cy := 0; cy < r.h; cy++ {
		for cx := 0; cx < r.w; cx++ {
			g := cellGlyph(c.g.plot, func(i, j int) bool {
				return on[cx*across+i][h-1-(cy*down+j)]
			})
			c.s.Put(r.x+cx, r.y+cy, g, st)
		}
	}
	return func(i int) int { return r.x + xOf(i)/across }
}
