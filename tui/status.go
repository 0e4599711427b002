package tui

import (
	"fmt"
	"time"

	"github.com/gdamore/tcell/v2"
)

// speeds are the steps + and - move through; 0 is unthrottled, the top.
var speeds = []int{1, 2, 5, 10, 20, 50, 100, 200, 500, 1000, 0}

// nextSpeed returns the speed one step faster (dir > 0) or slower.
func nextSpeed(cur, dir int) int {
	i := len(speeds) - 1 // unthrottled
	if cur > 0 {
		i = 0
		for i < len(speeds)-2 && speeds[i] < cur {
			i++
		}
		if speeds[i] > cur && dir > 0 {
			i-- // between two steps: faster lands on the next one up
		}
	}
	i = min(max(i+dir, 0), len(speeds)-1)
	return speeds[i]
}

func speedLabel(n int) string {
	if n == 0 {
		return "max"
	}
	return fmt.Sprintf("%d/s", n)
}

// clock shows a duration as m:ss or h:mm:ss.
func clock(d time.Duration) string {
	s := int((d + time.Second - 1) / time.Second)
	if s >= 3600 {
		return fmt.Sprintf("%d:%02d:%02d", s/3600, s/60%60, s%60)
	}
	return fmt.Sprintf("%d:%02d", s/60, s%60)
}

// status is what the status bar shows.
type status struct {
	f       *frame
	note    string // a flash or the g prompt
	replay  bool   // the frame is from a recording
	damaged bool   // the recording is damaged (e tells where)
	// label names a hall's battle and whose it is; spectator: the viewer
	// may not change it (the key hints say what it may do).
	label     string
	spectator bool
	zoom      string // "fit 1:2", "fit 1:1" or "full size"
}

// drawStatus paints the status bar: the battle's state on the left, the key
// hints after it, cut to the width. While a live battle shows an earlier
// round, a highlighted REWIND part says how far behind live it is.
func drawStatus(c canvas, th theme, st status, y, w int) {
	f := st.f
	s := f.snap
	type part struct {
		text string
		hot  bool
	}
	parts := []part{{text: fmt.Sprintf("Round %d/%d", s.Round, s.Rounds)}}
	switch {
	case f.past:
		parts = append(parts, part{fmt.Sprintf("REWIND (live: round %d)", f.live), true})
	case st.replay:
		parts = append(parts, part{text: fmt.Sprintf("REPLAY of %d rounds", f.live)})
	}
	// A flash or the prompt comes early, where it is seen and not cut.
	if st.note != "" {
		parts = append(parts, part{text: st.note})
	}
	if st.label != "" {
		parts = append(parts, part{text: st.label})
	}
	actual := "-"
	if f.speed > 0 {
		actual = fmt.Sprintf("%.0f/s", f.speed)
	}
	parts = append(parts, part{text: "speed " + speedLabel(f.target) + " (actual " + actual + ")"})
	if f.left >= 0 {
		parts = append(parts, part{text: "time " + clock(f.left)})
	}
	parts = append(parts, part{text: fmt.Sprintf("seed %d", s.Seed)})
	state := "running"
	switch {
	case s.Over:
		state = "over"
	case f.end && st.replay:
		state = "end of recording"
	case f.paused:
		state = "PAUSED"
	}
	parts = append(parts, part{text: state})
	if st.zoom != "" {
		parts = append(parts, part{text: st.zoom})
	}
	if st.damaged {
		parts = append(parts, part{"DAMAGED file: e", true})
	}
	if n := len(s.FirstProblems); n > 0 {
		parts = append(parts, part{text: fmt.Sprintf("%d script problem(s): e", n)})
	}
	plain := tcell.StyleDefault.Reverse(true)
	hot := plain.Bold(true)
	if !th.mono {
		hot = tcell.StyleDefault.Background(tcell.PaletteColor(11)).Foreground(tcell.PaletteColor(0)).Bold(true)
	}
	sep := " " + c.g.bar + " "
	x := c.text(0, y, w, " ", plain)
	for _, p := range parts {
		style := plain
		if p.hot {
			style = hot
		}
		x += c.text(x, y, w-x, p.text, style)
		x += c.text(x, y, w-x, sep, plain)
	}
	d := c.g.dot
	var hints string
	switch {
	case st.spectator:
		hints = "hjkl pan " + d + " f fit " + d + " c colours " + d + " ? help " + d + " Esc menu " + d + " q quit"
	case f.past:
		hints = "Left/Right step " + d + " End live " + d + " Space play on " + d + " ? help"
	case s.Over && st.replay, f.end && st.replay:
		hints = "r watch again " + d + " Left rewind " + d + " q quit"
	case s.Over:
		back := "Esc lobby"
		if st.label != "" {
			back = "Esc menu"
		}
		hints = "r replay " + d + " n new seed " + d + " Left rewind " + d + " " + back + " " + d + " q quit"
	default:
		hints = "Space pause " + d + " Left rewind " + d + " +/- speed " + d + " ? help " + d + " q quit"
	}
	if x < w {
		c.text(x, y, w-x, hints, plain)
	}
}
