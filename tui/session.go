package tui

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/gdamore/tcell/v2"
	"github.com/gdamore/tcell/v2/terminfo"

	"github.com/squarebattle/squarebattle/engine/replay"
)

// Where a session starts (SessionOptions.Start).
const (
	StartMenu   = "menu"   // the SSH menu (the default with a Hall)
	StartLobby  = "lobby"  // the lobby (the default without one)
	StartWatch  = "watch"  // watch WatchID ("" the featured battle)
	StartReplay = "replay" // show Replay
)

// ReplayInfo is one recorded battle the menu's replay list offers.
type ReplayInfo struct {
	ID    string // what `replay ID` takes
	Title string // the players, as the list shows them
	When  time.Time
	// Summary is what the list shows of the battle: its game, rounds,
	// result and players (ReadReplaySummary).
	Summary ReplaySummary
	// Open loads the replay when the user picks it; its error is shown
	// on the list, in one line.
	Open func() (*replay.Replay, error)
}

// SessionOptions configure one person's terminal UI.
type SessionOptions struct {
	// Hall is where live battles are; nil for the local program (no menu,
	// no watching: the lobby and its battles are the session's own).
	Hall *Hall
	// User is who the session is: shown, and the owner of the battles it
	// starts ("" an anonymous spectator).
	User string
	// Whoami, when set, says who the session is now: a first upload from
	// another session gives the key a user name, which replaces User
	// (and owns User's battles) without reconnecting. Called on the
	// session's goroutine, a few times a second.
	Whoami func() string
	// Remembered, when set, says whether the ladder may keep this
	// viewer's visits under Key now (tui/ssh: once the key holds a user
	// name, so that keys made by the thousand do not each leave a row
	// behind); nil keeps them for any Key. Called on the session's
	// goroutine.
	Remembered func() bool
	// Account is what the hall's per-user cap (HallOptions.MaxPerUser)
	// counts by: the same for every session of one person (tui/ssh: the
	// key's fingerprint) whatever name each logged in with; "" is User.
	Account string
	// Reach is the command that reaches the server, for the help screen
	// ("ssh -p 2222 HOST"); "" says ssh HOST.
	Reach string
	// Start is where the session starts: StartMenu, StartLobby, StartWatch
	// or StartReplay; "" is StartMenu with a Hall, else StartLobby.
	Start string
	// WatchID is the battle StartWatch shows; "" the featured one.
	WatchID string
	// Replay is the recording StartReplay shows, ReplayFile its name.
	Replay     *replay.Replay
	ReplayFile string
	// Replays lists recent replays for the menu (newest first); nil
	// leaves the menu's replay list empty.
	Replays func() []ReplayInfo
	// Ladder is the arena's ladder, for the menu's Ladder and My players;
	// nil takes the Hall's (HallOptions.Ladder), and without either the
	// menu shows neither.
	Ladder Ladder
	// OpenReplay loads the replay of id (a ladder battle's, Ladder's
	// ReplayID) as this session may have it, for the ladder's pages; nil
	// watches none.
	OpenReplay func(id string) (*replay.Replay, error)
	// FPS caps this viewer's frames per second: 0 means 15 with a Hall,
	// else Settings.FPS. A slow viewer skips frames; it never holds up a
	// battle.
	FPS int
	// CanStart lets the session start private battles (the lobby).
	CanStart bool
	// Admin may stop any battle from the battle list (x).
	Admin bool
	// Notice carries messages the server wants shown (an idle warning,
	// a shutdown); each is shown in the status line for a while.
	Notice <-chan string
	// Getenv reads the client's environment. The session itself no
	// longer does: the colour depth is what the screen reports (its
	// terminfo, which tui/ssh builds from the client's TERM and
	// COLORTERM), so the depth named is the depth sent.
	Getenv func(string) string
	// MayRead says whose problems and print log the session may read in
	// the errors pane, by the team's class id ("" when unknown); of the
	// other teams it shows only how many there are. nil reads them all.
	MayRead func(class string) bool
	// Key is the session's proven identity (tui/ssh: the SSH key's
	// fingerprint; "" without one); the private battles it starts are
	// recorded as its (Setup.OwnerKey).
	Key string
	// Terminfo is the terminal's description the screen was made with
	// (tcell.NewTerminfoScreenFromTtyTerminfo); with it, viewers of a hall
	// battle on the same kind of terminal share each frame's drawing and
	// its bytes (share.go). nil draws every frame through tcell alone.
	Terminfo *terminfo.Terminfo
	// Settings are the lobby's defaults; zero takes the Hall's.
	Settings Settings
	// NewSeed draws the lobby's seeds; nil uses math/rand.
	NewSeed func() uint64
	// Shown, when set, is called on the session's goroutine after every
	// frame is shown (tests read a SimulationScreen there).
	Shown func()
}

