package tui

import (
	"strings"
	"testing"
)

// TestStatusScreens: the battle screen at 80×24 with a 20-digit seed in
// each state the status bar tells (goldens status-NAME-80x24): the bar
// shows the round, the state and the speed whole, the seed whole or as
// its first digits, and a prompt whole. The problem counts are
// TestProblemsByKind's; a running battle's bar, whose round and speed
// move, is TestStatusGolden's.
func TestStatusScreens(t *testing.T) {
	t.Parallel() // a session of its own, mostly waiting on the battle's pace and frames

	paused := func(t *testing.T) *session {
		s := open(t, 80, 24, "", Options{Paused: true, Start: &Setup{Players: []string{"explorer", "pinwheel"}, Size: 24, Rounds: 1500, Seed: maxSeed}})
		s.waitText("Round 0/1500")
		s.keys(".....")
		s.waitText("Round 5/1500")
		return s
	}
	for _, tc := range []struct {
		name string
		show func(t *testing.T) string
		want []string
	}{
		{"paused", func(t *testing.T) string {
			return paused(t).screen()
		}, []string{"Round 5/1500", "PAUSED", "20 rounds/s", "seed 1844…"}},
		{"speed", func(t *testing.T) string {
			s := paused(t)
			s.keys("+")
			return s.waitText("50 rounds/s")
		}, []string{"Round 5/1500", "PAUSED", "speed 50 rounds/s"}},
		{"quit", func(t *testing.T) string {
			s := paused(t)
			s.keys("q")
			return s.waitText("q again")
		}, []string{"5/1500", "the battle is running: q again (or y) quits, any other key stays"}},
		{"over", func(t *testing.T) string {
			s := open(t, 80, 24, "", Options{Settings: Settings{Size: 12, Rounds: 60, Speed: 200, FPS: 60},
				Start: &Setup{Players: []string{"linedancer", "explorer"}, Size: 12, Rounds: 60, Seed: maxSeed}})
			return s.waitText("r replay (same seed)")
		}, []string{"Round ", "│ over │", "seed 1844…"}},
		{"replay", func(t *testing.T) string {
			su := Setup{Players: []string{"explorer", "pinwheel"}, Size: 24, Rounds: 150, Seed: maxSeed}
			name := recordBattle(t, newScriptSource(t), su)
			s := open(t, 80, 24, "", Options{Replay: openReplay(t, name), ReplayFile: name, Paused: true})
			s.waitText("Round 0/150")
			s.keys("g20\r")
			return s.waitText("Round 20/150")
		}, []string{"Round 20/150", "REPLAY", "PAUSED", "20 rounds/s"}},
		{"paint", func(t *testing.T) string {
			su := paintSetup
			su.Seed = maxSeed
			s := open(t, 80, 24, "", Options{Source: newGameSource(t), Paused: true, Start: &su})
			s.waitText("Round 0/80")
			s.keys(".....")
			return s.waitText("Round 5/80")
		}, []string{"Round 5/80", "PAUSED", "20 rounds/s", "seed 1844…"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			text := tc.show(t)
			lines := strings.Split(strings.TrimSuffix(text, "\n"), "\n")
			bar := lines[len(lines)-1]
			for _, want := range tc.want {
				if !strings.Contains(bar, want) {
					t.Errorf("the status bar lacks %q: %q", want, bar)
				}
			}
			golden(t, "status-"+tc.name+"-80x24", text)
		})
	}
}
