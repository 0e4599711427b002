package tui

import (
	"fmt"

	"github.com/gdamore/tcell/v2"
	"github.com/rivo/uniseg"

	"github.com/squarebattle/squarebattle/engine"
)

// line is one line of an overlay.
type line struct {
	text  string
	style tcell.Style
}

// drawBox paints a framed box with a title centred on a w×h screen. Lines
// that do not fit are cut; the box never leaves the screen.
func drawBox(c canvas, title string, lines []line, w, h int) {
	inner := uniseg.StringWidth(title) + 2
	for _, l := range lines {
		inner = max(inner, uniseg.StringWidth(l.text))
	}
	inner = min(inner, w-4)
	rows := min(len(lines), h-2)
	if inner < 1 || rows < 0 {
		return
	}
	x0, y0 := (w-inner-4)/2, (h-rows-2)/2
	tl, tr, bl, br, hz, vt := "┌", "┐", "└", "┘", "─", "│"
	frame := tcell.StyleDefault.Bold(true)
	c.s.Put(x0, y0, tl, frame)
	c.s.Put(x0+inner+3, y0, tr, frame)
	c.s.Put(x0, y0+rows+1, bl, frame)
	c.s.Put(x0+inner+3, y0+rows+1, br, frame)
	for x := x0 + 1; x < x0+inner+3; x++ {
		c.s.Put(x, y0, hz, frame)
		c.s.Put(x, y0+rows+1, hz, frame)
	}
	if title != "" {
		c.text(x0+2, y0, min(uniseg.StringWidth(title)+2, inner), " "+title+" ", frame)
	}
	for i := 0; i < rows; i++ {
		y := y0 + 1 + i
		c.s.Put(x0, y, vt, frame)
		c.blank(x0+1, y, 1, tcell.StyleDefault)
		c.text(x0+2, y, inner, lines[i].text, lines[i].style)
		c.blank(x0+inner+2, y, 1, tcell.StyleDefault)
		c.s.Put(x0+inner+3, y, vt, frame)
	}
}

// helpLines lists a key table for the help overlay, each row's words
// wrapped under its own column when the screen, width columns, is narrow.
func helpLines(table []binding, th theme, width int) []line {
	const keyW = 13 // "%-12s "
	var out []line
	for _, b := range table {
		if b.label == "" {
			continue
		}
		for i, l := range wrap(b.what, max(width-keyW, 10)) {
			key := b.label
			if i > 0 {
				key = ""
			}
			out = append(out, line{fmt.Sprintf("%-12s %s", key, l), tcell.StyleDefault})
		}
	}
	out = append(out, line{}, line{"any key closes this help", th.dim()})
	return out
}

// helpBox paints the help overlay of a key table, from line *top on: on
// a screen too short for all of it, the box's last row says where it is
// and which keys scroll it (scrollHelp), and cut is true. *top is kept
// within the lines.
func helpBox(c canvas, th theme, table []binding, top *int, w, h int) (cut bool) {
	lines := helpLines(table, th, w-4)
	rows := h - 2
	if len(lines) <= rows {
		*top = 0
		drawBox(c, "Keys", lines, w, h)
		return false
	}
	lines = lines[:len(lines)-2] // the closing hint moves to the last row
	shown := max(rows-1, 1)
	*top = min(max(*top, 0), max(len(lines)-shown, 0))
	end := min(*top+shown, len(lines))
	at := fmt.Sprintf("%d-%d of %d", *top+1, end, len(lines))
	where := fitForm([]string{at + ": Up/Down PgUp/PgDn scroll, any other key closes",
		at + ": Up/Down PgUp/PgDn scroll", at + " Up/Down", at}, w-4, c.g.ellipsis)
	view := append(lines[*top:end:end], line{where, th.dim()})
	drawBox(c, "Keys", view, w, h)
	return true
}

// scrollHelp moves the help overlay's first line for a scroll key, when
// the overlay is cut, and reports whether it did; the next draw keeps the
// line in range. On a help shown whole, every key closes it.
func scrollHelp(ev *tcell.EventKey, cut bool, top *int, h int) bool {
	if !cut {
		return false
	}
	page := max(h-4, 1)
	switch ev.Key() {
	case tcell.KeyUp:
		*top--
	case tcell.KeyDown:
		*top++
	case tcell.KeyPgUp:
		*top -= page
	case tcell.KeyPgDn:
		*top += page
	case tcell.KeyHome:
		*top = 0
	case tcell.KeyEnd:
		*top = 1 << 20
	default:
		return false
	}
	*top = max(*top, 0)
	return true
}

// victoryLines tells how the battle ended and shows the winner's speech;
// hint lists what can be done next.
func victoryLines(s *engine.Snapshot, timeUp bool, width int, th theme, hint string) (string, []line) {
	var out []line
	how := fmt.Sprintf("after %d rounds", s.Round)
	if timeUp {
		how = fmt.Sprintf("when time ran out, after %d rounds", s.Round)
	}
	title := "Battle over"
	if s.Winner >= 0 {
		w := s.Teams[s.Winner]
		title = w.Player.Name + " wins!"
		score := fmt.Sprintf("%d squares", w.Stats.Squares)
		if s.Marks != nil && len(s.Columns) > 0 {
			score = fmt.Sprintf("%s %d", s.Columns[0], w.Values[0])
		}
		out = append(out, wrapped(fmt.Sprintf("%s wins with %s %s.", w.Player.Name, score, how), width, tcell.StyleDefault.Bold(true))...)
		if w.Player.Victory != "" {
			out = append(out, line{})
			out = append(out, wrapped("“"+w.Player.Victory+"”", width, th.accent().Italic(true))...)
		}
	} else {
		title = "A tie"
		out = append(out, wrapped("No winner "+how+".", width, tcell.StyleDefault.Bold(true))...)
	}
	out = append(out, line{})
	return title, append(out, hintLines(hint, width, th)...)
}

// hintLines are an overlay's key hints: one line, or wrapped between
// words when wider than width.
func hintLines(hint string, width int, th theme) []line {
	if uniseg.StringWidth(hint) <= width {
		return []line{{hint, th.dim()}}
	}
	return wrapped(hint, width, th.dim())
}

// wrapped is text as lines of width columns, broken between words.
func wrapped(text string, width int, st tcell.Style) []line {
	var out []line
	for _, l := range wrap(text, width) {
		out = append(out, line{l, st})
	}
	return out
}

// recordingEndLines is shown at the last round of a replay that has no
// result: it was saved before the battle ended, or it is damaged.
func recordingEndLines(s *engine.Snapshot, damage string, width int, th theme) (string, []line) {
	out := wrapped(fmt.Sprintf("The recording stops after round %d, before the battle ended.", s.Round), width, tcell.StyleDefault.Bold(true))
	if damage != "" {
		out = append(out, line{})
		out = append(out, wrapped(damage, width, th.warn())...)
	}
	out = append(out, line{})
	return "End of recording", append(out, hintLines("r watch again   Left rewind   q quit", width, th)...)
}
