//go:build unix

package terminal

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/squarebattle/squarebattle/cmd/squarebattle/e2e/harness"
)

// loopWait is how long one step of the coder's loop may take: a check
// plays a trial battle in worker processes, which a loaded machine slows.
const loopWait = 60 * time.Second

// TestE2ECoderLoop walks the loop a newcomer goes through, in a shell in an
// 80×24 tmux pane with TERM=xterm (16 colours): squarebattle new writes a
// player; a misspelt constant in it is named by check with a suggestion;
// once fixed, check passes; play shows the battle, whose errors pane
// scrolls, opens one problem whole and has the team's print log on a tab;
// Esc goes back to the lobby with the teams kept, and q quits with status 0.
// Every step waits for what it expects on the screen (joined lines, so
// wrapping at 80 columns does not matter), never for a fixed time.
func TestE2ECoderLoop(t *testing.T) {
	t.Parallel() // a program in tmux: mostly waiting on its pace and on the screen
	harness.NeedTmux(t)
	bin := harness.Program(t)
	work, env := harness.Isolated(t)
	cmd := append(append([]string{"env", "-i"}, env...), "TERM=xterm", "PS1=$ ", "PATH="+filepath.Dir(bin)+":/usr/bin:/bin", "sh")
	tm := harness.StartTmuxSize(t, 80, 24, work, cmd)
	sh := &shell{tm: tm, t: t}
	sh.wait("the shell's prompt", func(s string) bool { return strings.HasPrefix(s, "$ ") })

	sh.run("squarebattle new hunter2")
	sh.wait("new's report", func(s string) bool {
		return strings.Contains(s, "Wrote scripts/hunter2.lua") && strings.Contains(s, "squarebattle play hunter2 explorer") && strings.Contains(s, "exit=0")
	})

	// The newcomer's edits: a line printed every fifth round, a bug that
	// only bites on arenas bigger than check's 16×16 trial, and a typo.
	file := filepath.Join(work, "scripts", "hunter2.lua")
	edit(t, file, "  run = function(self, team, view, row, col)\n", "  run = function(self, team, view, row, col)\n"+
		"    if round() % 5 == 0 then print(\"round\", round(), \"at\", row, col) end\n"+
		"    if board_size() > 16 and round() % 9 == 0 then error(\"lost my way\") end\n")
	edit(t, file, "return ATTACK, d", "return ATACK, d")
	// check's report is longer than the screen (the trial battle comes
	// after the undefined global): read the pane's history too, as a
	// newcomer scrolls back.
	sh.tm.Run("clear-history", "-t", "sb")
	sh.run("clear; squarebattle check scripts/hunter2.lua")
	sh.waitHistory("check naming the misspelt constant", func(s string) bool {
		return regexp.MustCompile(`scripts/hunter2\.lua:\d+: ATACK is not defined \(did you mean ATTACK\?\)`).MatchString(s) && strings.Contains(s, "exit=1")
	})

	edit(t, file, "return ATACK, d", "return ATTACK, d")
	sh.run("clear; squarebattle check scripts/hunter2.lua")
	sh.wait("check passing once fixed", func(s string) bool {
		return strings.Contains(s, "exit=0") && strings.Contains(s, "Trial battle against Explorer") && !strings.Contains(s, "not defined")
	})

	sh.run("clear; squarebattle play hunter2 explorer")
	sh.wait("the battle past round 30", func(s string) bool {
		r, _, ok := harness.StatusRound(s)
		return ok && r >= 30 && strings.Contains(s, "Hunter2") && strings.Contains(s, "Explorer")
	})
	tm.Send("Space") // the pane lists what is new while it runs: pause to read
	sh.wait("the battle paused", func(s string) bool { return harness.StatusState(s) == "PAUSED" })

	tm.Send("e")
	list := sh.wait("the errors pane", func(s string) bool {
		return strings.Contains(s, "Problems and logs") && strings.Contains(s, "hunter2.lua") && strings.Contains(s, "lost my way")
	})
	at := cursorRow(list)
	if at < 0 {
		t.Fatalf("no selected problem in the pane:\n%s", harness.Framed(list))
	}
	tm.Send("Down", "Down")
	sh.wait("the pane's cursor moved down", func(s string) bool { return cursorRow(s) > at })
	tm.Send("Enter")
	sh.wait("one problem whole, with its traceback", func(s string) bool {
		return strings.Contains(s, "traceback:") && strings.Contains(s, "lost my way") && strings.Contains(s, "Hunter2") && cursorRow(s) < 0
	})
	tm.Send("Escape", "Right")
	sh.wait("Hunter2's log tab", func(s string) bool {
		return regexp.MustCompile(`round\s+\d+\s+at\s+\d+\s+\d+`).MatchString(s) && !strings.Contains(s, "traceback:")
	})

	tm.Send("Escape")
	sh.wait("the pane closed", func(s string) bool {
		_, _, ok := harness.StatusRound(s)
		return ok && !strings.Contains(s, "Problems and logs")
	})
	tm.Send("Escape")
	sh.wait("leaving asks first", func(s string) bool { return strings.Contains(s, "leave without saving?") })
	tm.Send("Escape")
	lobby := sh.wait("the lobby with the battle's teams", func(s string) bool {
		teams := harness.LobbyTeamRows(s)
		return strings.Contains(s, "pick your teams") && len(teams) == 2 && teams[0] == "Hunter2" && teams[1] == "Explorer"
	})
	if _, _, ok := harness.StatusRound(lobby); ok {
		t.Errorf("the lobby keeps a row of the battle's status bar:\n%s", harness.Framed(lobby))
	}

	tm.Send("q")
	s := sh.wait("q quitting, or asking first", func(s string) bool {
		return !strings.Contains(s, "pick your teams") || strings.Contains(s, "q again") || strings.Contains(s, "(or y)")
	})
	if strings.Contains(s, "pick your teams") {
		tm.Send("y")
	}
	sh.wait("the shell again, play's exit status 0", func(s string) bool {
		return !strings.Contains(s, "pick your teams") && strings.Contains(s, "exit=0")
	})
}

