// Package tui is the terminal front end: the lobby where people pick teams,
// and the battle screen with the arena, the team table and the status bar.
// It is the only package that touches the screen (tcell). It never reads a
// live battle from the UI goroutine: a driver goroutine steps the battle and
// publishes immutable engine snapshots, which the UI draws at a capped
// frame rate.
//
// A session (App) is one screen and at most one viewer onto a battle. The
// local program is one session whose battles are its own; over SSH a Hall
// holds the battles many sessions watch at once. A driver hands each
// viewer its frames through a mailbox that keeps only the newest, so a
// battle never waits for a viewer, however slow its terminal.
package tui

import (
	"time"

	"github.com/squarebattle/squarebattle/engine"
	"github.com/squarebattle/squarebattle/engine/bot"
	"github.com/squarebattle/squarebattle/engine/replay"
	"github.com/squarebattle/squarebattle/tui/human"
)

// Entry is one player class the lobby lists.
type Entry struct {
	ID   string // class id: the file's base name
	Name string // display name; empty for classes that are only replicated into
	File string
	// Problem is the load error ("file:line: message"); such an entry is
	// listed but cannot be picked.
	Problem string
}

// Starting reports whether the entry can start a team.
func (e Entry) Starting() bool { return e.Name != "" && e.Problem == "" }

// Setup is the battle the lobby asks for.
type Setup struct {
	// Game is the game played: "" for SquareBattle, else a rule mod's ID
	// (see GameSource).
	Game    string
	Players []string // class id of team i's player
	Size    int      // the board's side; 0: the game's rules choose it (Game.SeedSize)
	Rounds  int
	Seed    uint64
	// Map, when set, is the starting arena (Size is its size) and MapFile
	// names it; a new battle from the lobby has none.
	Map     *engine.Map
	MapFile string
	// OwnerKey is who asked for a private battle as the embedding program
	// proves it (tui/ssh: the SSH key's fingerprint; SessionOptions.Key);
	// the hall hands it to HallOptions.Recording with the battle's replay.
	OwnerKey string
}

// HumanPlayer is the player id of the team a person plays at the keys: a
// Setup's Players hold it where that team goes (at most once). No class id
// starts with '@', so it names no script.
const HumanPlayer = "@human"

// Human is the controller of the team a person plays (a *human.Squad in
// SquareBattle, a *human.Steer in a rule mod). Key runs on the UI
// goroutine and says whether the key was the team's; State is read there
// too; the engine's worker calls the same value's Turn or Call (see
// package human for the locking contract).
type Human interface {
	Key(human.Key) bool
}

// HumanBattle is a Battle with a team played at the keys.
type HumanBattle interface {
	Battle
	Human() (team int, h Human)
}

// HumanSource is a Source whose battles may field a human: HumanGame
// reports whether the game (a GameSource's ID, "" SquareBattle) can be
// played at the keys; the lobby then lists a Human entry.
type HumanSource interface {
	HumanGame(id string) bool
}

// Battle is a battle as the TUI drives it. Only the driver goroutine calls
// its methods (the engine's contract); everybody else reads snapshots.
type Battle interface {
	Step() bool
	Over() bool
	End()
	Snapshot() *engine.Snapshot
	Close()
	// Recorder starts recording the battle's rounds from its current
	// state. The driver calls it once, before the first Step: the rounds
	// feed the rewind buffer and the battle's replay.
	Recorder() *engine.Recorder
	// Header describes the battle for its replay file (rules, scripts and
	// their hashes, players), as the program that built it knows them.
	Header() replay.Header
}

// Logger is a Battle whose teams' scripts print. The driver calls Logs
// (on its goroutine, like every Battle method) for each frame it publishes,
// so the errors-and-log pane shows every team's log; Logs returns a copy
// the caller may keep, at most a bounded number of lines per team.
type Logger interface {
	Logs() [][]string
}

// Timed is a Battle some of whose teams are bots, which answer over a
// pipe or a network: RoundTrips says what each team's last round trip
// took (nil for a team that is no bot), and the team table shows it. The
// driver calls it on its goroutine for each frame it publishes. Round
// trips are for people only: a replay has none.
type Timed interface {
	RoundTrips() []*bot.RoundTrip
}

// Source supplies the players and builds battles. The UI goroutine calls it;
// an implementation that reloads scripts in the background must guard its
// own state and call App.Reload after a change.
type Source interface {
	Entries() []Entry
	// Dir names where the entries come from, for the lobby's title.
	Dir() string
	NewBattle(Setup) (Battle, error)
}

// Game is a game the lobby offers.
type Game struct {
	ID   string // "" for SquareBattle; a rule mod's folder name
	Name string // as shown
	// Size and Rounds are the game's own defaults; 0 keeps the settings'.
	Size, Rounds int
	// SeedSize, when set, is the side of the board the game's rules
	// choose for a seed and a number of teams: the lobby then asks for
	// no size (Setup.Size 0, the rules choose, as they do for a battle
	// of the command line), and shows what SeedSize says the battle will
	// be played on. The UI goroutine calls it; it must be quick.
	SeedSize func(seed uint64, teams int) (int, error)
}

// GameSource is a Source that offers rule mods besides SquareBattle: the
// lobby then has a Game setting, and switching it lists that game's
// players. Entries stays SquareBattle's. The UI goroutine calls it.
type GameSource interface {
	Source
	// Games lists the games, SquareBattle (ID "") first.
	Games() []Game
	// GameEntries lists a game's players ("" is Entries).
	GameEntries(id string) []Entry
}

// Settings are the lobby's adjustable values and the battle screen's pace.
type Settings struct {
	Size      int
	Rounds    int
	TimeLimit time.Duration // 0 = none
	Seed      uint64        // 0 = a fresh random seed for every battle
	Speed     int           // target rounds per second; 0 = unthrottled
	FPS       int           // frame cap
	// HumanPace is the rounds per second of a SquareBattle battle with a
	// human in it and SteerPace a rule mod's; Countdown is the time shown
	// counting down before such a battle's first round.
	HumanPace, SteerPace int
	Countdown            time.Duration
	// Rewind is how many past rounds a live battle keeps for stepping back:
	// 0 means DefaultRewind, a negative number none beyond the current
	// keyframe stretch. Saving a battle never depends on it.
	Rewind int
}

// DefaultRewind is the rewind buffer when Settings.Rewind is 0.
const DefaultRewind = 5000
