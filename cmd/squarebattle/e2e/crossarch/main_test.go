// Package crossarch tests the same battles on amd64, arm64 and amd64/v3 builds, byte for byte (behind LONG_TESTS), with the real program built by package
// harness.
package crossarch

import (
	"os"
	"testing"

	"github.com/squarebattle/squarebattle/cmd/squarebattle/e2e/harness"
)

func TestMain(m *testing.M) { os.Exit(harness.Main(m)) }
