//go:build unix

package kits

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/squarebattle/squarebattle/cmd/squarebattle/e2e/harness"
)

// TestKitsPlay watches bots in the terminal UI (tmux): play --bot starts
// the battle at once with the kit's bot in the team table under the name
// it gave in ready; a .bot file is in the lobby's list; a bot that
// crashes is retired in the team table and the errors pane, its log tab
// holding its traceback.
func TestKitsPlay(t *testing.T) {
	harness.NeedTmux(t)
	bin := harness.Program(t)
	cfg := kitConfig(t)
	py := kits[0]
	needKit(t, py)
	fault, err := filepath.Abs(filepath.Join("testdata", "faultbot.py"))
	if err != nil {
		t.Fatal(err)
	}
	// tmux runs the program with no PATH (harness.Isolated): name the
	// interpreter whole.
	python, err := exec.LookPath("python3")
	if err != nil {
		t.Fatal(err)
	}
	kitBot := botCommand(append([]string{python}, py.argv(t, kitSquares)[1:]...))
	scripts := harness.ShippedCopy(t)
	text := "command: " + kitBot + "\nname: Kit Bot\n"
	if err := os.WriteFile(filepath.Join(scripts, "kitbot.bot"), []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name  string
		args  []string
		steps []e2eStep
	}{
		{"play --bot", []string{"--paused", "--seed", "5", "--size", "16", "--rounds", "100", "--bot", kitBot, "explorer"},
			[]e2eStep{
				{nil, "the battle with the bot under its ready name", func(s string) bool {
					return strings.Contains(s, "Explorer") && strings.Contains(s, "Python Squares")
				}},
				{[]string{".", ".", "."}, "round 3 played", func(s string) bool {
					r, _, ok := harness.StatusRound(s)
					return ok && r == 3
				}},
			}},
		{"lobby", nil,
			[]e2eStep{{nil, "the .bot file in the lobby's list", func(s string) bool {
				return strings.Contains(s, "Start Battle") && strings.Contains(s, "Kit Bot") && strings.Contains(s, "kitbot.bot")
			}}}},
		{"crash", []string{"--seed", "5", "--size", "12", "--rounds", "40", "--bot", botCommand([]string{python, fault, "crash"}), "explorer"},
			[]e2eStep{
				{nil, "the battle over, the bot retired in the team table", func(s string) bool {
					return strings.Contains(s, "Fault Bot") && strings.Contains(s, "retired in round 2")
				}},
				{[]string{"Escape", "e"}, "the errors pane with the retirement", func(s string) bool {
					return strings.Contains(s, "Fault Bot retired in round 2: bot: retired, it crashed")
				}},
				{[]string{"Right", "Right"}, "the bot's log tab with its traceback", func(s string) bool {
					return strings.Contains(s, "ZeroDivisionError")
				}},
			}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			args := append([]string{"play", "--config", cfg, "--scripts", scripts}, tc.args...)
			tm := harness.StartTmux(t, bin, args...)
			for _, st := range tc.steps {
				if len(st.keys) > 0 {
					tm.Send(st.keys...)
				}
				tm.WaitFor(st.until, st.what)
			}
			tm.Send("Escape")
			tm.Quit()
			if status, screen := tm.WaitExit(); status != 0 {
				t.Fatalf("exit status %d; screen:\n%s", status, harness.Framed(screen))
			}
		})
	}
}

// e2eStep sends keys (tmux send-keys names) and waits until the screen
// satisfies until.
type e2eStep struct {
	keys  []string
	what  string
	until func(screen string) bool
}