// RunSession runs one person's terminal UI on scr until they quit (q, or
// Ctrl-C from any screen) or ctx ends; then it leaves every battle it
// watched, stops the private ones it owned, finalises scr and returns nil.
// The battles it watches never wait for it: it draws the newest frame at
// its own pace and skips the rest.
//
// RunSession initialises scr itself. It returns an error only when scr
// cannot be initialised or the start asked for cannot be shown (an
// unknown battle for StartWatch, no Replay for StartReplay): then nothing
// was drawn and the caller may say so on the connection in plain text.
//
// The local program is a session too (see New), without a Hall.
func RunSession(ctx context.Context, scr tcell.Screen, o SessionOptions) error {
	return runSession(ctx, scr, o, nil)
}

// runSession is RunSession; made, when set, sees the session's App before
// it starts (tests read what it shows through it).
func runSession(ctx context.Context, scr tcell.Screen, o SessionOptions, made func(*App)) error {
	if scr == nil {
		return errors.New("session: no screen")
	}
	a, err := newSession(ctx, scr, o)
	if err != nil {
		return err
	}
	if made != nil {
		made(a)
	}
	if err := scr.Init(); err != nil {
		return &TerminalError{Err: err}
	}
	defer scr.Fini()
	if a.hall != nil {
		a.hall.join(a)
		defer a.hall.part(a)
	}
	return a.loop(a.openSession)
}

// newSession makes the App of a session, checking what it is to show.
func newSession(ctx context.Context, scr tcell.Screen, o SessionOptions) (*App, error) {
	if o.Hall == nil && o.Start != StartReplay {
		return nil, errors.New("session: no hall (the local program uses New)")
	}
	if o.Start == "" {
		o.Start = StartMenu
	}
	switch o.Start {
	case StartMenu, StartLobby:
	case StartWatch:
		if _, err := o.Hall.find(o.WatchID, o.User); err != nil {
			return nil, err
		}
	case StartReplay:
		if o.Replay == nil {
			return nil, errors.New("session: no replay to show")
		}
	default:
		return nil, fmt.Errorf("session: unknown start %q", o.Start)
	}
	set := o.Settings
	var src Source
	if o.Hall != nil {
		if set == (Settings{}) {
			set = o.Hall.o.Settings
		}
		src = o.Hall.o.Source
	}
	if o.FPS < 1 {
		o.FPS = 15
	}
	a := New(Options{Screen: scr, Source: src, Settings: set, NewSeed: o.NewSeed, Shown: o.Shown,
		Replay: o.Replay, ReplayFile: o.ReplayFile})
	a.hall, a.so, a.ctx, a.fps = o.Hall, o, ctx, o.FPS
	a.screen = menuScreen
	return a, nil
}

// account is what the hall's per-user cap counts the session's battles by.
func (a *App) account() string {
	if a.so.Account != "" {
		return a.so.Account
	}
	return a.so.User
}

// followIdentity catches up with who the session is (Whoami): a user name
// given to its key meanwhile replaces the provisional one, in the menu and
// as the owner of its battles.
func (a *App) followIdentity() {
	if a.so.Whoami == nil || a.hall == nil {
		return
	}
	now := a.so.Whoami()
	if now == "" || now == a.so.User {
		return
	}
	a.hall.rename(a.so.User, now)
	a.so.User = now
	a.dirty = true
}

// leftNote tells an owner who left a battle that others watch that it
// goes on for them, and how to stop it.
func (a *App) leftNote(b *liveBattle, viewers int) {
	who := "its viewer"
	if viewers > 1 {
		who = fmt.Sprintf("its %d viewers", viewers)
	}
	a.note = fmt.Sprintf("battle %s goes on for %s: Live battles takes you back, x there stops it", b.id, who)
	a.noteTil, a.dirty = time.Now().Add(10*time.Second), true
}

// openSession shows the session's first screen.
func (a *App) openSession() error {
	switch a.so.Start {
	case StartLobby:
		if a.so.CanStart {
			a.initGames("")
			a.screen = lobbyScreen
		}
	case StartWatch:
		if err := a.watch(a.so.WatchID); err != nil {
			a.menu.message = err.Error() // gone since newSession looked
		}
	case StartReplay:
		a.watchReplay(a.so.Replay)
	}
	if a.hall != nil && a.screen != lobbyScreen {
		a.initGames("") // the lobby is ready when the menu opens it
	}
	return nil
}

// stopForAll stops the session's battle for everyone watching it (its
// owner's confirmed x) and goes back to the menu.
func (a *App) stopForAll() {
	v := a.w
	if v == nil || v.b == nil || !v.control {
		return
	}
	b := v.b
	a.hall.release(b)
	a.toMenu()
	a.note, a.noteTil = "battle "+b.id+" stopped for everyone", time.Now().Add(5*time.Second)
}
