//go:build unix

package main

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/squarebattle/squarebattle/engine/replay"
)

// The end-to-end test runs the real binary in a real terminal: a detached
// tmux session on a private server, driven with send-keys and read back
// with capture-pane. Nothing sleeps for a fixed time; every step polls the
// screen until what it waits for is there, or fails with the last screen.

const (
	e2eWait = 20 * time.Second      // how long one step may take
	e2ePoll = 20 * time.Millisecond // between screen captures
)

// e2eStep sends keys (tmux send-keys names: "Space", "Enter", "Down", ".")
// and then waits until the screen satisfies until.
type e2eStep struct {
	keys  []string
	what  string
	until func(screen string) bool
}

// skipOrRequire skips a test whose tool is missing, or fails it when
// TOOLS_REQUIRED is set (.ci/run installs every tool and sets it, so a
// missing one there is a broken CI, not a reason to skip).
func skipOrRequire(t *testing.T, format string, args ...any) {
	t.Helper()
	if os.Getenv("TOOLS_REQUIRED") != "" {
		t.Fatalf(format+" (TOOLS_REQUIRED is set)", args...)
	}
	t.Skipf(format, args...)
}

// needTmux skips an end-to-end test under -short or without tmux.
func needTmux(t *testing.T) {
	t.Helper()
	if testing.Short() {
		t.Skip("end-to-end test runs the binary in tmux; skipped under -short")
	}
	if _, err := exec.LookPath("tmux"); err != nil {
		skipOrRequire(t, "end-to-end test needs tmux on PATH (apt-get install tmux)")
	}
}

