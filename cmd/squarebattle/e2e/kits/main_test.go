// Package kits tests the starter kits in docs/bots (Python, Node, Go) speaking the bot protocol and playing real battles, with the real program built by package
// harness.
package kits

import (
	"os"
	"testing"

	"github.com/squarebattle/squarebattle/cmd/squarebattle/e2e/harness"
)

func TestMain(m *testing.M) { os.Exit(harness.Main(m)) }
