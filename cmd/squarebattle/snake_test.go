package main

import (
	"encoding/json"
	"testing"
)

// TestRunSnake: `run --game snake hungry cautious` plays with the game's
// defaults (60×60, walls) and reports the snake's score columns.
func TestRunSnake(t *testing.T) {
	code, out, errOut := runMain(t, "run", "--game", "snake", "--json", "--seed", "3", "--rounds", "300", "hungry", "cautious")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	var got modJSON
	if err := json.Unmarshal([]byte(out), &got); err != nil {
		t.Fatal(err)
	}
	want := []string{"score", "games", "pellets", "ticks", "length"}
	if got.Game != "snake" || got.Size != 60 || len(got.Teams) != 2 || len(got.Columns) != len(want) || got.Columns[0] != want[0] || got.Columns[4] != want[4] {
		t.Errorf("json = %+v", got)
	}
	if got.Teams[0].Player != "Hungry" || got.Teams[1].Player != "Cautious" || got.Teams[0].Errors+got.Teams[1].Errors != 0 {
		t.Errorf("teams = %+v", got.Teams)
	}
}
