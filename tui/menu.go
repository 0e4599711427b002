package tui

import (
	"fmt"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/gdamore/tcell/v2"
	"github.com/rivo/uniseg"
)

// The SSH session's menu and the screens it opens: the live battles, the
// players, the recent replays, help, and the queue a private battle waits
// in. Keys are the same on all of them: Up/Down (k/j) move, Enter picks,
// Esc goes back to the menu (quits from the menu), q quits, Ctrl-C quits
// from any screen.

// menu is the menu screens' state; it belongs to the session goroutine.
type menu struct {
	cursor  int // on the menu
	row     int // on a list
	top     int // first list row shown
	message string

	battles []BattleInfo // the list as last drawn
	replays []ReplayInfo
}

// Menu items, in order; Ladder and My players only with a ladder.
const (
	itemFeatured = iota
	itemBattles
	itemStart
	itemPlayers
	itemReplays
	itemLadder
	itemMine
	itemHelp
	itemQuit
)

// menuItem is one line of the menu.
type menuItem struct {
	id    int
	label string
}

func (a *App) menuItems() []menuItem {
	start := "Start a private battle (the lobby)"
	if !a.so.CanStart {
		start = "Start a private battle: needs an SSH key"
	}
	items := []menuItem{
		{itemFeatured, "Watch the featured battle"},
		{itemBattles, fmt.Sprintf("Live battles (%d)", len(a.hall.Battles(a.so.User)))},
		{itemStart, start},
		{itemPlayers, "Players"},
		{itemReplays, "Recent replays"},
	}
	if a.ladder() != nil {
		items = append(items, menuItem{itemLadder, "Ladder"}, menuItem{itemMine, "My players on the ladder"})
	}
	return append(items, menuItem{itemHelp, "Help"}, menuItem{itemQuit, "Quit"})
}

// menuKeys are the menu screens' keys.
var menuKeys = []binding{
	{[]key{k(tcell.KeyUp), r('k')}, "Up Down", "move", actUp},
	{[]key{k(tcell.KeyDown), r('j')}, "", "", actDown},
	{[]key{k(tcell.KeyEnter)}, "Enter", "open", actPick},
	{[]key{r('x'), k(tcell.KeyDelete)}, "", "", actRemove},
	{[]key{k(tcell.KeyEscape)}, "Esc", "back", actBack2Lobby},
	{[]key{r('q'), k(tcell.KeyCtrlC)}, "q", "quit", actQuit},
}

// menuKey handles a key on the menu screens.
func (a *App) menuKey(ev *tcell.EventKey) error {
	if isLadderScreen(a.screen) {
		return a.ladderKey(ev)
	}
	m := &a.menu
	act := lookup(menuKeys, ev)
	m.message = ""
	switch act {
	case actQuit:
		return errQuit
	case actBack2Lobby:
		if a.screen == menuScreen {
			return errQuit
		}
		a.toMenu()
		return nil
	}
	switch a.screen {
	case menuScreen:
		return a.menuPick(act)
	case listScreen:
		a.listKey(act, len(m.battles), func(i int) {
			if err := a.watch(m.battles[i].ID); err != nil {
				m.message = err.Error()
			}
		})
		if act == actRemove && a.so.Admin && m.row < len(m.battles) {
			if err := a.hall.Stop(m.battles[m.row].ID); err != nil {
				m.message = err.Error()
			} else {
				m.message = "stopped battle " + m.battles[m.row].ID
			}
		}
	case replaysScreen:
		a.listKey(act, len(m.replays), func(i int) {
			rep, err := m.replays[i].Open()
			if err != nil {
				m.message = oneLine(err.Error())
				return
			}
			a.watchReplay(rep)
		})
	case playersScreen:
		a.listKey(act, len(a.source().Entries()), nil)
	}
	return nil
}

// listKey moves on a list of n rows and opens a row with Enter.
func (a *App) listKey(act action, n int, open func(int)) {
	m := &a.menu
	switch act {
	case actUp:
		m.row = max(m.row-1, 0)
	case actDown:
		m.row = min(m.row+1, max(n-1, 0))
	case actPick:
		if open != nil && m.row < n {
			open(m.row)
		}
	}
}

// menuPick moves on the menu or opens an item.
func (a *App) menuPick(act action) error {
	m := &a.menu
	items := a.menuItems()
	n := len(items)
	m.cursor = min(m.cursor, n-1)
	switch act {
	case actUp:
		m.cursor = (m.cursor + n - 1) % n
	case actDown:
		m.cursor = (m.cursor + 1) % n
	case actPick:
		return a.openItem(items[m.cursor].id)
	}
	return nil
}

