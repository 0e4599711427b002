package tui

import (
	"fmt"
	"path/filepath"
	"slices"
	"strings"

	"github.com/gdamore/tcell/v2"
	"github.com/rivo/uniseg"
)

// The lobby: the original's start screen, improved. People pick teams from
// the players found, give them colours, set the battle up and start it.

// Lobby areas, in Tab order.
const (
	areaPlayers = iota
	areaTeams
	areaSettings
	areaStart
	areaCount
)

// lobbyTeam is one picked team.
type lobbyTeam struct {
	id     string // class id
	name   string
	colour int // palette index
}

// lobby is the lobby's state; it belongs to the UI goroutine.
type lobby struct {
	entries []Entry
	teams   []lobbyTeam
	set     Settings
	seed    uint64 // the seed the next battle uses
	random  bool   // seed was drawn at random (shown as such)
	games   []Game // the games offered (GameSource); none: SquareBattle only
	game    int    // index into games

	area    int
	cursor  [areaCount]int
	top     int    // first entry shown
	teamTop int    // first team shown
	editing string // digits typed into the current setting
	message string

	// Where the last draw put the player list, for mouse clicks.
	listW, listRows int

	// The size the game's rules chose for the seed and the teams last
	// asked (Game.SeedSize): the lobby draws often, the rules run once.
	sized     sizeAsk
	sizedSide int
	sizedErr  error
}

// keepTeams puts a battle's players (class ids) back as the lobby's
// teams, in their colours, when the lobby has none: a battle started from
// the command line comes back to a lobby ready to play it again.
func (l *lobby) keepTeams(ids []string, colours []int, entries []Entry) {
	names := map[string]string{}
	for _, e := range entries {
		if e.Starting() {
			names[e.ID] = e.Name
		}
	}
	for i, id := range ids {
		name, ok := names[id]
		if !ok {
			continue // gone or broken since
		}
		c := i % len(palette)
		if i < len(colours) {
			c = colours[i]
		}
		l.teams = append(l.teams, lobbyTeam{id: id, name: name, colour: c})
	}
}

// setEntries replaces the entry list (hot reload). Teams whose player went
// away or broke are dropped, with a message saying so. The cursors stay
// on what they were on: a player file added or removed above the one
// under the cursor does not move the cursor to another player, and the
// list keeps its first row where it was.
func (l *lobby) setEntries(es []Entry) {
	cur := l.follow(es, l.cursor[areaPlayers])
	l.top = l.follow(es, l.top)
	l.entries = es
	l.cursor[areaPlayers] = cur
	ok := map[string]string{}
	for _, e := range es {
		if e.Starting() {
			ok[e.ID] = e.Name
		}
	}
	kept := l.teams[:0]
	team := l.cursor[areaTeams]
	for i, t := range l.teams {
		if name, found := ok[t.id]; found {
			t.name = name
			kept = append(kept, t)
			continue
		}
		l.message = fmt.Sprintf("%s is gone or broken; its team was removed", t.name)
		if i < l.cursor[areaTeams] {
			team-- // a team above the cursor went: the cursor's moves up with it
		}
	}
	l.teams = kept
	l.cursor[areaTeams] = min(max(team, 0), max(len(l.teams)-1, 0))
}

// follow is where the entry at index i of the lobby's entries is in es,
// found by its id; an entry that is gone leaves i where it was, within es.
func (l *lobby) follow(es []Entry, i int) int {
	if i < len(l.entries) {
		id := l.entries[i].ID
		for j, e := range es {
			if e.ID == id {
				return j
			}
		}
	}
	return min(i, max(len(es)-1, 0))
}

// freeColour is the first palette entry no team uses, after from.
func (l *lobby) freeColour(from int) int {
	used := map[int]bool{}
	for _, t := range l.teams {
		used[t.colour] = true
	}
	for i := 1; i <= len(palette); i++ {
		c := (from + i) % len(palette)
		if !used[c] {
			return c
		}
	}
	return (from + 1) % len(palette)
}

func (l *lobby) addTeam(e Entry) {
	if !e.Starting() {
		if e.Problem != "" {
			l.message = e.Problem
		} else {
			l.message = e.File + " has no name: it can only be replicated into"
		}
		return
	}
	l.teams = append(l.teams, lobbyTeam{id: e.ID, name: e.Name, colour: l.freeColour(-1)})
	// The new team is the one acted on: the team list's cursor moves to
	// it, so the list scrolls to show it and Tab lands on it; the player
	// list's cursor stays on the player added, for Enter to add it again.
	l.cursor[areaTeams] = len(l.teams) - 1
	l.message = ""
}

