package tui

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/gdamore/tcell/v2"

	"github.com/squarebattle/squarebattle/engine/ladder"
)

// A player's page: who it is, its rating (with the notice of its
// probation and the first problem), its versions, its rating over time as
// a plot, and its recent battles (opponents, place, rating change), each
// a key away from its replay (Enter or w), after which Esc comes back
// here.

// pageUI is the player page's state.
type pageUI struct {
	id     ladder.PlayerID
	p      *ladder.Page
	from   screenKind // the screen Esc goes back to
	others map[ladder.PlayerID]ladder.Player
	readAt time.Time
	row    int // the cursor on the battles
	top    int
	room   int // the battles' rows on screen
}

// pageLimit is how many battles and rating changes a page reads.
const pageLimit = 100

// pageKeys are a player page's keys.
var pageKeys = []binding{
	{[]key{k(tcell.KeyUp), r('k')}, "Up Down", "move", actUp},
	{[]key{k(tcell.KeyDown), r('j')}, "", "", actDown},
	{[]key{k(tcell.KeyPgUp)}, "PgUp PgDn", "a page up / down", actPgUp},
	{[]key{k(tcell.KeyPgDn)}, "", "", actPgDn},
	{[]key{k(tcell.KeyHome), r('g')}, "Home End", "newest / oldest", actHome},
	{[]key{k(tcell.KeyEnd), r('G')}, "", "", actEnd},
	{[]key{k(tcell.KeyEnter), r('w')}, "Enter w", "watch the battle's replay", actWatch},
	{[]key{k(tcell.KeyEscape)}, "Esc", "back", actBack2Lobby},
	{[]key{r('q'), k(tcell.KeyCtrlC)}, "q", "quit", actQuit},
}

// openPage opens player id's page; Esc goes back to from.
func (a *App) openPage(id ladder.PlayerID, from screenKind) {
	pg := &a.lad.page
	if pg.id != id {
		pg.p, pg.row, pg.top = nil, 0, 0
	}
	pg.id, pg.from, pg.readAt = id, from, time.Time{}
	a.screen = ladderPageScreen
}

// readPage reads the page unless it did lately, and the names of the
// opponents it does not know yet.
func (a *App) readPage() {
	pg := &a.lad.page
	if time.Since(pg.readAt) < ladderRefresh {
		return
	}
	pg.readAt = time.Now()
	L := a.ladder()
	ctx, cancel := a.ladderCtx()
	defer cancel()
	p, err := L.Page(ctx, pg.id, pageLimit)
	if err != nil {
		a.ladderFailed(err)
		return
	}
	pg.p = &p
	if pg.others == nil || len(pg.others) > 4096 {
		pg.others = map[ladder.PlayerID]ladder.Player{}
	}
	var missing []ladder.PlayerID
	for _, b := range p.Played {
		for _, s := range b.Seats {
			if _, ok := pg.others[s.Player]; !ok && s.Player != p.ID {
				missing = append(missing, s.Player)
			}
		}
	}
	if len(missing) > 0 {
		got, err := L.Players(ctx, missing)
		if err != nil {
			a.ladderFailed(err)
		}
		for id, o := range got {
			pg.others[id] = o
		}
	}
}

// drawPage paints the page and returns the status line's hint.
func (a *App) drawPage(w, h int) string {
	pg := &a.lad.page
	a.readPage()
	d := " " + a.c.g.dot + " "
	hint := "Enter/w watch" + d + "Up/Down move" + d + "Esc back" + d + "q quit"
	p := pg.p
	if p == nil {
		a.c.text(2, 2, w-2, "reading the player's page…", a.th.dim())
		return hint
	}
	y := 1
	line := func(s string, st tcell.Style) {
		if y < h-1 {
			a.c.text(0, y, w, " "+s, st)
			y++
		}
	}
	line(a.pageWho(p), a.th.accent())
	line(a.pageRating(p), tcell.StyleDefault)
	if p.Probation {
		msg := "On probation: its own errors or timeouts spoiled most of its last battles, so it plays fewer."
		if p.Problem != "" {
			msg += " The first problem: " + shown(p.Problem)
		}
		for i, l := range wrap(msg, max(w-2, 10)) {
			if i < 3 {
				line(l, a.th.warn())
			}
		}
	}
	line(a.pageVersions(p, w), a.th.dim())
	rest := h - 1 - y                 // rows left: the plot and the battles share them
	ph := max(2, min(14, (rest-8)/2)) // plot rows; the battles get the rest
	y = a.drawRatingPlot(p, y, w, ph)
	a.drawPageBattles(p, y, w, h)
	return hint
}