// openItem opens a menu item.
func (a *App) openItem(item int) error {
	m := &a.menu
	m.row, m.top = 0, 0
	switch item {
	case itemFeatured:
		if err := a.watch(""); err != nil {
			m.message = err.Error()
		}
	case itemBattles:
		a.screen = listScreen
	case itemStart:
		if !a.so.CanStart {
			m.message = "starting battles needs an identity: connect with an SSH key"
			return nil
		}
		a.leave()
		a.lobby.setEntries(a.entries()) // uploads since it was last open
		a.screen = lobbyScreen
	case itemPlayers:
		a.screen = playersScreen
	case itemReplays:
		m.replays = nil
		if a.so.Replays != nil {
			m.replays = a.so.Replays()
		}
		a.screen = replaysScreen
	case itemLadder:
		a.openLadder()
	case itemMine:
		a.openMine()
	case itemHelp:
		a.screen = helpScreen
	case itemQuit:
		return errQuit
	}
	return nil
}

// oneLine keeps the first line of a message.
func oneLine(s string) string {
	s, _, _ = strings.Cut(s, "\n")
	return s
}

// drawMenu paints the menu screens.
func (a *App) drawMenu(w, h int) {
	c, th, m := a.c, a.th, &a.menu
	c.fill(rect{0, 0, w, h}, tcell.StyleDefault)
	who := "spectator"
	if a.so.User != "" {
		who = a.so.User
	}
	titles := map[screenKind]string{menuScreen: "the arena", listScreen: "live battles", playersScreen: "players",
		replaysScreen: "recent replays", helpScreen: "help", queueScreen: "waiting for a free slot"}
	title := titles[a.screen]
	if isLadderScreen(a.screen) {
		title = a.ladderTitle()
	}
	whoW := min(uniseg.StringWidth(who)+1, w/2)
	c.text(0, 0, w-whoW, " SquareBattle "+c.g.dot+" "+title, th.accent())
	c.right(w-whoW, 0, whoW, who+" ", th.accent())
	hint := "Up/Down move " + c.g.dot + " Enter open " + c.g.dot + " Esc back " + c.g.dot + " q quit"
	switch a.screen {
	case menuScreen:
		items := a.menuItems()
		m.cursor = min(m.cursor, len(items)-1)
		for i, it := range items {
			st, mark := tcell.StyleDefault, "  "
			if it.id == itemStart && !a.so.CanStart {
				st = th.dim()
			}
			if i == m.cursor {
				st, mark = st.Reverse(true), "> "
			}
			c.text(2, 2+i, min(w-4, 48), mark+it.label, st)
		}
		hint = "Up/Down move " + c.g.dot + " Enter open " + c.g.dot + " q Esc quit"
	case listScreen:
		m.battles = a.hall.Battles(a.so.User)
		a.drawBattleList(w, h)
		if a.so.Admin {
			hint += " " + c.g.dot + " x stop"
		}
	case playersScreen:
		a.drawPlayers(w, h)
		hint = "Up/Down move " + c.g.dot + " Esc back " + c.g.dot + " q quit"
	case replaysScreen:
		a.drawReplays(w, h)
	case helpScreen:
		for i, l := range wrap(a.hallHelp(), max(w-4, 10)) {
			if 2+i < h-1 {
				c.text(2, 2+i, w-4, l, tcell.StyleDefault)
			}
		}
		hint = "Esc back " + c.g.dot + " q quit"
	case queueScreen:
		a.drawQueue(w, h)
		hint = "Esc leave the queue " + c.g.dot + " q quit"
	case ladderScreen, mineScreen, ladderPageScreen:
		hint = a.drawLadder(w, h)
	}
	msg, st := m.message, th.warn()
	if msg == "" {
		msg = a.note
	}
	if msg == "" {
		msg, st = hint, th.dim()
	}
	c.text(0, h-1, w, " "+msg, st)
}

// listWindow keeps the cursor (menu.row) on a list of n rows shown from
// screen row y of h: it returns the first row shown and how many are.
func (a *App) listWindow(n, y, h int) (first, shown int) {
	m := &a.menu
	room := h - 1 - y
	m.row = min(m.row, max(n-1, 0))
	if m.row < m.top {
		m.top = m.row
	}
	if m.row >= m.top+room {
		m.top = m.row - room + 1
	}
	return m.top, max(0, min(room, n-m.top))
}

