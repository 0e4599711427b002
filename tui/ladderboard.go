package tui

import (
	"context"
	"fmt"
	"strconv"
	"time"

	"github.com/gdamore/tcell/v2"
	"github.com/rivo/uniseg"

	"github.com/squarebattle/squarebattle/engine/ladder"
)

// The ladder's leaderboard: one game's table at a time (Tab and Left/Right
// switch games), paged by the screen's height. Only the lines on screen
// are read from the ladder, with their trends and their ratings at the
// viewer's last visit, so a table of thousands pages as fast as one of
// ten. Enter opens a player's page (ladderpage.go); My players is
// laddermine.go.

// ladderUI is the ladder screens' state; it belongs to the session
// goroutine.
type ladderUI struct {
	games []LadderGame
	game  int

	// The table: the cursor's line and the first line shown (rank − 1),
	// the lines on screen as last read, and the table's length.
	row, top int
	rows     []ladder.Standing
	total    int
	trends   map[ladder.PlayerID][]float64
	then     map[ladder.PlayerID]float64 // ordinals at the last visit
	read     boardKey                    // what rows holds
	readAt   time.Time                   // when it was read; zero: read again

	// The viewer's previous visit, asked once a session.
	visit   ladder.Visit
	visited bool // visit holds one to compare with
	asked   bool

	mine mineUI
	page pageUI
	// resume: the replay on view was opened from a player's page, which
	// Esc goes back to.
	resume bool
}

// boardKey is which lines of which table were read.
type boardKey struct {
	game      string
	top, room int
}

// Ladder screens' constants.
const (
	trendLen      = 8               // a sparkline's cells
	ladderRefresh = 5 * time.Second // how often a screen on view is read again
	ladderTimeout = 3 * time.Second // how long one read may take
)

// Ladder screens' actions, beyond the common ones.
const (
	actPgUp = actStart + 10 + iota
	actPgDn
	actHome
	actEnd
	actWatch
)

// boardKeys are the leaderboard's keys.
var boardKeys = []binding{
	{[]key{k(tcell.KeyUp), r('k')}, "Up Down", "move", actUp},
	{[]key{k(tcell.KeyDown), r('j')}, "", "", actDown},
	{[]key{k(tcell.KeyPgUp)}, "PgUp PgDn", "a page up / down", actPgUp},
	{[]key{k(tcell.KeyPgDn), r(' ')}, "", "", actPgDn},
	{[]key{k(tcell.KeyHome), r('g')}, "Home End", "top / bottom", actHome},
	{[]key{k(tcell.KeyEnd), r('G')}, "", "", actEnd},
	{[]key{k(tcell.KeyTab), k(tcell.KeyRight), r('l')}, "Tab", "next game", actNext},
	{[]key{k(tcell.KeyBacktab), k(tcell.KeyLeft), r('h')}, "", "", actPrev},
	{[]key{k(tcell.KeyEnter)}, "Enter", "the player's page", actPick},
	{[]key{k(tcell.KeyEscape)}, "Esc", "back", actBack2Lobby},
	{[]key{r('q'), k(tcell.KeyCtrlC)}, "q", "quit", actQuit},
}

// isLadderScreen reports whether s is one of the ladder's screens.
func isLadderScreen(s screenKind) bool {
	return s == ladderScreen || s == mineScreen || s == ladderPageScreen
}

// ladderCtx is the context of one read of the ladder.
func (a *App) ladderCtx() (context.Context, context.CancelFunc) {
	return context.WithTimeout(a.ctx, ladderTimeout)
}

// ladderFailed shows a read that failed, in one line.
func (a *App) ladderFailed(err error) {
	a.menu.message = "the ladder cannot be read now: " + oneLine(err.Error())
}

// openLadder opens the leaderboard (the menu's Ladder).
func (a *App) openLadder() {
	lu := &a.lad
	lu.games = a.ladder().Games()
	lu.game = min(lu.game, max(len(lu.games)-1, 0))
	lu.readAt = time.Time{}
	a.askVisit()
	a.screen = ladderScreen
}