// pageWho is the page's first line: the player, its name as commands
// take it, its game and its place.
func (a *App) pageWho(p *ladder.Page) string {
	d := " " + a.c.g.dot + " "
	s := playerName(p.Player)
	if ref := shown(p.Ref()); ref != s {
		s += " (" + ref + ")"
	}
	s += d + a.gameTitle(LadderGame{Name: p.Game, Title: a.titleOf(p.Game)})
	switch {
	case p.Retired:
		s += d + "retired"
	case p.Rank > 0:
		s += d + "rank " + strconv.Itoa(p.Rank)
	}
	return s
}

// pageRating is the page's rating line.
func (a *App) pageRating(p *ladder.Page) string {
	d := " " + a.c.g.dot + " "
	mu, sigma, pm := "μ", "σ", "±"
	if a.c.g.ascii {
		mu, sigma, pm = "mu", "sigma", "+-"
	}
	s := fmt.Sprintf("rating %s %s %s (%s %.1f, %s %.2f)", rating(p.Player), pm, spread(p.Player), mu, p.Rating.Mu, sigma, p.Rating.Sigma)
	switch p.Battles {
	case 0:
		return s + d + "no battles yet"
	case 1:
		s += d + "won " + winShare(p.Player) + " of 1 battle"
	default:
		s += d + "won " + winShare(p.Player) + " of " + strconv.Itoa(p.Battles) + " battles"
	}
	if p.SinceVersion != p.Battles {
		s += ", " + strconv.Itoa(p.SinceVersion) + " of this version"
	}
	return s
}

// pageVersions lists the versions, newest first, as many as fit.
func (a *App) pageVersions(p *ladder.Page, w int) string {
	s := fmt.Sprintf("%d versions:", len(p.Versions))
	if len(p.Versions) == 1 {
		s = "1 version:"
	}
	for i := len(p.Versions) - 1; i >= 0; i-- {
		v := p.Versions[i]
		hash := v.Hash
		if len(hash) > 8 {
			hash = hash[:8]
		}
		item := fmt.Sprintf(" v%d %s %s", i+1, when(v.Created), shown(hash))
		if v.ID == p.Version {
			item += " (plays now)"
		}
		if i < len(p.Versions)-1 {
			item = "," + item
		}
		if len(s)+len(item) > w-2 && i < len(p.Versions)-1 {
			return s + " " + a.c.g.ellipsis
		}
		s += item
	}
	return s
}

