//go:build unix

package arena

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/squarebattle/squarebattle/cmd/squarebattle/e2e/harness"
)

// ladderHunter is the player the ladder test submits.
const ladderHunter = `return {
  name = "Ladder Hunter",
  run = function(self, team, view, row, col)
    for d = 1, 8 do
      local v = view[d]
      if v ~= EMPTY and v ~= WALL and v ~= team then return ATTACK, d end
    end
    local d = math.random(8)
    if view[d] == EMPTY then
      if math.random() < 0.3 then return REPLICATE, d end
      return MOVE, d
    end
    return WAIT
  end,
}
`

// TestLadderOpenSSH walks the ladder as a coder does, with OpenSSH:
// submit --wait prints the rated battles and the settled rank; ladder (and
// --json) lists the player; history shows its battles with their replay
// IDs; in the menu (tmux, 80×24, TERM=xterm) the Ladder lists it, its page
// draws the rating plot and its battles, and one of them plays as a
// replay; get fetches that replay and replay --verify, with the battle's
// scripts, says identical.
func TestLadderOpenSSH(t *testing.T) {
	if testing.Short() {
		t.Skip("runs serve and OpenSSH in tmux; skipped under -short")
	}
	for _, tool := range []string{"ssh", "tmux"} {
		if _, err := exec.LookPath(tool); err != nil {
			harness.SkipOrRequire(t, "needs %s on PATH (apt-get install openssh-client tmux)", tool)
		}
	}
	bin := harness.Program(t)
	o := startServe(t, bin, t.TempDir(), ladderEnv...)
	work := t.TempDir()
	run := func(stdin string, args ...string) (string, int) {
		cmd := exec.Command(args[0], args[1:]...)
		if stdin != "" {
			cmd.Stdin = strings.NewReader(stdin)
		}
		out, err := cmd.Output()
		if ee, ok := err.(*exec.ExitError); ok {
			return string(out) + string(ee.Stderr), ee.ExitCode()
		} else if err != nil {
			t.Fatal(err)
		}
		return string(out), 0
	}

	out, st := run(ladderHunter, o.args("alice", "submit", "hunter", "--wait")...)
	lines := regexp.MustCompile(`(?m)^battle (L\d+): place \d of 3 against .+$`).FindAllStringSubmatch(out, -1)
	if st != 0 || len(lines) < 5 || !strings.Contains(out, "settled: rank ") {
		t.Fatalf("submit --wait: status %d, %d battle lines:\n%s", st, len(lines), out)
	}
	if out, st := run("", o.args("bob", "ladder")...); st != 0 || !strings.Contains(out, "Ladder Hunter") {
		t.Fatalf("ladder: status %d\n%s", st, out)
	}
	out, st = run("", o.args("bob", "ladder", "--json")...)
	var table map[string]any
	if st != 0 || json.Unmarshal([]byte(out), &table) != nil || !strings.Contains(out, "alice") {
		t.Fatalf("ladder --json: status %d\n%s", st, out)
	}
	if out, st := run("", o.args("bob", "history", "alice/hunter")...); st != 0 || !strings.Contains(out, lines[0][1]) {
		t.Fatalf("history alice/hunter does not list %s: status %d\n%s", lines[0][1], st, out)
	}

	// The menu, in tmux.
	cmd := append([]string{"env", "-i", "TERM=xterm", "HOME=" + work, "LANG=C.UTF-8"}, o.args("alice")...)
	cmd = append(cmd, "-t")
	tm := harness.StartTmuxSize(t, 80, 24, work, cmd)
	has := func(s ...string) func(string) bool {
		return func(screen string) bool {
			for _, x := range s {
				if !strings.Contains(screen, x) {
					return false
				}
			}
			return true
		}
	}
	tm.WaitFor(has("Watch the featured battle", "Ladder"), "the menu with Ladder")
	tm.Send("Down", "Down", "Down", "Down", "Down", "Enter")
	tm.WaitFor(has("SquareBattle · ladder", "Ladder Hunter"), "the leaderboard listing the player")
	// The table moves as battles end: alice's own list holds the one row.
	tm.Send("Escape")
	tm.WaitFor(has("My players on the ladder"), "the menu again")
	tm.Send("Down", "Enter")
	tm.WaitFor(has("Ladder Hunter"), "alice's players")
	tm.Send("Enter")
	page := tm.WaitFor(has("Ladder Hunter (alice/hunter)", "recent battles", "┤"), "the player's page with its plot")
	if !regexp.MustCompile(`[\x{2800}-\x{28FF}▀▄█]`).MatchString(page) {
		t.Errorf("the page draws no plot:\n%s", harness.Framed(page))
	}
	tm.Send("Enter")
	tm.WaitFor(has("REPLAY of"), "a battle of the page played as a replay")
	tm.Send("Escape")
	tm.WaitFor(has("Ladder Hunter (alice/hunter)"), "the page again")
	tm.Send("q")
	tm.WaitExit()

	// get, then replay --verify with the battle's scripts: the shipped
	// players and alice's, under the names the arena gives them.
	id := lines[0][1]
	data, st := run("", o.args("bob", "get", id)...)
	if st != 0 {
		t.Fatalf("get %s: status %d", id, st)
	}
	file := filepath.Join(work, id+".sbr")
	os.WriteFile(file, []byte(data), 0o644)
	dir := harness.ShippedCopy(t)
	os.WriteFile(filepath.Join(dir, "alice.hunter.lua"), []byte(ladderHunter), 0o644)
	verify := exec.Command(bin, "replay", "--verify", "--scripts", dir, file)
	verify.Dir = work
	vout, err := verify.CombinedOutput()
	if err != nil || !strings.Contains(string(vout), "identical") {
		t.Fatalf("replay --verify %s: %v\n%s", id, err, vout)
	}
}
