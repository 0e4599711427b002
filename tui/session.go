package tui

import (
	"context"
	"errors"
	"time"

	"github.com/gdamore/tcell/v2"

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
	// Getenv reads the client's environment (COLORTERM and the like, for
	// the colour depth); nil reads this process's.
	Getenv func(string) string
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
// The local program is a session too (see New), without a Hall.
func RunSession(ctx context.Context, scr tcell.Screen, o SessionOptions) error {
	if scr == nil {
		return errors.New("session: no screen")
	}
	return errors.New("session: not yet wired")
}
