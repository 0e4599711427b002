// Package printed runs, as printed, every squarebattle command that a
// text tells people to type, with the real program: what new prints and
// writes, the Starter, the help texts, the README and docs/*.md
// (TestPrintedCommands); and the bot protocol's page and the bot kits'
// commands with the kits' real bots in a real shell
// (TestDocumentedCommands).
package printed

import (
	"os"
	"testing"

	"github.com/squarebattle/squarebattle/cmd/squarebattle/e2e/harness"
)

func TestMain(m *testing.M) { os.Exit(harness.Main(m)) }
