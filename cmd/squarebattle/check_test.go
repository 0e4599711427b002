package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/squarebattle/squarebattle/config"
	"github.com/squarebattle/squarebattle/luabind"
)

// TestCheckReport: check of a script with every kind of mistake lists the
// undefined global found without playing, each kind of problem of the
// trial with its count and first file:line and traceback, the trial's
// winner, squares and own-team kills, and exits 1 with a one-line verdict
// that counts them. The report is the golden testdata/check/clumsy.txt.
func TestCheckReport(t *testing.T) {
	code, out, errOut := runMain(t, "check", "--isolation", "none", "--seed", "4", "testdata/check/clumsy.lua")
	want := "squarebattle: testdata/check/clumsy.lua: 1 undefined global, 2 kinds of problem while playing (728 timeouts, 1272 errors)\n"
	if code != exitFailure || errOut != want {
		t.Errorf("exit %d, stderr %q; want 1 and %q", code, errOut, want)
	}
	// The same report when the script runs in a worker process.
	if _, again, _ := runMain(t, "check", "--seed", "4", "testdata/check/clumsy.lua"); again != out {
		t.Errorf("the report differs under --isolation process:\n%s", again)
	}
	for _, s := range []string{
		"testdata/check/clumsy.lua:26: ATACK is not defined (did you mean ATTACK?)",
		"Trial battle against Explorer (32×32, 8 squares a team, seed 4, at most 1500 rounds):",
		"Stopped after 896 rounds: the script had lost 2000 turns to timeouts and errors",
		"error in 159 rounds, first in round 105: testdata/check/clumsy.lua:6: attempt to index local 'v' (a nil value)\n    testdata/check/clumsy.lua:6: in function 'far'\n",
		"timeout in 91 rounds, first in round 112: testdata/check/clumsy.lua:23: instruction budget exceeded",
		"Own-team kills: Clumsy killed 6 squares of its own, the first in round 102",
	} {
		if !strings.Contains(out, s) {
			t.Errorf("report lacks %q", s)
		}
	}
	golden(t, "check/clumsy.txt", out)
}