// askVisit asks, once a session, when the viewer last looked at the
// ladder (and records this look): the changes shown are since then. A
// viewer without a key has no visits.
func (a *App) askVisit() {
	lu := &a.lad
	if lu.asked || !a.remembered() {
		return
	}
	lu.asked = true
	ctx, cancel := a.ladderCtx()
	defer cancel()
	v, err := a.ladder().Visit(ctx, a.so.Key)
	if err != nil {
		a.ladderFailed(err)
		return
	}
	lu.visit, lu.visited = v, !v.At.IsZero()
}

// remembered says whether the ladder keeps this viewer's visits.
func (a *App) remembered() bool {
	return a.so.Key != "" && (a.so.Remembered == nil || a.so.Remembered())
}

// gameTitle is how the ladder's screens name game i.
func (a *App) gameTitle(g LadderGame) string {
	if g.Title != "" {
		return shown(g.Title)
	}
	if g.Name == "" {
		return "SquareBattle"
	}
	if gs, ok := a.source().(GameSource); ok {
		for _, sg := range gs.Games() {
			if sg.ID == g.Name && sg.Name != "" {
				return shown(sg.Name)
			}
		}
	}
	return shown(g.Name)
}

func (lu *ladderUI) gameName() string {
	if lu.game < len(lu.games) {
		return lu.games[lu.game].Name
	}
	return ""
}

// readBoard reads the lines of the table that room lines show, unless
// they were read lately; it keeps the cursor on the table and in view.
func (a *App) readBoard(room int) {
	lu := &a.lad
	lu.row = min(lu.row, max(lu.total-1, 0))
	lu.row = max(lu.row, 0)
	if lu.row < lu.top {
		lu.top = lu.row
	}
	if lu.row >= lu.top+room {
		lu.top = lu.row - room + 1
	}
	lu.top = max(0, min(lu.top, lu.total-room))
	key := boardKey{game: lu.gameName(), top: lu.top, room: room}
	if key == lu.read && time.Since(lu.readAt) < ladderRefresh {
		return
	}
	L := a.ladder()
	ctx, cancel := a.ladderCtx()
	defer cancel()
	rows, total, err := L.Leaderboard(ctx, key.game, key.top, room)
	if err != nil {
		a.ladderFailed(err)
		lu.rows, lu.read, lu.readAt = nil, key, time.Now() // again after ladderRefresh
		return
	}
	if key.top > 0 && key.top >= total { // the table shrank under the cursor
		lu.total, lu.readAt = total, time.Time{}
		lu.top, lu.row = max(0, total-room), min(lu.row, max(total-1, 0))
		a.dirty = true
		return
	}
	lu.rows, lu.total, lu.read, lu.readAt = rows, total, key, time.Now()
	lu.trends, lu.then = a.readMarks(ctx, rows)
}

// readMarks reads what the table shows beside each line: its trend and,
// when the viewer has a last visit, its rating then.
func (a *App) readMarks(ctx context.Context, rows []ladder.Standing) (trends map[ladder.PlayerID][]float64, then map[ladder.PlayerID]float64) {
	L, lu := a.ladder(), &a.lad
	ids := make([]ladder.PlayerID, len(rows))
	for i, s := range rows {
		ids[i] = s.ID
	}
	trends, err := L.Trends(ctx, ids, trendLen)
	if err != nil {
		a.ladderFailed(err)
	}
	if lu.visited {
		if then, err = L.RatingsAt(ctx, ids, lu.visit.Seq); err != nil {
			a.ladderFailed(err)
		}
	}
	return trends, then
}

// boardCols are the leaderboard's columns; rank is as wide as the
// table's last rank.
func boardCols(g glyphs, total int) []lcol {
	pm := "±3σ"
	if g.ascii {
		pm = "+-3s"
	}
	return []lcol{
		{head: "# ", right: true, width: len(strconv.Itoa(max(total, 1))) + 1, keep: 100},
		{head: "player", flex: 3, min: 8, keep: 100},
		{head: "owner", flex: 2, min: 5, keep: 50},
		{head: "rating", right: true, width: 6, keep: 100},
		{head: pm, right: true, width: 5, keep: 40},
		{head: "played", right: true, width: 6, keep: 60},
		{head: "win%", right: true, width: 4, keep: 70},
		{head: "trend", width: trendLen, keep: 30},
		{head: "since", right: true, width: 5, keep: 20},
	}
}

