package engine

import (
	"fmt"
	"slices"
)

// What a team's scripts print is for people: it never changes a battle, but
// a replay keeps it so that whoever watches the battle again can read each
// team's log as it was written. A script may print as much as its budget
// lets it, so what a round log carries is bounded per team, per round and
// per battle; the bounds are part of the replay format (readers refuse a
// file past them) and docs/replay-format.md gives them.
const (
	// MaxRoundLines is how many lines of one team one round log carries.
	MaxRoundLines = 20
	// MaxBattleLines is how many lines of one team a whole battle's round
	// logs carry; later lines are only counted.
	MaxBattleLines = 1000
	// MaxPrintedBytes bounds one recorded line. A printed line is cut at
	// 240 characters before it is escaped (SafeLine), which at most
	// multiplies its length by six.
	MaxPrintedBytes = 2048
)

// Printer is a Controller (or a rule mod's Caller) whose team's scripts
// print. Printed returns the lines printed since the team had printed
// since lines in all (at most the last lines it keeps) and the new total.
// The Recorder calls it between rounds, from the goroutine that steps the
// battle, never during a turn.
type Printer interface {
	Printed(since int64) (lines []string, total int64)
}

// TeamLines is what one team printed in one round, as a round log carries
// it: Lines in the order printed, already safe to show (SafeLine), and Cut,
// how many more lines the team printed that round than the bounds let the
// log carry.
type TeamLines struct {
	Team  int
	Lines []string
	Cut   int
}

// printTail follows what each team printed, for a Recorder: the totals
// already seen and how many lines the battle's logs carry so far.
type printTail struct {
	seen []int64
	kept []int
}

// lines returns team t's lines printed since the last call, bounded, or
// false when there is nothing (or no Printer).
func (pt *printTail) lines(t int, c any) (TeamLines, bool) {
	p, ok := c.(Printer)
	if !ok {
		return TeamLines{}, false
	}
	for len(pt.seen) <= t {
		pt.seen, pt.kept = append(pt.seen, 0), append(pt.kept, 0)
	}
	got, total := p.Printed(pt.seen[t])
	n := int(min(total-pt.seen[t], 1<<30))
	pt.seen[t] = total
	if n <= 0 {
		return TeamLines{}, false
	}
	tl := TeamLines{Team: t}
	room := min(MaxRoundLines, MaxBattleLines-pt.kept[t], len(got))
	for _, line := range got[len(got)-room:] {
		line = SafeLine(line)
		if len(line) > MaxPrintedBytes {
			line = cutUTF8(line, MaxPrintedBytes)
		}
		tl.Lines = append(tl.Lines, line)
	}
	pt.kept[t] += room
	tl.Cut = n - room
	return tl, true
}

// cutUTF8 is s cut to at most n bytes, never inside a character.
func cutUTF8(s string, n int) string {
	for n > 0 && n < len(s) && s[n]&0xc0 == 0x80 {
		n--
	}
	return s[:n]
}

// PrintedLogs returns, for each of teams, the last n lines its scripts
// printed in the rounds the timeline holds up to round, oldest first, as
// the round logs carry them: a round whose lines were cut says so in a line
// of its own. A replay's viewer shows them in its log pane.
func (t *Timeline) PrintedLogs(round, teams, n int) [][]string {
	out := make([][]string, teams)
	if n <= 0 {
		return out
	}
	last := min(round, t.Last()) - t.keys[0].round - 1
	for i := last; i >= 0; i-- {
		full := true
		ps := t.logs[i].Printed
		for k := len(ps) - 1; k >= 0; k-- {
			p := ps[k]
			if p.Team < 0 || p.Team >= teams || len(out[p.Team]) >= n {
				continue
			}
			lines := p.Lines
			if p.Cut > 0 {
				// the lines kept are the round's last: the cut ones came first
				lines = append([]string{fmt.Sprintf("(round %d: %d earlier lines not recorded)", t.logs[i].Round, p.Cut)}, lines...)
			}
			for j := len(lines) - 1; j >= 0 && len(out[p.Team]) < n; j-- {
				out[p.Team] = append(out[p.Team], lines[j])
			}
		}
		for _, o := range out {
			full = full && len(o) >= n
		}
		if full {
			break
		}
	}
	for _, o := range out {
		slices.Reverse(o)
	}
	return out
}
