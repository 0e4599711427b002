package tui

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"time"

	"github.com/gdamore/tcell/v2"

	"github.com/squarebattle/squarebattle/engine/replay"
)

// Options configure the terminal UI.
type Options struct {
	Screen   tcell.Screen
	Source   Source
	Settings Settings
	// NewSeed draws a random seed; nil uses math/rand. Seeds stay below
	// 2^53 so that they survive JSON.
	NewSeed func() uint64
	// Start, when set, skips the lobby and starts this battle at once.
	Start *Setup
	// Game is the lobby's game at first (a GameSource's game ID; "" is
	// SquareBattle). Start.Game overrides it.
	Game string
	// Paused starts battles paused (for tests and demos).
	Paused bool
	// Shown, when set, is called on the UI goroutine after every frame is
	// shown: tests read a SimulationScreen there, where no drawing races.
	Shown func()
	// Record, when set, writes every battle played to a replay file when
	// it ends or is left: the first battle to Record, the next ones to
	// numbered names (fight.sbr, fight-2.sbr, ...).
	Record string
	// Replay, when set, shows this recording instead of the lobby and
	// Source is not used; ReplayFile is its name, for messages. The app
	// owns the replay's timeline from Run on.
	Replay     *replay.Replay
	ReplayFile string
}

// errQuit ends Run from an event handler; Run returns nil for it.
var errQuit = errors.New("quit")

// Minimum usable terminal size.
const minW, minH = 40, 12

type screenKind int

const (
	lobbyScreen screenKind = iota
	battleScreen
)

// overlay is what covers the battle screen, if anything.
type overlay int

const (
	noOverlay overlay = iota
	helpOverlay
	errorsOverlay
)

// App is the terminal UI. Run drives it from one goroutine; Reload may be
// called from any goroutine.
type App struct {
	o      Options
	s      tcell.Screen
	c      canvas
	th     theme
	screen screenKind
	lobby  lobby

	// battle screen
	driver  *driver
	setup   Setup
	colours []int
	view    arenaView
	over    overlay
	shown   uint64 // seq of the frame on screen
	note    string
	noteTil time.Time
	msgSeq  uint64 // the driver's last message shown
	// typing holds the digits of a round being typed after g; prompting
	// says the prompt is open.
	typing    string
	prompting bool
	battles   int   // battles started, for numbering --record files
	err       error // a --record file that could not be written

	dirty   bool
	last    *frame // frame last drawn
	pressed bool   // the primary mouse button is down (lobby)

	stats Stats // what the session drew and played, for Stats
	began time.Time
	first time.Time // the first frame shown
}

// Stats are what a session of the UI drew and played.
type Stats struct {
	// Frames counts the frames shown: every Show of the screen, each of
	// which tcell writes to the terminal. Nothing is shown unless
	// something changed, and never more often than the frame cap.
	Frames int
	// Elapsed runs from the screen's start until the UI stops drawing.
	Elapsed time.Duration
	// Drawing runs from the first frame shown to the last.
	Drawing time.Duration
	// Rounds counts the rounds the session's live battles played (not a
	// replay's).
	Rounds int
	// FPS is the frame cap the session ran under.
	FPS int
}

// Rate is frames per second from the first frame to the last: the pace
// the UI kept once it was drawing, which the time spent setting up a
// battle does not dilute. It is 0 below two frames.
func (s Stats) Rate() float64 {
	if s.Frames < 2 || s.Drawing <= 0 {
		return 0
	}
	return float64(s.Frames-1) / s.Drawing.Seconds()
}

// Stats reports what Run drew and played; call it after Run returns.
func (a *App) Stats() Stats {
	s := a.stats
	s.FPS = a.o.Settings.FPS
	return s
}

// eventReload tells the UI goroutine that the source's entries changed.
type eventReload struct{ when time.Time }

func (e *eventReload) When() time.Time { return e.when }

// New prepares the UI; Run shows it.
func New(o Options) *App {
	if o.NewSeed == nil {
		o.NewSeed = func() uint64 { return 1 + rand.Uint64N(1<<53-1) }
	}
	if o.Settings.FPS < 1 {
		o.Settings.FPS = 30
	}
	a := &App{o: o, s: o.Screen}
	a.lobby.set = o.Settings
	a.lobby.seed, a.lobby.random = o.Settings.Seed, false
	if a.lobby.seed == 0 {
		a.lobby.seed, a.lobby.random = o.NewSeed(), true
	}
	return a
}

