package tui

import (
	"fmt"
	"strings"
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

// drawStatus paints the status bar: the battle's state on the left, the key
// hints after it, cut to the width.
func drawStatus(c canvas, th theme, f *frame, note string, y, w int) {
	s := f.snap
	parts := []string{fmt.Sprintf("Round %d/%d", s.Round, s.Rounds)}
	actual := "-"
	if f.speed > 0 {
		actual = fmt.Sprintf("%.0f/s", f.speed)
	}
	parts = append(parts, "speed "+speedLabel(f.target)+" (actual "+actual+")")
	if f.left >= 0 {
		parts = append(parts, "time "+clock(f.left))
	}
	parts = append(parts, fmt.Sprintf("seed %d", s.Seed))
	state := "running"
	switch {
	case s.Over:
		state = "over"
	case f.paused:
		state = "PAUSED"
	}
	parts = append(parts, state)
	if n := len(s.FirstProblems); n > 0 {
		parts = append(parts, fmt.Sprintf("%d script problem(s): e", n))
	}
	if note != "" {
		parts = append(parts, note)
	}
	sep := " " + c.g.bar + " "
	left := " " + strings.Join(parts, sep) + sep
	st := tcell.StyleDefault.Reverse(true)
	n := c.text(0, y, w, left, st)
	hints := "Space pause " + c.g.dot + " . step " + c.g.dot + " +/- speed " + c.g.dot + " ? help " + c.g.dot + " q quit"
	if s.Over {
		hints = "r replay " + c.g.dot + " n new seed " + c.g.dot + " Esc lobby " + c.g.dot + " q quit"
	}
	if n < w {
		c.text(n, y, w-n, hints, st)
	}
}