func (a *App) drawBattleList(w, h int) {
	m := &a.menu
	cols := []column{{head: "ID", min: 2}, {head: "state", min: 6}, {head: "owner", min: 8}, {head: "round", right: true, min: 5},
		{head: "viewers", right: true, min: 3}, {head: "players", min: 24}}
	if len(m.battles) == 0 {
		a.drawTable(cols, nil, 2, w, h)
		a.c.text(2, 3, w-2, "no battles yet", a.th.dim())
		return
	}
	var rows [][]string
	for _, b := range m.battles {
		state := "private"
		switch {
		case b.Queued:
			state = "queued"
		case b.Over:
			state = "over"
		case b.Featured:
			state = "featured"
		case b.Shared:
			state = "shared"
		}
		owner := b.Owner
		if owner == "" {
			owner = "-"
		}
		id := b.ID
		if id == "" {
			id = "-"
		}
		rows = append(rows, []string{id, state, owner, fmt.Sprintf("%d/%d", b.Round, b.Rounds), strconv.Itoa(b.Viewers), b.Title})
	}
	a.drawTable(cols, rows, 2, w, h)
}

func (a *App) drawPlayers(w, h int) {
	var rows [][]string
	for _, e := range a.source().Entries() {
		switch {
		case e.Problem != "":
			rows = append(rows, []string{e.ID, filepath.Base(e.File), "broken: " + oneLine(e.Problem)})
		case e.Name == "":
			rows = append(rows, []string{e.ID, filepath.Base(e.File), "(replicated into only)"})
		default:
			rows = append(rows, []string{e.Name, filepath.Base(e.File), ""})
		}
	}
	if len(rows) == 0 {
		a.c.text(2, 2, w-2, "no players", a.th.dim())
		return
	}
	a.drawTable([]column{{head: "player", min: 12}, {head: "file", min: 12}, {head: "", min: 24}}, rows, 2, w, h)
}

func (a *App) drawReplays(w, h int) {
	m := &a.menu
	if len(m.replays) == 0 {
		a.c.text(2, 2, w-2, "no replays yet: battles are saved here when they end", a.th.dim())
		return
	}
	var rows [][]string
	for _, r := range m.replays {
		sum := r.Summary
		game := sum.Game
		if game == "" {
			game = "SquareBattle"
		}
		rounds := "?"
		if sum.Rounds > 0 {
			rounds = fmt.Sprintf("?/%d", sum.Rounds)
			if sum.Known {
				rounds = fmt.Sprintf("%d/%d", sum.Round, sum.Rounds)
			}
		}
		players := r.Title
		if len(sum.Players) > 0 {
			players = strings.Join(sum.Players, " vs ")
		}
		rows = append(rows, []string{r.ID, game, rounds, sum.Result(), players})
	}
	// The ID is the date and time it was saved (UTC) and a number.
	a.drawTable([]column{{head: "ID (saved, UTC)", min: 8}, {head: "game", min: 5}, {head: "rounds", right: true, min: 5},
		{head: "result", min: 6}, {head: "players", min: 20}}, rows, 2, w, h)
}

func (a *App) drawQueue(w, h int) {
	msg := "starting…"
	if a.ticket != nil {
		if n := a.hall.position(a.ticket); n > 0 {
			msg = fmt.Sprintf("All %d battle slots are busy: you are number %d in the queue.", a.hall.o.MaxPrivate, n)
		}
	}
	for i, l := range wrap(msg+" Your battle starts by itself when a slot frees up.", max(w-4, 10)) {
		a.c.text(2, 2+i, w-4, l, tcell.StyleDefault)
	}
}

// hallHelp is the help screen's text, with the command that reaches this
// server (SessionOptions.Reach).
func (a *App) hallHelp() string {
	reach := a.so.Reach
	if reach == "" {
		reach = "ssh HOST"
	}
	return "This is a SquareBattle arena: teams of squares, each programmed in Lua, fight on a grid. " +
		"Watch the featured battle (a new one starts when it ends), pick a live battle from the list, " +
		"or start a private battle from the lobby: it is yours alone until you press s to share it, " +
		"then others find it in the live battles. Its owner may pause (Space), step (. and Left), rewind and " +
		"change the speed (+ -); viewers of a shared battle see the same round and may pan (hjkl), fit (f), " +
		"change the colours (c) and read the script problems (e). ? shows the keys on any battle. " +
		"Leaving a shared battle (Esc) leaves it playing for those who watch it; its owner's x stops it for everyone. " +
		"Hand in a player with: " + reach + " submit NAME < player.lua; " + reach + " help lists every command. " +
		"Esc goes back, q quits, Ctrl-C quits from anywhere." + a.ladderSessionHelp()
}