func (l *lobby) removeTeam(i int) {
	if i < 0 || i >= len(l.teams) {
		return
	}
	l.teams = append(l.teams[:i], l.teams[i+1:]...)
	l.cursor[areaTeams] = min(l.cursor[areaTeams], max(len(l.teams)-1, 0))
}

// rows is how many rows the current area has.
func (l *lobby) rows() int {
	switch l.area {
	case areaPlayers:
		return len(l.entries)
	case areaTeams:
		return len(l.teams)
	case areaSettings:
		return len(l.settingRows())
	}
	return 1
}

// draw paints the lobby on a w×h screen.
func (l *lobby) draw(c canvas, th theme, dir string, w, h int) {
	plain := tcell.StyleDefault
	title := " SquareBattle " + c.g.dot + " pick your teams"
	if l.gameID() != "" {
		title = " SquareBattle " + c.g.dot + " " + l.games[l.game].Name + " " + c.g.dot + " pick your teams"
	}
	c.text(0, 0, w, title, th.accent())
	leftW := max(w/2, min(w, 36))
	if w-leftW < 30 {
		leftW = w // too narrow for two columns: settings go below
	}
	listH := h - 4
	rightX, rightY := leftW+1, 2
	if leftW == w {
		listH = max(3, (h-4)/3)
		rightX, rightY = 0, 3+listH
	}
	l.listW, l.listRows = leftW, listH-1
	// Players.
	c.text(0, 1, leftW, "", plain)
	c.text(0, 2, leftW, fitForm(folderForms(" Players (", dir, ")"), leftW, c.g.ellipsis), th.dim())
	cur := l.cursor[areaPlayers]
	if cur < l.top {
		l.top = cur
	}
	if cur >= l.top+listH-1 {
		l.top = cur - listH + 2
	}
	l.top = max(0, min(l.top, len(l.entries)-listH+1))
	for i := 0; i < listH-1; i++ {
		y := 3 + i
		n := l.top + i
		if n >= len(l.entries) {
			c.text(0, y, leftW, "", plain)
			continue
		}
		e := l.entries[n]
		st, label := plain, e.Name
		switch {
		case e.Problem != "":
			// The footer shows the whole message; the list keeps it short.
			base := filepath.Base(e.File)
			short := strings.ReplaceAll(e.Problem, e.File, base)
			st, label = th.warn(), base+"  ✗ "+short
		case e.Name == "":
			st, label = th.dim(), e.ID+" (replicated into only)"
		}
		mark := "  "
		if l.area == areaPlayers && n == cur {
			st = st.Reverse(true)
			mark = "> "
		}
		nameW := max(leftW-2-16, 10)
		if e.Problem != "" || e.Name == "" {
			c.text(0, y, 2, mark, st)
			c.text(2, y, leftW-2, label, st)
			continue
		}
		c.text(0, y, 2, mark, st)
		c.text(2, y, nameW, label, st)
		c.text(2+nameW, y, leftW-2-nameW, filepath.Base(e.File), th.dim().Reverse(st == plain.Reverse(true)))
	}
	if len(l.entries) == 0 {
		c.text(2, 3, leftW-2, "no players found: add a .lua file to the folder", th.warn())
	}
	if leftW < w {
		for y := 1; y < h-1; y++ {
			c.s.Put(leftW, y, c.g.bar, th.dim())
		}
	}
	// Teams.
	rw := w - rightX
	y := rightY
	c.text(rightX, y-1, rw, "", plain)
	c.text(rightX, y, rw, " Teams", th.dim())
	y++
	settings := l.settingRows()
	teamRows := max(1, min(len(l.teams), (h-rightY)-len(settings)-7))
	// the list scrolls as little as shows the team under the cursor
	tc := l.cursor[areaTeams]
	if tc < l.teamTop {
		l.teamTop = tc
	}
	if tc >= l.teamTop+teamRows {
		l.teamTop = tc - teamRows + 1
	}
	l.teamTop = max(0, min(l.teamTop, len(l.teams)-teamRows))
	for i := 0; i < teamRows; i++ {
		n := l.teamTop + i
		if n >= len(l.teams) {
			msg := ""
			if len(l.teams) == 0 {
				msg = "  none yet: Enter on a player adds a team"
			}
			c.text(rightX, y, rw, msg, th.dim())
			y++
			continue
		}
		t := l.teams[n]
		st := plain
		mark := "  "
		if l.area == areaTeams && n == l.cursor[areaTeams] {
			st, mark = st.Reverse(true), "> "
		}
		c.text(rightX, y, 2, mark, st)
		c.text(rightX+2, y, 4, fmt.Sprintf("%2d ", n+1), st)
		sw := c.g.swatch
		if c.g.ascii || th.mono {
			sw = glyphOf(n) + glyphOf(n)
		}
		c.text(rightX+6, y, 3, sw+" ", plain.Foreground(th.team(t.colour)))
		c.text(rightX+9, y, rw-9, fitForm([]string{t.name + "  (" + palette[t.colour].name + ")", t.name}, rw-9, c.g.ellipsis), st)
		y++
	}
	if len(l.teams) > teamRows {
		c.text(rightX, y, rw, fmt.Sprintf("  … %d teams in all", len(l.teams)), th.dim())
		y++
	}
	c.text(rightX, y, rw, "", plain)
	y++
	c.text(rightX, y, rw, " Settings", th.dim())
	y++
	for i, row := range settings {
		name, forms := l.settingText(row)
		st := plain
		mark := "  "
		if l.area == areaSettings && i == l.cursor[areaSettings] {
			st, mark = st.Reverse(true), "> "
		}
		head := fmt.Sprintf("%s%-12s ", mark, name)
		val := fitForm(forms, rw-uniseg.StringWidth(head), c.g.ellipsis)
		c.text(rightX, y, rw, head+val, st)
		y++
	}
	c.text(rightX, y, rw, "", plain)
	y++
	st := th.accent()
	if l.area == areaStart {
		st = st.Reverse(true)
	}
	c.text(rightX, y, rw, "  [ Start Battle ]", st)
	y++
	for ; y < h-1; y++ {
		c.text(rightX, y, rw, "", plain)
	}
	// Footer: the message, or the keys.
	msg := l.message
	st = th.warn()
	if msg == "" && l.area == areaPlayers && cur < len(l.entries) && l.entries[cur].Problem != "" {
		msg = l.entries[cur].Problem
	}
	if msg == "" {
		msg, st = cueLine(fitCues(keyCues(lobbyKeys, c.g, lobbyShort, lobbyOrder), "", w-1), ""), th.dim()
	}
	c.text(0, h-1, w, " "+cutWords(msg, w-1, c.g.ellipsis), st)
}