// Reload tells the UI that the source's players changed; safe from any
// goroutine.
func (a *App) Reload() { _ = a.s.PostEvent(&eventReload{when: time.Now()}) }

// Run shows the UI until the user quits. It initialises and finalises the
// screen.
func (a *App) Run() (err error) {
	if err := a.s.Init(); err != nil {
		return fmt.Errorf("terminal: %w", err)
	}
	defer a.s.Fini()
	a.began = time.Now()
	a.s.EnableMouse(tcell.MouseButtonEvents | tcell.MouseDragEvents)
	a.s.HideCursor()
	a.setTheme()
	switch {
	case a.o.Replay != nil:
		a.startReplay()
	case a.o.Start != nil:
		a.initGames(a.o.Start.Game)
		if err := a.start(*a.o.Start); err != nil {
			return err
		}
	default:
		a.initGames(a.o.Game)
	}
	events := make(chan tcell.Event, 64)
	quit := make(chan struct{})
	go a.s.ChannelEvents(events, quit)
	defer close(quit)
	tick := time.NewTicker(time.Second / time.Duration(a.o.Settings.FPS))
	defer tick.Stop()
	defer func() {
		a.stats.Elapsed = time.Since(a.began)
		a.stopBattle()
		if err == nil {
			err = a.err
		}
	}()
	a.dirty = true
	a.draw()
	for {
		select {
		case ev := <-events:
			if ev == nil {
				return nil
			}
			if err := a.handle(ev); errors.Is(err, errQuit) {
				return nil
			}
		case <-tick.C:
			if a.driver != nil && a.driver.latest().seq != a.shown {
				a.dirty = true
			}
			if a.note != "" && time.Now().After(a.noteTil) {
				a.note, a.dirty = "", true
			}
			a.draw()
		}
	}
}

// setTheme picks colours and glyphs from what the screen can show.
func (a *App) setTheme() {
	colors := a.s.Colors()
	a.th = theme{depth: defaultDepth(colors, getenv), mono: colors < 8}
	a.c = canvas{s: a.s, g: unicodeGlyphs}
	if !a.s.CanDisplay('▀', false) || !a.s.CanDisplay('│', false) {
		a.c.g = asciiGlyphs
	}
}

func (a *App) flash(note string) {
	a.note, a.noteTil, a.dirty = note, time.Now().Add(2*time.Second), true
}

// handle reacts to one event.
func (a *App) handle(ev tcell.Event) error {
	switch ev := ev.(type) {
	case *tcell.EventResize:
		a.dirty = true // the next tick lays out again; tcell repaints what changed
	case *eventReload:
		if a.o.Source != nil {
			if gs, ok := a.o.Source.(GameSource); ok {
				a.lobby.games = gs.Games()
				a.lobby.game = min(a.lobby.game, max(len(a.lobby.games)-1, 0))
			}
			a.lobby.setEntries(a.entries())
			a.dirty = true
		}
	case *tcell.EventKey:
		a.dirty = true
		if a.screen == lobbyScreen {
			return a.lobbyKey(ev)
		}
		return a.battleKey(ev)
	case *tcell.EventMouse:
		if a.screen == battleScreen && a.last != nil {
			if a.view.mouse(ev, a.last.snap.Size, a.layout().arena, a.asciiArena()) {
				a.dirty = true
			}
		} else if a.screen == lobbyScreen {
			a.lobbyMouse(ev)
		}
	}
	return nil
}

// initGames lists the source's games in the lobby, with game chosen.
func (a *App) initGames(game string) {
	if gs, ok := a.o.Source.(GameSource); ok {
		a.lobby.games = gs.Games()
		for i, g := range a.lobby.games {
			if g.ID == game {
				a.lobby.game = i
			}
		}
		if game != "" {
			a.applyGameDefaults()
		}
	}
	a.lobby.setEntries(a.entries())
}

// entries are the players of the lobby's game.
func (a *App) entries() []Entry {
	if gs, ok := a.o.Source.(GameSource); ok && a.lobby.gameID() != "" {
		return gs.GameEntries(a.lobby.gameID())
	}
	return a.o.Source.Entries()
}