// shell drives the sh in a tmuxRun's pane.
type shell struct {
	tm *harness.Tmux
	t  testing.TB
}

// run types a command line that prints its exit status as exit=N.
func (sh *shell) run(line string) {
	sh.t.Helper()
	sh.tm.Send(line+`; echo "exit=$?"`, "Enter")
}

// wait polls the pane, wrapped lines joined, until cond holds, and returns
// that screen; it fails with the last screen after loopWait.
func (sh *shell) wait(what string, cond func(string) bool) string {
	sh.t.Helper()
	return sh.poll(what, cond)
}

// waitHistory is wait over the pane's history as well as its screen.
func (sh *shell) waitHistory(what string, cond func(string) bool) string {
	sh.t.Helper()
	return sh.poll(what, cond, "-S", "-")
}

func (sh *shell) poll(what string, cond func(string) bool, extra ...string) string {
	sh.t.Helper()
	deadline := time.Now().Add(loopWait)
	for {
		out, err := sh.tm.Run(append([]string{"capture-pane", "-p", "-J", "-t", "sb"}, extra...)...)
		if err != nil {
			sh.t.Fatalf("tmux capture-pane: %v\n%s", err, out)
		}
		if cond(out) {
			return out
		}
		if time.Now().After(deadline) {
			sh.t.Fatalf("waiting for %s: not there after %v; screen:\n%s", what, loopWait, harness.Framed(out))
		}
		time.Sleep(harness.Poll)
	}
}

// cursorRow is the screen row of the errors pane's selected line ("│ > "),
// or -1.
func cursorRow(screen string) int {
	for i, l := range strings.Split(screen, "\n") {
		if strings.HasPrefix(strings.TrimLeft(l, " "), "│ > ") {
			return i
		}
	}
	return -1
}

// edit replaces the first old in file with new, failing when it is absent.
func edit(t *testing.T, file, old, new string) {
	t.Helper()
	src, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(src), old) {
		t.Fatalf("%s has no %q", file, old)
	}
	if err := os.WriteFile(file, []byte(strings.Replace(string(src), old, new, 1)), 0o644); err != nil {
		t.Fatal(err)
	}
}
