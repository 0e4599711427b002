// Package pgladder tests the ladder on PostgreSQL end to end: the real
// program as the server (serve --db postgres://…) and as worker hosts
// (ladder work), on loopback, against the single-process SQLite ladder.
// It needs PostgreSQL at PGTEST_URL (.ci/services).
package pgladder

import (
	"os"
	"testing"

	"github.com/squarebattle/squarebattle/cmd/squarebattle/e2e/harness"
)

func TestMain(m *testing.M) { os.Exit(harness.Main(m)) }