// standingCells are a line's cells, from its rank to its change since
// the last visit.
func (a *App) standingCells(s ladder.Standing, trend []float64, then map[ladder.PlayerID]float64) []lcell {
	rank := strconv.Itoa(s.Rank) + " "
	if s.Probation {
		rank = strconv.Itoa(s.Rank) + "!"
	}
	cells := plain(rank, playerName(s.Player), ownerName(s.Player), rating(s.Player), spread(s.Player),
		strconv.Itoa(s.Battles), winShare(s.Player), ratingSpark(a.c.g, trend, trendLen))
	text, up := since(s.Player, then, a.lad.visited)
	switch up {
	case 1:
		cells = append(cells, styled(text, a.th.up()))
	case -1:
		cells = append(cells, styled(text, a.th.down()))
	default:
		cells = append(cells, lcell{text: text})
	}
	return cells
}

// drawBoard paints the leaderboard below the title bar and returns the
// status line's hint.
func (a *App) drawBoard(w, h int) string {
	lu := &a.lad
	const head = 3 // the games line, the summary, then the headings
	room := max(1, h-1-(head+1))
	a.readBoard(room)
	a.drawGames(1, w)
	a.c.text(0, 2, w, " "+a.boardSummary(), a.th.dim())
	cols := boardCols(a.c.g, lu.total)
	xs, widths := layoutLadder(cols, w)
	a.drawLadderHead(cols, xs, widths, head, w)
	if lu.total == 0 {
		a.c.text(2, head+1, w-2, "nobody is on the ladder of "+a.gameTitle(a.currentGame())+" yet", a.th.dim())
		return a.boardHint()
	}
	for i, s := range lu.rows {
		if i >= room {
			break
		}
		st := tcell.StyleDefault
		if s.Probation {
			st = a.th.dim()
		}
		a.drawLadderRow(cols, xs, widths, a.standingCells(s, lu.trends[s.ID], lu.then), head+1+i, w, st, lu.top+i == lu.row)
	}
	return a.boardHint()
}

func (a *App) currentGame() LadderGame {
	lu := &a.lad
	if lu.game < len(lu.games) {
		return lu.games[lu.game]
	}
	return LadderGame{}
}

func (a *App) boardHint() string {
	d := " " + a.c.g.dot + " "
	hint := "Up/Down PgUp/PgDn move" + d + "Enter player" + d + "Esc back" + d + "q quit"
	if len(a.lad.games) > 1 {
		hint = "Up/Down PgUp/PgDn move" + d + "Tab game" + d + "Enter player" + d + "Esc back" + d + "q quit"
	}
	return hint
}

// drawGames draws the games line: every game's title, the one shown
// reversed.
func (a *App) drawGames(y, w int) {
	lu := &a.lad
	a.c.blank(0, y, w, tcell.StyleDefault)
	x := 1
	if len(lu.games) > 1 {
		x += a.c.text(x, y, w-x, "game: ", a.th.dim())
	}
	for i, g := range lu.games {
		if x >= w {
			break
		}
		st := tcell.StyleDefault
		if i == lu.game {
			st = st.Reverse(true)
		}
		title := a.gameTitle(g)
		x += a.c.text(x, y, min(w-x, uniseg.StringWidth(title)+2), " "+title+" ", st) + 1
	}
	if probation := "! on probation"; x+len(probation)+1 < w {
		a.c.right(w-len(probation)-1, y, len(probation), probation, a.th.dim())
	}
}

// boardSummary says how big the table is, what the rating is, and since
// when the changes are.
func (a *App) boardSummary() string {
	n := fmt.Sprintf("%d players", a.lad.total)
	if a.lad.total == 1 {
		n = "1 player"
	}
	return n + " " + a.c.g.dot + " " + a.boardSummaryTail()
}

