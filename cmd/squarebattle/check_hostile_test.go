package main

import (
	"bytes"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/squarebattle/squarebattle/scripts"
)

// callMain runs the program in this process (a copy of main_test.go's
// runMain, which moves).
func callMain(t *testing.T, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	var out, errOut bytes.Buffer
	code = Main(args, &out, &errOut)
	return code, out.String(), errOut.String()
}

// TestCheckHostile: check and check --all report every problem the
// script has in any battle they play, with the round and file:line of its
// first occurrence and counts per opponent, and exit 1; scripts whose
// problems only show against some players, once the team has grown, late
// in a battle, in the memory limit, in a rule mod or in the worker process
// around the script are the fixtures in testdata/check/hostile. A clean
// player is checked too: its problems are none, and its exit status 0.
func TestCheckHostile(t *testing.T) {
	if raceOn {
		t.Skip("check of six hostile players: plays full battles through the command line; the race detector's pass has the battles' concurrency covered by the tournament, isolation and serve tests, and the plain pass runs this")
	}

	hostile := func(name string) string { return filepath.Join("testdata", "check", "hostile", name) }
	tests := []struct {
		name string
		args []string
		code int
		// verdict is in the one line on standard error; want and
		// unwanted are in, and not in, the report.
		verdict  string
		want     []string
		unwanted []string
	}{
		{
			name: "a loop against every player but the Explorer: the trial, against the Explorer, is clean",
			args: []string{"--isolation", "none", "--seed", "3", hostile("picky.lua")},
			code: 0, unwanted: []string{"Problems"},
		},
		{
			name: "a loop against every player but the Explorer: --all finds it, opponent by opponent",
			args: []string{"--isolation", "none", "--seed", "3", "--rounds", "40", "--all", hostile("picky.lua")},
			code: 1, verdict: "picky.lua: 1 kind of problem while playing (",
			want: []string{
				"Problems against every player: 1 kind.\n  timeout, first against Borg (seed 3) in round 1: testdata/check/hostile/picky.lua:8: instruction budget exceeded",
				"    testdata/check/hostile/picky.lua:8: in function <testdata/check/hostile/picky.lua:5>\n",
				"    against Borg: in 4 of 4 battles, ",
				"    against Wanderer: in 4 of 4 battles, ",
				"    against Pinwheel: in 4 of 4 battles, ",
			},
			unwanted: []string{"against Explorer:"},
		},
		{
			name: "a loop once the team has 4 squares",
			args: []string{"--isolation", "none", "--seed", "3", hostile("crowd.lua")},
			code: 1, verdict: "crowd.lua: 1 kind of problem while playing (2001 timeouts, 0 errors)",
			want: []string{
				"(32×32, 8 squares a team, seed 3, at most 1500 rounds)",
				"timeout in 283 rounds, first in round 1: testdata/check/hostile/crowd.lua:8: instruction budget exceeded",
				"Stopped after 283 rounds: the script had lost 2001 turns to timeouts and errors",
			},
		},
		{
			name: "an error after round 1000",
			args: []string{"--isolation", "none", "--seed", "3", hostile("late.lua")},
			code: 1, verdict: "late.lua: 1 kind of problem while playing (0 timeouts, ",
			want: []string{"error in ", ", first in round 1001: testdata/check/hostile/late.lua:7: attempt to index field 'plans' (a nil value)"},
		},
		{
			// 120 rounds: the limit is first reached in round 71; the
			// trial's 1,500 rounds fill the 64 MiB again and again, some
			// 60 times (4 GiB allocated), which tells nothing more.
			name: "the Lua memory limit",
			args: []string{"--isolation", "none", "--seed", "2", "--rounds", "120", hostile("hoard.lua")},
			code: 1, verdict: "hoard.lua: 1 kind of problem while playing (0 timeouts, ",
			want: []string{"memory in ", "testdata/check/hostile/hoard.lua:6: memory limit exceeded (64 MiB, limits.memory_mib)"},
		},
		{
			name: "a snake that fails: the match is played to its result",
			args: []string{"--isolation", "none", "--seed", "3", "--game", "snake", hostile("biter.lua")},
			code: 1, verdict: "biter.lua: 1 kind of problem while playing (0 timeouts, ",
			want: []string{
				"(60×60, seed 3, at most 20000 rounds, a match of 1 game (--option games=1)):",
				" won after ",
				"error in ", "first in round 21: testdata/check/hostile/biter.lua:10: attempt to index field 'nothing' (a nil value)",
			},
			unwanted: []string{"a tie", "No result"},
		},
		{
			name: "a worker process that dies",
			args: []string{"--isolation", "process", "--seed", "3", "--rounds", "30", hostile("crash.lua")},
			code: 1, verdict: "crash.lua: 1 undefined global, ",
			want: []string{"worker crash in ", "first in round 5: ", "exit status 3"},
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			code, out, errOut := callMain(t, append([]string{"check"}, tc.args...)...)
			if code != tc.code || !strings.Contains(errOut, tc.verdict) || strings.Count(errOut, "\n") != min(tc.code, 1) {
				t.Errorf("exit %d, stderr %q; want %d and one line with %q\n%s", code, errOut, tc.code, tc.verdict, out)
			}
			for _, s := range tc.want {
				if !strings.Contains(out, s) {
					t.Errorf("the report lacks %q:\n%s", s, out)
				}
			}
			for _, s := range tc.unwanted {
				if strings.Contains(out, s) {
					t.Errorf("the report has %q:\n%s", s, out)
				}
			}
		})
	}
}

// TestCheckSnakeResult: a clean snake's trial plays a match of one game to
// its end and reports its winner and scores, not a tie of 0 to 0 at an
// arbitrary round; --option games=N plays a longer match instead.
func TestCheckSnakeResult(t *testing.T) {
	if raceOn {
		t.Skip("a snake match to its result: plays full battles through the command line; the race detector's pass has the battles' concurrency covered by the tournament, isolation and serve tests, and the plain pass runs this")
	}

	src, err := scripts.FS.ReadFile("snake/hungry.lua")
	if err != nil {
		t.Fatal(err)
	}
	file := filepath.Join(t.TempDir(), "glutton.lua")
	renamed, _ := rename(src, "Glutton")
	if err := os.WriteFile(file, renamed, 0o644); err != nil {
		t.Fatal(err)
	}
	code, out, errOut := callMain(t, "check", "--isolation", "none", "--game", "snake", "--seed", "5", file)
	if code != 0 || errOut != "" {
		t.Fatalf("exit %d, stderr %q\n%s", code, errOut, out)
	}
	won := regexp.MustCompile(`(?m)^  (Glutton|Cautious|Hungry) won after (\d+) rounds\.$`).FindStringSubmatch(out)
	if won == nil || atoi(won[2]) >= checkModRounds {
		t.Fatalf("no winner before the trial's limit:\n%s", out)
	}
	// The winner has won its 1 game: its games column is 1.
	row := regexp.MustCompile(`(?m)^\s+\d+\s+` + won[1] + `\s+\d+\s+(\d+)\s+1\s+`).FindStringSubmatch(out)
	if row == nil || atoi(row[1]) == 0 {
		t.Errorf("the winner's row has no score or not 1 game won:\n%s", out)
	}
	code, out, _ = callMain(t, "check", "--isolation", "none", "--game", "snake", "--seed", "5", "--rounds", "300", "--option", "games=3", file)
	if code != 0 || strings.Contains(out, "a match of 1 game") || !strings.Contains(out, "at most 300 rounds") {
		t.Errorf("--option games=3 --rounds 300: exit %d\n%s", code, out)
	}
}
