package ladder_test

import (
	"testing"

	"github.com/squarebattle/squarebattle/engine/ladder"
	"github.com/squarebattle/squarebattle/engine/ladder/laddertest"
)

// TestMemoryStore holds the in-memory store to the contract every store
// keeps.
func TestMemoryStore(t *testing.T) {
	laddertest.Run(t, func(*testing.T) ladder.Store { return ladder.NewMemory() })
}
