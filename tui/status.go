package tui

import (
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/gdamore/tcell/v2"

	"github.com/squarebattle/squarebattle/engine"
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
	f    *frame
	note string // a flash: news for a few seconds
	// prompt is a question the bar asks (q's, Esc's) or the g prompt, in
	// forms each whole, longest first; the shortest fits the narrowest
	// terminal (minW-1 columns), so a prompt is never cut.
	prompt  []string
	touched item // what the last key changed: it stays on the bar
	replay  bool // the frame is from a recording
	damaged bool // the recording is damaged (e tells where)
	// label names a hall's battle and whose it is; spectator: the viewer
	// may not change it (the key hints say what it may do).
	label     string
	spectator bool
	zoom      string // "fit 1:2", "fit 1:1" or "full size 1:1"
}

// item names a status bar item a key changes.
type item int

const (
	itemNone  item = iota
	itemSpeed      // + and -
)

// Status bar ranks: how long each form of an item holds on a narrowing
// terminal, the highest longest. An item's forms give way one by one,
// each at its own rank (cue.steps), so the bar degrades by what matters:
// a long seed shrinks to its first digits before the speed leaves, and
// leaves before it; a prompt outlasts everything.
const (
	rankPrompt  = 110 // a question, in the longest form that fits: it stays
	rankNote    = 101 // a flash, for seconds
	rankRound   = 100 // where the battle is
	rankTouched = 98  // what a key just changed (the speed after + or -)
	rankAlarm   = 95  // rewinding, a damaged file
	rankState   = 90  // running, PAUSED, over
	rankProblem = 85  // script problems: e shows them
	rankLabel   = 80  // a hall's battle
	rankWord    = 75  // "Round" before its numbers
	rankSpeed   = 70  // the speed, short
	rankSays    = 69  // what a label, REWIND or REPLAY says after its first word
	rankTime    = 68  // time left, short
	rankKey     = 66  // the key that matters most now; ? help one below
	rankSeed    = 60  // the seed's first digits
	rankZoom    = 58  // the zoom
	rankLong    = 50  // long forms: "time left", "speed", whole seeds
	rankHint    = 20  // the other key hints, the first kept longest
)

// seedDigits is how many of a long seed's digits its short form keeps.
const seedDigits = 4