// TestCheckGame: a rule mod's player is checked against the game's other
// players with --game, or without it when its folder holds the game's
// rules.lua; --all plays every other player of the game; the rules file
// itself is not a player, and a mod's player checked as SquareBattle's
// is told to name its game.
func TestCheckGame(t *testing.T) {
	code, out, errOut := runMain(t, "check", "--isolation", "none", "--game", "paint", "--seed", "4", "--rounds", "30", "--all", "testdata/check/sloppy.lua")
	if code != exitFailure || !strings.HasSuffix(errOut, "sloppy.lua: 1 kind of problem while playing (0 timeouts, 90 errors; in 9 of 9 battles)\n") {
		t.Errorf("--game paint: exit %d, stderr %q", code, errOut)
	}
	for _, s := range []string{
		`testdata/check/sloppy.lua loads: starting player "Sloppy".`,
		"Trial battle against Greedy Painter (40×40, seed 4, at most 30 rounds):",
		"team          player  units  area  painted  timeouts  errors",
		"error in 10 rounds, first in round 3: testdata/check/sloppy.lua:7: attempt to index field 'nothing' (a nil value)",
		"Against every player (4 battles each, seeds 4 to 7, each as the trial):",
		"    against Random Painter: in 4 of 4 battles, 40 rounds\n",
	} {
		if !strings.Contains(out, s) {
			t.Errorf("--game paint: report lacks %q:\n%s", s, out)
		}
	}
	for _, p := range []string{"Greedy Painter", "Random Painter"} {
		if !strings.Contains(out, "\n  "+p+" ") {
			t.Errorf("--all: no row for %s:\n%s", p, out)
		}
	}
	if strings.Contains(out, "Paint ") || strings.Contains(out, "rules") {
		t.Errorf("the rules appear as a player:\n%s", out)
	}

	// Without --game: the game of the script's folder.
	dir := filepath.Join(t.TempDir(), "paint")
	if err := os.Mkdir(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	for _, f := range []string{"rules.lua", "game.yaml", "random.lua"} {
		writeShipped(t, "paint/"+f, dir)
	}
	copyFile(t, "testdata/check/sloppy.lua", filepath.Join(dir, "sloppy.lua"))
	code, out, _ = runMain(t, "check", "--isolation", "none", "--seed", "4", "--rounds", "30", filepath.Join(dir, "sloppy.lua"))
	if code != exitFailure || !strings.Contains(out, "Trial battle against Random Painter (40×40, seed 4, at most 30 rounds)") {
		t.Errorf("in a game folder: exit %d:\n%s", code, out)
	}
	code, out, errOut = runMain(t, "check", "--isolation", "none", "--seed", "4", "--rounds", "30", filepath.Join(dir, "random.lua"))
	if code != 0 || errOut != "" || !strings.Contains(out, "Trial battle against Sloppy") {
		t.Errorf("a clean player in a game folder: exit %d, stderr %q:\n%s", code, errOut, out)
	}

	// The rules are not a player; a mod's player away from its game.
	for _, c := range []struct{ file, want string }{
		{filepath.Join(dir, "rules.lua"), "rules.lua is a game's rules, not a player"},
		{"testdata/check/sloppy.lua", "the returned table has no run function (a rule mod's player? name its game with --game: orbs, paint, snake, squarebattle-lua)"},
	} {
		code, _, errOut := runMain(t, "check", "--isolation", "none", c.file)
		if code != exitBadInput || !strings.Contains(errOut, c.want) || strings.Count(errOut, "\n") != 1 {
			t.Errorf("check %s: exit %d, stderr %q; want 2 and one line with %q", c.file, code, errOut, c.want)
		}
	}
}

// TestGameFlag: players and config take --game; a game's rules.lua is
// listed as a player nowhere (players, the known players of an unknown
// one, the lobby's entries).
func TestGameFlag(t *testing.T) {
	code, out, errOut := runMain(t, "players", "--game", "paint")
	if code != 0 || !strings.Contains(out, "greedy  Greedy Painter  scripts/paint/greedy.lua  starting player") || strings.Contains(out, "rules") {
		t.Errorf("players --game paint: exit %d %s\n%s", code, errOut, out)
	}
	code, out, _ = runMain(t, "config", "--game", "paint")
	if code != 0 || !strings.Contains(out, "  size: 40\n") || !strings.Contains(out, "  rounds: 500\n") {
		t.Errorf("config --game paint: exit %d, not the game's configuration:\n%s", code, out)
	}
	code, out, _ = runMain(t, "config", "--game", "paint", "--rounds", "7")
	if code != 0 || !strings.Contains(out, "  rounds: 7\n") {
		t.Errorf("config --game paint --rounds 7: exit %d, flags do not win:\n%s", code, out)
	}
	for _, game := range []string{"paint", "snake", "orbs"} {
		_, _, errOut := runMain(t, "run", "--game", game, "nobody")
		if !strings.Contains(errOut, "known players: ") || strings.Contains(errOut, "rules") {
			t.Errorf("run --game %s nobody: %q", game, errOut)
		}
	}
	cfg := config.Default()
	cat, err := loadCatalog(cfg)
	if err != nil {
		t.Fatal(err)
	}
	entries := newPlaySource(cfg, cat, nil, nil).GameEntries("paint")
	if len(entries) != 2 {
		t.Errorf("the lobby's paint players: %+v, want greedy and random", entries)
	}
	for _, e := range entries {
		if e.ID == luabind.RulesID {
			t.Errorf("the lobby lists the rules as a player: %+v", e)
		}
	}
}

func copyFile(t *testing.T, from, to string) {
	t.Helper()
	data, err := os.ReadFile(from)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(to, data, 0o644); err != nil {
		t.Fatal(err)
	}
}