// boardSummaryTail says what the rating is and since when the changes
// are.
func (a *App) boardSummaryTail() string {
	lu := &a.lad
	rating := "rating μ−3σ, ± 3σ"
	if a.c.g.ascii {
		rating = "rating mu-3s, +- 3s" // s: sigma, as the page says
	}
	d := " " + a.c.g.dot + " "
	var visit string
	switch {
	case a.so.Key == "":
		visit = "a key shows changes since your last visit"
	case !a.remembered():
		visit = "changes show once your key has a name"
	case !lu.visited:
		visit = "first visit: changes show from the next one"
	default:
		visit = "since: your last visit, " + when(lu.visit.At) + " UTC"
	}
	return rating + d + visit
}

// boardKey handles a key on the leaderboard.
func (a *App) boardKey(act action) error {
	lu := &a.lad
	room := max(1, lu.read.room)
	switch act {
	case actUp:
		lu.row--
	case actDown:
		lu.row++
	case actPgUp:
		lu.row, lu.top = lu.row-room, lu.top-room
	case actPgDn:
		lu.row, lu.top = lu.row+room, lu.top+room
	case actHome:
		lu.row, lu.top = 0, 0
	case actEnd:
		lu.row, lu.top = lu.total-1, lu.total-room
	case actNext, actPrev:
		if n := len(lu.games); n > 1 {
			step := 1
			if act == actPrev {
				step = n - 1
			}
			lu.game = (lu.game + step) % n
			lu.row, lu.top, lu.total, lu.readAt = 0, 0, 0, time.Time{}
		}
	case actPick:
		if i := lu.row - lu.top; i >= 0 && i < len(lu.rows) {
			a.openPage(lu.rows[i].ID, ladderScreen)
		}
	case actBack2Lobby:
		a.toMenu()
	case actQuit:
		return errQuit
	}
	lu.row = max(0, min(lu.row, lu.total-1))
	lu.top = max(0, min(lu.top, lu.total-room))
	return nil
}

// ladderKey handles a key on the ladder's screens.
func (a *App) ladderKey(ev *tcell.EventKey) error {
	a.menu.message = ""
	switch a.screen {
	case ladderScreen:
		return a.boardKey(lookup(boardKeys, ev))
	case mineScreen:
		return a.mineKey(lookup(boardKeys, ev))
	case ladderPageScreen:
		return a.pageKey(lookup(pageKeys, ev))
	}
	return nil
}

// drawLadder paints the ladder's screen on view and returns the status
// line's hint.
func (a *App) drawLadder(w, h int) string {
	switch a.screen {
	case mineScreen:
		return a.drawMine(w, h)
	case ladderPageScreen:
		return a.drawPage(w, h)
	}
	return a.drawBoard(w, h)
}

// ladderTitle is the title bar's name of the ladder's screen on view.
func (a *App) ladderTitle() string {
	switch a.screen {
	case mineScreen:
		return "my players on the ladder"
	case ladderPageScreen:
		a.readPage() // the title bar is drawn first
		if p := a.lad.page.p; p != nil {
			name := playerName(p.Player)
			if uniseg.StringWidth(name) > 32 {
				name = truncate(name, 31) + a.c.g.ellipsis
			}
			return "ladder " + a.c.g.dot + " " + name
		}
	}
	return "ladder"
}

// ladderHousekeep reads a ladder screen on view again now and then: the
// ladder plays on in the background.
func (a *App) ladderHousekeep() {
	if !isLadderScreen(a.screen) {
		return
	}
	lu := &a.lad
	var at time.Time
	switch a.screen {
	case ladderScreen:
		at = lu.readAt
	case mineScreen:
		at = lu.mine.readAt
	case ladderPageScreen:
		at = lu.page.readAt
	}
	if time.Since(at) >= ladderRefresh {
		a.dirty = true
	}
}

// ladderSessionHelp is the help screen's word on the ladder.
func (a *App) ladderSessionHelp() string {
	if a.ladder() == nil {
		return ""
	}
	return " Ladder ranks every player of the arena by the battles it plays in the background (rating μ−3σ); " +
		"Enter on a player shows its page, where Enter on a battle plays its replay. My players lists yours."
}
