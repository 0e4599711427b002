package scripts_test

import (
	"os"
	"path/filepath"
	"reflect"
	"runtime"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/squarebattle/squarebattle/engine"
	"github.com/squarebattle/squarebattle/luabind"
)

// TestHostileModPlayers fields every hostile script of luabind's suite as a
// player of each shipped rule mod, next to that game's own players. The
// script's run function becomes the game's entry. Whatever it does, the
// rules must keep going and the other teams must play exactly the battle
// they play against a player that never answers: same ticks, same scores,
// same board. A script that errors or loops is charged to its own team;
// one whose answer is legal data in a mod (NaN, an unknown word) is simply
// ignored by the rules, as a missing answer is — except in a game whose
// rules give such an answer a meaning (snake: the snake stays and dies, as
// in the original program): there the battle may instead be the one
// against a player that always answers that way.
func TestHostileModPlayers(t *testing.T) {
	t.Parallel() // whole games: beside another when a core is free (the soaks, which count goroutines, run first)

	if testing.Short() {
		t.Skip("plays 3 × 42 mod battles")
	}
	paths, _ := filepath.Glob("../luabind/testdata/hostile/*.lua")
	if len(paths) < 30 {
		t.Fatalf("found %d hostile scripts", len(paths))
	}
	// All kinds of hostile script are spread through the names, so every
	// n-th keeps each kind covered. The race detector looks for data
	// races, not for holes in the sandbox: every fifth. A plain `go test
	// ./...` plays every fourth, to stay quick; with SOAK_ROUNDS set (as
	// .ci/run sets it for its plain pass) every one.
	stride := 4
	switch {
	case raceEnabled:
		stride = 5
	case os.Getenv("SOAK_ROUNDS") != "":
		stride = 1
	}
	sample := paths[:0:0]
	for i, p := range paths {
		if i%stride == 0 {
			sample = append(sample, p)
		}
	}
	paths = sample
	games := []struct {
		game, entry  string
		players      []string
		size, rounds int
		instructions int
		invalid      string // an answer the rules act on that is not a legal move, or ""
	}{
		{"paint", "strategy", []string{"random", "greedy"}, 40, 20, 0, ""},
		{"snake", "move", []string{"hungry", "cautious"}, 25, 40, 1_000_000, `"stay"`},
		{"orbs", "turn", []string{"explorer"}, 0, 20, 0, ""},
	}
	idle := "return { name = \"Idle\", ENTRY = function() end }"
	for _, gm := range games {
		play := func(t *testing.T, src string) *engine.Snapshot {
			t.Helper()
			lim := luabind.DefaultLimits()
			lim.MemoryBytes = 4 << 20 // as luabind's hostile suite: its memory scripts fill this within a few calls
			if gm.instructions > 0 {
				lim.Instructions = gm.instructions
			}
			folder := gameFolder(t, gm.game, map[string]string{"hostile.lua": strings.Replace(src, "run = function", gm.entry+" = function", 1)})
			g, err := luabind.LoadGame(folder, gm.game, lim)
			if err != nil {
				t.Fatal(err)
			}
			classes := findPlayers(t, g, append([]string{"hostile"}, gm.players...))
			b, err := luabind.NewModBattle(g, classes, engine.ModOptions{Size: gm.size, Rounds: gm.rounds, Seed: 7, Workers: 2}, rulesBudget)
			if err != nil {
				t.Fatal(err)
			}
			defer b.Close()
			for b.Step() {
			}
			if b.Err() != nil {
				t.Fatalf("the rules stopped: %v", b.Err())
			}
			return b.Snapshot()
		}
		t.Run(gm.game, func(t *testing.T) {
			want := play(t, strings.Replace(idle, "ENTRY", "run", 1))
			var wantInvalid *engine.Snapshot
			if gm.invalid != "" {
				wantInvalid = play(t, strings.Replace(strings.Replace(idle, "ENTRY", "run", 1), "function() end", "function() return "+gm.invalid+" end", 1))
			}
			for _, path := range paths {
				t.Run(strings.TrimSuffix(filepath.Base(path), ".lua"), func(t *testing.T) {
					src, err := os.ReadFile(path)
					if err != nil {
						t.Fatal(err)
					}
					got := play(t, string(src))
					h := got.Teams[0].Stats
					if h.Timeouts+h.Errors > 0 {
						// The first problem may be a memory reset, which
						// names the limit; one of them names the line.
						located := false
						for _, p := range got.FirstProblems {
							if p.Team != 0 {
								t.Errorf("a problem of team %d: %+v", p.Team, p)
							}
							located = located || strings.Contains(p.Message, "hostile.lua:")
						}
						if !located {
							t.Errorf("charged %+v, but no problem shown names a line: %+v", h, got.FirstProblems)
						}
					} else if !strings.Contains(string(src), "-- mod: ignored") {
						t.Errorf("hostile stats %+v: no fault counted", h)
					}
					for _, p := range append(got.FirstProblems, got.Problems...) {
						if !utf8.ValidString(p.Message) || strings.ContainsAny(p.Message, "\n\r") {
							t.Errorf("problem message is not one line of UTF-8: %q", p.Message)
						}
					}
					w := want
					if wantInvalid != nil && sameForOthers(got, wantInvalid) && !sameForOthers(got, want) {
						w = wantInvalid
					}
					if got.Round != w.Round {
						t.Errorf("ran %d ticks, want %d", got.Round, w.Round)
					}
					for team := 1; team < len(got.Teams); team++ {
						if g, w := got.Teams[team], w.Teams[team]; g.Stats != w.Stats || !reflect.DeepEqual(g.Values, w.Values) {
							t.Errorf("%s's battle changed:\n got %+v %v\nwant %+v %v", gm.players[team-1], g.Stats, g.Values, w.Stats, w.Values)
						}
					}
					if !reflect.DeepEqual(got.Cells, w.Cells) || !reflect.DeepEqual(got.Marks, w.Marks) {
						t.Errorf("the board differs from the battle against a player that never answers (or, where the rules act on one, always answers something invalid)")
					}
					runtime.GC()
					var m runtime.MemStats
					runtime.ReadMemStats(&m)
					if m.HeapAlloc > 512<<20 {
						t.Errorf("the process holds %d MB after the battle", m.HeapAlloc>>20)
					}
				})
			}
		})
	}
}

// sameForOthers reports whether two battles are the same but for the first
// team's own statistics: ticks, the other teams' statistics and scores, the
// board.
func sameForOthers(a, b *engine.Snapshot) bool {
	if a.Round != b.Round || len(a.Teams) != len(b.Teams) {
		return false
	}
	for team := 1; team < len(a.Teams); team++ {
		if a.Teams[team].Stats != b.Teams[team].Stats || !reflect.DeepEqual(a.Teams[team].Values, b.Teams[team].Values) {
			return false
		}
	}
	return reflect.DeepEqual(a.Cells, b.Cells) && reflect.DeepEqual(a.Marks, b.Marks)
}