func TestE2E(t *testing.T) {
	t.Parallel() // a program in tmux: mostly waiting on its pace and on the screen
	needTmux(t)
	bin := buildBinary(t)

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
					r, n, ok := statusRound(s)
					return ok && r == 0 && n == 200 && statusState(s) == "PAUSED" && strings.Contains(s, "seed 2") &&
						strings.Contains(s, "Explorer") && strings.Contains(s, "Pinwheel")
				}},
				{[]string{"."}, "round 1 after one step", func(s string) bool {
					r, _, ok := statusRound(s)
					return ok && r == 1 && statusState(s) == "PAUSED"
				}},
				{[]string{"."}, "round 2 after another step", func(s string) bool {
					r, _, ok := statusRound(s)
					return ok && r == 2 && statusState(s) == "PAUSED"
				}},
				{[]string{"Space"}, "running past round 2", func(s string) bool {
					r, _, ok := statusRound(s)
					return ok && r > 2 && statusState(s) == "running"
				}},
				{[]string{"Space"}, "paused again", func(s string) bool {
					r, _, ok := statusRound(s)
					if ok && statusState(s) == "PAUSED" {
						pausedAt = r
						return true
					}
					return false
				}},
				{[]string{"."}, "one round past where it paused (the pause held)", func(s string) bool {
					r, _, ok := statusRound(s)
					return ok && r == pausedAt+1 && statusState(s) == "PAUSED"
				}},
				{[]string{"?"}, "the help overlay", func(s string) bool {
					return strings.Contains(s, "this help") && strings.Contains(s, "any key closes this help")
				}},
				{[]string{"x"}, "the help overlay closed by any key", func(s string) bool {
					r, _, ok := statusRound(s)
					return ok && r == pausedAt+1 && !strings.Contains(s, "this help")
				}},
			},
		},
		{
			name: "rewind and record",
			args: []string{"play", "--paused", "--record", played, "--seed", "2", "--size", "24", "--rounds", "200", "explorer", "pinwheel"},
			steps: []e2eStep{
				{[]string{".", ".", ".", "."}, "round 4", func(s string) bool {
					r, _, ok := statusRound(s)
					return ok && r == 4
				}},
				{[]string{"Left", "Left"}, "round 2, rewinding", func(s string) bool {
					r, _, ok := statusRound(s)
					return ok && r == 2 && strings.Contains(s, "REWIND (live: round 4)")
				}},
				{[]string{"End"}, "back at the live round 4", func(s string) bool {
					r, _, ok := statusRound(s)
					return ok && r == 4 && !strings.Contains(s, "REWIND") && statusState(s) == "PAUSED"
				}},
				{[]string{"Right"}, "round 5, played", func(s string) bool {
					r, _, ok := statusRound(s)
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
					r, n, ok := statusRound(s)
					return ok && r == 0 && n == 200 && strings.Contains(s, "REPLAY of") && statusState(s) == "PAUSED"
				}},
				{[]string{".", "Right"}, "round 2", func(s string) bool {
					r, _, ok := statusRound(s)
					return ok && r == 2
				}},
				{[]string{"Left"}, "round 1", func(s string) bool {
					r, _, ok := statusRound(s)
					return ok && r == 1
				}},
				{[]string{"End"}, "the result at the last round", func(s string) bool {
					r, _, ok := statusRound(s)
					lastRound = r
					return ok && statusState(s) == "over" && strings.Contains(s, "r watch again")
				}},
				{[]string{"g", "1", "5", "Enter"}, "round 15 after g 15 Enter", func(s string) bool {
					r, _, ok := statusRound(s)
					return ok && r == 15
				}},
				{[]string{"r"}, "playing again from round 0", func(s string) bool {
					r, _, ok := statusRound(s)
					return ok && r < lastRound && statusState(s) == "running"
				}},
			},
		},
		{
			name: "paint",
			args: []string{"play", "--paused", "--game", "paint", "--seed", "3", "--rounds", "50", "greedy", "random"},
			steps: []e2eStep{
				{nil, "a paint battle paused at round 0, with the game's score columns", func(s string) bool {
					r, n, ok := statusRound(s)
					return ok && r == 0 && n == 50 && strings.Contains(s, "Area") && strings.Contains(s, "Painted") &&
						strings.Contains(s, "Greedy Painter") && !strings.Contains(s, "Births")
				}},
				{[]string{".", "."}, "round 2", func(s string) bool {
					r, _, ok := statusRound(s)
					return ok && r == 2
				}},
				{[]string{"Left"}, "round 1, rewinding", func(s string) bool {
					r, _, ok := statusRound(s)
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
						len(lobbyTeamRows(s)) == 0
				}},
				{[]string{"Enter"}, "one team after Enter", func(s string) bool {
					return len(lobbyTeamRows(s)) == 1
				}},
				{[]string{"Down", "Enter"}, "two teams after Down, Enter", func(s string) bool {
					lobbyTeams = lobbyTeamRows(s)
					return len(lobbyTeams) == 2
				}},
				// The lobby draws a random seed: some battles are over in
				// round 1 (both teams dead), so "over" counts too.
				{[]string{"s"}, "the battle of the two teams started", func(s string) bool {
					st := statusState(s)
					return (st == "running" || st == "over") &&
						strings.Contains(s, lobbyTeams[0]) && strings.Contains(s, lobbyTeams[1])
				}},
			},
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			start := time.Now()
			tm := startTmux(t, bin, tc.args...)
			for _, st := range tc.steps {
				if len(st.keys) > 0 {
					tm.send(st.keys...)
				}
				tm.waitFor(st.until, st.what)
			}
			tm.quit()
			status, screen := tm.waitExit()
			if status != 0 {
				t.Fatalf("q: exit status %d, want 0; screen:\n%s", status, framed(screen))
			}
			// tcell left the alternate screen: the UI is gone from the pane.
			if _, _, ok := statusRound(screen); ok || strings.Contains(screen, "Start Battle") {
				t.Errorf("the UI is still on the screen after exit (terminal not restored):\n%s", framed(screen))
			}
			if tc.after != nil {
				tc.after(t)
			}
			t.Logf("%d steps in %v", len(tc.steps), time.Since(start).Round(time.Millisecond))
		})
	}
}

