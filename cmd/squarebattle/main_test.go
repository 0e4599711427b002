package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/squarebattle/squarebattle/engine"
	"github.com/squarebattle/squarebattle/engine/replay"
	"github.com/squarebattle/squarebattle/tui"
)

func runMain(t *testing.T, args ...string) (int, string, string) {
	t.Helper()
	var out, errOut bytes.Buffer
	code := Main(args, &out, &errOut)
	return code, out.String(), errOut.String()
}

// TestDeterminism: the same battle with one and with four workers, and the
// same seed twice, print identical JSON.
func TestDeterminism(t *testing.T) {
	args := []string{"run", "--json", "--seed", "42", "--size", "32", "--rounds", "400"}
	var outs []string
	for _, w := range []string{"1", "4", "4"} {
		code, out, errOut := runMain(t, append(args, "--workers", w)...)
		if code != 0 {
			t.Fatalf("exit %d: %s", code, errOut)
		}
		outs = append(outs, out)
	}
	if outs[0] != outs[1] || outs[1] != outs[2] {
		t.Errorf("battles differ:\n%s\n%s\n%s", outs[0], outs[1], outs[2])
	}
	var got battleJSON
	if err := json.Unmarshal([]byte(outs[0]), &got); err != nil {
		t.Fatal(err)
	}
	if got.Seed != 42 || got.Size != 32 || len(got.Board) != 32 || len(got.Teams) < 2 {
		t.Errorf("json = %+v", got)
	}
}

func TestExitCodes(t *testing.T) {
	tests := []struct {
		name string
		args []string
		code int
		want string // in stdout+stderr
	}{
		{"unknown player lists the known ones", []string{"run", "nobody"}, 2, "known players: "},
		{"a player by display name in any case", []string{"run", "--rounds", "5", "EXPLORER", "explorer"}, 0, "Explorer"},
		{"bad map line", []string{"run", "--map", "testdata/ragged.map", "explorer", "explorer"}, 2, "testdata/ragged.map:2:"},
		{"map with a team nobody plays", []string{"run", "--map", "testdata/two-teams.map", "explorer"}, 2, "only 1 players"},
		{"missing map", []string{"run", "--map", "testdata/none.map", "explorer"}, 2, "none.map"},
		{"bad config key", []string{"run", "--config", "testdata/bad.yaml", "explorer"}, 2, "arena.sise"},
		{"bad flag value", []string{"run", "--size", "1", "explorer"}, 2, "arena.size"},
		{"unknown command", []string{"fly"}, 2, "unknown command"},
		{"players", []string{"players"}, 0, "explorer"},
		{"config", []string{"config", "--size", "77"}, 0, "size: 77"},
		{"replay of a missing file", []string{"replay", "testdata/none.sbr"}, 2, "testdata/none.sbr"},
		{"replay of a file that is not one", []string{"replay", "testdata/two-teams.map"}, 2, "testdata/two-teams.map: line 1: not a SquareBattle replay header"},
		{"replay of an empty file", []string{"replay", "testdata/empty.sbr"}, 2, "empty file: not a replay"},
		{"replay without a file", []string{"replay"}, 2, "replay needs one FILE"},
		{"replay of two files", []string{"replay", "a.sbr", "b.sbr"}, 2, "replay needs one FILE"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			code, out, errOut := runMain(t, tc.args...)
			if code != tc.code || !strings.Contains(out+errOut, tc.want) {
				t.Errorf("exit %d, want %d; output:\n%s%s", code, tc.code, out, errOut)
			}
			if tc.code == 2 && strings.Count(strings.TrimSpace(errOut), "\n") > 0 && !strings.Contains(errOut, "usage") {
				t.Errorf("error is not one line: %q", errOut)
			}
		})
	}
}

