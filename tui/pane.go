package tui

import (
	"fmt"
	"strings"

	"github.com/gdamore/tcell/v2"
	"github.com/rivo/uniseg"

	"github.com/squarebattle/squarebattle/engine"
)

// The errors-and-log pane (e on the battle screen): the script problems on
// its first tab and each team's print log on a tab of its own. It takes
// the whole screen but the status bar, so it fits any width: every item
// wraps, the list scrolls, and Enter opens one item whole. While it is
// open no key reaches the battle underneath.

// pane is the pane's state, the viewer's own.
type pane struct {
	tab int // 0 the problems, t+1 team t's log
	// cursor is the item under the cursor; -1 follows the newest (the end
	// of a log, which grows while the pane is open).
	cursor int
	top    int  // the first row shown: of the list, or of the open item
	open   bool // the item under the cursor is shown whole
}

// paneItem is one entry of a tab: a problem or a printed line. Headings
// are items the cursor skips.
type paneItem struct {
	text    string // as the list shows it (wrapped, at most listRows rows)
	whole   string // as Enter shows it (wrapped, every row)
	heading bool
	style   tcell.Style
}

// listRows caps the rows one item takes in the list; Enter shows the rest.
const listRows = 3

// paneItems lists the items of tab for the frame on view. Of a team that
// readable (nil: every team) says the viewer may not read, it lists only
// how many problems and printed lines there are.
func paneItems(f *frame, tab int, damage string, th theme, readable func(team int) bool) []paneItem {
	s := f.snap
	may := func(t int) bool { return readable == nil || readable(t) }
	if tab > 0 {
		var out []paneItem
		if t := tab - 1; !may(t) {
			n := 0
			if t < len(f.logs) {
				n = len(f.logs[t])
			}
			return []paneItem{{text: fmt.Sprintf("%d line(s) printed. Only the player's owner can read them.", n), heading: true, style: th.dim()}}
		}
		if tab-1 < len(f.logs) {
			for _, l := range f.logs[tab-1] {
				out = append(out, paneItem{text: l, whole: l, style: tcell.StyleDefault})
			}
		}
		if len(out) == 0 {
			out = append(out, paneItem{text: "Nothing printed so far: print(...) in a script writes here.", heading: true, style: th.dim()})
		}
		return out
	}
	var out []paneItem
	if damage != "" {
		out = append(out, paneItem{text: "This replay is damaged: " + damage, heading: true, style: th.warn()})
	}
	var first, latest []engine.Problem
	for _, p := range s.FirstProblems {
		if may(p.Team) {
			first = append(first, p)
		}
	}
	for _, p := range s.Problems {
		if may(p.Team) {
			latest = append(latest, p)
		}
	}
	var others []paneItem // teams whose problems the viewer may only count
	for i, t := range s.Teams {
		if !may(i) && t.Stats.Errors+t.Stats.Timeouts > 0 {
			others = append(others, paneItem{text: fmt.Sprintf("%s: %d error(s), %d timeout(s). Only the player's owner can read them.",
				t.Player.Name, t.Stats.Errors, t.Stats.Timeouts), heading: true, style: th.dim()})
		}
	}
	for i, t := range s.Teams {
		if t.Retired.Round > 0 && may(i) {
			out = append(out, retiredItem(t, th))
		}
	}
	if len(first) == 0 && len(others) == 0 {
		return append(out, paneItem{text: "No script problems so far.", heading: true, style: tcell.StyleDefault})
	}
	if len(first) > 0 {
		out = append(out, paneItem{text: "First problem of each kind (error, timeout), team and class:", heading: true, style: th.accent()})
		for _, p := range first {
			out = append(out, problemItem(s, p))
		}
		out = append(out, paneItem{text: "Latest, newest first:", heading: true, style: th.accent()})
		for i := len(latest) - 1; i >= 0; i-- {
			out = append(out, problemItem(s, latest[i]))
		}
	}
	return append(out, others...)
}

// retiredItem says that team t was retired, when and why; of a bot, that
// its log's tab holds what it wrote to standard error (a crash's last
// words).
func retiredItem(t engine.TeamView, th theme) paneItem {
	text := fmt.Sprintf("%s retired in round %d: %s", t.Player.Name, t.Retired.Round, t.Retired.Reason)
	if t.Player.Outside == engine.OutsideBot {
		text += " (its tab holds what it wrote to standard error)"
	}
	return paneItem{text: text, whole: text, style: th.warn()}
}

