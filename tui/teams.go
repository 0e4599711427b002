package tui

import (
	"fmt"
	"time"

	"github.com/gdamore/tcell/v2"

	"github.com/squarebattle/squarebattle/engine"
	"github.com/squarebattle/squarebattle/engine/bot"
)

// The team table: the original game's player list, grown up. Columns have
// fixed widths and numbers are right-aligned so nothing jumps as counts
// grow; teams stay in team order.

const (
	numWidth  = 7 // each number column, including its leading space
	minName   = 10
	maxName   = 18
	tableMinW = 3 + minName + 7*numWidth
)

var tableHeads = []string{"Squares", "Births", "Kills", "Deaths", "Coll.", "T/O", "Err"}

func statColumns(s engine.Stats) [7]int {
	return [7]int{s.Squares, s.Births, s.Kills, s.Deaths, s.Collisions, s.Timeouts, s.Errors}
}

// columnsOf are the table's number columns for a snapshot, with each
// team's figures: SquareBattle's statistics, or a rule mod's score columns
// and its lost turns.
func columnsOf(s *engine.Snapshot) ([]string, func(engine.TeamView) []int) {
	if s.Marks == nil {
		return tableHeads, func(t engine.TeamView) []int { v := statColumns(t.Stats); return v[:] }
	}
	heads := make([]string, 0, len(s.Columns)+2)
	for _, c := range s.Columns {
		heads = append(heads, truncate(title(c), 11))
	}
	heads = append(heads, "T/O", "Err")
	return heads, func(t engine.TeamView) []int {
		return append(append(make([]int, 0, len(t.Values)+2), t.Values...), t.Stats.Timeouts, t.Stats.Errors)
	}
}

// title capitalises a column name for its heading.
func title(name string) string {
	if name == "" || name[0] < 'a' || name[0] > 'z' {
		return name
	}
	return string(name[0]-'a'+'A') + name[1:]
}

// tableRows is how many screen rows the table wants: a header, a row per
// team, and a line for each eliminated team's defeat speech.
func tableRows(s *engine.Snapshot) int {
	n := 1 + len(s.Teams)
	for _, t := range s.Teams {
		if t.Eliminated > 0 && t.Player.Defeat != "" {
			n++
		}
	}
	return n
}

// drawTeams paints the table into r. squares holds each team's count (a
// rule mod: its first score column) after every round, for the trend
// sparkline; trips, when not nil, the bots' last round trips, shown in a
// column of their own after the numbers.
func drawTeams(c canvas, th theme, colours []int, s *engine.Snapshot, squares [][]int32, trips []*bot.RoundTrip, r rect) {
	heads, figures := columnsOf(s)
	xs := numberColumns(s, heads)
	nums := xs[len(heads)]
	tripX := -1
	if hasTrips(trips) {
		tripX = nums
		nums += numWidth
	}
	// The names take what the table has beside the numbers and a trend
	// of 11: as much as the longest name needs, at least minName, and
	// maxName even when all are shorter (a stable layout).
	name := min(max(r.w-3-nums-12, minName), max(maxName, longestName(s)))
	trendX := r.x + 3 + name + nums + 1
	trendW := r.x + r.w - trendX
	head := th.dim()
	y := r.y
	if r.h > 0 {
		c.text(r.x, y, 3+name, "   Player", head)
		for i, h := range heads {
			c.right(r.x+3+name+xs[i], y, xs[i+1]-xs[i], h, head)
		}
		if tripX >= 0 {
			c.right(r.x+3+name+tripX, y, numWidth, "Reply", head)
		}
		c.blank(r.x+3+name+nums, y, 1, head)
		if trendW > 0 {
			c.text(trendX, y, trendW, "Trend", head)
		}
		y++
	}
	extra := r.h - 1 - len(s.Teams) // rows left for defeat speeches
	for i, t := range s.Teams {
		if y >= r.y+r.h {
			break
		}
		st := tcell.StyleDefault
		if t.Eliminated > 0 {
			st = th.dim()
		}
		if th.mono || c.g.ascii {
			c.text(r.x, y, 3, glyphOf(i)+glyphOf(i)+" ", tcell.StyleDefault.Foreground(th.team(colourOf(colours, i))).Bold(true))
		} else {
			c.text(r.x, y, 3, c.g.swatch+" ", tcell.StyleDefault.Foreground(th.team(colourOf(colours, i))))
		}
		c.text(r.x+3, y, name, t.Player.Name, st)
		for j, v := range figures(t) {
			c.right(r.x+3+name+xs[j], y, xs[j+1]-xs[j], count(v, xs[j+1]-xs[j]-1), st)
		}
		if tripX >= 0 {
			text, style := "", st
			if i < len(trips) && trips[i] != nil {
				text = tripText(*trips[i])
				if trips[i].Late && t.Eliminated == 0 {
					style = th.warn()
				}
			}
			c.right(r.x+3+name+tripX, y, numWidth, text, style)
		}
		c.blank(r.x+3+name+nums, y, 1, st)
		if trendW > 0 {
			if t.Retired.Round > 0 && t.Eliminated == 0 {
				c.text(trendX, y, trendW, retiredLabel(t.Retired.Round, trendW), th.warn())
			} else if t.Eliminated > 0 && extra <= 0 {
				c.text(trendX, y, trendW, t.Player.Defeat, th.dim().Italic(true))
			} else {
				c.text(trendX, y, trendW, sparkline(c.g, squares[i], trendW), tcell.StyleDefault.Foreground(th.team(colourOf(colours, i))))
			}
		}
		y++
		if t.Eliminated > 0 && t.Player.Defeat != "" && extra > 0 && y < r.y+r.h {
			c.text(r.x, y, 3, "", st)
			c.text(r.x+3, y, r.w-3, "“"+t.Player.Defeat+"”", th.dim().Italic(true))
			y++
			extra--
		}
	}
	c.fill(rect{r.x, y, r.w, r.y + r.h - y}, tcell.StyleDefault)
}