// switchGame moves the lobby's Game setting dir steps: the teams go (the
// players differ), the new game's players are listed and its defaults for
// the board size and the round limit apply.
func (a *App) switchGame(dir int) {
	l := &a.lobby
	n := len(l.games)
	if n < 2 {
		return
	}
	l.game = (l.game + dir + n) % n
	l.teams, l.cursor[areaPlayers], l.cursor[areaTeams], l.top = nil, 0, 0, 0
	a.applyGameDefaults()
	l.setEntries(a.entries())
}

// applyGameDefaults sets the board size and round limit to the lobby's
// game's own, or back to the configured ones.
func (a *App) applyGameDefaults() {
	l := &a.lobby
	g := l.games[l.game]
	l.set.Size, l.set.Rounds = a.o.Settings.Size, a.o.Settings.Rounds
	if g.Size > 0 {
		l.set.Size = g.Size
	}
	if g.Rounds > 0 {
		l.set.Rounds = g.Rounds
	}
}

func (a *App) asciiArena() bool { return a.c.g.ascii || a.th.mono }

// start begins a battle and shows the battle screen.
func (a *App) start(su Setup) error {
	b, err := a.o.Source.NewBattle(su)
	if err != nil {
		a.lobby.message = err.Error()
		return nil
	}
	a.stopBattle()
	a.setup = su
	if len(a.colours) != len(su.Players) || a.screen == lobbyScreen {
		a.colours = make([]int, len(su.Players))
		for i := range a.colours {
			a.colours[i] = i % len(palette)
			if i < len(a.lobby.teams) {
				a.colours[i] = a.lobby.teams[i].colour
			}
		}
	}
	keep := a.o.Settings.Rewind
	if keep == 0 {
		keep = DefaultRewind
	}
	record := ""
	if a.o.Record != "" {
		a.battles++
		record = numbered(a.o.Record, a.battles)
	}
	d, err := startLive(b, a.pace(), keep, record)
	if err != nil {
		b.Close()
		a.lobby.message = err.Error()
		return nil
	}
	a.driver = d
	a.showBattle()
	return nil
}

// startReplay shows the recording of Options.Replay.
func (a *App) startReplay() {
	teams := len(a.o.Replay.Header.Players)
	a.colours = make([]int, teams)
	for i := range a.colours {
		a.colours[i] = i % len(palette)
	}
	a.driver = startReplay(a.o.Replay.Timeline, a.pace())
	a.showBattle()
}

func (a *App) pace() pace {
	return pace{speed: a.lobby.set.Speed, fps: a.o.Settings.FPS, limit: a.lobby.set.TimeLimit, paused: a.o.Paused}
}

func (a *App) showBattle() {
	a.screen, a.over, a.shown, a.msgSeq, a.note = battleScreen, noOverlay, 0, 0, ""
	a.prompting, a.typing = false, ""
	a.view = arenaView{fit: true}
	a.dirty = true
}

func (a *App) stopBattle() {
	if a.driver != nil {
		if !a.replaying() {
			a.stats.Rounds += a.driver.latest().live
		}
		if err := a.driver.stop(); err != nil && a.err == nil {
			a.err = err
		}
		a.driver = nil
	}
}

// replaying reports whether the app shows a recording.
func (a *App) replaying() bool { return a.o.Replay != nil }

// keys is the battle screen's key table.
func (a *App) keys() []binding {
	if a.replaying() {
		return replayKeys
	}
	return battleKeys
}

