package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf8"
)

// hostileText is what a terminal obeys: CSI clear and colour, OSC title and
// clipboard, CR LF forging a line, DEL, C1 CSI (as UTF-8 and as a raw
// byte), a bidi override and an isolate.
const hostileText = `\27[2J\27[31m\27]0;owned\7\27]52;c;cHduZWQ=\7\r\nteam 1 Meek  999\127\194\155 7m\155\226\128\174\226\129\166`

// hostileName is hostileText's worst in a display name's 64 bytes.
const hostileName = `\27[2J\27[31m\27]0;owned\7\r\nteam 1\127\194\155\226\128\174`

// loud wins (it attacks all around on a 3×3 torus, where every cell is a
// neighbour) and prints and fails on the way; meek loses, with a defeat
// speech, and fails too.
const loudScript = `return { name = "Loud ` + hostileName + `", victory = "` + hostileText + `",
  run = function(self)
    self.n = (self.n or 0) + 1
    print("` + hostileText + `", self.n)
    if self.n % 3 == 0 then error("` + hostileText + `") end
    return ATTACK, 1 + self.n % 8
  end }`

const meekScript = `return { name = "Meek ` + hostileName + `", defeat = "` + hostileText + `",
  run = function() error({}) end,
  eliminated = function() error("` + hostileText + `") end }`

// hostileFolder is a scripts folder with the shipped Explorer (check's
// trial opponent) and the two loud players.
func hostileFolder(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	explorer := shippedFile(t, "explorer.lua")
	for name, src := range map[string]string{"explorer.lua": string(explorer), "loud.lua": loudScript, "meek.lua": meekScript} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// assertPrintable fails on anything a terminal would obey in out: control
// characters other than the command's own newlines (and the tabs of a
// printed line), DEL, C1 controls, bidi controls, and invalid UTF-8.
func assertPrintable(t *testing.T, what, out string) {
	t.Helper()
	if !utf8.ValidString(out) {
		t.Errorf("%s: output is not UTF-8:\n%q", what, out)
	}
	for i, r := range out {
		bad := (r < 0x20 && r != '\n' && r != '\t') || r == 0x7f || (r >= 0x80 && r <= 0x9f) ||
			(r >= 0x202a && r <= 0x202e) || (r >= 0x2066 && r <= 0x2069) || r == 0x200e || r == 0x200f
		if bad {
			t.Errorf("%s: %U at byte %d: %q", what, r, i, out[max(0, i-40):min(len(out), i+40)])
			return
		}
	}
}

// TestOutputSafeText runs every command that prints script text with
// players whose names, speeches, printed lines and errors are escape
// sequences: no raw control character reaches the output, and the text is
// still there, escaped.
func TestOutputSafeText(t *testing.T) {
	dir := hostileFolder(t)
	rec := filepath.Join(t.TempDir(), "loud.sbr")
	battle := []string{"--scripts", dir, "--seed", "3", "--size", "3", "--rounds", "30"}
	tourney := []string{"tournament", "--scripts", dir, "--seed", "3", "--size", "3", "--rounds", "30", "--games", "2", "loud", "meek"}
	tests := []struct {
		name string
		args []string
		want string // in stdout+stderr, escaped
	}{
		{"players", []string{"players", "--scripts", dir}, `Loud \x1b[2J\x1b[31m\x1b]0;owned\x07`},
		{"run", append(append([]string{"run"}, battle...), "--record", rec, "loud", "meek"), `\x1b]52;c;cHduZWQ=\x07\r\nteam 1 Meek  999\x7f\u009b 7m\x9b\u202e\u2066`},
		{"run --json", append(append([]string{"run", "--json"}, battle...), "loud", "meek"), `Loud \\x1b[2J`},
		{"check", []string{"check", "--scripts", dir, filepath.Join(dir, "loud.lua")}, `\x1b[2J`},
		{"tournament", tourney, `Loud \x1b[2J`},
		{"tournament --markdown", append(tourney, "--markdown"), `Loud \x1b[2J`},
		{"tournament --csv", append(tourney, "--csv"), `Loud \x1b[2J`},
		{"tournament --json", append(tourney, "--json"), `Loud \\x1b[2J`},
		{"replay --verify", []string{"replay", "--verify", "--scripts", dir, rec}, `Loud \x1b[2J`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, out, errOut := runMain(t, tc.args...)
			assertPrintable(t, tc.name+" stdout", out)
			assertPrintable(t, tc.name+" stderr", errOut)
			if !strings.Contains(out+errOut, tc.want) {
				t.Errorf("output lacks %q:\n%s%s", tc.want, out, errOut)
			}
		})
	}
}

