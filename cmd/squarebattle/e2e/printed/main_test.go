// Package printed runs, as printed, every squarebattle command that the
// README, the docs, the bot kits, the starters and `new` tell people to
// type, with the real program in a real shell.
package printed

import (
	"os"
	"testing"

	"github.com/squarebattle/squarebattle/cmd/squarebattle/e2e/harness"
)

func TestMain(m *testing.M) { os.Exit(harness.Main(m)) }
