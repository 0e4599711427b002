package tui

import (
	"github.com/gdamore/tcell/v2"
	"github.com/rivo/uniseg"

	"github.com/squarebattle/squarebattle/engine"
)

// The menu's tables: columns laid out by what they hold and the room the
// screen has, cells made safe before they are measured.

// column is one column of a menu table.
type column struct {
	head  string
	right bool // right-aligned (numbers)
	min   int  // the narrowest it is squeezed to when the screen is narrow
}

// tableGap is the blank between two columns; tableMark the cursor's room
// before the first.
const (
	tableGap  = 2
	tableMark = 2
)

// tableLayout places the columns of a table on a screen w columns wide:
// each as wide as its widest cell (heading included), by display width,
// so that nothing is cut while the screen has room. When it has not, the
// last column (the players) gives up room first, down to its min, then
// the widest of the others, one column at a time, down to theirs; cells
// are then cut (with an ellipsis) where they are drawn. It returns where
// each column starts and how wide it is. Cells are safe text already
// (safeRows).
func tableLayout(cols []column, rows [][]string, w int) (xs, widths []int) {
	widths = make([]int, len(cols))
	for i, c := range cols {
		widths[i] = max(uniseg.StringWidth(c.head), 1)
	}
	for _, r := range rows {
		for i := range cols {
			if i < len(r) {
				widths[i] = max(widths[i], uniseg.StringWidth(r[i]))
			}
		}
	}
	total := func() int {
		n := tableMark + tableGap*(len(cols)-1)
		for _, x := range widths {
			n += x
		}
		return n
	}
	last := len(cols) - 1
	if over := total() - w; over > 0 {
		widths[last] = max(widths[last]-over, min(widths[last], cols[last].min))
	}
	for total() > w {
		wide := -1
		for i := 0; i < last; i++ {
			if widths[i] > max(cols[i].min, 1) && (wide < 0 || widths[i] > widths[wide]) {
				wide = i
			}
		}
		if wide < 0 {
			break // the screen is narrower than every column's min: cut at its edge
		}
		widths[wide]--
	}
	xs = make([]int, len(cols))
	x := tableMark
	for i := range cols {
		xs[i] = x
		x += widths[i] + tableGap
	}
	return xs, widths
}

// safeRows makes every cell safe to show (engine.SafeText) before it is
// measured: escaping makes text wider.
func safeRows(rows [][]string) [][]string {
	for _, r := range rows {
		for i, c := range r {
			r[i] = engine.SafeText(c)
		}
	}
	return rows
}

// drawTable paints a table: its heading at y, its rows below (the
// cursor's row reversed, kept in view), laid out by tableLayout.
func (a *App) drawTable(cols []column, rows [][]string, y, w, h int) {
	rows = safeRows(rows)
	xs, widths := tableLayout(cols, rows, w)
	cell := func(i, y int, s string, st tcell.Style) {
		if xs[i] >= w {
			return
		}
		width := min(widths[i], w-xs[i])
		if cols[i].right {
			a.c.right(xs[i], y, width, s, st)
		} else {
			a.c.text(xs[i], y, width, s, st)
		}
	}
	a.c.blank(0, y, w, a.th.dim())
	for i, c := range cols {
		cell(i, y, c.head, a.th.dim())
	}
	first, n := a.listWindow(len(rows), y+1, h)
	for k := 0; k < n; k++ {
		r := rows[first+k]
		st, mark := tcell.StyleDefault, "  "
		if first+k == a.menu.row {
			st, mark = st.Reverse(true), "> "
		}
		a.c.text(0, y+1+k, w, mark, st) // the whole row in the row's style
		for i := range cols {
			if i < len(r) {
				cell(i, y+1+k, r[i], st)
			}
		}
	}
}