func (a *App) lobbyKey(ev *tcell.EventKey) error {
	l := &a.lobby
	if a.over == helpOverlay {
		a.over = noOverlay
		return nil
	}
	act := lookup(lobbyKeys, ev)
	// Digits edit the selected setting.
	if l.area == areaSettings && ev.Key() == tcell.KeyRune && ev.Rune() >= '0' && ev.Rune() <= '9' {
		l.typeDigit(ev.Rune(), false)
		return nil
	}
	if l.area == areaSettings && l.editing != "" && act == actRemove {
		l.typeDigit(0, true)
		return nil
	}
	if act != actRemove {
		l.editing = ""
	}
	l.message = ""
	switch act {
	case actQuit:
		return errQuit
	case actHelp:
		a.over = helpOverlay
	case actNext:
		l.area = (l.area + 1) % areaCount
	case actPrev:
		l.area = (l.area + areaCount - 1) % areaCount
	case actUp:
		if l.cursor[l.area] > 0 {
			l.cursor[l.area]--
		} else if l.area > 0 {
			l.area--
			l.cursor[l.area] = max(l.rows()-1, 0)
		}
	case actDown:
		if l.cursor[l.area] < l.rows()-1 {
			l.cursor[l.area]++
		} else if l.area < areaCount-1 {
			l.area++
			l.cursor[l.area] = 0
		}
	case actPick:
		switch l.area {
		case areaPlayers:
			if c := l.cursor[areaPlayers]; c < len(l.entries) {
				l.addTeam(l.entries[c])
			}
		case areaTeams:
			l.removeTeam(l.cursor[areaTeams])
		case areaSettings:
			l.area = areaStart
		case areaStart:
			return a.startFromLobby()
		}
	case actRemove:
		if l.area == areaTeams {
			l.removeTeam(l.cursor[areaTeams])
		}
	case actColour:
		if l.area == areaTeams && l.cursor[areaTeams] < len(l.teams) {
			t := &l.teams[l.cursor[areaTeams]]
			t.colour = l.freeColour(t.colour)
		}
	case actMore, actLess:
		dir := map[action]int{actMore: 1, actLess: -1}[act]
		switch {
		case l.area == areaSettings && l.setting() == setGame:
			a.switchGame(dir)
		case l.area == areaSettings:
			l.adjust(dir)
		}
	case actSeed:
		l.seed, l.random = a.o.NewSeed(), true
	case actStart:
		return a.startFromLobby()
	}
	return nil
}

func (a *App) startFromLobby() error {
	su, msg := a.lobby.setup()
	if msg != "" {
		a.lobby.message = msg
		return nil
	}
	return a.start(su)
}

// lobbyMouse: a click on a player in the list adds it as a team, as the
// original's player selection did. (The rest of the lobby is keyboard-only.)
func (a *App) lobbyMouse(ev *tcell.EventMouse) {
	pressed := ev.Buttons()&tcell.Button1 != 0
	click := pressed && !a.pressed // a press, not a drag that follows it
	a.pressed = pressed
	if !click {
		return
	}
	x, y := ev.Position()
	l := &a.lobby
	if x < l.listW && y >= 3 && y < 3+l.listRows {
		if n := l.top + y - 3; n < len(l.entries) {
			l.area, l.cursor[areaPlayers] = areaPlayers, n
			l.addTeam(l.entries[n])
			a.dirty = true
		}
	}
}

// battleKey handles a key on the battle screen.
func (a *App) battleKey(ev *tcell.EventKey) error {
	if a.prompting {
		if done := a.promptKey(ev); done {
			return nil
		}
	}
	if a.over != noOverlay && ev.Key() == tcell.KeyEscape {
		a.over = noOverlay
		return nil
	}
	act := lookup(a.keys(), ev)
	if a.over != noOverlay && act != actQuit {
		if a.over == errorsOverlay && act != actErrors && act != actBack2Lobby {
			// fall through: keys keep working under the problem list
		} else {
			a.over = noOverlay
			return nil
		}
	}
	d := a.driver
	f := d.latest()
	r := a.layout().arena
	switch act {
	case actQuit:
		return errQuit
	case actPause:
		if f.end && !f.past {
			a.flash(a.endNote())
		}
		d.send(command{kind: cmdPause})
	case actStep, actStep10, actStep100:
		n := map[action]int{actStep: 1, actStep10: 10, actStep100: 100}[act]
		switch {
		case f.snap.Round < f.live:
		case f.end:
			a.flash(a.endNote())
		case n > 1:
			a.flash("this is the live round: . or Right plays one more")
		}
		d.send(command{kind: cmdStep, n: n})
	case actBack, actBack10, actBack100:
		n := map[action]int{actBack: 1, actBack10: 10, actBack100: 100}[act]
		if f.snap.Round <= f.first {
			a.flash(a.oldestNote(f))
		}
		d.send(command{kind: cmdBack, n: n})
	case actOldest:
		d.send(command{kind: cmdSeek, n: f.first})
	case actLive:
		d.send(command{kind: cmdSeek, n: -1})
	case actGoto:
		a.prompting, a.typing = true, ""
	case actFaster, actSlower:
		dir := 1
		if act == actSlower {
			dir = -1
		}
		n := nextSpeed(a.lobby.set.Speed, dir)
		a.lobby.set.Speed = n
		d.send(command{kind: cmdSpeed, n: n})
	case actLeft:
		a.view.pan(-8, 0, f.snap.Size, r, a.asciiArena())
	case actRight:
		a.view.pan(8, 0, f.snap.Size, r, a.asciiArena())
	case actUp:
		a.view.pan(0, -4, f.snap.Size, r, a.asciiArena())
	case actDown:
		a.view.pan(0, 4, f.snap.Size, r, a.asciiArena())
	case actFit:
		a.view.fit = !a.view.fit
		if a.view.fit {
			a.flash("fit: whole arena")
		} else {
			a.flash("full size: pan with hjkl or the mouse")
		}
	case actErrors:
		a.over = errorsOverlay
	case actColours:
		a.th.depth = (a.th.depth + 1) % depthCount
		a.flash(a.th.depth.String())
	case actRedraw:
		a.s.Sync()
	case actHelp:
		a.over = helpOverlay
	case actSave:
		a.flash("saving…")
		d.send(command{kind: cmdSave})
	case actReplay, actNewSeed:
		if a.replaying() {
			d.send(command{kind: cmdRestart})
			return nil
		}
		if !f.end {
			a.flash("the battle is still on")
			return nil
		}
		su := a.setup
		if act == actNewSeed {
			su.Seed = a.o.NewSeed()
			a.lobby.seed, a.lobby.random = su.Seed, true
		}
		return a.start(su)
	case actBack2Lobby:
		a.stopBattle()
		a.screen = lobbyScreen
	}
	return nil
}