// drawStatus paints the status bar: the battle's state on the left, the key
// hints after it, abbreviated by importance to fit the width (statusCues,
// fitCues). While a live battle shows an earlier round, a highlighted
// REWIND part says how far behind live it is.
func drawStatus(c canvas, th theme, st status, y, w int) {
	sep := " " + c.g.bar + " "
	plain := tcell.StyleDefault.Reverse(true)
	hot := plain.Bold(true)
	if !th.mono {
		hot = tcell.StyleDefault.Background(tcell.PaletteColor(11)).Foreground(tcell.PaletteColor(0)).Bold(true)
	}
	st.prompt = promptForm(st.prompt, w-1)
	kept := fitCues(statusCues(st, c.g), sep, w-1)
	x := c.text(0, y, w, " ", plain)
	if line := cueLine(kept, sep); textWidth(line) > w-1 {
		// even the shortest forms are too wide (a long flash on a
		// narrow terminal; never a prompt): one plain line, cut
		// between words
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

// promptForm is the longest of a prompt's forms that fits width columns
// (the last when none does): the prompt takes what room it needs first,
// and the other items share what is left.
func promptForm(forms []string, width int) []string {
	for _, f := range forms {
		if textWidth(engine.SafeText(f)) <= width {
			return []string{f}
		}
	}
	if len(forms) == 0 {
		return nil
	}
	return forms[len(forms)-1:]
}

// statusCues are the status bar's items in the order they show, each
// with its forms and the ranks at which they give way (see the ranks).
// Text from outside (a flash, a battle's label) is made safe here, so
// that what is measured is what is drawn.
func statusCues(st status, g glyphs) []cue {
	f := st.f
	s := f.snap
	sep := " " + g.bar + " "
	var cues []cue
	add := func(hot bool, forms []string, steps ...int) {
		cues = append(cues, cue{forms: forms, steps: steps, hot: hot, sep: sep})
	}
	round := fmt.Sprintf("%d/%d", s.Round, s.Rounds)
	add(false, []string{"Round " + round, round, ""}, rankWord, rankRound)
	switch {
	case f.past:
		add(true, []string{fmt.Sprintf("REWIND (live: round %d)", f.live), fmt.Sprintf("REWIND (live %d)", f.live), "REWIND", ""}, rankSays, rankWord, rankAlarm)
	case st.replay:
		add(false, []string{fmt.Sprintf("REPLAY of %d rounds", f.live), "REPLAY", ""}, rankSays, rankState)
	}
	// A prompt or a flash comes early, where it is seen.
	switch {
	case len(st.prompt) > 0:
		// drawStatus has chosen its form (whole, without "" after it: it
		// never leaves)
		add(false, safeForms(st.prompt), repeat(rankPrompt, len(st.prompt)-1)...)
	case st.note != "":
		// a flash outranks even the round, for the seconds it shows: a
		// path saved to is read whole, with ~ for the home folder
		// (its last form stays: cut between words if need be)
		forms := safeForms(noteForms(st.note))
		add(false, forms, repeat(rankNote, len(forms)-1)...)
	}
	if st.label != "" {
		label := engine.SafeText(st.label)
		add(false, []string{label, strings.SplitN(label, " (", 2)[0], ""}, rankSays, rankLabel)
	}
	add(false, speedForms(f), speedSteps(st)...)
	if f.left >= 0 {
		add(false, []string{"time left " + clock(f.left), clock(f.left) + " left", ""}, rankLong, rankTime)
	}
	if forms := seedForms(s.Seed, g.ellipsis); len(forms) == 3 {
		add(false, forms, rankLong, rankSeed)
	} else {
		add(false, forms, rankSeed)
	}
	switch {
	case s.Over:
		add(false, []string{"over", ""}, rankState)
	case f.end && st.replay:
		add(false, []string{"end of recording", "end", ""}, rankZoom, rankState)
	case f.paused:
		add(false, []string{"PAUSED", ""}, rankState)
	default:
		add(false, []string{"running", ""}, rankState)
	}
	if st.zoom != "" {
		add(false, []string{st.zoom, ""}, rankZoom)
	}
	if st.damaged {
		add(true, []string{"DAMAGED file: e", "DAMAGED: e", ""}, rankLong, rankAlarm)
	}
	if errs, touts := problemCounts(s); errs+touts > 0 {
		add(false, problemForms(errs, touts), rankKey+1, rankSeed+1, rankWord+1, rankProblem)
	}
	for i, h := range statusHints(st) {
		rank := rankHint - i
		switch {
		case i == 0: // the key that matters most now
			rank = rankKey
		case h == "? help": // the way to every other key
			rank = rankKey - 1
		}
		cues = append(cues, cue{forms: []string{h, ""}, steps: []int{rank}, sep: " " + g.dot + " ", group: 1})
	}
	return cues
}

// speedForms are the speed's forms: with "speed" and the speed measured
// while it runs, then the target alone.
func speedForms(f *frame) []string {
	long := "speed " + speedLabel(f.target)
	if f.speed > 0 {
		long += fmt.Sprintf(" (actual %.0f)", f.speed)
	}
	return []string{long, speedLabel(f.target), ""}
}

// speedSteps rank the speed's forms. After + or - the speed is what the
// user looks for: it keeps its long form over the key hints and leaves
// only after everything but the round and a prompt. A spectator, who may
// not change it, keeps the seed and the battle's label first.
func speedSteps(st status) []int {
	switch {
	case st.touched == itemSpeed:
		return []int{rankKey + 1, rankTouched}
	case st.spectator:
		return []int{rankLong, rankSeed + 1}
	}
	return []int{rankLong, rankSpeed}
}

// seedForms are the seed's forms: whole, then, for a long one, its first
// digits and an ellipsis (a lobby seed has 16 digits, a seed may have 20),
// then none.
func seedForms(seed uint64, ellipsis string) []string {
	digits := strconv.FormatUint(seed, 10)
	if len(digits) <= seedDigits+2 {
		return []string{"seed " + digits, ""}
	}
	return []string{"seed " + digits, "seed " + digits[:seedDigits] + ellipsis, ""}
}

// problemCounts are the turns lost to script errors and to timeouts, the
// teams' counts together (the team table's Err and T/O columns). A
// snapshot without counts (a picture made by hand) counts its first
// problems of each kind instead.
func problemCounts(s *engine.Snapshot) (errs, touts int) {
	for _, t := range s.Teams {
		errs += t.Stats.Errors
		touts += t.Stats.Timeouts
	}
	var firstErrs, firstTouts int
	for _, p := range s.FirstProblems {
		if p.Kind == engine.FaultTimeout {
			firstTouts++
		} else {
			firstErrs++
		}
	}
	return max(errs, firstErrs), max(touts, firstTouts)
}

// problemForms name the errors and the timeouts and how many of each, and
// e, the key that lists them: as script problems, then the kinds alone,
// then in the team table's column names (Err, T/O), then only how many
// in all.
func problemForms(errs, touts int) []string {
	var long, short []string
	if errs > 0 {
		long = append(long, plural(errs, "error"))
		short = append(short, fmt.Sprintf("%d Err", errs))
	}
	if touts > 0 {
		long = append(long, plural(touts, "timeout"))
		short = append(short, fmt.Sprintf("%d T/O", touts))
	}
	kinds := strings.Join(long, ", ")
	head := "script problems"
	if errs+touts == 1 {
		head = "script problem"
	}
	return []string{head + " (" + kinds + "): e", kinds + ": e", strings.Join(short, ", ") + ": e", fmt.Sprintf("e: %d", errs+touts), ""}
}

// safeForms are forms made safe to print (engine.SafeText).
func safeForms(forms []string) []string {
	out := make([]string, len(forms))
	for i, f := range forms {
		out[i] = engine.SafeText(f)
	}
	return out
}

// repeat is n times rank.
func repeat(rank, n int) []int {
	out := make([]int, n)
	for i := range out {
		out[i] = rank
	}
	return out
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
