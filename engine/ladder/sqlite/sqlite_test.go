package sqlite

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/squarebattle/squarebattle/engine/ladder"
	"github.com/squarebattle/squarebattle/engine/ladder/laddertest"
)

// TestContract holds the SQLite store to the contract every store keeps.
func TestContract(t *testing.T) {
	laddertest.Run(t, func(t *testing.T) ladder.Store {
		s, err := Open(context.Background(), filepath.Join(t.TempDir(), "ladder.db"))
		if err != nil {
			t.Fatal(err)
		}
		return s
	})
}