// promptKey edits the round typed after g: digits and Backspace edit,
// Enter goes there, Esc cancels. Any other key closes the prompt and does
// what it does; done reports that the key was used up.
func (a *App) promptKey(ev *tcell.EventKey) (done bool) {
	switch {
	case ev.Key() == tcell.KeyRune && ev.Rune() >= '0' && ev.Rune() <= '9':
		if len(a.typing) < 9 {
			a.typing += string(ev.Rune())
		}
		return true
	case ev.Key() == tcell.KeyBackspace || ev.Key() == tcell.KeyBackspace2:
		if a.typing != "" {
			a.typing = a.typing[:len(a.typing)-1]
		}
		return true
	case ev.Key() == tcell.KeyEscape:
		a.prompting = false
		return true
	case ev.Key() == tcell.KeyEnter:
		a.prompting = false
		if a.typing != "" {
			a.goTo(atoi(a.typing))
		}
		return true
	}
	a.prompting = false
	return false
}

// goTo shows round n: a recorded one, or, past the live round of a live
// battle, the battle runs at full speed up to it and pauses there.
func (a *App) goTo(n int) {
	f := a.driver.latest()
	switch {
	case n < f.first:
		a.flash(a.oldestNote(f))
		n = f.first
	case n > f.live && (a.replaying() || f.end):
		a.flash(a.endNote())
		n = f.live
	case n > f.live && n > f.snap.Rounds:
		a.flash(fmt.Sprintf("the battle ends by round %d", f.snap.Rounds))
		n = f.snap.Rounds
	case n > f.live:
		a.flash(fmt.Sprintf("playing on to round %d…", n))
	}
	a.driver.send(command{kind: cmdSeek, n: n})
}

func atoi(digits string) int {
	n := 0
	for _, c := range digits {
		n = n*10 + int(c-'0')
	}
	return n
}

// oldestNote says why the view cannot go further back.
func (a *App) oldestNote(f *frame) string {
	if f.first == 0 {
		return "this is round 0, the start"
	}
	return fmt.Sprintf("round %d is the oldest kept (tui.rewind)", f.first)
}

// endNote says why the view cannot go further forward.
func (a *App) endNote() string {
	if a.replaying() {
		return "the recording ends here"
	}
	return "the battle is over"
}

// battleLayout places the arena, the team table and the status bar.
type battleLayout struct {
	arena, table rect
	status       int // status bar row
}

// layout: with room, the table sits right of the arena; otherwise under it.
func (a *App) layout() battleLayout {
	w, h := a.s.Size()
	teams := 1
	rows := 2
	if a.last != nil {
		teams = len(a.last.snap.Teams)
		rows = tableRows(a.last.snap)
	}
	l := battleLayout{status: h - 1}
	const side = tableMinW + 14
	if w >= 2*side-10 {
		l.table = rect{w - side, 0, side, h - 1}
		l.arena = rect{0, 0, w - side - 1, h - 1}
		return l
	}
	th := min(rows, max((h-1)/2, 1+teams))
	th = min(th, h-1-3)
	l.arena = rect{0, 0, w, h - 1 - th}
	l.table = rect{0, h - 1 - th, w, th}
	return l
}

