package terminal

import (
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/squarebattle/squarebattle/cmd/squarebattle/e2e/harness"
)

// humanTmux runs play --human in tmux at a quick pace (env sets the human
// section: the keys in a second or two, as a person would press them, and
// the battle over in a few seconds), recording to file.
func humanTmux(t *testing.T, bin, file string, env []string, args ...string) *harness.Tmux {
	t.Helper()
	work, base := harness.Isolated(t)
	cmd := append(append([]string{"env", "-i"}, base...), env...)
	cmd = append(cmd, "TERM=xterm-256color", bin, "play", "--human", "--record", file)
	return harness.StartTmuxSize(t, 100, 30, work, append(cmd, args...))
}

// verifyIdentical runs replay --verify on file and expects "identical".
func verifyIdentical(t *testing.T, bin, file string) {
	t.Helper()
	out, err := exec.Command(bin, "replay", "--verify", file).CombinedOutput()
	if err != nil || !strings.HasPrefix(string(out), "identical") {
		t.Fatalf("replay --verify %s: %v\n%s", file, err, out)
	}
}

// TestHumanE2E plays SquareBattle as a human over tmux send-keys: the
// countdown, then orders (replicate, Tab to the child, clear the parent's, move,
// attack, the autopilot), the battle to its end, and its replay verifies.
func TestHumanE2E(t *testing.T) {
	t.Parallel() // a program in tmux: mostly waiting on its pace and on the screen
	harness.NeedTmux(t)
	bin := harness.Program(t)
	file := filepath.Join(t.TempDir(), "human.sbr")
	tm := humanTmux(t, bin, file,
		// Parent and child sit still 15 rounds after a replication: time
		// for the keys below to clear the parent's standing order before
		// it could replicate onto its child, however loaded the machine.
		[]string{"SQUAREBATTLE_HUMAN_PACE=10", "SQUAREBATTLE_HUMAN_COUNTDOWN=1", "SQUAREBATTLE_RULES_REPLICATE_ROUNDS=15"},
		"--seed", "5", "--size", "16", "--rounds", "90", "explorer")
	tm.WaitFor(func(s string) bool { return strings.Contains(s, "The battle starts in") }, "the countdown")
	tm.WaitFor(func(s string) bool {
		return strings.Contains(s, "YOU: square #0 of 1") && !strings.Contains(s, "starts in")
	}, "the battle running, the human's first square selected")
	for _, step := range []struct {
		keys []string
		want string
	}{
		// Orders persist, so each one left standing must be harmless
		// whenever its round comes: the parent's replication is cleared
		// once the child is born, and the child's last order attacks
		// away from the parent.
		{[]string{"r", "k", "1"}, "replicate N into"},
		{[]string{"Tab"}, "of 2"},
		{[]string{"BTab", "x"}, "order cleared"},
		{[]string{"Tab", "l"}, "move E"},
		{[]string{"a", "Up"}, "attack N"},
		{[]string{"p", "1"}, "autopilot: "},
	} {
		tm.Send(step.keys...)
		tm.WaitFor(func(s string) bool { return strings.Contains(s, step.want) }, strings.Join(step.keys, " ")+": "+step.want)
	}
	tm.WaitFor(func(s string) bool { return harness.StatusState(s) == "over" }, "the battle's end")
	tm.Quit()
	if status, screen := tm.WaitExit(); status != 0 {
		t.Fatalf("play exited %d:\n%s", status, harness.Framed(screen))
	}
	verifyIdentical(t, bin, file)
}

// TestHumanSnakeE2E steers a human snake over tmux send-keys against
// hungry; the match (a short one: few rounds) records and verifies.
func TestHumanSnakeE2E(t *testing.T) {
	t.Parallel() // a program in tmux: mostly waiting on its pace and on the screen
	harness.NeedTmux(t)
	bin := harness.Program(t)
	file := filepath.Join(t.TempDir(), "snake.sbr")
	tm := humanTmux(t, bin, file,
		[]string{"SQUAREBATTLE_HUMAN_STEER_PACE=20", "SQUAREBATTLE_HUMAN_COUNTDOWN=1"},
		"--game", "snake", "--seed", "3", "--rounds", "80", "hungry")
	tm.WaitFor(func(s string) bool { return strings.Contains(s, "The battle starts in") }, "the countdown")
	for _, step := range []struct {
		keys []string
		want string
	}{
		{[]string{"Up"}, "YOU steer: up"},
		{[]string{"d"}, "YOU steer: right"},
		{[]string{"s"}, "YOU steer: down"},
		{[]string{"Left"}, "YOU steer: left"},
	} {
		tm.Send(step.keys...)
		tm.WaitFor(func(s string) bool { return strings.Contains(s, step.want) }, strings.Join(step.keys, " ")+": "+step.want)
	}
	tm.WaitFor(func(s string) bool { return harness.StatusState(s) == "over" }, "the match's end")
	tm.Quit()
	if status, screen := tm.WaitExit(); status != 0 {
		t.Fatalf("play exited %d:\n%s", status, harness.Framed(screen))
	}
	verifyIdentical(t, bin, file)
}