// isolated returns an empty folder to run the binary in, so it plays its
// embedded players, and the whole environment to run it with: no
// SQUAREBATTLE_* settings or user configuration leak in. TERM is the
// caller's to add.
func isolated(tb testing.TB) (work string, env []string) {
	work = tb.TempDir()
	return work, []string{"HOME=" + work, "XDG_CONFIG_HOME=" + filepath.Join(work, ".config"), "LANG=C.UTF-8"}
}

// buildBinary builds the program into a temporary folder and returns its
// path; without go on PATH the test is skipped.
func buildBinary(tb testing.TB) string {
	tb.Helper()
	goTool, err := exec.LookPath("go")
	if err != nil {
		tb.Skip("this test builds the binary and needs go on PATH")
	}
	built.once.Do(func() {
		dir, err := os.MkdirTemp("", "squarebattle-test-bin-")
		if err != nil {
			built.err = err
			return
		}
		built.dir = dir
		bin := filepath.Join(dir, "squarebattle")
		build := exec.Command(goTool, "build", "-o", bin, ".")
		if out, err := build.CombinedOutput(); err != nil {
			built.err = fmt.Errorf("go build: %v\n%s", err, out)
			return
		}
		built.bin = bin
	})
	if built.err != nil {
		tb.Fatal(built.err)
	}
	return built.bin
}

// built is the program the end-to-end tests run, built once per test
// binary (each build links a fresh copy: seconds of CPU the tests share
// with every other package's); TestMain removes it.
var built struct {
	once     sync.Once
	dir, bin string
	err      error
}

var (
	statusRe  = regexp.MustCompile(`Round (\d+)/(\d+)`)
	stateRe   = regexp.MustCompile(`Round \d+/\d+ .*[│|] (running|PAUSED|over) [│|]`)
	teamRowRe = regexp.MustCompile(`(?m)│ +\d+ +\S+ (.+?)  \(\w+\)\s*$`)
)

// statusRound reads "Round r/n" off the status bar.
func statusRound(screen string) (r, n int, ok bool) {
	m := statusRe.FindStringSubmatch(screen)
	if m == nil {
		return 0, 0, false
	}
	r, _ = strconv.Atoi(m[1])
	n, _ = strconv.Atoi(m[2])
	return r, n, true
}

// statusState reads the battle's state (running, PAUSED or over) off the
// status bar.
func statusState(screen string) string {
	if m := stateRe.FindStringSubmatch(screen); m != nil {
		return m[1]
	}
	return ""
}

// lobbyTeamRows returns the team names in the lobby's Teams list
// ("  1  ██ Borg  (red)").
func lobbyTeamRows(screen string) []string {
	var names []string
	for _, m := range teamRowRe.FindAllStringSubmatch(screen, -1) {
		names = append(names, m[1])
	}
	return names
}

// tmuxRun is the binary running in a pane of a private tmux server.
type tmuxRun struct {
	t      *testing.T
	sock   string
	server int  // the private tmux server's pid
	nudged bool // the server was sent SIGCHLD to reap the program
}

// startTmux starts a private tmux server (its own socket and an empty
// configuration, so a user's tmux and ~/.tmux.conf are never touched) with
// one 100×30 session running bin args in an empty folder, so the binary
// plays its embedded players. The pane stays after the process exits, so
// its exit status can be read.
func startTmux(t *testing.T, bin string, args ...string) *tmuxRun {
	t.Helper()
	work, env := isolated(t)
	cmd := append(append([]string{"env", "-i"}, env...), "TERM=xterm-256color", bin)
	return startTmuxSize(t, 100, 30, work, append(cmd, args...))
}

