package arena

import (
	"errors"
	"os/exec"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/squarebattle/squarebattle/cmd/squarebattle/e2e/harness"
)

// TestRemoteBotHostileOpenSSH: hostile bots behind OpenSSH's own client
// against the built `squarebattle serve` (the in-process suite is
// cmd/squarebattle's TestServeBotsHostile): a bot that floods lines while
// no battle asks it anything is let go with one line saying why; names
// that are not the user's own, however spelled, are refused with one
// line that is safe to print; another user's commands are unaffected.
func TestRemoteBotHostileOpenSSH(t *testing.T) {
	if testing.Short() {
		t.Skip("runs serve and OpenSSH")
	}
	for _, tool := range []string{"ssh", "sh", "yes"} {
		if _, err := exec.LookPath(tool); err != nil {
			harness.SkipOrRequire(t, "needs %s on PATH", tool)
		}
	}
	o := startServe(t, harness.Program(t), t.TempDir())
	run := func(shell string, wait time.Duration) (stderr string, status int) {
		t.Helper()
		cmd := exec.Command("sh", "-c", shell)
		var errOut strings.Builder
		cmd.Stderr = &errOut
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		done := make(chan error, 1)
		go func() { done <- cmd.Wait() }()
		select {
		case err := <-done:
			var ee *exec.ExitError
			if errors.As(err, &ee) {
				return errOut.String(), ee.ExitCode()
			}
			return errOut.String(), 0
		case <-time.After(wait):
			cmd.Process.Kill()
			<-done
			t.Fatalf("%s: still running after %v; stderr %q", shell, wait, errOut.String())
			return "", 0
		}
	}
	ssh := func(user string, args ...string) string {
		return strings.Join(quoteAll(o.args(user, args...)), " ")
	}

	cases := []struct {
		name, shell string
		status      int    // -1: any but 0
		stderr      string // a regular expression its stderr must match
	}{
		{"floods while idle", `(sleep 2; yes '{"type":"actions","round":0,"actions":[]}') | ` + ssh("mallory", "bot", "flood"), -1,
			`disconnected: .*(no battle asked it anything)|input arrived faster than it was read`},
		{"another user's player", ssh("mallory", "bot", "alice.mine") + " </dev/null", 2, `refused: .*may not hold`},
		{"control characters", ssh("mallory", "bot", "'mine\x1b[2J\x07'") + " </dev/null", 2, `refused: .*may not hold`},
		{"a look-alike", ssh("mallory", "bot", "mіne") + " </dev/null", 2, `refused: .*may not hold`},
		{"too long", ssh("mallory", "bot", strings.Repeat("m", 300)) + " </dev/null", 2, `refused: .*at most 24`},
		{"a bystander", ssh("carol", "players") + " </dev/null", 0, ``},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			stderr, status := run(tc.shell, 60*time.Second)
			t.Logf("status %d, stderr %q", status, stderr)
			if tc.status == -1 && status == 0 || tc.status >= 0 && status != tc.status {
				t.Errorf("exit status %d, want %d; stderr %q", status, tc.status, stderr)
			}
			if !regexp.MustCompile(tc.stderr).MatchString(stderr) {
				t.Errorf("stderr %q does not match %q", stderr, tc.stderr)
			}
			if strings.ContainsAny(stderr, "\x1b\x07") {
				t.Errorf("stderr passes control characters on: %q", stderr)
			}
			if tc.status == 2 && strings.Count(strings.TrimSpace(stderr), "\n") != 0 {
				t.Errorf("a refusal in more than one line: %q", stderr)
			}
		})
	}
}
