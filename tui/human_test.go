package tui

import (
	"fmt"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gdamore/tcell/v2"

	"github.com/squarebattle/squarebattle/engine"
	"github.com/squarebattle/squarebattle/luabind"
	"github.com/squarebattle/squarebattle/tui/human"
)

// humanSource is the shipped players with HumanPlayer played by a Squad
// (its autopilot a real Lua seat, waiting unless picked), as the command
// line builds it.
type humanSource struct {
	*scriptSource
	mu    sync.Mutex
	squad *human.Squad
}

type humanTestBattle struct {
	testBattle
	team  int
	squad *human.Squad
}

func (b humanTestBattle) Human() (int, Human) { return b.team, b.squad }

func (s *humanSource) NewBattle(su Setup) (Battle, error) {
	at := slices.Index(su.Players, HumanPlayer)
	if at < 0 {
		return s.scriptSource.NewBattle(su)
	}
	ids := slices.Clone(su.Players)
	ids[at] = s.cat.Classes()[0]
	ps, err := s.players(ids)
	if err != nil {
		return nil, err
	}
	var squad *human.Squad
	seat := func(o luabind.TeamOptions) (luabind.Seat, error) {
		st, err := luabind.InProcess(o)
		if o.Index == at {
			squad = human.NewSquad(human.SquadOptions{Autopilot: st, Classes: human.ClassesOf(s.cat.Classes()), Pilot: engine.NoClass})
			return squadSeat{st, squad}, err
		}
		return st, err
	}
	b, err := luabind.NewSeatedBattle(s.cat, ps, s.options(su), seat)
	if err != nil {
		return nil, err
	}
	s.mu.Lock()
	s.squad = squad
	s.mu.Unlock()
	return humanTestBattle{testBattle{b}, at, squad}, nil
}

type squadSeat struct {
	luabind.Seat
	q *human.Squad
}

func (s squadSeat) Turn(t *engine.Turn)         { s.q.Turn(t) }
func (s squadSeat) Settle(t *engine.Settlement) { s.q.Settle(t) }
func (s squadSeat) Outside() string             { return engine.OutsideHuman }

// TestHumanScreen: a battle with a human counts down, then runs; the
// human's line says which square is selected, the cursor is drawn on it,
// keys give it orders and Tab cycles the team's squares.
func TestHumanScreen(t *testing.T) {
	t.Parallel() // a session of its own, mostly waiting on the battle's pace and frames

	src := &humanSource{scriptSource: newScriptSource(t)}
	s := open(t, 100, 30, "UTF-8", Options{
		Source:   src,
		Settings: Settings{Size: 24, Rounds: 100000, Speed: 20, FPS: 60, HumanPace: 50, Countdown: 700 * time.Millisecond},
		Start:    &Setup{Players: []string{HumanPlayer, "explorer"}, Size: 24, Rounds: 100000, Seed: 9},
	})
	s.waitText("The battle starts in")
	s.waitText("You are team 1")
	if r, _, _ := statusOf(s.screen()); r != 0 {
		t.Fatalf("round %d during the countdown, want 0", r)
	}
	s.waitFor("the cursor on the human's starting square during the countdown", func(string) bool {
		s.mu.Lock()
		defer s.mu.Unlock()
		if s.snap == nil || s.snap.Round != 0 {
			return false
		}
		row, col, ok := onlyCell(s.snap, 0)
		return ok && s.cursorAt(row, col)
	})
	s.waitFor("the countdown's end and a selected square", func(text string) bool {
		return !strings.Contains(text, "starts in") && strings.Contains(text, "YOU: square #0 of 1")
	})
	// r, north, class 1: the square replicates; then Tab reaches the child.
	s.keys("rk1")
	s.waitText("replicate N into")
	s.waitText("of 2, replicate N")
	s.key(tcell.KeyTab)
	s.waitFor("Tab on the child", func(text string) bool {
		return strings.Contains(text, "YOU: square #") && !strings.Contains(text, "square #0 ")
	})
	s.shiftKey(tcell.KeyBacktab)
	s.waitText("YOU: square #0 of 2")
	// The cursor: the human's selected square, where the squad says.
	src.mu.Lock()
	q := src.squad
	src.mu.Unlock()
	s.waitFor("the cursor on the selected square", func(string) bool {
		s.mu.Lock()
		defer s.mu.Unlock()
		st := q.State()
		return s.snap != nil && st.Selected >= 0 && s.cursorAt(st.Row, st.Col)

	})
}

// cursorAt reports whether the screen last shown has the cursor on the
// arena cell at row, col; the caller holds s.mu.
func (s *session) cursorAt(row, col int) bool {
	x, y, ok := s.view.screenOf(s.snap.Size, s.arena, false, row, col)
	lines := strings.Split(s.text, "\n")
	if !ok || y >= len(lines) {
		return false
	}
	r := []rune(lines[y])
	return x < len(r) && r[x] == '◆'
}

// statusOf reads the round off a screen's status bar.
func statusOf(screen string) (round, limit int, ok bool) {
	i := strings.Index(screen, "Round ")
	if i < 0 {
		return 0, 0, false
	}
	var r, n int
	_, err := fmt.Sscanf(screen[i:], "Round %d/%d", &r, &n)
	return r, n, err == nil
}

// HumanGame: the test source fields a human in SquareBattle only.
func (s *humanSource) HumanGame(id string) bool { return id == "" }

// TestHumanInHall: an SSH session's lobby lists Human; its private battle
// counts down, then the owner's keys give the human's square orders.
func TestHumanInHall(t *testing.T) {
	t.Parallel() // a session of its own, mostly waiting on the battle's pace and frames

	src := &humanSource{scriptSource: newScriptSource(t)}
	h := newHall(t, HallOptions{Source: src, Settings: Settings{Size: 16, Rounds: 10_000, Speed: 50, FPS: 30, HumanPace: 30, Countdown: 500 * time.Millisecond}})
	alice := join(t, h, 100, 30, SessionOptions{User: "alice", Start: StartLobby, CanStart: true}, nil)
	alice.waitText("you, at the keys")
	alice.key(tcell.KeyEnter) // the first player
	for _, e := range src.Entries() {
		if !e.Starting() {
			break
		}
		alice.keys("j") // Human comes after the starting players
	}
	alice.key(tcell.KeyEnter)
	alice.keys("s")
	alice.waitText("You are team 2")
	alice.waitText("The battle starts in")
	alice.waitText("YOU: square #1 of 1")
	alice.keys("ak")
	alice.waitText("attack N")
	alice.keys("?")
	alice.waitText("select your next / previous square")
}
