//go:build unix

package harness

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// Each step of a test polls the screen every Poll and gives up after Wait.
// Wait is an upper bound for a loaded machine, not an expectation: a step
// normally takes well under a second.
const (
	Wait = 60 * time.Second
	Poll = 20 * time.Millisecond
)

var (
	statusRe  = regexp.MustCompile(`Round (\d+)/(\d+)`)
	stateRe   = regexp.MustCompile(`Round \d+/\d+ .*[│|] (running|PAUSED|over) [│|]`)
	teamRowRe = regexp.MustCompile(`(?m)│ +\d+ +\S+ (.+?)  \(\w+\)\s*$`)
)

// StatusRound reads "Round r/n" off the status bar.
func StatusRound(screen string) (r, n int, ok bool) {
	m := statusRe.FindStringSubmatch(screen)
	if m == nil {
		return 0, 0, false
	}
	r, _ = strconv.Atoi(m[1])
	n, _ = strconv.Atoi(m[2])
	return r, n, true
}

// StatusState reads the battle's state (running, PAUSED or over) off the
// status bar.
func StatusState(screen string) string {
	if m := stateRe.FindStringSubmatch(screen); m != nil {
		return m[1]
	}
	return ""
}

// LobbyTeamRows returns the team names in the lobby's Teams list
// ("  1  ██ Borg  (red)").
func LobbyTeamRows(screen string) []string {
	var names []string
	for _, m := range teamRowRe.FindAllStringSubmatch(screen, -1) {
		names = append(names, m[1])
	}
	return names
}

// Tmux is the program running in a pane of a private tmux server.
type Tmux struct {
	t      testing.TB
	sock   string
	server int  // the private tmux server's pid
	nudged bool // the server was sent SIGCHLD to reap the program
}

// StartTmux starts a private tmux server (its own socket and an empty
// configuration, so a user's tmux and ~/.tmux.conf are never touched) with
// one 100×30 session running bin args in an empty folder, so the binary
// plays its embedded players. The pane stays after the process exits, so
// its exit status can be read.
func StartTmux(t testing.TB, bin string, args ...string) *Tmux {
	t.Helper()
	work, env := Isolated(t)
	cmd := append(append([]string{"env", "-i"}, env...), "TERM=xterm-256color", bin)
	return StartTmuxSize(t, 100, 30, work, append(cmd, args...))
}

