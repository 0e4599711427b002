//go:build unix

package arena

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
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

// TestRemoteBotsOpenSSH: a Python bot piped through plain `ssh … bot NAME`
// and the Node starter kit through `squarebattle connect` play ladder
// battles against the Lua players; `ladder --json` counts their battles.
func TestRemoteBotsOpenSSH(t *testing.T) {
	if testing.Short() {
		t.Skip("runs serve, OpenSSH, python3 and node")
	}
	for _, tool := range []string{"ssh", "python3", "node", "sh", "mkfifo"} {
		if _, err := exec.LookPath(tool); err != nil {
			harness.SkipOrRequire(t, "needs %s on PATH", tool)
		}
	}
	bin := harness.Program(t)
	o := startServe(t, bin, t.TempDir(), ladderEnv...)
	work := t.TempDir()
	bot := filepath.Join(work, "loop.py")
	os.WriteFile(bot, []byte(pyLoopBot), 0o644)
	fifo := filepath.Join(work, "fifo")

	// Plain ssh through a pipe.
	ssh := strings.Join(quoteAll(o.args("alice", "bot", "pyloop")), " ")
	plain := exec.Command("sh", "-c", "mkfifo "+fifo+" && python3 "+bot+" < "+fifo+" | "+ssh+" > "+fifo)
	plain.Stderr = os.Stderr
	if err := plain.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { plain.Process.Kill(); plain.Wait() })

	// squarebattle connect, with the Node kit.
	kit, err := filepath.Abs("../../../../docs/bots/node/squares.js")
	if err != nil {
		t.Fatal(err)
	}
	conn := exec.Command(bin, "connect", "--identity", o.key, "--known-hosts", filepath.Join(work, "known_hosts"), "--accept-new",
		"bob@127.0.0.1:"+o.port, "nodebot", "--", "node", kit)
	var connErr strings.Builder
	conn.Stderr = &connErr
	if err := conn.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { conn.Process.Kill(); conn.Wait() })

	battles := func() map[string]int {
		out, err := exec.Command(o.args("carol", "ladder", "--json")[0], o.args("carol", "ladder", "--json")[1:]...).Output()
		got := map[string]int{}
		if err != nil {
			return got
		}
		var table struct {
			Rows []struct {
				Name    string `json:"name"`
				Battles int    `json:"battles"`
			} `json:"rows"`
		}
		json.Unmarshal(out, &table)
		for _, r := range table.Rows {
			// One key: its user is whoever's name it gave first.
			if _, bot, ok := strings.Cut(r.Name, "."); ok {
				got[bot] = r.Battles
			}
		}
		return got
	}
	deadline := time.Now().Add(3 * time.Minute)
	for {
		b := battles()
		if b["pyloop"] >= 2 && b["nodebot"] >= 2 {
			t.Logf("ladder battles: pyloop %d, nodebot %d", b["pyloop"], b["nodebot"])
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("after 3 minutes: %v; connect said:\n%s", b, connErr.String())
		}
		time.Sleep(500 * time.Millisecond)
	}
}

// quoteAll quotes each argument for sh.
func quoteAll(args []string) []string {
	out := make([]string, len(args))
	for i, a := range args {
		out[i] = "'" + strings.ReplaceAll(a, "'", `'\''`) + "'"
	}
	return out
}
