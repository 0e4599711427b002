package main

import (
	"encoding/json"
	"strings"
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

// TestRunSnakeClassic: --option classic=true plays the original's
// one-after-another moves (a different battle from the same seed); a
// value that is not a boolean is a one-line error naming the option.
func TestRunSnakeClassic(t *testing.T) {
	outs := map[string]string{}
	for _, classic := range []string{"false", "true"} {
		code, out, errOut := runMain(t, "run", "--game", "snake", "--json", "--seed", "3", "--rounds", "200", "--option", "classic="+classic, "hungry", "cautious")
		if code != 0 {
			t.Fatalf("classic=%s: exit %d: %s", classic, code, errOut)
		}
		outs[classic] = out
	}
	if outs["false"] == outs["true"] {
		t.Error("classic=true played the same battle as classic=false")
	}
	code, _, errOut := runMain(t, "run", "--game", "snake", "--option", "classic=maybe", "hungry")
	if code != 2 || !strings.Contains(errOut, `options.classic: must be true or false (got "maybe")`) || strings.Count(errOut, "\n") != 1 {
		t.Errorf("classic=maybe: exit %d, %q", code, errOut)
	}
}
