package harness

import (
	"os"
	"testing"

	"github.com/squarebattle/squarebattle/scripts"
)

// ShippedCopy copies the shipped players and games, as embedded in the
// program, into a fresh folder and returns it. Tests never read the
// working tree's scripts/: that is where a coder keeps their own players.
func ShippedCopy(tb testing.TB) string {
	tb.Helper()
	dir := tb.TempDir()
	if err := os.CopyFS(dir, scripts.FS); err != nil {
		tb.Fatal(err)
	}
	return dir
}