// problemItem is one problem: in the list the round, the team and the
// message; whole, every field on a line of its own.
func problemItem(s *engine.Snapshot, p engine.Problem) paneItem {
	team, class := fmt.Sprintf("team %d", p.Team), fmt.Sprint(p.Class)
	if p.Team >= 0 && p.Team < len(s.Teams) {
		team = s.Teams[p.Team].Player.Name
	}
	if int(p.Class) >= 0 && int(p.Class) < len(s.Classes) {
		class = s.Classes[p.Class]
	}
	text := fmt.Sprintf("round %d %s %s: %s", p.Round, team, p.Kind, p.Message)
	whole := fmt.Sprintf("round %d\nteam %d %s\nclass %s\nsquare %d\n%s: %s", p.Round, p.Team, team, class, p.Square, p.Kind, p.Message)
	if p.Trace != "" {
		whole += "\ntraceback:\n" + p.Trace
	}
	return paneItem{text: text, whole: whole, style: tcell.StyleDefault}
}

// paneTabs names the tabs: the problems, then each team's log.
func paneTabs(s *engine.Snapshot) []string {
	tabs := []string{"Problems"}
	for i, t := range s.Teams {
		tabs = append(tabs, fmt.Sprintf("%d %s", i+1, t.Player.Name))
	}
	return tabs
}

// tabLine shows every tab with the current one in brackets, or, when that
// does not fit, the current one and where it is among them.
func tabLine(tabs []string, cur, width int) string {
	var b strings.Builder
	for i, t := range tabs {
		if i > 0 {
			b.WriteString(" ")
		}
		if i == cur {
			b.WriteString("[" + t + "]")
		} else {
			b.WriteString(" " + t + " ")
		}
	}
	if uniseg.StringWidth(b.String()) <= width {
		return b.String()
	}
	return truncate(fmt.Sprintf("< [%s] >  tab %d of %d", tabs[cur], cur+1, len(tabs)), width)
}

// itemRows wraps an item for the list (whole=false) or for Enter.
func itemRows(it paneItem, width int, whole bool) []string {
	if whole {
		var rows []string
		for _, para := range strings.Split(it.whole, "\n") {
			w := wrap(para, width)
			if len(w) == 0 {
				w = []string{""}
			}
			rows = append(rows, w...)
		}
		return rows
	}
	rows := wrap(it.text, width)
	if len(rows) == 0 {
		rows = []string{""}
	}
	if len(rows) > listRows {
		rows = rows[:listRows]
		last := truncate(rows[listRows-1], width-1)
		rows[listRows-1] = last + "…"
	}
	return rows
}

// paneGeometry is the pane's box on a w×h screen: the inner width and the
// rows left for items between the tab line and the key hint.
func paneGeometry(w, h int) (inner, rows int) {
	return max(w-4, 1), max(h-3-2, 1)
}

// clampCursor puts the cursor on a selectable item (following the end
// when it is -1) and returns it, or -1 when there is none.
func clampCursor(items []paneItem, cursor int) int {
	if cursor < 0 || cursor >= len(items) {
		cursor = len(items) - 1
	}
	for i := cursor; i >= 0; i-- {
		if !items[i].heading {
			return i
		}
	}
	for i := cursor; i < len(items); i++ {
		if !items[i].heading {
			return i
		}
	}
	return -1
}

// paneLines draws the pane's content for the box: the tab line, the rows
// on view and the key hint. It moves p.top to keep the cursor in sight.
func paneLines(p *pane, f *frame, damage string, th theme, readable func(int) bool, w, h int) []line {
	inner, rows := paneGeometry(w, h)
	tabs := paneTabs(f.snap)
	p.tab = min(max(p.tab, 0), len(tabs)-1)
	items := paneItems(f, p.tab, damage, th, readable)
	cur := clampCursor(items, p.cursor)
	out := []line{{tabLine(tabs, p.tab, inner), th.accent()}}
	var body []line
	hints := []string{"Up/Down PgUp/PgDn Home/End  Enter open  Left/Right tab  Esc close", "arrows scroll  Enter open  Esc close"}
	if p.open && cur >= 0 {
		for _, r := range itemRows(items[cur], inner, true) {
			body = append(body, line{r, items[cur].style})
		}
		p.top = min(max(p.top, 0), max(len(body)-rows, 0))
		hints = []string{"Up/Down PgUp/PgDn scroll  Enter or Esc back to the list", "arrows scroll  Enter back"}
	} else {
		p.open = false
		start := 0 // the cursor item's first row
		for i, it := range items {
			if i == cur {
				start = len(body)
			}
			gutter := "  "
			if i == cur {
				gutter = "> "
			}
			for j, r := range itemRows(it, inner-2, false) {
				if j > 0 {
					gutter = "  "
				}
				body = append(body, line{gutter + r, it.style})
			}
			if i == cur {
				end := len(body)
				if end-p.top > rows {
					p.top = end - rows
				}
				if start < p.top {
					p.top = start
				}
			}
		}
		p.top = min(max(p.top, 0), max(len(body)-rows, 0))
	}
	for i := p.top; i < len(body) && i < p.top+rows; i++ {
		out = append(out, body[i])
	}
	for len(out) < rows+1 {
		out = append(out, line{})
	}
	where := ""
	if len(body) > rows {
		where = fmt.Sprintf("  %d%%", 100*min(p.top+rows, len(body))/len(body))
	}
	return append(out, line{fitting(inner, where, hints...), th.dim()})
}

