package tui

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"time"

	"github.com/gdamore/tcell/v2"

	"github.com/squarebattle/squarebattle/engine/replay"
)

// Options configure the local program's terminal UI: one session without
// a Hall (see RunSession for the SSH arena's).
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
	// Replays is the folder w saves a battle's replay to, made when
	// missing (the command line's tui.replays or the user's data folder);
	// "" is the current folder.
	Replays string
	// Replay, when set, shows this recording instead of the lobby and
	// Source is not used; ReplayFile is its name, for messages. The app
	// owns the replay's timeline from Run on.
	Replay     *replay.Replay
	ReplayFile string
}

// TerminalError is Run's error when the screen cannot be initialised (no
// terminal, an unusable one): nothing was drawn, and the caller may say so
// in one line.
type TerminalError struct{ Err error }

func (e *TerminalError) Error() string { return "terminal: " + e.Err.Error() }
func (e *TerminalError) Unwrap() error { return e.Err }

// errQuit ends Run from an event handler; Run returns nil for it.
var errQuit = errors.New("quit")

// Minimum usable terminal size.
const minW, minH = 40, 12

type screenKind int

const (
	lobbyScreen screenKind = iota
	battleScreen
	menuScreen       // the SSH menu
	listScreen       // live battles
	playersScreen    // the players
	replaysScreen    // recent replays
	helpScreen       // what the arena is and how to use it
	queueScreen      // a private battle waiting for a free slot
	ladderScreen     // the ladder's leaderboard
	mineScreen       // the viewer's players on the ladder
	ladderPageScreen // a player's page on the ladder
)

// overlay is what covers the battle screen, if anything.
type overlay int

const (
	noOverlay overlay = iota
	helpOverlay
	errorsOverlay
)

// App is one session of the terminal UI: a screen, the screens it moves
// between (lobby, battle, and with a Hall the menu and its lists) and at
// most one viewer onto a battle or a replay. New makes the local
// program's; RunSession an SSH session's.
//
// Concurrency: Run drives it from one goroutine, which owns every field;
// Reload may be called from any goroutine.
type App struct {
	o      Options
	hall   *Hall          // nil for the local program
	so     SessionOptions // the hall's session options (User, Replays, ...)
	ctx    context.Context
	s      tcell.Screen
	c      canvas
	th     theme
	screen screenKind
	lobby  lobby
	menu   menu
	lad    ladderUI // the ladder's screens (ladderboard.go)
	fps    int      // this viewer's frame cap

	w      *viewer // the battle or replay on view; nil on other screens
	ticket *ticket // a private battle waiting in the hall's queue

	note    string
	noteTil time.Time
	battles int   // battles started, for numbering --record files
	err     error // a --record file that could not be written

	lobbyHelp      bool  // the lobby's help overlay is open
	helpTop        int   // the first line the help overlay shows
	helpCut        bool  // the help overlay did not fit: arrows scroll it
	pendingColours []int // colours of the battle a ticket waits for

	dirty    bool
	drawn    screenKind // the screen last drawn
	pressed  bool       // the primary mouse button is down (lobby)
	lastDraw time.Time

	// Sharing pictures with the other viewers of a hall battle (share.go):
	// term names the terminal ("" never share), onTerm is the picture the
	// terminal shows above the status bar (nil: not known) and onBar the
	// status bar under it (the view's too), drawn from onStatus; sendBuf
	// is the buffer frames are sent from; sent says that this frame went
	// out that way
	// (tcell's Show is skipped); bypassed, that frames went out around
	// tcell, so its cells are not what the terminal shows (and are
	// locked).
	term     string
	view     *sharedView // the view of a hall battle the session uses
	onTerm   *picture
	onBar    *picture
	onStatus status
	sendBuf  []byte
	sent     bool
	bypassed bool

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
	s.FPS = a.fps
	return s
}

// eventReload tells the UI goroutine that the source's entries changed.
type eventReload struct{ when time.Time }

func (e *eventReload) When() time.Time { return e.when }

// New prepares the local program's UI; Run shows it.
func New(o Options) *App {
	if o.NewSeed == nil {
		o.NewSeed = func() uint64 { return 1 + rand.Uint64N(1<<53-1) }
	}
	if o.Settings.FPS < 1 {
		o.Settings.FPS = 30
	}
	a := &App{o: o, s: o.Screen, fps: o.Settings.FPS, ctx: context.Background()}
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
		return &TerminalError{Err: err}
	}
	defer a.s.Fini()
	return a.loop(a.open)
}

// open shows the local program's first screen.
func (a *App) open() error {
	switch {
	case a.o.Replay != nil:
		a.watchReplay(a.o.Replay)
	case a.o.Start != nil:
		a.initGames(a.o.Start.Game)
		return a.start(*a.o.Start)
	default:
		a.initGames(a.o.Game)
	}
	return nil
}

// housekeeping is how often a session looks at what changes without
// telling it: notes that expire, the hall's battle list, a queue.
const housekeeping = 250 * time.Millisecond