// startTmuxSize starts a private tmux server with one w×h pane running
// cmd in work.
func startTmuxSize(t *testing.T, w, h int, work string, cmd []string) *tmuxRun {
	t.Helper()
	dir := t.TempDir()
	conf := filepath.Join(dir, "tmux.conf")
	if err := os.WriteFile(conf, []byte("set-option -g remain-on-exit on\nset-option -g status off\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	tm := &tmuxRun{t: t, sock: filepath.Join(dir, "tmux.sock")}
	newSession := append([]string{"-f", conf, "new-session", "-d", "-x", strconv.Itoa(w), "-y", strconv.Itoa(h), "-s", "sb", "-c", work}, cmd...)
	if out, err := tm.tmux(newSession...); err != nil {
		t.Fatalf("tmux new-session: %v\n%s", err, out)
	}
	t.Cleanup(func() { _, _ = tm.tmux("kill-server") })
	out, err := tm.tmux("display-message", "-p", "#{pid}")
	if err == nil {
		tm.server, err = strconv.Atoi(strings.TrimSpace(out))
	}
	if err != nil {
		t.Fatalf("tmux server pid: %v\n%s", err, out)
	}
	return tm
}

// tmux runs one tmux command against the private server.
func (tm *tmuxRun) tmux(args ...string) (string, error) {
	cmd := exec.Command("tmux", append([]string{"-S", tm.sock}, args...)...)
	// Inside a user's tmux, $TMUX would otherwise tell tmux it is nested.
	cmd.Env = append(os.Environ(), "TMUX=")
	out, err := cmd.CombinedOutput()
	return string(out), err
}

// send presses keys in the pane.
func (tm *tmuxRun) send(keys ...string) {
	tm.t.Helper()
	if out, err := tm.tmux(append([]string{"send-keys", "-t", "sb"}, keys...)...); err != nil {
		tm.t.Fatalf("tmux send-keys %q: %v\n%s", keys, err, out)
	}
}

// capture returns the screen and, once the process has exited and tmux
// has reaped it, its exit status (dead false while it runs). A process
// killed by a signal reports 128+signal, as a shell would. One tmux call
// does both.
func (tm *tmuxRun) capture() (screen string, dead bool, status int) {
	tm.t.Helper()
	out, err := tm.tmux("capture-pane", "-p", "-t", "sb", ";",
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

// waitFor polls the screen until cond holds and returns that screen. It
// fails with the last screen at the deadline, or at once if the process
// exited.
func (tm *tmuxRun) waitFor(cond func(string) bool, what string) string {
	tm.t.Helper()
	screen, dead, status, ok := tm.poll(func(screen string, _ bool) bool { return cond(screen) })
	switch {
	case ok:
		return screen
	case dead:
		tm.t.Fatalf("waiting for %s: the program exited with status %d; screen:\n%s", what, status, framed(screen))
	default:
		tm.t.Fatalf("waiting for %s: not there after %v; screen:\n%s", what, e2eWait, framed(screen))
	}
	return ""
}

// quit presses q, and q again when a running battle asks first.
func (tm *tmuxRun) quit() {
	tm.t.Helper()
	tm.send("q")
	screen, dead, _, _ := tm.poll(func(screen string, dead bool) bool { return dead || strings.Contains(screen, "q again") })
	if !dead && strings.Contains(screen, "q again") {
		tm.send("q")
	}
}

// waitExit waits for the process to exit and returns its exit status and
// the screen it left.
func (tm *tmuxRun) waitExit() (int, string) {
	tm.t.Helper()
	screen, _, status, ok := tm.poll(func(_ string, dead bool) bool { return dead })
	if !ok {
		tm.t.Fatalf("waiting for the program to exit: still running after %v; screen:\n%s", e2eWait, framed(screen))
	}
	return status, screen
}

// poll captures the pane every e2ePoll until done holds (ok), the process
// has exited, or e2eWait has passed, and returns the last capture.
func (tm *tmuxRun) poll(done func(screen string, dead bool) bool) (screen string, dead bool, status int, ok bool) {
	tm.t.Helper()
	deadline := time.Now().Add(e2eWait)
	for {
		screen, dead, status = tm.capture()
		if done(screen, dead) {
			return screen, dead, status, true
		}
		if dead || time.Now().After(deadline) {
			return screen, dead, status, false
		}
		time.Sleep(e2ePoll)
	}
}

// framed prefixes every line of a screen so blank lines and edges show in
// a failure message.
func framed(screen string) string {
	var b strings.Builder
	for l := range strings.Lines(screen) {
		b.WriteString("\t|" + l)
	}
	return b.String()
}