// TestMapBattle: a seed diagram as a map plays from exactly that arena.
func TestMapBattle(t *testing.T) {
	code, out, errOut := runMain(t, "run", "--json", "--rounds", "2", "--map", "testdata/two-teams.map", "explorer", "explorer")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	var got battleJSON
	if err := json.Unmarshal([]byte(out), &got); err != nil {
		t.Fatal(err)
	}
	// Two moves SE: team 0 from (row 3, col 1) to (row 1, col 3); team 1
	// from (row 1, col 3) over the bottom and right edges to (row 4, col 0).
	want := [][]int{
		{1, -1, -1, -1, -1},
		{-1, -1, -1, -1, -1},
		{-1, -1, -1, -1, -1},
		{-1, -1, -1, -1, -1},
		{-1, -1, -1, -1, -1},
	}
	want[4-1][3] = 0
	for i := range want {
		for j := range want[i] {
			if got.Board[i][j] != want[i][j] {
				t.Fatalf("board = %v, want %v", got.Board, want)
			}
		}
	}
}

// marchersMap is a 150×150 arena of 400 Explorers, 100 for each of four
// teams, on a regular lattice: all move SE every round, in step, so none
// ever meets another and every round moves all 400. The terminal UI's
// frame measurements play it (tui's TestBytesPerFrame, BenchmarkPlayPTY).
const marchersMap = "testdata/marchers-150.map"

// marchers is a size×size arena with n squares per team on a lattice.
func marchers(size, teams, n int) *engine.Map {
	m := &engine.Map{Size: size, Cells: make([]int, size*size)}
	for i := range m.Cells {
		m.Cells[i] = engine.Empty
	}
	total := teams * n
	step := size * size / total
	for i := 0; i < total; i++ {
		cell := i*step + (i*7)%step
		m.Cells[cell] = i % teams
	}
	return m
}

// TestMarchersMap: testdata/marchers-150.map is what marchers makes
// (go test -run MarchersMap -update rewrites it).
func TestMarchersMap(t *testing.T) {
	head := "# 150×150, 4 teams × 100 squares on a lattice: with Explorers all 400 move SE\n" +
		"# every round and never meet. go test -run MarchersMap -update ./cmd/squarebattle/ writes it.\n"
	golden(t, filepath.Base(marchersMap), head+marchers(150, 4, 100).Format())
}

// TestRunOrbs: orbs picks its map's side from the seed unless --size
// forces one, which its rules bound to 30..40.
func TestRunOrbs(t *testing.T) {
	cases := []struct {
		args       []string
		code       int
		size, want string // want: part of the error
	}{
		{[]string{"--seed", "3"}, 0, "30..40", ""},
		{[]string{"--seed", "3", "--size", "33"}, 0, "33", ""},
		{[]string{"--seed", "3", "--size", "50"}, 2, "", "scripts/orbs/rules.lua:"},
	}
	for _, c := range cases {
		args := append([]string{"run", "--game", "orbs", "--json", "--rounds", "5"}, c.args...)
		code, out, errOut := runMain(t, append(args, "explorer", "spreader")...)
		if code != c.code || !strings.Contains(errOut, c.want) {
			t.Errorf("%v: exit %d, %q; want %d and %q", c.args, code, errOut, c.code, c.want)
			continue
		}
		if c.code != 0 {
			continue
		}
		var got modJSON
		if err := json.Unmarshal([]byte(out), &got); err != nil {
			t.Fatal(err)
		}
		ok := got.Size >= 30 && got.Size <= 40
		if c.size != "30..40" {
			ok = strconv.Itoa(got.Size) == c.size
		}
		if !ok || got.Rounds != 5 || got.Columns[0] != "orbs" || got.Winner == nil || len(got.Teams) != 2 {
			t.Errorf("%v: json = %+v", c.args, got)
		}
	}
}

