// Package terminal tests the terminal UI in a real terminal: tmux and a pty, the coder's loop and humans at the keys, with the real program built by package
// harness.
package terminal

import (
	"os"
	"testing"

	"github.com/squarebattle/squarebattle/cmd/squarebattle/e2e/harness"
)

func TestMain(m *testing.M) { os.Exit(harness.Main(m)) }
