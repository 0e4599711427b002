// Package arena tests the SSH arena driven by OpenSSH's client in tmux, with the real program built by package
// harness.
package arena

import (
	"os"
	"testing"

	"github.com/squarebattle/squarebattle/cmd/squarebattle/e2e/harness"
)

func TestMain(m *testing.M) { os.Exit(harness.Main(m)) }
