package tui

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"time"

	"github.com/gdamore/tcell/v2"
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
	// Paused starts battles paused (for tests and demos).
	Paused bool
	// Shown, when set, is called on the UI goroutine after every frame is
	// shown: tests read a SimulationScreen there, where no drawing races.
	Shown func()
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
	timeUp  bool

	dirty   bool
	last    *frame // frame last drawn
	pressed bool   // the primary mouse button is down (lobby)
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
func (a *App) Run() error {
	if err := a.s.Init(); err != nil {
		return fmt.Errorf("terminal: %w", err)
	}
	defer a.s.Fini()
	a.s.EnableMouse(tcell.MouseButtonEvents | tcell.MouseDragEvents)
	a.s.HideCursor()
	a.setTheme()
	a.lobby.setEntries(a.o.Source.Entries())
	if a.o.Start != nil {
		if err := a.start(*a.o.Start); err != nil {
			return err
		}
	}
	events := make(chan tcell.Event, 64)
	quit := make(chan struct{})
	go a.s.ChannelEvents(events, quit)
	defer close(quit)
	tick := time.NewTicker(time.Second / time.Duration(a.o.Settings.FPS))
	defer tick.Stop()
	defer a.stopBattle()
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
		a.lobby.setEntries(a.o.Source.Entries())
		a.dirty = true
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
	a.driver = startDriver(b, a.lobby.set.Speed, a.o.Settings.FPS, a.lobby.set.TimeLimit, a.o.Paused)
	a.screen, a.over, a.timeUp, a.shown = battleScreen, noOverlay, false, 0
	a.view = arenaView{fit: true}
	a.dirty = true
	return nil
}

func (a *App) stopBattle() {
	if a.driver != nil {
		a.driver.stop()
		a.driver = nil
	}
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
		if l.area == areaSettings {
			l.adjust(map[action]int{actMore: 1, actLess: -1}[act])
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
	act := lookup(battleKeys, ev)
	if a.over != noOverlay && act != actQuit {
		if a.over == errorsOverlay && act != actErrors && act != actBack {
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
		d.send(command{kind: cmdPause})
	case actStep:
		if !f.paused {
			d.send(command{kind: cmdPause})
		}
		d.send(command{kind: cmdStep})
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
			a.flash("full size: pan with arrows")
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
	case actReplay, actNewSeed:
		if !f.snap.Over {
			a.flash("the battle is still on")
			return nil
		}
		su := a.setup
		if act == actNewSeed {
			su.Seed = a.o.NewSeed()
			a.lobby.seed, a.lobby.random = su.Seed, true
		}
		return a.start(su)
	case actBack:
		a.stopBattle()
		a.screen = lobbyScreen
	}
	return nil
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
	if a.o.Shown != nil {
		a.o.Shown()
	}
}

func (a *App) drawBattle(w, h int) {
	f := a.driver.latest()
	a.last, a.shown = f, f.seq
	if f.snap.Over && f.left == 0 {
		a.timeUp = true
	}
	l := a.layout()
	a.view.draw(a.c, a.th, a.colours, f.snap, l.arena)
	if l.table.x > 0 {
		for y := 0; y < l.table.h; y++ {
			a.c.s.Put(l.table.x-1, y, a.c.g.bar, a.th.dim())
		}
	}
	drawTeams(a.c, a.th, a.colours, f.snap, f.squares, l.table)
	drawStatus(a.c, a.th, f, a.note, l.status, w)
	switch {
	case a.over == helpOverlay:
		drawBox(a.c, "Keys", helpLines(battleKeys, a.th), w, h)
	case a.over == errorsOverlay:
		drawBox(a.c, "Script problems", problemLines(f.snap, a.th), w, h)
	case f.snap.Over:
		title, lines := victoryLines(f.snap, a.timeUp, min(w-8, 70), a.th)
		drawBox(a.c, title, lines, w, h)
	}
}
