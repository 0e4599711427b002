package tui

import (
	"errors"
	"io/fs"
	"strings"
	"testing"

	"github.com/gdamore/tcell/v2"

	"github.com/squarebattle/squarebattle/luabind"
	"github.com/squarebattle/squarebattle/scripts"
)

// orbsSource offers the shipped orbs game, whose rules choose the board's
// side from the seed, through the real rules (Game.BoardSize).
type orbsSource struct {
	*scriptSource
	orbs *luabind.Game
}

func (s *orbsSource) Games() []Game {
	return []Game{{Name: "SquareBattle"}, {ID: "orbs", Name: "Orbs", Size: 36, Rounds: 256,
		SeedSize: func(seed uint64, teams int) (int, error) {
			return s.orbs.BoardSize(seed, teams, 256, false, 50_000_000)
		}}}
}

func (s *orbsSource) GameEntries(id string) []Entry {
	if id == "" {
		return s.Entries()
	}
	var out []Entry
	for _, c := range s.orbs.Players() {
		out = append(out, Entry{ID: c.ID, Name: c.Name, File: c.File})
	}
	return out
}

// orbsGame loads the shipped orbs game.
func orbsGame(t testing.TB) *luabind.Game {
	t.Helper()
	sub, err := fs.Sub(scripts.FS, "orbs")
	if err != nil {
		t.Fatal(err)
	}
	g, err := luabind.LoadGame(sub, "scripts/orbs", luabind.DefaultLimits())
	if err != nil {
		t.Fatal(err)
	}
	return g
}

// TestLobbySeedSize: a game whose rules choose the board's side shows the
// side they choose for the lobby's seed (orbs: 31 for seed 4, not its
// game.yaml's 36); Right changes it from there, and typing 0 gives the
// choice back to the rules.
func TestLobbySeedSize(t *testing.T) {
	g := orbsGame(t)
	src := &orbsSource{scriptSource: newScriptSource(t), orbs: g}
	s := open(t, 80, 24, "", Options{Source: src, Game: "orbs", Settings: Settings{Size: 32, Rounds: 300, Speed: 20, FPS: 60, Seed: 4}})
	text := s.waitText("Board size")
	if !strings.Contains(text, "31 × 31 (from the seed)") {
		t.Errorf("the lobby does not show the rules' 31×31 for seed 4:\n%s", text)
	}
	s.key(tcell.KeyTab)
	s.key(tcell.KeyTab)
	s.key(tcell.KeyDown) // Game, then Board size
	s.key(tcell.KeyRight)
	s.waitText("35 × 35")
	s.keys("0")
	s.waitText("31 × 31 (from the seed)")
}

// longDirSource is the shipped players read from a deep folder.
type longDirSource struct{ *scriptSource }

func (longDirSource) Dir() string { return "/home/somebody/projects/squarebattle-fork/players/scripts" }

// TestLobbyFitsNarrow: at 80 columns a deep scripts folder is named by its
// last folder, not cut inside a name, and the footer's hints are whole.
func TestLobbyFitsNarrow(t *testing.T) {
	s := open(t, 80, 24, "", Options{Source: longDirSource{newScriptSource(t)}})
	text := s.waitText("Start Battle")
	if !strings.Contains(text, " Players (…/scripts)") {
		t.Errorf("the folder is not shortened to its last name:\n%s", text)
	}
	lines := strings.Split(strings.TrimRight(text, "\n"), "\n")
	if foot := lines[len(lines)-1]; strings.Contains(foot, "…") || !strings.HasSuffix(foot, "q quit") {
		t.Errorf("the footer is cut: %q", foot)
	}
}

// TestHallCapsSeedSize: a hall's board size cap holds for a game whose
// rules choose the size: the size asked is the one they choose (orbs: 31
// for seed 4).
func TestHallCapsSeedSize(t *testing.T) {
	g := orbsGame(t)
	h := newHall(t, HallOptions{Source: &orbsSource{scriptSource: newScriptSource(t), orbs: g}, MaxSize: 30})
	var ce *CapError
	if err := h.checkCaps(Setup{Game: "orbs", Players: []string{"explorer", "spreader"}, Size: 0, Rounds: 10, Seed: 4}); !errors.As(err, &ce) || ce.Asked != 31 {
		t.Errorf("orbs at seed 4 in a hall capped at 30: %v, want the cap on its 31", err)
	}
	if err := h.checkCaps(Setup{Players: []string{"explorer"}, Size: 0, Rounds: 10, Seed: 4}); err == nil {
		t.Error("size 0 for a game whose rules choose none passed the caps")
	}
}

// BenchmarkOrbsBoardSize: what the lobby pays on the UI goroutine each
// time the seed or the team count changes for a game whose rules choose
// the board's size: loading orbs' rules and running their size function.
func BenchmarkOrbsBoardSize(b *testing.B) {
	g := orbsGame(b)
	for i := 0; b.Loop(); i++ {
		if _, err := g.BoardSize(uint64(i+1), 2, 256, false, 50_000_000); err != nil {
			b.Fatal(err)
		}
	}
}