// draw paints the current screen when something changed.
func (a *App) draw() {
	if !a.dirty {
		return
	}
	a.dirty = false
	w, h := a.s.Size()
	if w < minW || h < minH {
		a.c.fill(rect{0, 0, w, h}, tcell.StyleDefault)
		msg := fmt.Sprintf("Terminal too small: %d×%d, need %d×%d.", w, h, minW, minH)
		if a.c.g.ascii {
			msg = fmt.Sprintf("Terminal too small: %dx%d, need %dx%d.", w, h, minW, minH)
		}
		for i, l := range wrap(msg+" Enlarge it, or q to quit.", max(w, 1)) {
			if i < h {
				a.c.text(0, i, w, l, tcell.StyleDefault)
			}
		}
		a.show()
		return
	}
	switch a.screen {
	case lobbyScreen:
		a.lobby.draw(a.c, a.th, a.o.Source.Dir(), w, h)
		if a.over == helpOverlay {
			drawBox(a.c, "Keys", helpLines(lobbyKeys, a.th), w, h)
		}
	case battleScreen:
		a.drawBattle(w, h)
	}
	a.show()
}

func (a *App) show() {
	a.s.Show()
	now := time.Now()
	if a.stats.Frames == 0 {
		a.first = now
	}
	a.stats.Frames++
	a.stats.Drawing = now.Sub(a.first)
	if a.o.Shown != nil {
		a.o.Shown()
	}
}

func (a *App) drawBattle(w, h int) {
	f := a.driver.latest()
	a.last, a.shown = f, f.seq
	if f.msgSeq != a.msgSeq {
		a.msgSeq = f.msgSeq
		a.note, a.noteTil = f.msg, time.Now().Add(4*time.Second)
	}
	l := a.layout()
	a.view.draw(a.c, a.th, a.colours, f.snap, l.arena)
	if l.table.x > 0 {
		for y := 0; y < l.table.h; y++ {
			a.c.s.Put(l.table.x-1, y, a.c.g.bar, a.th.dim())
		}
	}
	drawTeams(a.c, a.th, a.colours, f.snap, f.squares, l.table)
	note := a.note
	if a.prompting {
		note = "go to round: " + a.typing + "_  (Enter, Esc)"
	}
	drawStatus(a.c, a.th, a.statusOf(f, note), l.status, w)
	switch {
	case a.over == helpOverlay:
		drawBox(a.c, "Keys", helpLines(a.keys(), a.th), w, h)
	case a.over == errorsOverlay:
		lines := problemLines(f.snap, a.th)
		if dmg := a.damage(); dmg != "" {
			lines = append([]line{{"This replay is damaged:", a.th.warn()}, {dmg, tcell.StyleDefault}, {}}, lines...)
		}
		drawBox(a.c, "Script problems", lines, w, h)
	case f.snap.Over:
		title, lines := victoryLines(f.snap, a.timeUp(f), min(w-8, 70), a.th, a.victoryHint())
		drawBox(a.c, title, lines, w, h)
	case f.end && a.replaying():
		title, lines := recordingEndLines(f.snap, a.damage(), min(w-8, 70), a.th)
		drawBox(a.c, title, lines, w, h)
	}
}

// timeUp reports whether the interactive time limit ended the battle.
func (a *App) timeUp(f *frame) bool {
	if a.replaying() {
		return a.o.Replay.Result != nil && a.o.Replay.Result.Reason == "time limit"
	}
	return f.timeUp
}

// damage is the replay's one-line damage report, or "".
func (a *App) damage() string {
	if a.replaying() && a.o.Replay.Damage != nil {
		return a.o.Replay.Damage.Error()
	}
	return ""
}

func (a *App) victoryHint() string {
	if a.replaying() {
		return "r watch again   Left rewind   q quit"
	}
	return "r replay (same seed)   n new seed   Left rewind   Esc lobby   q quit"
}

// statusOf gathers what the status bar shows.
func (a *App) statusOf(f *frame, note string) status {
	return status{f: f, note: note, replay: a.replaying(), damaged: a.damage() != ""}
}
