package replay

import (
	"crypto/sha256"
	"encoding/hex"
	"testing"
)

// TestSquareBattleBytes pins the bytes of a SquareBattle replay: the rule
// mod fields are optional and must leave SquareBattle's replays as they were.
func TestSquareBattleBytes(t *testing.T) {
	data, _ := record(t, 11, 16, 3, 200)
	sum := sha256.Sum256(plain(t, data))
	if got := hex.EncodeToString(sum[:]); got != wantSquareBattleSHA {
		t.Errorf("a SquareBattle replay's text changed: sha256 %s, want %s", got, wantSquareBattleSHA)
	}
}

const wantSquareBattleSHA = "f86508a47188e5f23ffcc79876f36d9d1ec166ad1fe1caee6b7728ec5153df43"
