//go:build unix

package arena

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/squarebattle/squarebattle/cmd/squarebattle/e2e/harness"
)

// pyLoopBot is a Python bot (standard library only) for a plain `ssh …
// bot NAME` pipe: one process, battle after battle, waiting with every
// square.
const pyLoopBot = `import json, sys
for line in sys.stdin:
    m = json.loads(line)
    if m["type"] == "hello":
        print(json.dumps({"type": "ready", "name": "Py Loop"}), flush=True)
    elif m["type"] == "round":
        print(json.dumps({"type": "actions", "round": m["round"], "actions": []}), flush=True)
`

// sitter is the Lua upload the bots play against: it waits, so that
// every team lives to the end unless a bot kills it.
const sitter = `return { name = "Sitter", run = function(self) return WAIT end }`

// north is the shipped player of the bots' battles: it walks north, into
// free cells only. Walking into a square that stays put (the sitter, the
// Python bot) would put two squares in one cell, which kills both, and
// the second private battle must end with every team but the retired one
// alive: on a random seed, North's column is a sitter's one time in
// thirty.
const north = `return { name = "North", run = function(self) if free(N) then return MOVE, N end return WAIT end }`

// TestRemoteBotsOpenSSH: a Python bot piped through plain `ssh … bot NAME`
// and the Node starter kit through `squarebattle connect` (two connections
// each) play against a Lua upload, in a private battle started from the
// lobby (OpenSSH in tmux, 80×24) and in ladder battles. The private
// battle's team table shows the bots' round trips; its replay verifies
// identical. The Python bot disconnecting in the middle of a second
// private battle retires its team only: the battle plays on to its end and
// its replay verifies too. Connected again, the Python bot plays ladder
// battles again.
func TestRemoteBotsOpenSSH(t *testing.T) {
	if testing.Short() {
		t.Skip("runs serve, OpenSSH, tmux, python3 and node")
	}
	for _, tool := range []string{"ssh", "tmux", "python3", "node", "sh", "mkfifo"} {
		if _, err := exec.LookPath(tool); err != nil {
			harness.SkipOrRequire(t, "needs %s on PATH", tool)
		}
	}
	bin := harness.Program(t)
	scripts := t.TempDir()
	os.WriteFile(filepath.Join(scripts, "north.lua"), []byte(north), 0o644)
	// Every client here comes from 127.0.0.1, and the test polls (players
	// every 200 ms until the bots are listed, ladder every 500 ms until
	// they have played): past serve.connections_per_minute (30 by
	// default, for one address on the open internet) the server refuses
	// connections before the key exchange, and a slow ladder (a loaded
	// machine) made the history after the polling one of them.
	o := startServe(t, bin, t.TempDir(), append(ladderEnv, "SQUAREBATTLE_SCRIPTS="+scripts, "SQUAREBATTLE_SERVE_CONNECTIONS_PER_MINUTE=100000",
		"SQUAREBATTLE_SERVE_FEATURED_PLAYERS=north,north", "SQUAREBATTLE_SERVE_FEATURED_ROUNDS=1000000",
		"SQUAREBATTLE_ARENA_SIZE=60", "SQUAREBATTLE_RULES_ROUNDS=300", "SQUAREBATTLE_SERVE_BOT_CONNECTIONS_PER_USER=8",
		"SQUAREBATTLE_SERVE_PRIVATE_BATTLES_PER_USER=2")...)
	work := t.TempDir()
	run := func(stdin string, args ...string) (string, int) {
		cmd := exec.Command(args[0], args[1:]...)
		cmd.Stdin = strings.NewReader(stdin)
		out, err := cmd.CombinedOutput()
		if ee, ok := err.(*exec.ExitError); ok {
			return string(out), ee.ExitCode()
		} else if err != nil {
			t.Fatal(err)
		}
		return string(out), 0
	}
	if out, st := run(sitter, o.args("alice", "submit", "sitter")...); st != 0 {
		t.Fatalf("submit: status %d\n%s", st, out)
	}
	py := filepath.Join(work, "loop.py")
	os.WriteFile(py, []byte(pyLoopBot), 0o644)

	// Plain ssh through a pipe, in a process group of its own (killing it
	// is the bot's author pulling the plug).
	ssh := strings.Join(quoteAll(o.args("alice", "bot", "pyloop")), " ")
	plainBot := func(n int) *exec.Cmd {
		fifo := filepath.Join(work, fmt.Sprintf("fifo%d", n))
		c := exec.Command("sh", "-c", "mkfifo "+fifo+" && exec python3 "+py+" < "+fifo+" | "+ssh+" > "+fifo)
		c.Stderr = os.Stderr
		c.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
		if err := c.Start(); err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { syscall.Kill(-c.Process.Pid, syscall.SIGKILL); c.Wait() })
		return c
	}
	pys := []*exec.Cmd{plainBot(1), plainBot(2)}

	// squarebattle connect, with the Node kit.
	kit, err := filepath.Abs("../../../../docs/bots/node/squares.js")
	if err != nil {
		t.Fatal(err)
	}
	var connErr syncBuffer
	for range 2 {
		conn := exec.Command(bin, "connect", "--identity", o.key, "--known-hosts", filepath.Join(work, "known_hosts"), "--accept-new",
			"alice@127.0.0.1:"+o.port, "nodebot", "--", "node", kit)
		conn.Stderr = &connErr
		if err := conn.Start(); err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { conn.Process.Kill(); conn.Wait() })
	}
	deadline := time.Now().Add(time.Minute)
	for {
		out, _ := run("", o.args("alice", "players")...)
		if strings.Count(out, "remote bot") >= 2 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the bots not listed after a minute:\n%s\nconnect said:\n%s", out, connErr.String())
		}
		time.Sleep(200 * time.Millisecond)
	}

	// The lobby lists the upload, the shipped player and the two bots, in
	// that order; a private battle of the upload and the bots.
	cmd := append([]string{"env", "-i", "TERM=xterm", "HOME=" + work, "LANG=C.UTF-8"}, o.args("alice")...)
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
	// private starts a private battle in a new session, picking the
	// lobby's entries at the given rows: the upload, the shipped player,
	// then the bots (alice.nodebot, alice.pyloop), in that order.
	private := func(what string, rows ...int) *harness.Tmux {
		tm := harness.StartTmuxSize(t, 80, 24, work, append(cmd, "-t"))
		tm.WaitFor(has("Start a private battle"), "the menu")
		tm.Send("Down", "Down", "Enter")
		tm.WaitFor(has("alice.sitter", "North", "pyloop", "nodebot"), "the lobby listing the bots")
		at := 0
		for _, r := range rows {
			for ; at < r; at++ {
				tm.Send("Down")
			}
			tm.Send("Enter")
		}
		tm.Send("s")
		tm.WaitFor(func(s string) bool { r, _, ok := harness.StatusRound(s); return ok && r > 0 }, what)
		return tm
	}
	over := func(s string) bool { return strings.Contains(s, "│ over") }
	leave := func(tm *harness.Tmux) {
		tm.Send("Escape")
		tm.WaitFor(has("Start a private battle"), "the menu again")
		tm.Send("q")
		tm.WaitExit()
	}

	// The upload and both bots.
	tm := private("the private battle with the bots", 0, 2, 3)
	screen := tm.WaitFor(has("Reply", "ms", "Py Loop", "Node Squares"), "the team table with the bots' round trips")
	screen = tm.WaitFor(over, "the private battle's end")
	if strings.Contains(screen, "retired") {
		t.Errorf("a team retired in the first battle:\n%s", harness.Framed(screen))
	}
	leave(tm)

	// The second, of players that kill nobody: the Python bot pulls the
	// plug in the middle.
	tm = private("the second private battle", 0, 1, 3)
	tm.WaitFor(func(s string) bool { r, _, ok := harness.StatusRound(s); return ok && r >= 20 }, "round 20")
	for _, c := range pys {
		syscall.Kill(-c.Process.Pid, syscall.SIGKILL)
	}
	screen = tm.WaitFor(over, "the second battle's end, without the Python bot")
	if r, n, _ := harness.StatusRound(screen); r != n || !strings.Contains(screen, "retired") {
		t.Errorf("the battle the Python bot left: round %d of %d\n%s", r, n, harness.Framed(screen))
	}
	leave(tm)

	// Both private battles' replays: fetched, and verified identical with
	// the battles' scripts (the bots' answers are in the replay).
	out, _ := run("", o.args("alice", "replays")...)
	var ids []string
	for _, line := range strings.Split(out, "\n") {
		if f := strings.Fields(line); len(f) > 0 && strings.Contains(line, "Py Loop") {
			ids = append(ids, f[0])
		}
	}
	if len(ids) != 2 {
		t.Fatalf("replays of the private battles: %q in\n%s", ids, out)
	}
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "north.lua"), []byte(north), 0o644)
	os.WriteFile(filepath.Join(dir, "alice.sitter.lua"), []byte(sitter), 0o644)
	// verify fetches replay id as user and plays it again with dir's
	// scripts: it must say identical.
	verify := func(user, id string) {
		get := o.args(user, "get", id)
		data, err := exec.Command(get[0], get[1:]...).Output()
		if err != nil {
			t.Fatalf("get %s: %v", id, err)
		}
		file := filepath.Join(work, id+".sbr")
		os.WriteFile(file, data, 0o644)
		v := exec.Command(bin, "replay", "--verify", "--scripts", dir, file)
		v.Dir = work
		if vout, err := v.CombinedOutput(); err != nil || !strings.Contains(string(vout), "identical") {
			t.Errorf("replay --verify %s: %v\n%s", id, err, vout)
		}
	}
	for _, id := range ids {
		verify("alice", id)
	}

	// The ladder: both bots play; the Python bot, connected again after
	// its plug was pulled, plays on.
	battles := func() map[string]int {
		out, _ := exec.Command(o.args("carol", "ladder", "--json")[0], o.args("carol", "ladder", "--json")[1:]...).Output()
		got := map[string]int{}
		var table struct {
			Rows []struct {
				Name    string `json:"name"`
				Battles int    `json:"battles"`
			} `json:"rows"`
		}
		json.Unmarshal(out, &table)
		for _, r := range table.Rows {
			if _, bot, ok := strings.Cut(r.Name, "."); ok {
				got[bot] = r.Battles
			}
		}
		return got
	}
	before := battles()["pyloop"]
	plainBot(3)
	deadline = time.Now().Add(3 * time.Minute)
	for {
		b := battles()
		if b["pyloop"] >= before+2 && b["nodebot"] >= 2 {
			t.Logf("ladder battles: pyloop %d (%d before it came back), nodebot %d", b["pyloop"], before, b["nodebot"])
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("after 3 minutes: %v (pyloop %d before it came back); connect said:\n%s", b, before, connErr.String())
		}
		time.Sleep(500 * time.Millisecond)
	}

	// A ladder battle of both bots verifies identical too.
	hist, _ := run("", o.args("carol", "history", "alice/pyloop")...)
	ids = ladderReplays(hist)
	if len(ids) == 0 {
		t.Fatalf("history alice/pyloop lists no battle:\n%s", hist)
	}
	verify("carol", ids[0])
}

// ladderReplays are the IDs (L…) of a player's ladder battles as history
// lists them.
func ladderReplays(out string) []string {
	return regexp.MustCompile(`\bL\d+\b`).FindAllString(out, -1)
}

// syncBuffer is a strings.Builder several processes' stderr may share.
type syncBuffer struct {
	mu sync.Mutex
	b  strings.Builder
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// quoteAll quotes each argument for sh.
func quoteAll(args []string) []string {
	out := make([]string, len(args))
	for i, a := range args {
		out[i] = "'" + strings.ReplaceAll(a, "'", `'\''`) + "'"
	}
	return out
}
