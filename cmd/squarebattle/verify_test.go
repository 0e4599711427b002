package main

import (
	"bytes"
	"compress/gzip"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/squarebattle/squarebattle/config"
	"github.com/squarebattle/squarebattle/engine/replay"
	"github.com/squarebattle/squarebattle/scripts"
	"github.com/squarebattle/squarebattle/tui"
)

// diskCopy copies the shipped players into a fresh folder.
func diskCopy(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	err := fs.WalkDir(scripts.FS, ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		data, err := fs.ReadFile(scripts.FS, p)
		if err != nil {
			return err
		}
		target := filepath.Join(dir, filepath.FromSlash(p))
		if err := os.MkdirAll(filepath.Dir(target), 0o755); err != nil {
			return err
		}
		return os.WriteFile(target, data, 0o644)
	})
	if err != nil {
		t.Fatal(err)
	}
	return dir
}

// editReplay rewrites a replay's lines.
func editReplay(t *testing.T, from, to string, edit func(lines [][]byte) [][]byte) {
	t.Helper()
	f, err := os.Open(from)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	zr, err := gzip.NewReader(f)
	if err != nil {
		t.Fatal(err)
	}
	text, err := io.ReadAll(zr)
	if err != nil {
		t.Fatal(err)
	}
	lines := edit(bytes.SplitAfter(text, []byte("\n")))
	var buf bytes.Buffer
	zw := gzip.NewWriter(&buf)
	zw.Write(bytes.Join(lines, nil))
	zw.Close()
	if err := os.WriteFile(to, buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestVerify records a battle with `run --record`, then plays it again
// against scripts and replays changed in each way a user meets.
func TestVerify(t *testing.T) {
	dir := diskCopy(t)
	file := filepath.Join(t.TempDir(), "battle.sbr")
	code, _, errOut := runMain(t, "run", "--scripts", dir, "--record", file, "--seed", "3", "--size", "32", "--rounds", "200", "pinwheel", "hesitantwolf", "borg")
	if code != 0 {
		t.Fatalf("run --record: exit %d: %s", code, errOut)
	}
	rep, err := replay.Open(file)
	if err != nil || rep.Damage != nil || rep.Result == nil {
		t.Fatalf("recorded replay: %v %v", err, rep)
	}
	last := rep.Timeline.Last()

	cases := []struct {
		name    string
		prepare func(t *testing.T, dir, file string) // changes the scripts or the file
		want    string                               // "" = identical
		bad     bool                                 // bad input rather than a difference
	}{
		{"unchanged", nil, "", false},
		{"a new script in the folder", func(t *testing.T, dir, file string) {
			os.WriteFile(filepath.Join(dir, "aaa.lua"), []byte("name = 'Newcomer'\nfunction run(self) return wait() end\n"), 0o644)
		}, "", false},
		{"a changed script", func(t *testing.T, dir, file string) {
			f, _ := os.OpenFile(filepath.Join(dir, "wanderer.lua"), os.O_APPEND|os.O_WRONLY, 0)
			f.WriteString("\n-- tweak\n")
			f.Close()
		}, "script " + "DIR/wanderer.lua changed: sha256", false},
		{"a missing script", func(t *testing.T, dir, file string) {
			os.Remove(filepath.Join(dir, "borg.lua"))
		}, "DIR/borg.lua is missing", false},
		{"another seed", func(t *testing.T, dir, file string) {
			editReplay(t, file, file, func(l [][]byte) [][]byte {
				l[0] = bytes.Replace(l[0], []byte(`"seed":3,`), []byte(`"seed":4,`), 1)
				return l
			})
		}, "starting arena differs", false},
		{"a smaller instruction budget", func(t *testing.T, dir, file string) {
			editReplay(t, file, file, func(l [][]byte) [][]byte {
				l[0] = bytes.Replace(l[0], []byte(`"instructions":10000`), []byte(`"instructions":100`), 1)
				return l
			})
		}, "round 1 differs: lost turns", false},
		{"a recording stopped early", func(t *testing.T, dir, file string) {
			editReplay(t, file, file, func(l [][]byte) [][]byte { return l[:40] })
		}, "", false},
		{"a cut file", func(t *testing.T, dir, file string) {
			editReplay(t, file, file, func(l [][]byte) [][]byte { return append(l[:40], l[40][:len(l[40])/2]) })
		}, "identical up to round 39, where the file is damaged", false},
		{"a damaged round", func(t *testing.T, dir, file string) {
			editReplay(t, file, file, func(l [][]byte) [][]byte {
				l[20] = []byte(`{"r":20,"c":[5,0]}` + "\n")
				return l
			})
			// A square appears without a birth: the reader refuses the round.
		}, "b.sbr: line 21: round 20: team 0's births and deaths do not match its cells", false},
		{"not a replay", func(t *testing.T, dir, file string) {
			os.WriteFile(file, []byte("hello\n"), 0o644)
		}, "line 1: not a SquareBattle replay", true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			d, out, err := verifyCopy(t, file, c.prepare)
			if c.want == "" {
				if err != nil {
					t.Fatal(err)
				}
				if !strings.HasPrefix(out.String(), "identical: ") || !strings.Contains(out.String(), " won ") && !strings.Contains(out.String(), "no winner") && !strings.Contains(out.String(), "unfinished") {
					t.Errorf("output %q", out.String())
				}
				return
			}
			want := strings.ReplaceAll(c.want, "DIR", d)
			if err == nil || !strings.Contains(err.Error(), want) {
				t.Fatalf("error %v, want %q", err, want)
			}
			if strings.Contains(err.Error(), "\n") {
				t.Errorf("error is not one line: %q", err)
			}
			if errors.Is(err, errBadInput) != c.bad {
				t.Errorf("bad input = %v, want %v", errors.Is(err, errBadInput), c.bad)
			}
		})
	}
	// The command line: exit 0 and "identical"; 1 and one line on a difference.
	code, out, errOut := runMain(t, "replay", "--verify", "--scripts", dir, "--workers", "1", file)
	if code != 0 || !strings.HasPrefix(out, "identical: ") {
		t.Errorf("replay --verify: exit %d, %q %q", code, out, errOut)
	}
	os.WriteFile(filepath.Join(dir, "borg.lua"), []byte("-- gone\n"), 0o644)
	code, out, errOut = runMain(t, "replay", "--verify", "--scripts", dir, file)
	if code != 1 || out != "" || !strings.Contains(errOut, "borg.lua changed") || strings.Count(errOut, "\n") != 1 {
		t.Errorf("replay --verify with a changed script: exit %d, %q %q", code, out, errOut)
	}
	if last < 40 {
		t.Errorf("the battle lasted %d rounds; the cut-file case needs 40", last)
	}
}

// TestVerifyMod records a paint battle with `run --game paint --record`,
// reads it back and plays it again: identical with the same scripts, a
// changed rules.lua or player is named before anything is played, and a
// damaged round is found where it is.
func TestVerifyMod(t *testing.T) {
	dir := diskCopy(t)
	file := filepath.Join(t.TempDir(), "paint.sbr")
	code, out, errOut := runMain(t, "run", "--game", "paint", "--scripts", dir, "--record", file, "--seed", "8", "--rounds", "50", "random", "greedy", "greedy")
	if code != 0 {
		t.Fatalf("run --game paint --record: exit %d: %s", code, errOut)
	}
	rep, err := replay.Open(file)
	if err != nil || rep.Damage != nil || rep.Result == nil {
		t.Fatalf("recorded replay: %v %+v", err, rep)
	}
	if h := rep.Header; h.Game != "paint" || len(h.Columns) == 0 || h.Size != 40 || rep.Timeline.Last() != 50 {
		t.Fatalf("header %+v, %d rounds", h, rep.Timeline.Last())
	}
	// The replay's last round is the battle's final standings.
	final := rep.Timeline.At(50)
	for _, tv := range final.Teams {
		if !strings.Contains(out, fmt.Sprintf("%d", tv.Values[0])) {
			t.Errorf("team %d's score %d is not in the standings:\n%s", tv.Team, tv.Values[0], out)
		}
	}
	cases := []struct {
		name    string
		prepare func(t *testing.T, dir, file string)
		want    string
	}{
		{"unchanged", nil, ""},
		{"changed rules", func(t *testing.T, dir, file string) {
			f, _ := os.OpenFile(filepath.Join(dir, "paint", "rules.lua"), os.O_APPEND|os.O_WRONLY, 0)
			f.WriteString("\n-- tweak\n")
			f.Close()
		}, "DIR/paint/rules.lua changed: sha256"},
		{"a missing player", func(t *testing.T, dir, file string) {
			os.Remove(filepath.Join(dir, "paint", "greedy.lua"))
		}, "DIR/paint/greedy.lua is missing"},
		{"a damaged round", func(t *testing.T, dir, file string) {
			editReplay(t, file, file, func(l [][]byte) [][]byte {
				l[20] = bytes.Replace(l[20], []byte(`"m":[`), []byte(`"m":[0,768,`), 1)
				return l
			})
		}, "round 20 differs: marks differ"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			d, out, err := verifyCopy(t, file, c.prepare)
			if c.want == "" {
				if err != nil || !strings.HasPrefix(out.String(), "identical: 50 rounds") {
					t.Fatalf("%v %q", err, out.String())
				}
				return
			}
			if want := strings.ReplaceAll(c.want, "DIR", d); err == nil || !strings.Contains(err.Error(), want) {
				t.Fatalf("error %v, want %q", err, want)
			}
		})
	}
	code, out, errOut = runMain(t, "replay", "--verify", "--scripts", dir, "--workers", "1", file)
	if code != 0 || !strings.HasPrefix(out, "identical: ") {
		t.Errorf("replay --verify: exit %d, %q %q", code, out, errOut)
	}
}

