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
	if c.g.ascii {
		tl, tr, bl, br, hz, vt = "+", "+", "+", "+", "-", "|"
	}
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

// helpLines lists a key table for the help overlay.
func helpLines(table []binding, th theme) []line {
	var out []line
	for _, b := range table {
		if b.label == "" {
			continue
		}
		out = append(out, line{fmt.Sprintf("%-12s %s", b.label, b.what), tcell.StyleDefault})
	}
	out = append(out, line{}, line{"any key closes this help", th.dim()})
	return out
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
		out = append(out, line{fmt.Sprintf("%s wins with %s %s.", w.Player.Name, score, how), tcell.StyleDefault.Bold(true)})
		if w.Player.Victory != "" {
			out = append(out, line{})
			for _, l := range wrap("“"+w.Player.Victory+"”", width) {
				out = append(out, line{l, th.accent().Italic(true)})
			}
		}
	} else {
		title = "A tie"
		out = append(out, line{"No winner " + how + ".", tcell.StyleDefault.Bold(true)})
	}
	out = append(out, line{}, line{hint, th.dim()})
	return title, out
}

// recordingEndLines is shown at the last round of a replay that has no
// result: it was saved before the battle ended, or it is damaged.
func recordingEndLines(s *engine.Snapshot, damage string, width int, th theme) (string, []line) {
	out := []line{{fmt.Sprintf("The recording stops after round %d, before the battle ended.", s.Round), tcell.StyleDefault.Bold(true)}}
	if damage != "" {
		out = append(out, line{})
		for _, l := range wrap(damage, width) {
			out = append(out, line{l, th.warn()})
		}
	}
	out = append(out, line{}, line{"r watch again   Left rewind   q quit", th.dim()})
	return "End of recording", out
}