// TestRunGame: a rule mod plays from the command line with its game.yaml
// defaults, identically on one and four workers; mistakes are one line.
func TestRunGame(t *testing.T) {
	var outs []string
	for _, w := range []string{"1", "4"} {
		code, out, errOut := runMain(t, "run", "--game", "paint", "--json", "--seed", "5", "--rounds", "60", "--workers", w, "random", "greedy", "greedy")
		if code != 0 {
			t.Fatalf("exit %d: %s", code, errOut)
		}
		outs = append(outs, out)
	}
	if outs[0] != outs[1] {
		t.Errorf("workers 1 and 4 differ:\n%s\n%s", outs[0], outs[1])
	}
	var got modJSON
	if err := json.Unmarshal([]byte(outs[0]), &got); err != nil {
		t.Fatal(err)
	}
	if got.Game != "paint" || got.Size != 40 || got.Rounds != 60 || len(got.Teams) != 3 || got.Columns[0] != "area" || got.Teams[1].Units != 8 {
		t.Errorf("json = %+v", got)
	}
	// SquareBattle with its rules in Lua prints what the Go rules print.
	args := []string{"run", "--json", "--seed", "11", "--size", "32", "--rounds", "300", "explorer", "wanderer", "borg", "expand"}
	_, goOut, _ := runMain(t, args...)
	code, luaOut, errOut := runMain(t, append([]string{"run", "--game", "squarebattle-lua"}, args[1:]...)...)
	if code != 0 || luaOut != goOut || goOut == "" {
		t.Errorf("rules in Lua: exit %d %s\n%s\nGo rules:\n%s", code, errOut, luaOut, goOut)
	}
	cases := []struct {
		args []string
		code int
		want string
	}{
		{[]string{"run", "--game", "nope"}, 2, `no game "nope" in scripts (games there: orbs, paint, snake, squarebattle-lua`},
		{[]string{"run", "--game", "../x"}, 2, "a game is a folder name"},
		{[]string{"run", "--game", "paint", "--size", "30", "random"}, 2, "scripts/paint/rules.lua:"},
		{[]string{"run", "--game", "paint", "explorer"}, 2, "unknown player"},
		{[]string{"run", "--game", "paint", "rules"}, 2, "not a player"},
		{[]string{"run", "--game", "paint", "--map", "x.map"}, 2, "--map does not work with rule mods yet"},
	}
	for _, c := range cases {
		code, out, errOut := runMain(t, c.args...)
		if code != c.code || !strings.Contains(errOut, c.want) || strings.Count(strings.TrimSpace(errOut), "\n") > 0 {
			t.Errorf("%v: exit %d, %q %q; want %d and %q", c.args, code, out, errOut, c.code, c.want)
		}
	}
}

// TestGameOptions: a rule mod's options come from flags, the environment
// and files; a recorded battle keeps them, so --verify re-runs it with
// them; wrong names and values are one-line errors.
func TestGameOptions(t *testing.T) {
	file := filepath.Join(t.TempDir(), "snake.sbr")
	args := []string{"run", "--game", "snake", "--seed", "3", "--rounds", "400", "--option", "games=1", "--option", "growth=2", "--json", "hungry", "cautious"}
	code, withFlags, errOut := runMain(t, append(args, "--record", file)...)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	t.Setenv("SQUAREBATTLE_OPTIONS_GAMES", "1")
	t.Setenv("SQUAREBATTLE_OPTIONS_GROWTH", "2")
	_, withEnv, _ := runMain(t, "run", "--game", "snake", "--seed", "3", "--rounds", "400", "--json", "hungry", "cautious")
	if withEnv != withFlags {
		t.Errorf("options from the environment differ from the same options as flags:\n%s\n%s", withEnv, withFlags)
	}
	t.Setenv("SQUAREBATTLE_OPTIONS_GAMES", "")
	t.Setenv("SQUAREBATTLE_OPTIONS_GROWTH", "")
	_, defaults, _ := runMain(t, "run", "--game", "snake", "--seed", "3", "--rounds", "400", "--json", "hungry", "cautious")
	if defaults == withFlags {
		t.Error("the options changed nothing")
	}
	if code, out, errOut := runMain(t, "replay", "--verify", file); code != 0 || !strings.HasPrefix(out, "identical") {
		t.Errorf("verify with the recorded options: exit %d %s %s", code, out, errOut)
	}
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"run", "--game", "snake", "--option", "grow=2", "hungry"}, "options.grow: scripts/snake has no option grow (its options: classic, games, growth,"},
		{[]string{"run", "--game", "snake", "--option", "games=x", "hungry"}, `options.games: must be a number (got "x")`},
		{[]string{"run", "--game", "snake", "--option", "games", "hungry"}, `flag --option "games": want NAME=VALUE`},
		{[]string{"run", "--game", "paint", "--option", "growth=1", "random"}, "scripts/paint has no option growth (it has none)"},
	} {
		code, _, errOut := runMain(t, c.args...)
		if code != 2 || !strings.Contains(errOut, c.want) || strings.Count(strings.TrimSpace(errOut), "\n") > 0 {
			t.Errorf("%v: exit %d %q, want %q", c.args, code, errOut, c.want)
		}
	}
}