// verifyCopy verifies a copy of file against a fresh copy of the shipped
// scripts, after prepare (when not nil) changed either; it returns the
// scripts folder, the output and the error.
func verifyCopy(t *testing.T, file string, prepare func(t *testing.T, dir, file string)) (string, *bytes.Buffer, error) {
	t.Helper()
	d := diskCopy(t)
	f := filepath.Join(t.TempDir(), "b.sbr")
	data, _ := os.ReadFile(file)
	os.WriteFile(f, data, 0o644)
	if prepare != nil {
		prepare(t, d, f)
	}
	cfg := config.Default()
	cfg.Scripts = d
	var out bytes.Buffer
	err := verifyReplay(cfg, f, &out)
	return d, &out, err
}

// TestPlaySourceGames: the terminal UI's source offers paint with its
// game.yaml defaults and its players (not its rules), and a paint battle
// it builds records a replay that verifies, as the UI's w key saves it.
func TestPlaySourceGames(t *testing.T) {
	dir := diskCopy(t)
	cfg, src := dirSource(t, dir)
	gs := src.Games()
	var ids []string
	for _, g := range gs {
		ids = append(ids, g.ID)
	}
	if strings.Join(ids, ",") != ",orbs,paint,snake,squarebattle-lua" || gs[2].Size != 40 || gs[2].Rounds != 500 || gs[1].Size < 30 || gs[1].Size > 40 {
		t.Fatalf("games %+v", gs)
	}
	ids = nil
	// Rules in Lua for SquareBattle's players: the lobby lists SquareBattle's
	// players, and a battle it builds records which rules.lua it runs.
	if got, want := len(src.GameEntries("squarebattle-lua")), len(src.Entries()); got != want || got == 0 {
		t.Errorf("squarebattle-lua lists %d players, SquareBattle %d", got, want)
	}
	lb, err := src.NewBattle(tui.Setup{Game: "squarebattle-lua", Players: []string{"explorer", "wanderer"}, Size: 16, Rounds: 20, Seed: 3})
	if err != nil {
		t.Fatal(err)
	}
	if h := lb.Header(); h.Rules == nil || h.Rules.Game != "squarebattle-lua" {
		t.Errorf("header rules %+v", h.Rules)
	}
	lb.Close()
	for _, e := range src.GameEntries("paint") {
		ids = append(ids, e.ID)
	}
	if strings.Join(ids, " ") != "greedy random" {
		t.Errorf("paint's players %v", ids)
	}
	b, err := src.NewBattle(tui.Setup{Game: "paint", Players: []string{"random", "greedy"}, Size: 40, Rounds: 30, Seed: 12})
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	file := filepath.Join(t.TempDir(), "ui.sbr")
	f, err := replay.Create(file, b.Header(), b.Snapshot())
	if err != nil {
		t.Fatal(err)
	}
	rec := b.Recorder()
	for b.Step() {
		l := rec.Next()
		f.Round(&l)
	}
	f.End(b.Snapshot(), replay.EndReason(b.Snapshot()))
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	if err := verifyReplay(cfg, file, &out); err != nil || !strings.HasPrefix(out.String(), "identical: 30 rounds") {
		t.Fatalf("verify: %v %q", err, out.String())
	}
}
