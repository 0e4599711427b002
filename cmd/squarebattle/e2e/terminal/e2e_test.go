//go:build unix

package terminal

import (
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/squarebattle/squarebattle/cmd/squarebattle/e2e/harness"

	"github.com/squarebattle/squarebattle/engine/replay"
)

// The end-to-end test runs the real binary in a real terminal: a detached
// tmux session on a private server, driven with send-keys and read back
// with capture-pane. Nothing sleeps for a fixed time; every step polls the
// screen until what it waits for is there, or fails with the last screen.

// e2eStep sends keys (tmux send-keys names: "Space", "Enter", "Down", ".")
// and then waits until the screen satisfies until.
type e2eStep struct {
	keys  []string
	what  string
	until func(screen string) bool
}

func TestE2E(t *testing.T) {
	t.Parallel() // a program in tmux: mostly waiting on its pace and on the screen
	harness.NeedTmux(t)
	bin := harness.Program(t)

	// The battle's paused round when it was paused again, for the step after.
	var pausedAt int
	// Team names the lobby shows, to find them again in the battle.
	var lobbyTeams []string

	// A recorded battle for the replay viewer, and where play --record
	// writes its own.
	files := t.TempDir()
	recorded := filepath.Join(files, "seed2.sbr")
	run := exec.Command(bin, "run", "--record", recorded, "--seed", "2", "--size", "24", "--rounds", "200", "explorer", "pinwheel")
	if out, err := run.CombinedOutput(); err != nil {
		t.Fatalf("run --record: %v\n%s", err, out)
	}
	played := filepath.Join(files, "played.sbr")
	var lastRound int

	// Seed 7 (explorer against pinwheel on 24×24) ends in round 72, 3.5 s
	// after Space at the default 20 rounds/s: too close to the pause that
	// follows on a loaded machine. Seed 2 plays all 200 rounds.
	tests := []struct {
		name  string
		args  []string
		steps []e2eStep
		after func(t *testing.T) // checks once the program has exited
	}{
		{
			name: "battle keys",
			args: []string{"play", "--paused", "--seed", "2", "--size", "24", "--rounds", "200", "explorer", "pinwheel"},
			steps: []e2eStep{
				{nil, "the battle screen, paused at round 0", func(s string) bool {
					r, n, ok := harness.StatusRound(s)
					return ok && r == 0 && n == 200 && harness.StatusState(s) == "PAUSED" && strings.Contains(s, "seed 2") &&
						strings.Contains(s, "Explorer") && strings.Contains(s, "Pinwheel")
				}},
				{[]string{"."}, "round 1 after one step", func(s string) bool {
					r, _, ok := harness.StatusRound(s)
					return ok && r == 1 && harness.StatusState(s) == "PAUSED"
				}},
				{[]string{"."}, "round 2 after another step", func(s string) bool {
					r, _, ok := harness.StatusRound(s)
					return ok && r == 2 && harness.StatusState(s) == "PAUSED"
				}},
				{[]string{"Space"}, "running past round 2", func(s string) bool {
					r, _, ok := harness.StatusRound(s)
					return ok && r > 2 && harness.StatusState(s) == "running"
				}},
				{[]string{"Space"}, "paused again", func(s string) bool {
					r, _, ok := harness.StatusRound(s)
					if ok && harness.StatusState(s) == "PAUSED" {
						pausedAt = r
						return true
					}
					return false
				}},
				{[]string{"."}, "one round past where it paused (the pause held)", func(s string) bool {
					r, _, ok := harness.StatusRound(s)
					return ok && r == pausedAt+1 && harness.StatusState(s) == "PAUSED"
				}},
				{[]string{"?"}, "the help overlay", func(s string) bool {
					return strings.Contains(s, "this help") && strings.Contains(s, "any key closes this help")
				}},
				{[]string{"x"}, "the help overlay closed by any key", func(s string) bool {
					r, _, ok := harness.StatusRound(s)
					return ok && r == pausedAt+1 && !strings.Contains(s, "this help")
				}},
			},
		},
		{
			name: "rewind and record",
			args: []string{"play", "--paused", "--record", played, "--seed", "2", "--size", "24", "--rounds", "200", "explorer", "pinwheel"},
			steps: []e2eStep{
				{[]string{".", ".", ".", "."}, "round 4", func(s string) bool {
					r, _, ok := harness.StatusRound(s)
					return ok && r == 4
				}},
				{[]string{"Left", "Left"}, "round 2, rewinding", func(s string) bool {
					r, _, ok := harness.StatusRound(s)
					return ok && r == 2 && strings.Contains(s, "REWIND (live: round 4)")
				}},
				{[]string{"End"}, "back at the live round 4", func(s string) bool {
					r, _, ok := harness.StatusRound(s)
					return ok && r == 4 && !strings.Contains(s, "REWIND") && harness.StatusState(s) == "PAUSED"
				}},
				{[]string{"Right"}, "round 5, played", func(s string) bool {
					r, _, ok := harness.StatusRound(s)
					return ok && r == 5
				}},
			},
			after: func(t *testing.T) {
				rep, err := replay.Open(played)
				if err != nil {
					t.Fatalf("play --record: %v", err)
				}
				if rep.Damage != nil || rep.Result != nil || rep.Timeline.Last() != 5 {
					t.Fatalf("play --record wrote damage %v, result %v, last round %d; want 5 rounds, unfinished", rep.Damage, rep.Result, rep.Timeline.Last())
				}
			},
		},
		{
			name: "replay",
			args: []string{"replay", "--paused", recorded},
			steps: []e2eStep{
				{nil, "the replay paused at round 0", func(s string) bool {
					r, n, ok := harness.StatusRound(s)
					return ok && r == 0 && n == 200 && strings.Contains(s, "REPLAY of") && harness.StatusState(s) == "PAUSED"
				}},
				{[]string{".", "Right"}, "round 2", func(s string) bool {
					r, _, ok := harness.StatusRound(s)
					return ok && r == 2
				}},
				{[]string{"Left"}, "round 1", func(s string) bool {
					r, _, ok := harness.StatusRound(s)
					return ok && r == 1
				}},
				{[]string{"End"}, "the result at the last round", func(s string) bool {
					r, _, ok := harness.StatusRound(s)
					lastRound = r
					return ok && harness.StatusState(s) == "over" && strings.Contains(s, "r watch again")
				}},
				{[]string{"g", "1", "5", "Enter"}, "round 15 after g 15 Enter", func(s string) bool {
					r, _, ok := harness.StatusRound(s)
					return ok && r == 15
				}},
				{[]string{"r"}, "playing again from round 0", func(s string) bool {
					r, _, ok := harness.StatusRound(s)
					return ok && r < lastRound && harness.StatusState(s) == "running"
				}},
			},
		},
		{
			name: "paint",
			args: []string{"play", "--paused", "--game", "paint", "--seed", "3", "--rounds", "50", "greedy", "random"},
			steps: []e2eStep{
				{nil, "a paint battle paused at round 0, with the game's score columns", func(s string) bool {
					r, n, ok := harness.StatusRound(s)
					return ok && r == 0 && n == 50 && strings.Contains(s, "Area") && strings.Contains(s, "Painted") &&
						strings.Contains(s, "Greedy Painter") && !strings.Contains(s, "Births")
				}},
				{[]string{".", "."}, "round 2", func(s string) bool {
					r, _, ok := harness.StatusRound(s)
					return ok && r == 2
				}},
				{[]string{"Left"}, "round 1, rewinding", func(s string) bool {
					r, _, ok := harness.StatusRound(s)
					return ok && r == 1
				}},
			},
		},
		{
			name: "lobby",
			args: nil, // the bare command opens the lobby
			steps: []e2eStep{
				{nil, "the lobby with no teams", func(s string) bool {
					return strings.Contains(s, "Start Battle") && strings.Contains(s, "shipped players") &&
						len(harness.LobbyTeamRows(s)) == 0
				}},
				{[]string{"Enter"}, "one team after Enter", func(s string) bool {
					return len(harness.LobbyTeamRows(s)) == 1
				}},
				{[]string{"Down", "Enter"}, "two teams after Down, Enter", func(s string) bool {
					lobbyTeams = harness.LobbyTeamRows(s)
					return len(lobbyTeams) == 2
				}},
				// The lobby draws a random seed: some battles are over in
				// round 1 (both teams dead), so "over" counts too.
				{[]string{"s"}, "the battle of the two teams started", func(s string) bool {
					st := harness.StatusState(s)
					return (st == "running" || st == "over") &&
						strings.Contains(s, lobbyTeams[0]) && strings.Contains(s, lobbyTeams[1])
				}},
			},
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			start := time.Now()
			tm := harness.StartTmux(t, bin, tc.args...)
			for _, st := range tc.steps {
				if len(st.keys) > 0 {
					tm.Send(st.keys...)
				}
				tm.WaitFor(st.until, st.what)
			}
			tm.Quit()
			status, screen := tm.WaitExit()
			if status != 0 {
				t.Fatalf("q: exit status %d, want 0; screen:\n%s", status, harness.Framed(screen))
			}
			// tcell left the alternate screen: the UI is gone from the pane.
			if _, _, ok := harness.StatusRound(screen); ok || strings.Contains(screen, "Start Battle") {
				t.Errorf("the UI is still on the screen after exit (terminal not restored):\n%s", harness.Framed(screen))
			}
			if tc.after != nil {
				tc.after(t)
			}
			t.Logf("%d steps in %v", len(tc.steps), time.Since(start).Round(time.Millisecond))
		})
	}
}
