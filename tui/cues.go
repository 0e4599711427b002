package tui

import "strings"

// A cue is one piece of a one-line bar (the status bar, a footer of key
// hints). Cues abbreviate by importance: while the line is too wide, the
// least important cue that can still be shortened takes its next, shorter
// form (at its trim rank), and a cue whose last form is "" leaves (at its
// rank). A cue is never cut inside a word: each form is a whole text.
type cue struct {
	forms []string // longest first
	rank  int      // higher stays longer; ties: the rightmost goes first
	trim  int      // the rank at which it takes a shorter form (it leaves at rank)
	// steps, when set, rank each form's giving way to the next one
	// (len(forms)-1 of them), in place of trim and rank: a cue may then
	// keep a short form longer than other cues keep their long ones (a
	// long seed is abbreviated before the speed leaves, and leaves after).
	steps []int
	hot   bool   // drawn highlighted
	sep   string // put before the cue when one of its group precedes it
	group int    // cues of another group are parted by a bar's own separator
}

// between is what parts two cues that follow each other on a bar: sep
// within a group, bar between groups.
func between(prev, c cue, bar string) string {
	if prev.group == c.group {
		return c.sep
	}
	return bar
}

// fitCues chooses each cue's form so that the line, cues of different
// groups parted by bar, fits width columns, and returns the cues kept,
// each with its chosen form first. The steps it takes to get there are
// in the order of their ranks, whatever the width, so a wider line
// takes fewer of them. When even the shortest forms are too wide, the
// line is as short as the cues allow and the caller cuts it (cutWords).
func fitCues(cues []cue, bar string, width int) []cue {
	at := make([]int, len(cues)) // the form chosen for each cue
	// Each text is measured once: wide runs after every step, and the
	// steps are many on a narrow terminal.
	forms := make([][]int, len(cues))
	for i, c := range cues {
		forms[i] = make([]int, len(c.forms))
		for j, f := range c.forms {
			forms[i][j] = textWidth(f)
		}
	}
	seps := map[string]int{} // the separators' widths
	parted := func(prev, c cue) int {
		sep := between(prev, c, bar)
		n, ok := seps[sep]
		if !ok {
			n = textWidth(sep)
			seps[sep] = n
		}
		return n
	}
	wide := func() int {
		n, prev := 0, -1
		for i, c := range cues {
			if c.forms[at[i]] == "" {
				continue
			}
			if prev >= 0 {
				n += parted(cues[prev], c)
			}
			n += forms[i][at[i]]
			prev = i
		}
		return n
	}
	type step struct{ cue, form int } // a cue took its form form
	var taken []step
	for wide() > width {
		pick, least := -1, 0
		for i, c := range cues {
			if at[i] >= len(c.forms)-1 {
				continue
			}
			r := c.step(at[i])
			if pick < 0 || r <= least {
				pick, least = i, r
			}
		}
		if pick < 0 {
			break
		}
		at[pick]++
		taken = append(taken, step{pick, at[pick]})
	}
	// Room the last steps left over (a wide cue that went) lengthens
	// forms again, the last step undone first. A form lengthens wherever
	// it fits; a cue that left comes back only while every step after
	// its leaving could be undone too, so a less important cue never
	// shows where a more important one is cut short or gone.
	blocked := false
	for j := len(taken) - 1; j >= 0; j-- {
		st := taken[j]
		if at[st.cue] != st.form {
			continue // a later step of the same cue stays
		}
		back := cues[st.cue].forms[st.form] == ""
		if back && blocked {
			continue
		}
		at[st.cue]--
		if wide() > width {
			at[st.cue]++
			blocked = true
		}
	}
	var out []cue
	for i, c := range cues {
		if f := c.forms[at[i]]; f != "" {
			c.forms = []string{f}
			out = append(out, c)
		}
	}
	return out
}

// step is the rank at which the cue's form i gives way to form i+1.
func (c cue) step(i int) int {
	switch {
	case c.steps != nil:
		return c.steps[i]
	case c.forms[i+1] == "":
		return c.rank
	}
	return c.trim
}

// cueLine is the cues' chosen forms with their separators, as one text.
func cueLine(cues []cue, bar string) string {
	var b strings.Builder
	for i, c := range cues {
		if i > 0 {
			b.WriteString(between(cues[i-1], c, bar))
		}
		b.WriteString(c.forms[0])
	}
	return b.String()
}

// cutWords shortens text to width columns at a space, never inside a
// word, marking the cut with ellipsis; a first word wider than width is
// all that is cut inside (there is nothing else to show).
func cutWords(text string, width int, ellipsis string) string {
	if textWidth(text) <= width {
		return text
	}
	room := width - textWidth(ellipsis)
	if room < 1 {
		return truncate(text, width)
	}
	head := truncate(text, room)
	if i := strings.LastIndexByte(head, ' '); i > 0 && len(head) < len(text) && text[len(head)] != ' ' {
		head = head[:i]
	}
	return strings.TrimRight(head, " ") + ellipsis
}