// TestRulesInLuaReplay: a battle under rules written in Lua records which
// rules.lua it was played under; --verify re-runs it under them and names
// a rules.lua that changed since.
func TestRulesInLuaReplay(t *testing.T) {
	dir := diskCopy(t)
	file := filepath.Join(t.TempDir(), "lua.sbr")
	code, _, errOut := runMain(t, "run", "--scripts", dir, "--game", "squarebattle-lua", "--seed", "4", "--size", "16", "--rounds", "200", "--record", file, "explorer", "wanderer", "expand")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	rep, err := replay.Open(file)
	if err != nil || rep.Header.Rules == nil || rep.Header.Rules.Game != "squarebattle-lua" || rep.Header.Game != "" {
		t.Fatalf("header %+v (%v)", rep.Header.Rules, err)
	}
	if code, out, errOut := runMain(t, "replay", "--verify", "--scripts", dir, file); code != 0 || !strings.HasPrefix(out, "identical") {
		t.Errorf("verify: exit %d %s %s", code, out, errOut)
	}
	rules := filepath.Join(dir, "squarebattle-lua", "rules.lua")
	src, _ := os.ReadFile(rules)
	os.WriteFile(rules, append(src, "\n-- changed\n"...), 0o644)
	code, _, errOut = runMain(t, "replay", "--verify", "--scripts", dir, file)
	if code != 1 || !strings.Contains(errOut, "squarebattle-lua/rules.lua changed") {
		t.Errorf("verify after changing rules.lua: exit %d %s", code, errOut)
	}
}

// TestStatsLine: play --stats's line, counts grouped by thousands.
func TestStatsLine(t *testing.T) {
	tests := []struct {
		s    tui.Stats
		want string
	}{
		{tui.Stats{Frames: 412, Elapsed: 10 * time.Second, Drawing: 9900 * time.Millisecond, Rounds: 1234567, FPS: 30},
			"drew 412 frames in 10.00 s (41.5 frames/s from the first to the last, cap 30); 1,234,567 rounds played"},
		{tui.Stats{Frames: 1000, Elapsed: 5 * time.Second, Drawing: 4995 * time.Millisecond, Rounds: 999, FPS: 240},
			"drew 1,000 frames in 5.00 s (200.0 frames/s from the first to the last, cap 240); 999 rounds played"},
		{tui.Stats{Frames: 1, Elapsed: time.Second, Rounds: 1, FPS: 30},
			"drew 1 frame in 1.00 s (0.0 frames/s from the first to the last, cap 30); 1 round played"},
		{tui.Stats{FPS: 30}, "drew 0 frames in 0.00 s (0.0 frames/s from the first to the last, cap 30); 0 rounds played"},
	}
	for _, tc := range tests {
		if got := statsLine(tc.s); got != tc.want {
			t.Errorf("%+v:\n got %s\nwant %s", tc.s, got, tc.want)
		}
	}
}

// TestVersion: --version and version print the program's version and
// gopher-lua's, on stdout, with status 0.
func TestVersion(t *testing.T) {
	for _, arg := range []string{"--version", "version"} {
		var out, errs strings.Builder
		if code := Main([]string{arg}, &out, &errs); code != 0 || errs.Len() > 0 {
			t.Errorf("%s: status %d, stderr %q", arg, code, errs.String())
		}
		if !strings.HasPrefix(out.String(), "squarebattle ") || !strings.Contains(out.String(), "\ngopher-lua ") {
			t.Errorf("%s printed %q", arg, out.String())
		}
	}
}
