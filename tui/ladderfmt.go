package tui

import (
	"fmt"
	"math"
	"strconv"
	"time"

	"github.com/gdamore/tcell/v2"
	"github.com/rivo/uniseg"

	"github.com/squarebattle/squarebattle/engine"
	"github.com/squarebattle/squarebattle/engine/ladder"
	"github.com/squarebattle/squarebattle/engine/names"
)

// How the ladder's screens write what they show: ratings, trends,
// changes, names from other people, and the rows of their tables.

// The rating shown is the ordinal μ − 3σ (what the table sorts by); ± is
// 3σ, so that the skill's likely range, μ ± 3σ, runs from the rating to
// the rating + 6σ.
func rating(p ladder.Player) string { return fmt.Sprintf("%.1f", p.Ordinal()) }
func spread(p ladder.Player) string { return fmt.Sprintf("%.1f", 3*p.Rating.Sigma) }

// winShare is the share of battles won, "-" before the first.
func winShare(p ladder.Player) string {
	if p.Battles == 0 {
		return "-"
	}
	return strconv.Itoa(int(math.Round(100*float64(p.Wins)/float64(p.Battles)))) + "%"
}

// delta writes a change of rating: "+1.2", "-0.8", "0.0".
func delta(d float64) string {
	if math.Abs(d) < 0.05 {
		return "0.0"
	}
	return fmt.Sprintf("%+.1f", d)
}

// since is a player's change since the viewer's last visit: "" without a
// visit to compare with, "new" for a player who was not on the ladder
// then; up tells how to colour it (-1 down, 0 none, 1 up).
func since(p ladder.Player, then map[ladder.PlayerID]float64, visited bool) (text string, up int) {
	if !visited {
		return "", 0
	}
	old, ok := then[p.ID]
	if !ok {
		return "new", 1
	}
	d := p.Ordinal() - old
	text = delta(d)
	switch {
	case text == "0.0":
	case d > 0:
		up = 1
	default:
		up = -1
	}
	return text, up
}

// ratingSpark draws values (oldest first) in n cells, each a level of g's
// sparkline from the lowest value to the highest; the newest values are
// kept when there are more than n.
func ratingSpark(g glyphs, values []float64, n int) string {
	if len(values) > n {
		values = values[len(values)-n:]
	}
	if len(values) == 0 {
		return ""
	}
	lo, hi := values[0], values[0]
	for _, v := range values {
		lo, hi = min(lo, v), max(hi, v)
	}
	out := ""
	top := len(g.spark) - 1
	for _, v := range values {
		level := top / 2
		if hi-lo > 1e-9 {
			level = int(math.Round((v - lo) / (hi - lo) * float64(top)))
		}
		out += g.spark[level]
	}
	return out
}

// shown is a name from someone else as a cell shows it: at most 96 bytes
// of it, every invisible character visible (names.Visible), safe text.
func shown(s string) string { return engine.SafeText(names.Visible(s, 96)) }

// playerName is how a table names a player: its display name, else its
// name on the ladder.
func playerName(p ladder.Player) string {
	if p.Display != "" {
		return shown(p.Display)
	}
	return shown(p.Name)
}

// ownerName is a table's owner cell: the user, "-" for a shipped player.
func ownerName(p ladder.Player) string {
	if p.Owner == "" {
		return "-"
	}
	return shown(p.Owner)
}

// when writes a ladder time in UTC, to the minute.
func when(t time.Time) string {
	if t.IsZero() {
		return "-"
	}
	return t.UTC().Format("01-02 15:04")
}

// Styles of changes: up green, down red (plain where the screen has no
// colours).
func (t theme) up() tcell.Style {
	if t.mono {
		return tcell.StyleDefault
	}
	return tcell.StyleDefault.Foreground(tcell.PaletteColor(10))
}

func (t theme) down() tcell.Style {
	if t.mono {
		return tcell.StyleDefault
	}
	return tcell.StyleDefault.Foreground(tcell.PaletteColor(9))
}