// drawRatingPlot draws the rating over the page's changes in ph rows
// from y, with its labels, and returns the row below it.
func (a *App) drawRatingPlot(p *ladder.Page, y, w, ph int) int {
	c, g := a.c, a.c.g
	values, marks := ratingLine(p.Changes)
	title := "rating (μ−3σ) after each of its last " + strconv.Itoa(len(p.Changes)) + " changes (UTC); ┴ a new version"
	if g.ascii {
		title = "rating (mu-3sigma) after each of its last " + strconv.Itoa(len(p.Changes)) + " changes (UTC); + a new version"
	}
	c.text(0, y, w, " "+title, a.th.dim())
	y++
	if len(values) == 0 {
		c.text(2, y, w-2, "no rated battles yet", a.th.dim())
		return y + 1
	}
	lo, hi := values[0], values[0]
	for _, v := range values {
		lo, hi = min(lo, v), max(hi, v)
	}
	const labelW = 7
	axis, corner, rule, tick, mark := "│", "└", "─", "┤", "┴"
	if g.ascii {
		axis, corner, rule, tick, mark = "|", "+", "-", "+", "+"
	}
	for i := 0; i < ph; i++ {
		label := ""
		switch i {
		case 0:
			label = fmt.Sprintf("%.1f", hi)
		case ph - 1:
			label = fmt.Sprintf("%.1f", lo)
		}
		c.right(0, y+i, labelW, label, a.th.dim())
		edge := axis
		if label != "" {
			edge = tick
		}
		c.text(labelW, y+i, 1, edge, a.th.dim())
	}
	pw := max(1, w-labelW-2)
	xOf := c.plot(rect{labelW + 1, y, pw, ph}, values, lo, hi, a.th.accent())
	c.blank(labelW+1+pw, y, w-labelW-1-pw, tcell.StyleDefault)
	y += ph
	c.text(0, y, labelW, "", tcell.StyleDefault)
	c.text(labelW, y, w-labelW, corner+strings.Repeat(rule, max(0, w-labelW-1)), a.th.dim())
	for _, i := range marks {
		c.text(xOf(i), y, 1, mark, a.th.dim())
	}
	y++
	from, to := p.Changes[len(p.Changes)-1].At, p.Changes[0].At
	first, last := when(from), when(to)
	if to.Sub(from) < time.Hour && to.UTC().Day() == from.UTC().Day() { // a busy ladder: to the second
		first, last = from.UTC().Format("15:04:05"), to.UTC().Format("15:04:05")
	}
	c.text(0, y, w, "", tcell.StyleDefault)
	c.text(labelW+1, y, len(first), first, a.th.dim())
	if x := w - 1 - len(last); x > labelW+len(first)+2 {
		c.text(x, y, len(last), last, a.th.dim())
	}
	return y + 1
}

// ratingLine is the ordinals a page's changes (newest first) went
// through, oldest first: the rating before the oldest, then after each;
// marks are the indices where a new version began.
func ratingLine(changes []ladder.RatingChange) (values []float64, marks []int) {
	if len(changes) == 0 {
		return nil, nil
	}
	values = append(values, changes[len(changes)-1].Before.Ordinal())
	for i := len(changes) - 1; i >= 0; i-- {
		values = append(values, changes[i].After.Ordinal())
		if changes[i].Kind == ladder.ByVersion {
			marks = append(marks, len(values)-1)
		}
	}
	return values, marks
}

// battleCols are the columns of a page's battles.
func battleCols() []lcol {
	return []lcol{
		{head: "finished", width: 11, keep: 100},
		{head: "place", right: true, width: 5, keep: 100},
		{head: "change", right: true, width: 6, keep: 90},
		{head: "replay", width: 6, keep: 50},
		{head: "opponents", flex: 1, min: 10, keep: 100},
	}
}

// drawPageBattles draws the page's battles from y to the status line.
func (a *App) drawPageBattles(p *ladder.Page, y, w, h int) {
	pg := &a.lad.page
	if y >= h-2 {
		return
	}
	head := "recent battles"
	if len(p.Played) == 0 {
		a.c.text(0, y, w, " "+head+": none yet", a.th.dim())
		return
	}
	pg.row = max(0, min(pg.row, len(p.Played)-1))
	sel := p.Played[pg.row]
	head += fmt.Sprintf(" (%d) %s battle %d", len(p.Played), a.c.g.dot, sel.ID)
	if id := a.ladder().ReplayID(sel); id != "" {
		head += ", replay " + shown(id) + ": Enter watches it"
	} else {
		head += ": its replay is no longer kept"
	}
	a.c.text(0, y, w, " "+head, a.th.dim())
	cols := battleCols()
	xs, widths := layoutLadder(cols, w)
	a.drawLadderHead(cols, xs, widths, y+1, w)
	room := max(1, h-1-(y+2))
	pg.room = room
	if pg.row < pg.top {
		pg.top = pg.row
	}
	if pg.row >= pg.top+room {
		pg.top = pg.row - room + 1
	}
	for i := pg.top; i < len(p.Played) && i < pg.top+room; i++ {
		a.drawLadderRow(cols, xs, widths, a.battleCells(p, p.Played[i]), y+2+i-pg.top, w, tcell.StyleDefault, i == pg.row)
	}
	for yy := y + 2 + min(room, len(p.Played)-pg.top); yy < h-1; yy++ {
		a.c.blank(0, yy, w, tcell.StyleDefault)
	}
}

