package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// oopsScript fails in a helper on line 2, after printing, every round.
const oopsScript = `local function helper(v)
  return v.row + 1
end
return { name = "Oops", run = function(self, team, view)
  print("thinking", view[1])
  return MOVE, helper(nil)
end }
`

// TestProblemsShowWhere: run --json lists each first problem with its
// file:line and traceback and each team's last printed lines; check prints
// the traceback under the problem, in and out of worker processes.
func TestProblemsShowWhere(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "oops.lua"), []byte(oopsScript), 0o644); err != nil {
		t.Fatal(err)
	}
	writeShipped(t, "explorer.lua", dir) // check's opponent
	file := filepath.Join(dir, "oops.lua")
	wantMsg := file + ":2: attempt to index local 'v' (a nil value)"
	wantTrace := file + ":2: in function 'helper'\n" + file + ":6: in function <" + file + ":4>"
	for _, iso := range []string{"none", "process"} {
		code, out, errOut := runMain(t, "run", "--json", "--seed", "3", "--size", "8", "--rounds", "5", "--isolation", iso, "--scripts", dir, "oops", "oops")
		if code != 0 {
			t.Fatalf("%s: run exit %d: %s", iso, code, errOut)
		}
		var got struct {
			Problems []struct {
				Round   int    `json:"round"`
				Team    int    `json:"team"`
				Kind    string `json:"kind"`
				Message string `json:"message"`
				Trace   string `json:"trace"`
			} `json:"problems"`
			Teams []struct {
				Log []string `json:"log"`
			} `json:"teams"`
		}
		if err := json.Unmarshal([]byte(out), &got); err != nil {
			t.Fatalf("%s: %v in %s", iso, err, out)
		}
		if len(got.Problems) != 2 {
			t.Fatalf("%s: problems %+v, want one for each team", iso, got.Problems)
		}
		for i, p := range got.Problems {
			if p.Team != i || p.Round != 1 || p.Kind != "error" || p.Message != wantMsg || p.Trace != wantTrace {
				t.Errorf("%s: problem %+v, want team %d round 1 error %q with trace %q", iso, p, i, wantMsg, wantTrace)
			}
		}
		for i, tm := range got.Teams {
			if len(tm.Log) != 5 || !strings.HasPrefix(tm.Log[0], "thinking\t") {
				t.Errorf("%s: team %d log %q, want 5 lines of thinking", iso, i, tm.Log)
			}
		}
		code, out, errOut = runMain(t, "check", "--isolation", iso, "--scripts", dir, file)
		if code != 1 || !strings.Contains(out, wantMsg+"\n    "+strings.ReplaceAll(wantTrace, "\n", "\n    ")+"\n") {
			t.Errorf("%s: check exit %d, output lacks the problem with its traceback:\n%s%s", iso, code, out, errOut)
		}
	}
}
