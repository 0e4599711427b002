package tui

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/gdamore/tcell/v2"
	"github.com/rivo/uniseg"
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

// speedLabel names a speed the one way the UI names speeds: rounds/s.
func speedLabel(n int) string {
	if n == 0 {
		return "unthrottled"
	}
	return fmt.Sprintf("%d rounds/s", n)
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
	zoom      string // "fit 1:2", "fit 1:1" or "full size 1:1"
}

// Status bar ranks: what a cue is worth keeping on a narrow terminal.
const (
	rankNote    = 101 // a flash, a question, the g prompt: for seconds
	rankRound   = 100 // where the battle is
	rankAlarm   = 95  // rewinding, a damaged file
	rankState   = 90  // paused, over
	rankProblem = 85  // script problems: e shows them
	rankLabel   = 80  // a hall's battle
	rankTime    = 70
	rankZoom    = 60
	rankSeed    = 50
	rankSpeed   = 40
	rankHint    = 20 // key hints, the first kept longest; ? help above them
)

// drawStatus paints the status bar: the battle's state on the left, the key
// hints after it, abbreviated by importance to fit the width (fitCues).
// While a live battle shows an earlier round, a highlighted REWIND part
// says how far behind live it is.
func drawStatus(c canvas, th theme, st status, y, w int) {
	f := st.f
	s := f.snap
	sep := " " + c.g.bar + " "
	var cues []cue
	add := func(rank int, hot bool, forms ...string) {
		cues = append(cues, cue{forms: forms, rank: rank, trim: rank, hot: hot, sep: sep})
	}
	add(rankRound, false, fmt.Sprintf("Round %d/%d", s.Round, s.Rounds), fmt.Sprintf("%d/%d", s.Round, s.Rounds), "")
	switch {
	case f.past:
		add(rankAlarm, true, fmt.Sprintf("REWIND (live: round %d)", f.live), fmt.Sprintf("REWIND (live %d)", f.live), "REWIND", "")
	case st.replay:
		add(rankState, false, fmt.Sprintf("REPLAY of %d rounds", f.live), "REPLAY", "")
	}
	// A flash or the prompt comes early, where it is seen and not cut.
	if st.note != "" {
		// a note outranks even the round, for the seconds it shows: a
		// path saved to is read whole, with ~ for the home folder
		cues = append(cues, cue{forms: noteForms(st.note), rank: rankNote, trim: rankNote, sep: sep})
	}
	if st.label != "" {
		add(rankLabel, false, st.label, strings.SplitN(st.label, " (", 2)[0], "")
	}
	speed := "speed " + speedLabel(f.target)
	if f.speed > 0 {
		add(rankSpeed, false, fmt.Sprintf("%s (actual %.0f)", speed, f.speed), speedLabel(f.target)+fmt.Sprintf(" (%.0f)", f.speed), speedLabel(f.target), "")
	} else {
		add(rankSpeed, false, speed, speedLabel(f.target), "")
	}
	if f.left >= 0 {
		add(rankTime, false, "time left "+clock(f.left), clock(f.left), "")
	}
	add(rankSeed, false, fmt.Sprintf("seed %d", s.Seed), "")
	switch {
	case s.Over:
		add(rankState, false, "over", "")
	case f.end && st.replay:
		add(rankState, false, "end of recording", "end", "")
	case f.paused:
		add(rankState, false, "PAUSED", "")
	default:
		add(rankState, false, "running", "")
	}
	if st.zoom != "" {
		add(rankZoom, false, st.zoom, strings.TrimPrefix(st.zoom, "full size "), "")
	}
	if st.damaged {
		add(rankAlarm, true, "DAMAGED file: e", "DAMAGED: e", "")
	}
	if n := len(s.FirstProblems); n > 0 {
		add(rankProblem, false, plural(n, "script problem")+": e", plural(n, "problem")+": e", fmt.Sprintf("e: %d", n), "")
	}
	for i, h := range statusHints(st) {
		rank := rankHint - i
		switch {
		case i == 0: // the key that matters most now
			rank = rankSeed + 2
		case h == "? help": // the way to every other key
			rank = rankSeed + 1
		}
		cues = append(cues, cue{forms: []string{h, ""}, rank: rank, trim: rank, sep: " " + c.g.dot + " ", group: 1})
	}
	plain := tcell.StyleDefault.Reverse(true)
	hot := plain.Bold(true)
	if !th.mono {
		hot = tcell.StyleDefault.Background(tcell.PaletteColor(11)).Foreground(tcell.PaletteColor(0)).Bold(true)
	}
	kept := fitCues(cues, sep, w-1)
	x := c.text(0, y, w, " ", plain)
	if line := cueLine(kept, sep); uniseg.StringWidth(line) > w-1 {
		// even the shortest forms are too wide (a long note on a narrow
		// terminal): one plain line, cut between words
		c.text(x, y, w-x, cutWords(line, w-1, c.g.ellipsis), plain)
		return
	}
	for i, cu := range kept {
		if i > 0 {
			x += c.text(x, y, w-x, between(kept[i-1], cu, sep), plain)
		}
		style := plain
		if cu.hot {
			style = hot
		}
		x += c.text(x, y, w-x, cu.forms[0], style)
	}
	if x < w {
		c.text(x, y, w-x, "", plain)
	}
}

// statusHints are the keys the status bar suggests, the most useful first.
func statusHints(st status) []string {
	f, s := st.f, st.f.snap
	switch {
	case st.spectator:
		return []string{"? help", "Esc menu", "q quit", "hjkl pan", "f fit", "c colours"}
	case f.past:
		return []string{"Left/Right step", "End live", "Space play on", "? help"}
	case s.Over && st.replay, f.end && st.replay:
		return []string{"r watch again", "Left rewind", "q quit"}
	case s.Over:
		back := "Esc lobby"
		if st.label != "" {
			back = "Esc menu"
		}
		return []string{"r replay", "n new seed", back, "q quit", "Left rewind"}
	}
	return []string{"Space pause", "? help", "+/- speed", "Left rewind", "q quit"}
}

// noteForms are a note's forms: as it is, then without a closing
// parenthesis, then that with the user's home folder written ~ where it
// names a path in it, then with the path's folders left out.
func noteForms(text string) []string {
	forms := []string{text}
	if i := strings.LastIndex(text, " ("); i > 0 && strings.HasSuffix(text, ")") {
		text = text[:i]
		forms = append(forms, text)
	}
	sep := string(filepath.Separator)
	if home, err := os.UserHomeDir(); err == nil && len(home) > 1 && strings.Contains(text, home+sep) {
		text = strings.ReplaceAll(text, home+sep, "~"+sep)
		forms = append(forms, text)
	}
	// last, a path's folders go: its file's name is what is left to read
	words := strings.Split(text, " ")
	for i, w := range words {
		if j := strings.LastIndex(w, sep); j > 0 && strings.Contains(w[:j], sep) {
			words[i] = "…" + w[j:]
		}
	}
	if short := strings.Join(words, " "); short != text {
		forms = append(forms, short)
	}
	return forms
}

// plural is n things, with an s unless n is 1.
func plural(n int, thing string) string {
	if n != 1 {
		thing += "s"
	}
	return fmt.Sprintf("%d %s", n, thing)
}
