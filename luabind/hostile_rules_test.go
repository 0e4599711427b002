package luabind

import (
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"testing/fstest"
	"unicode/utf8"

	"github.com/squarebattle/squarebattle/engine"
)

// TestHostileRules loads every rules.lua in testdata/hostile-rules as a game
// with two well-behaved players and plays it. The rules are trusted to be
// fair, not to be correct: whatever they do, loading or the battle must stop
// with one line of UTF-8 that contains the file's "-- want:" text (the
// rules' line, or the limit or key at fault), within the rounds asked for
// and without the process growing past its bound.
func TestHostileRules(t *testing.T) {
	paths, lim := hostileSuite(t, "testdata/hostile-rules")
	player := `return { name = "P", run = function(view, memory) memory.n = (memory.n or 0) + 1; return memory.n end }`
	for _, path := range paths {
		t.Run(strings.TrimSuffix(filepath.Base(path), ".lua"), func(t *testing.T) {
			src, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			first, _, _ := strings.Cut(string(src), "\n")
			want, ok := strings.CutPrefix(first, "-- want: ")
			if !ok {
				t.Fatal("no '-- want:' line")
			}
			// Rules with a size hook choose the board; the others get 8×8.
			size, rounds := 8, 20
			if strings.Contains(string(src), "size = function") {
				size = 0
			}
			stopped := func() error {
				folder := fstest.MapFS{"rules.lua": {Data: src}, "p.lua": {Data: []byte(player)}}
				g, err := LoadGame(folder, "hostile", lim)
				if err != nil {
					return err
				}
				if g.Info.Protocol == SquareBattleProtocol {
					return squareBattleRules(t, g, lim, rounds)
				}
				p, err := g.Find("p")
				if err != nil {
					return err
				}
				b, err := NewModBattle(g, []*Class{p, p}, engine.ModOptions{Size: size, Rounds: rounds, Seed: 3, Workers: 2}, 1_000_000)
				if err != nil {
					return err
				}
				defer b.Close()
				for b.Step() {
				}
				if b.Round() > rounds {
					t.Errorf("played %d rounds of %d", b.Round(), rounds)
				}
				return b.Err()
			}()
			switch {
			case stopped == nil:
				t.Fatalf("the battle went on; want an error containing %q", want)
			case !strings.Contains(stopped.Error(), want):
				t.Errorf("stopped with %q, want it to contain %q", stopped, want)
			case !utf8.ValidString(stopped.Error()) || strings.ContainsAny(stopped.Error(), "\r\n"):
				t.Errorf("not one line of UTF-8: %q", stopped)
			default:
				t.Logf("stopped with: %v", stopped)
			}
			runtime.GC()
			var m runtime.MemStats
			runtime.ReadMemStats(&m)
			if m.HeapAlloc > 512<<20 {
				t.Errorf("the process holds %d MB after the battle", m.HeapAlloc>>20)
			}
		})
	}
}

// squareBattleRules plays rules of the squarebattle protocol (place,
// resolve, over) with two waiting SquareBattle players and returns what
// stopped the battle.
func squareBattleRules(t *testing.T, g *Game, lim Limits, rounds int) error {
	cat := catalogOf(t, map[string]string{"idle.lua": idle}, lim)
	p, err := cat.Find("idle")
	if err != nil {
		return err
	}
	b, err := NewResolvedBattle(cat, []*Class{p, p}, engine.Options{Size: 8, Rounds: rounds, Seed: 3, Workers: 2}, g, 1_000_000)
	if err != nil {
		return err
	}
	defer b.Close()
	for b.Step() {
	}
	if b.Round() > rounds {
		t.Errorf("played %d rounds of %d", b.Round(), rounds)
	}
	return b.Err()
}