// TestReplayFileSafeText: a replay file edited by hand to carry raw escape
// sequences (JSON allows them as \u001b) is shown escaped by replay --verify.
func TestReplayFileSafeText(t *testing.T) {
	dir := hostileFolder(t)
	rec := filepath.Join(t.TempDir(), "plain.sbr")
	if code, _, errOut := runMain(t, "run", "--scripts", dir, "--seed", "3", "--size", "3", "--rounds", "30", "--record", rec, "explorer", "explorer"); code != 0 {
		t.Fatal(errOut)
	}
	evil := filepath.Join(t.TempDir(), "evil.sbr")
	editReplay(t, rec, evil, func(lines [][]byte) [][]byte {
		for i := range lines {
			lines[i] = bytes.ReplaceAll(lines[i], []byte(`"name":"Explorer"`), []byte(`"name":"\u001b[2J\u001b]0;owned\u0007\r\n\u009b\u202e"`))
			lines[i] = bytes.ReplaceAll(lines[i], []byte(`"reason":"`), []byte(`"reason":"\u001b[31m`))
		}
		return lines
	})
	_, out, errOut := runMain(t, "replay", "--verify", "--scripts", dir, evil)
	assertPrintable(t, "stdout", out)
	assertPrintable(t, "stderr", errOut)
	if !strings.Contains(out+errOut, `\x1b[`) {
		t.Errorf("the crafted text is not shown escaped:\n%s%s", out, errOut)
	}
}

// TestConnectNotesSafe: what an arena writes on a bot session's stderr
// reaches `squarebattle connect`'s terminal one safe line at a time, in
// whatever pieces it arrives: escape sequences, carriage returns, bidi
// controls and bytes that are not UTF-8 shown escaped, and a line that
// never ends held at most maxNoteLine bytes at a time.
func TestConnectNotesSafe(t *testing.T) {
	long := strings.Repeat("l", 3*maxNoteLine+5)
	tests := []struct {
		name   string
		pieces []string
		want   string // the output holds it
		lines  int    // newline-ended lines written
	}{
		{"plain", []string{"squarebattle: connected\n"}, "squarebattle: connected\n", 1},
		{"escapes", []string{"\x1b[2J\x1b]0;owned\x07 hi\n"}, `\x1b[2J\x1b]0;owned\x07 hi`, 1},
		{"carriage return inside", []string{"fake\rreal\r\n"}, `fake\rreal` + "\n", 1},
		{"bidi and bad bytes", []string{"\u202egnirts \xff\xfe\n"}, `\u202egnirts \xff\xfe`, 1},
		{"in pieces", []string{"\x1b", "[31", "mred\nsecond", " line\n"}, `\x1b[31mred` + "\nsecond line\n", 2},
		{"a line that never ends", []string{long}, strings.Repeat("l", maxNoteLine) + "\n", 4},
		{"an escape split across a cut", []string{strings.Repeat("x", maxNoteLine-1) + "\x1b[2J\n"}, "x\\x1b\n[2J\n", 2},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var out bytes.Buffer
			w := &safeLineWriter{w: &out}
			for _, p := range tt.pieces {
				if n, err := w.Write([]byte(p)); n != len(p) || err != nil {
					t.Fatalf("write %q: %d, %v", p, n, err)
				}
				if len(w.buf) > maxNoteLine {
					t.Fatalf("holds %d bytes", len(w.buf))
				}
			}
			w.Flush()
			got := out.String()
			assertPrintable(t, "notes", got)
			if !strings.Contains(got, tt.want) || strings.Count(got, "\n") != tt.lines {
				t.Errorf("wrote %q; want it to hold %q in %d lines", got, tt.want, tt.lines)
			}
		})
	}
}