// lcol is a column of a ladder table. Text columns (flex) share the room
// the others leave, in proportion to flex, each at least min; when there
// is not enough room, the columns with the lowest keep go first.
type lcol struct {
	head  string
	right bool
	width int // a fixed column's width (its heading's at least)
	flex  int // a text column's share of the room left; 0 fixed
	min   int // a text column's narrowest
	keep  int // higher stays longer on a narrow screen
}

// lcell is one cell as drawn: its text and, when set, its own style.
type lcell struct {
	text  string
	style *tcell.Style
}

// layoutLadder places cols on a screen w wide after the cursor's mark,
// one column apart: it returns each column's x and width (0: left out).
// The result depends on w and the columns only, not on the rows, so a
// table keeps its layout from page to page.
func layoutLadder(cols []lcol, w int) (xs, widths []int) {
	on := make([]bool, len(cols))
	for i := range on {
		on[i] = true
	}
	for {
		fixed, flex, mins := tableMark, 0, 0
		for i, c := range cols {
			if !on[i] {
				continue
			}
			if c.flex > 0 {
				flex += c.flex
				mins += c.min + 1
			} else {
				fixed += max(c.width, uniseg.StringWidth(c.head)) + 1
			}
		}
		room := w - fixed
		drop := -1
		if room < mins {
			for i, c := range cols {
				if on[i] && c.keep < 100 && (drop < 0 || c.keep < cols[drop].keep) {
					drop = i
				}
			}
		}
		if drop >= 0 {
			on[drop] = false
			continue
		}
		xs, widths = make([]int, len(cols)), make([]int, len(cols))
		left := room - flex // a gap after each text column
		x := tableMark
		for i, c := range cols {
			if !on[i] {
				xs[i] = x
				continue
			}
			switch {
			case c.flex > 0:
				widths[i] = max(c.min, left*c.flex/max(flex, 1))
			default:
				widths[i] = max(c.width, uniseg.StringWidth(c.head))
			}
			xs[i] = x
			x += widths[i] + 1
		}
		return xs, widths
	}
}

// drawLadderRow draws one row of a ladder table at y: cells in the row's
// style unless they have their own; selected reverses the whole row.
func (a *App) drawLadderRow(cols []lcol, xs, widths []int, cells []lcell, y, w int, st tcell.Style, selected bool) {
	mark := "  "
	if selected {
		st, mark = st.Reverse(true), "> "
	}
	a.c.text(0, y, w, mark, st) // the whole row in the row's style
	for i := range cols {
		if i >= len(cells) || widths[i] == 0 || xs[i] >= w {
			continue
		}
		cst := st
		if cells[i].style != nil && !selected {
			cst = *cells[i].style
		}
		width := min(widths[i], w-xs[i])
		if cols[i].right {
			a.c.right(xs[i], y, width, cells[i].text, cst)
		} else {
			a.c.text(xs[i], y, width, cells[i].text, cst)
		}
	}
}

// drawLadderHead draws a ladder table's headings at y.
func (a *App) drawLadderHead(cols []lcol, xs, widths []int, y, w int) {
	a.c.blank(0, y, w, a.th.dim())
	for i, c := range cols {
		if widths[i] == 0 || xs[i] >= w {
			continue
		}
		width := min(widths[i], w-xs[i])
		if c.right {
			a.c.right(xs[i], y, width, c.head, a.th.dim())
		} else {
			a.c.text(xs[i], y, width, c.head, a.th.dim())
		}
	}
}

// plain is a row of cells without styles of their own.
func plain(texts ...string) []lcell {
	out := make([]lcell, len(texts))
	for i, t := range texts {
		out[i] = lcell{text: t}
	}
	return out
}

// styled is a cell in its own style.
func styled(text string, st tcell.Style) lcell { return lcell{text: text, style: &st} }
