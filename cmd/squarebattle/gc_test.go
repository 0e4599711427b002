package main

import "testing"

// TestBattleGCPercent: the commands that play battles flat out run the
// collector less often, unless the user chose GOGC; the rest keep Go's
// default.
func TestBattleGCPercent(t *testing.T) {
	for _, c := range []struct {
		args []string
		gogc string
		want int
	}{
		{[]string{"tournament", "--games", "3"}, "", 400},
		{[]string{"run", "explorer"}, "", 400},
		{[]string{"ladder", "work", "--db", "x"}, "", 400},
		{[]string{"tournament"}, "100", 0},
		{[]string{"run"}, "off", 0},
		{[]string{"ladder"}, "", 0},
		{[]string{"serve"}, "", 0},
		{[]string{"play"}, "", 0},
		{nil, "", 0},
		{[]string{workerCommand}, "", 0},
	} {
		getenv := func(k string) string {
			if k == "GOGC" {
				return c.gogc
			}
			return ""
		}
		if got := battleGCPercent(c.args, getenv); got != c.want {
			t.Errorf("%q with GOGC=%q: %d, want %d", c.args, c.gogc, got, c.want)
		}
	}
}
