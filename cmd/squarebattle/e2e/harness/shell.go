//go:build unix

package harness

import (
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// Shell is sh in a tmux pane, with the built program on its PATH as
// squarebattle: commands are typed as a person types them, and each
// prints its exit status as exit=N.
type Shell struct {
	Tm *Tmux
	t  testing.TB
	// Wait bounds each wait; 0: Wait.
	Wait time.Duration
}

// StartShell starts sh in a w×h pane in work, with env (Isolated's) and
// TERM=xterm, and waits for its prompt.
func StartShell(t testing.TB, w, h int, work string, env []string) *Shell {
	t.Helper()
	bin := Program(t)
	cmd := append(append([]string{"env", "-i"}, env...), "TERM=xterm", "PS1=$ ", "PATH="+filepath.Dir(bin)+":/usr/bin:/bin", "sh")
	sh := &Shell{Tm: StartTmuxSize(t, w, h, work, cmd), t: t}
	sh.Until("the shell's prompt", func(s string) bool { return strings.HasPrefix(s, "$ ") })
	return sh
}

// Run types a command line followed by one that prints its exit status.
func (sh *Shell) Run(line string) {
	sh.t.Helper()
	sh.Tm.Send(line+`; echo "exit=$?"`, "Enter")
}

// Until polls the pane, wrapped lines joined, until cond holds, and
// returns that screen; it fails with the last screen at the deadline.
func (sh *Shell) Until(what string, cond func(string) bool) string {
	sh.t.Helper()
	return sh.poll(what, cond)
}

// UntilHistory is Until over the pane's history as well as its screen.
func (sh *Shell) UntilHistory(what string, cond func(string) bool) string {
	sh.t.Helper()
	return sh.poll(what, cond, "-S", "-")
}

func (sh *Shell) poll(what string, cond func(string) bool, extra ...string) string {
	sh.t.Helper()
	wait := sh.Wait
	if wait == 0 {
		wait = Wait
	}
	deadline := time.Now().Add(wait)
	for {
		out, err := sh.Tm.Run(append([]string{"capture-pane", "-p", "-J", "-t", "sb"}, extra...)...)
		if err != nil {
			sh.t.Fatalf("tmux capture-pane: %v\n%s", err, out)
		}
		if cond(out) {
			return out
		}
		if time.Now().After(deadline) {
			sh.t.Fatalf("waiting for %s: not there after %v; screen:\n%s", what, wait, Framed(out))
		}
		time.Sleep(Poll)
	}
}