// battleCells are a battle's cells on the page of player p.
func (a *App) battleCells(p *ladder.Page, b ladder.Battle) []lcell {
	pg := &a.lad.page
	var me *ladder.Seat
	mine := -1
	var opponents []string
	for i := range b.Seats {
		s := &b.Seats[i]
		if s.Player == p.ID && me == nil {
			me, mine = s, i
			continue
		}
		o, ok := pg.others[s.Player]
		name := "#" + strconv.FormatInt(int64(s.Player), 10)
		if ok {
			name = playerName(o)
			if o.Owner != "" {
				name += " (" + shown(o.Owner) + ")"
			}
		}
		opponents = append(opponents, name)
	}
	place, change := "-", lcell{text: "-"}
	if me != nil {
		place = fmt.Sprintf("%d/%d", me.Place, len(b.Seats))
		for i, s := range b.Seats {
			if i != mine && s.Place == me.Place {
				place = "=" + place
				break
			}
		}
		if me.Rated {
			d := me.After.Ordinal() - me.Before.Ordinal()
			switch text := delta(d); {
			case text == "0.0":
				change = lcell{text: text}
			case d > 0:
				change = styled(text, a.th.up())
			default:
				change = styled(text, a.th.down())
			}
		}
	}
	replay := "▶"
	if a.c.g.ascii {
		replay = ">"
	}
	if a.ladder().ReplayID(b) == "" {
		replay = "-"
	}
	return []lcell{{text: when(b.Finished)}, {text: place}, change, {text: replay}, {text: strings.Join(opponents, ", ")}}
}

// pageKey handles a key on a player's page.
func (a *App) pageKey(act action) error {
	pg := &a.lad.page
	n := 0
	if pg.p != nil {
		n = len(pg.p.Played)
	}
	room := max(1, pg.room)
	switch act {
	case actUp:
		pg.row--
	case actDown:
		pg.row++
	case actPgUp:
		pg.row -= room
	case actPgDn:
		pg.row += room
	case actHome:
		pg.row = 0
	case actEnd:
		pg.row = n - 1
	case actWatch:
		if pg.row >= 0 && pg.row < n {
			a.watchLadderBattle(pg.p.Played[pg.row])
		}
		return nil
	case actBack2Lobby:
		a.screen = pg.from
		return nil
	case actQuit:
		return errQuit
	}
	pg.row = max(0, min(pg.row, n-1))
	return nil
}

// watchLadderBattle plays a ladder battle's replay; Esc comes back to the
// page.
func (a *App) watchLadderBattle(b ladder.Battle) {
	id := a.ladder().ReplayID(b)
	switch {
	case id == "":
		a.menu.message = fmt.Sprintf("the replay of battle %d is no longer kept: the oldest are pruned", b.ID)
		return
	case a.so.OpenReplay == nil:
		a.menu.message = "this server shows no replays here: ssh HOST get " + shown(id) + " downloads it"
		return
	}
	rep, err := a.so.OpenReplay(id)
	if err != nil {
		a.menu.message = oneLine(err.Error())
		return
	}
	a.lad.resume = true
	a.watchReplay(rep)
}
