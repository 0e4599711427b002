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
	work, env := harness.Isolated(t)
	sh := harness.StartShell(t, 80, 24, work, env)
	sh.Wait = loopWait

	sh.Run("squarebattle new hunter2")
	sh.Until("new's report", func(s string) bool {
		return strings.Contains(s, "Wrote scripts/hunter2.lua") && strings.Contains(s, "squarebattle play hunter2 explorer") && strings.Contains(s, "exit=0")
	})

	// The newcomer's edits: a line printed every fifth round, a bug that
	// only bites on arenas bigger than check's 32×32 trial, and a typo.
	file := filepath.Join(work, "scripts", "hunter2.lua")
	edit(t, file, "  run = function(self, team, view, row, col)\n", "  run = function(self, team, view, row, col)\n"+
		"    if round() % 5 == 0 then print(\"round\", round(), \"at\", row, col) end\n"+
		"    if board_size() > 32 and round() % 9 == 0 then error(\"lost my way\") end\n")
	edit(t, file, "return ATTACK, d", "return ATACK, d")
	// check's report is longer than the screen (the trial battle comes
	// after the undefined global): read the pane's history too, as a
	// newcomer scrolls back.
	sh.Tm.Run("clear-history", "-t", "sb")
	sh.Run("clear; squarebattle check scripts/hunter2.lua")
	sh.UntilHistory("check naming the misspelt constant", func(s string) bool {
		return regexp.MustCompile(`scripts/hunter2\.lua:\d+: ATACK is not defined \(did you mean ATTACK\?\)`).MatchString(s) && strings.Contains(s, "exit=1")
	})

	edit(t, file, "return ATACK, d", "return ATTACK, d")
	sh.Run("clear; squarebattle check scripts/hunter2.lua")
	sh.Until("check passing once fixed", func(s string) bool {
		return strings.Contains(s, "exit=0") && strings.Contains(s, "Trial battle against Explorer") && !strings.Contains(s, "not defined")
	})

	// A fixed seed: on a few seeds the two lone squares meet at once
	// and the battle is over before there is anything to read.
	sh.Run("clear; squarebattle play --seed 20261128 hunter2 explorer")
	sh.Until("the battle past round 30", func(s string) bool {
		r, _, ok := harness.StatusRound(s)
		return ok && r >= 30 && strings.Contains(s, "Hunter2") && strings.Contains(s, "Explorer")
	})
	sh.Tm.Send("Space") // the pane lists what is new while it runs: pause to read
	sh.Until("the battle paused", func(s string) bool { return harness.StatusState(s) == "PAUSED" })

	sh.Tm.Send("e")
	list := sh.Until("the errors pane", func(s string) bool {
		return strings.Contains(s, "Problems and logs") && strings.Contains(s, "hunter2.lua") && strings.Contains(s, "lost my way")
	})
	at := cursorRow(list)
	if at < 0 {
		t.Fatalf("no selected problem in the pane:\n%s", harness.Framed(list))
	}
	sh.Tm.Send("Down", "Down")
	sh.Until("the pane's cursor moved down", func(s string) bool { return cursorRow(s) > at })
	sh.Tm.Send("Enter")
	sh.Until("one problem whole, with its traceback", func(s string) bool {
		return strings.Contains(s, "traceback:") && strings.Contains(s, "lost my way") && strings.Contains(s, "Hunter2") && cursorRow(s) < 0
	})
	sh.Tm.Send("Escape", "Right")
	sh.Until("Hunter2's log tab", func(s string) bool {
		return regexp.MustCompile(`round\s+\d+\s+at\s+\d+\s+\d+`).MatchString(s) && !strings.Contains(s, "traceback:")
	})

	sh.Tm.Send("Escape")
	sh.Until("the pane closed", func(s string) bool {
		_, _, ok := harness.StatusRound(s)
		return ok && !strings.Contains(s, "Problems and logs")
	})
	sh.Tm.Send("Escape")
	sh.Until("leaving asks first", func(s string) bool { return strings.Contains(s, "leave without saving?") })
	sh.Tm.Send("Escape")
	lobby := sh.Until("the lobby with the battle's teams", func(s string) bool {
		teams := harness.LobbyTeamRows(s)
		return strings.Contains(s, "pick your teams") && len(teams) == 2 && teams[0] == "Hunter2" && teams[1] == "Explorer"
	})
	if _, _, ok := harness.StatusRound(lobby); ok {
		t.Errorf("the lobby keeps a row of the battle's status bar:\n%s", harness.Framed(lobby))
	}

	sh.Tm.Send("q")
	s := sh.Until("q quitting, or asking first", func(s string) bool {
		return !strings.Contains(s, "pick your teams") || strings.Contains(s, "q again") || strings.Contains(s, "(or y)")
	})
	if strings.Contains(s, "pick your teams") {
		sh.Tm.Send("y")
	}
	sh.Until("the shell again, play's exit status 0", func(s string) bool {
		return !strings.Contains(s, "pick your teams") && strings.Contains(s, "exit=0")
	})
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
