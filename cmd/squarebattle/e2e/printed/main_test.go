// Package printed runs, as printed, every squarebattle command that the
// bot protocol's page and the bot kits tell people to type, with the real
// program and the kits' real bots in a real shell.
package printed

import (
	"os"
	"testing"

	"github.com/squarebattle/squarebattle/cmd/squarebattle/e2e/harness"
)

func TestMain(m *testing.M) { os.Exit(harness.Main(m)) }