// hasTrips says whether some team is a bot with a round trip to show.
func hasTrips(trips []*bot.RoundTrip) bool {
	for _, t := range trips {
		if t != nil {
			return true
		}
	}
	return false
}

// tripText is a round trip in at most numWidth-1 columns: milliseconds
// under ten seconds, else seconds; "late" when no answer came in time;
// "-" before the first answer.
func tripText(t bot.RoundTrip) string {
	switch {
	case t.Late:
		return "late"
	case t.D <= 0:
		return "-"
	case t.D < time.Millisecond:
		return "<1ms"
	case t.D < 10*time.Second:
		return fmt.Sprintf("%dms", t.D.Milliseconds())
	case t.D < 1000*time.Second:
		return fmt.Sprintf("%ds", int(t.D.Seconds()))
	}
	return ">999s"
}

// numberColumns are where the table's number columns start, from the
// end of the names, and (last) where they end: each numWidth wide; a rule
// mod's, at least its heading and a space.
func numberColumns(s *engine.Snapshot, heads []string) []int {
	xs := make([]int, len(heads)+1)
	for i, h := range heads {
		xs[i+1] = xs[i] + numWidth
		if s.Marks != nil {
			xs[i+1] = xs[i] + max(numWidth, textWidth(h)+1)
		}
	}
	return xs
}

// longestName is the display width of the longest team name, as shown.
func longestName(s *engine.Snapshot) int {
	n := 0
	for _, t := range s.Teams {
		n = max(n, textWidth(engine.SafeText(t.Player.Name)))
	}
	return n
}

// tableWidth is how wide the table beside the arena would like to be:
// every name whole, the numbers and a trend of 11.
func tableWidth(s *engine.Snapshot) int {
	heads, _ := columnsOf(s)
	xs := numberColumns(s, heads)
	return 3 + max(longestName(s), minName) + xs[len(heads)] + 12
}

// sparkline draws counts over the battle in width columns: each column is
// the last count in its stretch of rounds, scaled to the team's own peak.
func sparkline(g glyphs, counts []int32, width int) string {
	if len(counts) == 0 || width <= 0 {
		return ""
	}
	peak := int32(1)
	for _, n := range counts {
		peak = max(peak, n)
	}
	cols := min(width, len(counts))
	out := make([]byte, 0, cols*3)
	for i := 0; i < cols; i++ {
		end := (i+1)*len(counts)/cols - 1
		n := counts[end]
		if n <= 0 {
			out = append(out, ' ')
			continue
		}
		levels := int64(len(g.spark))
		level := (int64(n)*levels+int64(peak)-1)/int64(peak) - 1
		out = append(out, g.spark[min(level, levels-1)]...)
	}
	return string(out)
}

// retiredLabel says in at most width columns (when it can) that a team
// was retired in round.
func retiredLabel(round, width int) string {
	if l := fmt.Sprintf("retired in round %d", round); len(l) <= width {
		return l
	}
	return fmt.Sprintf("retired r%d", round)
}
