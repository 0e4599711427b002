package harness

import (
	"os"
	"os/exec"
	"testing"
	"time"
)

// StopAtCleanup interrupts cmd (SIGINT, as a user's Ctrl-C) when tb ends
// and waits up to wait for it to exit; a program that does not stop is
// killed and the test fails: a server that ignores SIGINT is a bug.
func StopAtCleanup(tb testing.TB, cmd *exec.Cmd, name string, wait time.Duration) {
	tb.Cleanup(func() {
		cmd.Process.Signal(os.Interrupt)
		done := make(chan error, 1)
		go func() { done <- cmd.Wait() }()
		select {
		case <-done:
		case <-time.After(wait):
			cmd.Process.Kill()
			tb.Errorf("%s did not stop on SIGINT", name)
		}
	})
}