// drawPane draws the pane over the battle screen, leaving the status bar.
func (a *App) drawPane(f *frame, w, h int) {
	lines := paneLines(&a.w.pane, f, a.damage(), a.th, a.readable(), w, h)
	inner, _ := paneGeometry(w, h)
	// the box is as wide as the screen allows, whatever the lines' widths
	lines[0].text += strings.Repeat(" ", max(inner-uniseg.StringWidth(lines[0].text), 0))
	drawBox(a.c, "Problems and logs", lines, w, h-1)
}

// paneKey handles a key while the pane is open: it moves through the pane
// or closes it, and never reaches the battle. quit reports q or Ctrl-C.
func (a *App) paneKey(ev *tcell.EventKey) (quit bool) {
	v := a.w
	p := &v.pane
	f := v.last
	if f == nil {
		f = v.d.latest()
	}
	w, h := a.s.Size()
	_, rows := paneGeometry(w, h)
	items := paneItems(f, p.tab, a.damage(), a.th, a.readable())
	cur := clampCursor(items, p.cursor)
	step := func(dir, n int) {
		if p.open {
			p.top += dir * n
			return
		}
		for ; n > 0; n-- {
			next := cur + dir
			for next >= 0 && next < len(items) && items[next].heading {
				next += dir
			}
			if next < 0 || next >= len(items) {
				break
			}
			cur = next
		}
		p.cursor = cur
		if cur == len(items)-1 && p.tab > 0 {
			p.cursor = -1 // at the end of a log: follow it
		}
	}
	switch ev.Key() {
	case tcell.KeyUp:
		step(-1, 1)
	case tcell.KeyDown:
		step(1, 1)
	case tcell.KeyPgUp:
		step(-1, max(rows/2, 1))
	case tcell.KeyPgDn:
		step(1, max(rows/2, 1))
	case tcell.KeyHome:
		p.top, p.cursor = 0, 0
		if !p.open {
			p.cursor = clampCursor(items, 0)
		}
	case tcell.KeyEnd:
		p.top, p.cursor = 1<<30, -1
		if p.open {
			p.cursor = cur
		}
	case tcell.KeyLeft, tcell.KeyBacktab:
		a.switchTab(f, -1)
	case tcell.KeyRight, tcell.KeyTab:
		a.switchTab(f, 1)
	case tcell.KeyEnter:
		p.open, p.top, p.cursor = !p.open && cur >= 0, 0, cur
	case tcell.KeyEscape:
		if p.open {
			p.open = false
		} else {
			v.over = noOverlay
		}
	case tcell.KeyCtrlC:
		return true
	case tcell.KeyRune:
		switch ev.Rune() {
		case 'k':
			step(-1, 1)
		case 'j':
			step(1, 1)
		case 'h':
			a.switchTab(f, -1)
		case 'l':
			a.switchTab(f, 1)
		case 'e':
			v.over = noOverlay
		case 'q':
			return true
		}
	}
	return false
}

// switchTab moves to the next (dir 1) or previous tab, wrapping around; a
// team's log opens at its newest line, the problems at the first.
func (a *App) switchTab(f *frame, dir int) {
	p := &a.w.pane
	n := len(paneTabs(f.snap))
	p.tab = ((p.tab+dir)%n + n) % n
	p.open, p.top, p.cursor = false, 0, 0
	if p.tab > 0 {
		p.cursor, p.top = -1, 1<<30
	}
}

// readable says which teams' problems and print logs the session may
// read (nil: all of them, as in the local program). In the SSH arena a
// viewer reads only those of players nobody owns (the shipped ones) and
// of its own uploads (SessionOptions.MayRead); of the others it sees how
// many there are.
func (a *App) readable() func(team int) bool {
	may := a.so.MayRead
	if may == nil || a.w == nil {
		return nil
	}
	v := a.w
	return func(t int) bool {
		class := ""
		switch {
		case v.rep != nil:
			h := v.rep.Header
			if t >= 0 && t < len(h.Players) && h.Players[t].Class >= 0 && h.Players[t].Class < len(h.Classes) {
				class = h.Classes[h.Players[t].Class].ID
			}
		case t >= 0 && t < len(v.setup.Players):
			class = v.setup.Players[t]
		}
		return may(class)
	}
}

// fitting is the first text (with tail) that fits width, else the last cut.
func fitting(width int, tail string, texts ...string) string {
	for _, t := range texts {
		if uniseg.StringWidth(t+tail) <= width {
			return t + tail
		}
	}
	return truncate(texts[len(texts)-1], width)
}