// keyCues are a key table's rows as cues of a footer: each says its keys
// and what they do, or, when the line is too wide, its short words (short,
// by action); then the rows leave, those last in order first; help and
// quit stay.
func keyCues(table []binding, g glyphs, short map[action]string, order []action) []cue {
	var out []cue
	for _, b := range table {
		if b.label == "" {
			continue
		}
		forms := []string{b.label + " " + b.what}
		if sh, ok := short[b.act]; ok {
			forms = append(forms, b.label+" "+sh)
		}
		rank := len(order) + 1
		if b.act != actHelp && b.act != actQuit {
			rank = len(order) - slices.Index(order, b.act)
			forms = append(forms, "")
		}
		out = append(out, cue{forms: forms, rank: rank, sep: " " + g.dot + " "})
	}
	return out
}

// lobbyShort are the lobby's key hints in a word or two, for the footer;
// lobbyOrder ranks them, the most useful first.
var (
	lobbyShort = map[action]string{
		actNext: "area", actPick: "add/remove/start", actRemove: "remove", actColour: "colour",
		actMore: "change", actSeed: "seed", actStart: "start", actQuit: "quit",
	}
	lobbyOrder = []action{actPick, actStart, actMore, actNext, actUp, actSeed, actRemove, actColour}
)

// folderForms are head+dir+tail, then with dir's folders left out but its
// last, then head alone (trimmed): a narrow column shows what fits.
func folderForms(head, dir, tail string) []string {
	forms := []string{head + dir + tail}
	if base := filepath.Base(dir); base != dir && base != "." && base != string(filepath.Separator) {
		forms = append(forms, head+"…"+string(filepath.Separator)+base+tail)
	}
	return append(forms, strings.TrimRight(strings.TrimSuffix(head, "("), " "))
}

// fitForm is the longest of forms that fits width columns, or the
// shortest cut between words.
func fitForm(forms []string, width int, ellipsis string) string {
	for _, f := range forms {
		if uniseg.StringWidth(f) <= width {
			return f
		}
	}
	return cutWords(forms[len(forms)-1], width, ellipsis)
}
