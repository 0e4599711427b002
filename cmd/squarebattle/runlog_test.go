package main

import (
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/squarebattle/squarebattle/engine/replay"
)

// talker prints a line every tenth round and a burst of 30 in round 3, one
// of them with an escape sequence.
const talker = `return { name = "Talker", run = function(self, team, view)
  if round() % 10 == 1 then print("hello at", round()) end
  if round() == 3 then
    for i = 1, 30 do print("burst", i) end
    print("\27[2J")
  end
  return WAIT
end }`

// TestRunLog: run --log prints every line as the teams print it, prefixed
// with the round and the team, to stderr or (--log=FILE) to a file; the
// replay of the same battle keeps the lines within its bounds and its
// timeline gives them back; --json keeps each team's last lines.
func TestRunLog(t *testing.T) {
	dir := t.TempDir()
	writeLua(t, filepath.Join(dir, "talker.lua"), talker)
	args := []string{"run", "--isolation", "none", "--scripts", dir, "--size", "12", "--rounds", "25", "--seed", "3"}
	want := []string{"round 1 team 0 Talker: hello at\t1"}
	for i := 1; i <= 30; i++ {
		want = append(want, "round 3 team 0 Talker: burst\t"+strconv.Itoa(i))
	}
	want = append(want, `round 3 team 0 Talker: \x1b[2J`, "round 11 team 0 Talker: hello at\t11", "round 21 team 0 Talker: hello at\t21",
		"round 1 team 1 Talker: hello at\t1")

	code, out, errs := runMain(t, append(args, "--log", "talker", "talker")...)
	if code != exitOK || !strings.Contains(out, "Talker") {
		t.Fatalf("run --log: status %d, stdout %q, stderr %q", code, out, errs)
	}
	got := strings.Split(strings.TrimSuffix(errs, "\n"), "\n")
	for _, w := range want {
		if !slices.Contains(got, w) {
			t.Errorf("stderr lacks %q:\n%s", w, errs)
		}
	}
	if len(got) != 2*34 {
		t.Errorf("%d lines on stderr, want %d (34 a team)", len(got), 2*34)
	}

	logFile, rec := filepath.Join(dir, "talk.log"), filepath.Join(dir, "talk.sbr")
	code, _, errs = runMain(t, append(args, "--log="+logFile, "--record", rec, "talker", "talker")...)
	if code != exitOK || errs != "" {
		t.Fatalf("run --log=FILE: status %d, stderr %q", code, errs)
	}
	data, err := os.ReadFile(logFile)
	if err != nil || !strings.HasPrefix(string(data), want[0]+"\n") || strings.Count(string(data), "\n") != 2*34 {
		t.Fatalf("log file (%v):\n%s", err, data)
	}
	rep, err := replay.Open(rec)
	if err != nil || rep.Damage != nil {
		t.Fatalf("replay: %v %v", err, rep.Damage)
	}
	logs := rep.Timeline.PrintedLogs(rep.Timeline.Last(), 2, 200)
	wantLog := []string{"hello at\t1", "(round 3: 11 earlier lines not recorded)"}
	for i := 12; i <= 30; i++ {
		wantLog = append(wantLog, "burst\t"+strconv.Itoa(i))
	}
	wantLog = append(wantLog, `\x1b[2J`, "hello at\t11", "hello at\t21")
	if !slices.Equal(logs[0], wantLog) || !slices.Equal(logs[1], wantLog) {
		t.Errorf("the replay's logs:\n%q\n%q\nwant\n%q", logs[0], logs[1], wantLog)
	}

	code, out, _ = runMain(t, append(args, "--json", "talker", "talker")...)
	if code != exitOK || !strings.Contains(out, `"log":["burst\t14",`) || !strings.Contains(out, `"hello at\t21"]`) {
		t.Errorf("run --json: status %d, the last %d lines of the log not in\n%s", code, jsonLogLines, out)
	}
}