// StartTmuxSize starts a private tmux server with one w×h pane running
// cmd in work.
func StartTmuxSize(t testing.TB, w, h int, work string, cmd []string) *Tmux {
	t.Helper()
	dir := t.TempDir()
	conf := filepath.Join(dir, "tmux.conf")
	if err := os.WriteFile(conf, []byte("set-option -g remain-on-exit on\nset-option -g status off\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	tm := &Tmux{t: t, sock: filepath.Join(dir, "tmux.sock")}
	newSession := append([]string{"-f", conf, "new-session", "-d", "-x", strconv.Itoa(w), "-y", strconv.Itoa(h), "-s", "sb", "-c", work}, cmd...)
	if out, err := tm.Run(newSession...); err != nil {
		t.Fatalf("tmux new-session: %v\n%s", err, out)
	}
	t.Cleanup(func() { _, _ = tm.Run("kill-server") })
	out, err := tm.Run("display-message", "-p", "#{pid}")
	if err == nil {
		tm.server, err = strconv.Atoi(strings.TrimSpace(out))
	}
	if err != nil {
		t.Fatalf("tmux server pid: %v\n%s", err, out)
	}
	return tm
}

// Run runs one tmux command against the private server.
func (tm *Tmux) Run(args ...string) (string, error) {
	cmd := exec.Command("tmux", append([]string{"-S", tm.sock}, args...)...)
	// Inside a user's tmux, $TMUX would otherwise tell tmux it is nested.
	cmd.Env = append(os.Environ(), "TMUX=")
	out, err := cmd.CombinedOutput()
	return string(out), err
}

// Send presses keys in the pane.
func (tm *Tmux) Send(keys ...string) {
	tm.t.Helper()
	if out, err := tm.Run(append([]string{"send-keys", "-t", "sb"}, keys...)...); err != nil {
		tm.t.Fatalf("tmux send-keys %q: %v\n%s", keys, err, out)
	}
}

// Capture returns the screen and, once the process has exited and tmux
// has reaped it, its exit status (dead false while it runs). A process
// killed by a signal reports 128+signal, as a shell would. One tmux call
// does both.
func (tm *Tmux) Capture() (screen string, dead bool, status int) {
	tm.t.Helper()
	out, err := tm.Run("capture-pane", "-p", "-t", "sb", ";",
		"display-message", "-p", "-t", "sb", "#{pane_dead}:#{pane_dead_status}:#{pane_dead_signal}")
	if err != nil {
		tm.t.Fatalf("tmux capture-pane: %v\n%s", err, out)
	}
	out = strings.TrimSuffix(out, "\n")
	i := strings.LastIndexByte(out, '\n')
	screen, last := out[:i+1], out[i+1:]
	f := strings.Split(last, ":")
	if len(f) != 3 {
		tm.t.Fatalf("tmux pane state %q, want dead:status:signal", last)
	}
	if f[0] != "1" {
		return screen, false, 0
	}
	// tmux marks the pane dead when the pty closes; status and signal are
	// known once it has reaped the process. Sometimes it never does: the
	// program has exited (a zombie) but tmux missed the SIGCHLD, which
	// tmux/tmux#311 blames on libutempter's own SIGCHLD handler (Debian's
	// tmux 3.3a links libutempter; here about 1 exit in 10). Another
	// SIGCHLD to our own server makes it reap.
	if f[1] == "" && f[2] == "" {
		if !tm.nudged {
			tm.t.Logf("tmux has not reaped the exited program; sending its server SIGCHLD")
			tm.nudged = true
		}
		_ = syscall.Kill(tm.server, syscall.SIGCHLD)
		return screen, false, 0
	}
	if f[1] != "" {
		status, err = strconv.Atoi(f[1])
	} else {
		status, err = strconv.Atoi(f[2])
		status += 128
	}
	if err != nil {
		tm.t.Fatalf("tmux pane state %q: %v", last, err)
	}
	return screen, true, status
}

// WaitFor polls the screen until cond holds and returns that screen. It
// fails with the last screen at the deadline, or at once if the process
// exited.
func (tm *Tmux) WaitFor(cond func(string) bool, what string) string {
	tm.t.Helper()
	screen, dead, status, ok := tm.Poll(func(screen string, _ bool) bool { return cond(screen) })
	switch {
	case ok:
		return screen
	case dead:
		tm.t.Fatalf("waiting for %s: the program exited with status %d; screen:\n%s", what, status, Framed(screen))
	default:
		tm.t.Fatalf("waiting for %s: not there after %v; screen:\n%s", what, Wait, Framed(screen))
	}
	return ""
}

// Quit presses q, and q again when a running battle asks first.
func (tm *Tmux) Quit() {
	tm.t.Helper()
	tm.Send("q")
	screen, dead, _, _ := tm.Poll(func(screen string, dead bool) bool { return dead || strings.Contains(screen, "q again") })
	if !dead && strings.Contains(screen, "q again") {
		tm.Send("q")
	}
}

// WaitExit waits for the process to exit and returns its exit status and
// the screen it left.
func (tm *Tmux) WaitExit() (int, string) {
	tm.t.Helper()
	screen, _, status, ok := tm.Poll(func(_ string, dead bool) bool { return dead })
	if !ok {
		tm.t.Fatalf("waiting for the program to exit: still running after %v; screen:\n%s", Wait, Framed(screen))
	}
	return status, screen
}

// Poll captures the pane every Poll until done holds (ok), the process
// has exited, or Wait has passed, and returns the last capture.
func (tm *Tmux) Poll(done func(screen string, dead bool) bool) (screen string, dead bool, status int, ok bool) {
	tm.t.Helper()
	deadline := time.Now().Add(Wait)
	for {
		screen, dead, status = tm.Capture()
		if done(screen, dead) {
			return screen, dead, status, true
		}
		if dead || time.Now().After(deadline) {
			return screen, dead, status, false
		}
		time.Sleep(Poll)
	}
}

// Framed prefixes every line of a screen so blank lines and edges show in
// a failure message.
func Framed(screen string) string {
	var b strings.Builder
	for l := range strings.Lines(screen) {
		b.WriteString("\t|" + l)
	}
	return b.String()
}
