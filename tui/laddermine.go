package tui

import (
	"strconv"
	"time"

	"github.com/gdamore/tcell/v2"
	"github.com/rivo/uniseg"

	"github.com/squarebattle/squarebattle/engine/ladder"
)

// My players: the viewer's own players on the ladder of every game, with
// their rank there, rating, trend and change since the last visit; Enter
// opens a player's page. A user has a few players (serve.players_per_user
// in each game), so the list is read whole.

// mineUI is My players' state.
type mineUI struct {
	rows   []ladder.Standing
	trends map[ladder.PlayerID][]float64
	then   map[ladder.PlayerID]float64
	readAt time.Time
	row    int
	top    int
}

// openMine opens My players (the menu's item).
func (a *App) openMine() {
	lu := &a.lad
	lu.games = a.ladder().Games()
	lu.mine.readAt = time.Time{}
	a.askVisit()
	a.screen = mineScreen
}

// readMine reads the viewer's players unless it did lately.
func (a *App) readMine() {
	m := &a.lad.mine
	if time.Since(m.readAt) < ladderRefresh {
		return
	}
	m.readAt = time.Now()
	if a.so.User == "" {
		m.rows = nil
		return
	}
	ctx, cancel := a.ladderCtx()
	defer cancel()
	rows, err := a.ladder().Mine(ctx, a.so.User)
	if err != nil {
		a.ladderFailed(err)
		return
	}
	m.rows = rows
	m.trends, m.then = a.readMarks(ctx, rows)
}

// mineCols are My players' columns: the board's, with the game first
// (games as wide as gameW) and without the owner (the viewer).
func mineCols(g glyphs, gameW int) []lcol {
	board := boardCols(g, 9999)
	cols := []lcol{{head: "game", width: min(gameW, 16), keep: 90}}
	for i, c := range board {
		if i != 2 {
			cols = append(cols, c)
		}
	}
	return cols
}

// drawMine paints My players and returns the status line's hint.
func (a *App) drawMine(w, h int) string {
	m := &a.lad.mine
	a.readMine()
	d := " " + a.c.g.dot + " "
	hint := "Up/Down move" + d + "Enter player" + d + "Esc back" + d + "q quit"
	if len(m.rows) == 0 {
		msg := "None of your players is on the ladder yet: hand one in with " + a.reach() + " submit NAME < player.lua; " +
			"the ladder rates it in its first battles."
		if a.so.Key == "" {
			msg = "Connect with an SSH key and hand in a player to see yours here: " + a.reach() + " help says how."
		}
		for i, l := range wrap(msg, max(w-4, 10)) {
			if 2+i < h-1 {
				a.c.text(2, 2+i, w-4, l, tcell.StyleDefault)
			}
		}
		return hint
	}
	a.c.text(0, 1, w, " "+a.boardSummaryMine(), a.th.dim())
	gameW := 0
	for _, s := range m.rows {
		gameW = max(gameW, uniseg.StringWidth(a.gameTitle(LadderGame{Name: s.Game, Title: a.titleOf(s.Game)})))
	}
	cols := mineCols(a.c.g, gameW)
	xs, widths := layoutLadder(cols, w)
	a.drawLadderHead(cols, xs, widths, 2, w)
	room := max(1, h-1-3)
	m.row = max(0, min(m.row, len(m.rows)-1))
	if m.row < m.top {
		m.top = m.row
	}
	if m.row >= m.top+room {
		m.top = m.row - room + 1
	}
	for i := m.top; i < len(m.rows) && i < m.top+room; i++ {
		s := m.rows[i]
		cells := a.standingCells(s, m.trends[s.ID], m.then)
		cells = append([]lcell{{text: a.gameTitle(LadderGame{Name: s.Game, Title: a.titleOf(s.Game)})}}, append(cells[:2:2], cells[3:]...)...)
		st := tcell.StyleDefault
		if s.Probation {
			st = a.th.dim()
		}
		a.drawLadderRow(cols, xs, widths, cells, 3+i-m.top, w, st, i == m.row)
	}
	return hint
}

// titleOf is the ladder's own title of a game ("" none).
func (a *App) titleOf(game string) string {
	for _, g := range a.lad.games {
		if g.Name == game {
			return g.Title
		}
	}
	return ""
}

func (a *App) boardSummaryMine() string {
	n := len(a.lad.mine.rows)
	s := strconv.Itoa(n) + " players of yours"
	if n == 1 {
		s = "1 player of yours"
	}
	return s + " " + a.c.g.dot + " " + a.boardSummaryTail()
}

// mineKey handles a key on My players.
func (a *App) mineKey(act action) error {
	m := &a.lad.mine
	switch act {
	case actUp:
		m.row--
	case actDown:
		m.row++
	case actPgUp, actHome:
		m.row = 0
	case actPgDn, actEnd:
		m.row = len(m.rows) - 1
	case actPick:
		if m.row >= 0 && m.row < len(m.rows) {
			a.openPage(m.rows[m.row].ID, mineScreen)
		}
	case actBack2Lobby:
		a.toMenu()
	case actQuit:
		return errQuit
	}
	m.row = max(0, min(m.row, len(m.rows)-1))
	return nil
}

// reach is the command that reaches the server, for messages.
func (a *App) reach() string {
	if a.so.Reach != "" {
		return a.so.Reach
	}
	return "ssh HOST"
}