// loop runs the session on its initialised screen: first shows the first
// screen, then events, new frames and the frame cap drive it until the
// user quits or the session's context ends.
//
// Frames arrive in the viewer's mailbox, newest only; the session draws
// the newest frame when something changed and a frame interval has passed
// since the last draw, so it never draws above its cap and a slow screen
// only skips frames.
func (a *App) loop(first func() error) (err error) {
	a.began = time.Now()
	a.s.EnableMouse(tcell.MouseButtonEvents | tcell.MouseDragEvents)
	a.s.HideCursor()
	a.setTheme()
	defer func() {
		a.stats.Elapsed = time.Since(a.began)
		a.leave()
		a.cancelTicket()
		if err == nil {
			err = a.err
		}
	}()
	if err := first(); err != nil {
		return err
	}
	events := make(chan tcell.Event, 64)
	quit := make(chan struct{})
	go a.s.ChannelEvents(events, quit)
	defer close(quit)
	house := time.NewTicker(housekeeping)
	defer house.Stop()
	interval := time.Second / time.Duration(a.fps)
	capTimer := time.NewTimer(time.Hour)
	capTimer.Stop()
	defer capTimer.Stop()
	armed := false
	notice := a.so.Notice
	a.dirty = true
	a.draw()
	for {
		// While the cap timer is armed the session is dirty already and
		// draws the newest frame when it fires: a frame arriving meanwhile
		// would change nothing, so the box is not listened to. It then
		// wakes once a frame instead of at every frame the driver
		// publishes (twice a frame interval), and the driver's put finds
		// nobody to wake.
		var box chan *frame
		if a.w != nil && !armed {
			box = a.w.box.ch
		}
		select {
		case ev := <-events:
			if ev == nil {
				return nil
			}
			if err := a.handle(ev); errors.Is(err, errQuit) {
				return nil
			}
		case <-box:
			a.dirty = true // drawing reads the newest frame
		case <-capTimer.C:
			armed = false
		case <-house.C:
			a.housekeep()
		case msg, ok := <-notice:
			if !ok {
				notice = nil
				break
			}
			a.note, a.noteTil, a.dirty = msg, time.Now().Add(30*time.Second), true
		case <-a.ctx.Done():
			return nil
		}
		if a.dirty && !armed {
			if wait := interval - time.Since(a.lastDraw); wait > 0 {
				capTimer.Reset(wait)
				armed = true
			} else if a.draw(); a.dirty {
				// still behind (a shared picture of an earlier frame)
				capTimer.Reset(interval)
				armed = true
			}
		}
	}
}

// housekeep expires notes and follows what the hall changed.
func (a *App) housekeep() {
	if a.note != "" && time.Now().After(a.noteTil) {
		a.note, a.dirty = "", true
	}
	if a.hall != nil {
		a.followIdentity()
		a.followHall()
		a.ladderHousekeep()
	}
	a.followCountdown()
}

// setTheme picks colours and glyphs from what the screen can show.
func (a *App) setTheme() {
	colors := a.s.Colors()
	most := depthOf(colors)
	a.th = theme{depth: most, most: most, mono: colors < 8}
	registerFallbacks(a.s)
	a.c = canvas{s: a.s, g: glyphsFor(a.s)}
	a.shareTerminal()
}

func (a *App) flash(note string) {
	a.note, a.noteTil, a.dirty = note, time.Now().Add(2*time.Second), true
}

// handle reacts to one event.
func (a *App) handle(ev tcell.Event) error {
	switch ev := ev.(type) {
	case *tcell.EventResize:
		a.unshare()
		a.dirty = true // the next draw lays out again; tcell repaints what changed
	case *eventReload:
		if a.source() != nil {
			if gs, ok := a.source().(GameSource); ok {
				a.lobby.games = gs.Games()
				a.lobby.game = min(a.lobby.game, max(len(a.lobby.games)-1, 0))
			}
			a.lobby.setEntries(a.entries())
			a.dirty = true
		}
	case *tcell.EventKey:
		a.dirty = true
		if a.hall != nil && ev.Key() == tcell.KeyCtrlC {
			return errQuit // from any screen
		}
		switch a.screen {
		case lobbyScreen:
			return a.lobbyKey(ev)
		case battleScreen:
			return a.battleKey(ev)
		default:
			return a.menuKey(ev)
		}
	case *tcell.EventMouse:
		if a.screen == battleScreen && a.w != nil && a.w.last != nil {
			if a.w.view.mouse(ev, a.w.last.snap.Size, a.layout().arena, a.asciiArena()) {
				a.dirty = true
			}
		} else if a.screen == lobbyScreen {
			a.lobbyMouse(ev)
		}
	}
	return nil
}

func (a *App) asciiArena() bool { return a.c.g.ascii || a.th.mono }

// draw paints the current screen.
func (a *App) draw() {
	a.dirty = false
	w, h := a.s.Size()
	if a.screen != battleScreen || w < minW || h < minH {
		a.unshare()
	}
	if w < minW || h < minH {
		a.c.fill(rect{0, 0, w, h}, tcell.StyleDefault)
		msg := fmt.Sprintf("Terminal too small: %d×%d, need %d×%d.", w, h, minW, minH)
		for i, l := range wrap(msg+" Enlarge it, or q to quit.", max(w, 1)) {
			if i < h {
				a.c.text(0, i, w, l, tcell.StyleDefault)
			}
		}
		a.show()
		return
	}
	if a.screen != a.drawn {
		// nothing of the last screen stays: not every screen paints
		// every cell
		a.s.Clear()
		a.drawn = a.screen
	}
	switch a.screen {
	case lobbyScreen:
		a.lobby.draw(a.c, a.th, a.source().Dir(), w, h)
		if a.hall != nil && a.note != "" {
			a.c.text(0, h-1, w, " "+a.note, a.th.warn())
		}
		if a.lobbyHelp {
			a.helpCut = helpBox(a.c, a.th, lobbyKeys, &a.helpTop, w, h)
		}
	case battleScreen:
		a.drawBattle(w, h)
	default:
		a.drawMenu(w, h)
	}
	a.show()
}

func (a *App) show() {
	if !a.sent {
		a.s.Show()
	}
	a.sent = false
	now := time.Now()
	a.lastDraw = now
	if a.stats.Frames == 0 {
		a.first = now
	}
	a.stats.Frames++
	a.stats.Drawing = now.Sub(a.first)
	if a.o.Shown != nil {
		a.o.Shown()
	}
}
