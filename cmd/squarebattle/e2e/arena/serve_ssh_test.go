//go:build unix

package arena

import (
	"bufio"
	"crypto/ed25519"
	"crypto/rand"
	"encoding/pem"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/squarebattle/squarebattle/cmd/squarebattle/e2e/harness"

	gossh "golang.org/x/crypto/ssh"
)

// openSSH is OpenSSH's client pointed at a test server: no user
// configuration, no known_hosts, one key.
type openSSH struct {
	key, port string
	proc      *os.Process
	started   []string // serve's log up to its listen line
}

func (o openSSH) args(user string, extra ...string) []string {
	return append([]string{"ssh", "-F", "/dev/null", "-o", "StrictHostKeyChecking=no", "-o", "UserKnownHostsFile=/dev/null",
		"-o", "LogLevel=ERROR", "-o", "IdentitiesOnly=yes", "-o", "BatchMode=yes", "-i", o.key, "-p", o.port, user + "@127.0.0.1"}, extra...)
}

// startServe runs `squarebattle serve` (the built binary) on a free
// loopback port with a fresh data dir and returns how to reach it. The
// featured battle is short and fast, so replays appear within seconds;
// env (SQUAREBATTLE_*=value) is added after these settings and overrides
// them.
func startServe(t testing.TB, bin, data string, env ...string) openSSH {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := l.Addr().String()
	l.Close()
	work, base := harness.Isolated(t)
	cmd := exec.Command(bin, "serve", "--listen", addr)
	cmd.Dir = work
	cmd.Env = append(append(base, "SQUAREBATTLE_SERVE_DATA_DIR="+data, "SQUAREBATTLE_SERVE_FEATURED_SIZE=16",
		"SQUAREBATTLE_SERVE_FEATURED_ROUNDS=40", "SQUAREBATTLE_TUI_SPEED=100", "SQUAREBATTLE_ISOLATION_POOL_SIZE=1"), env...)
	stderr, _ := cmd.StderrPipe()
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	harness.StopAtCleanup(t, cmd, "serve", 15*time.Second)
	ready := make(chan []string, 1) // the lines up to the listen line; nil when serve exits before it
	go func() {
		sc := bufio.NewScanner(stderr)
		var lines []string
		sent := false
		for sc.Scan() {
			if !sent {
				lines = append(lines, sc.Text())
			}
			if !sent && strings.Contains(sc.Text(), "event=listen") {
				ready <- lines
				sent = true
			}
		}
		if !sent {
			ready <- nil
		}
	}()
	var started []string
	select {
	case started = <-ready:
		if started == nil {
			t.Fatal("serve exited before listening")
		}
	case <-time.After(30 * time.Second):
		t.Fatal("serve not listening after 30 s")
	}
	_, priv, _ := ed25519.GenerateKey(rand.Reader)
	block, err := gossh.MarshalPrivateKey(priv, "test")
	if err != nil {
		t.Fatal(err)
	}
	key := filepath.Join(work, "id_ed25519")
	if err := os.WriteFile(key, pem.EncodeToMemory(block), 0o600); err != nil {
		t.Fatal(err)
	}
	_, port, _ := net.SplitHostPort(addr)
	return openSSH{key: key, port: port, proc: cmd.Process, started: started}
}

// TestServeOpenSSH drives `squarebattle serve` with OpenSSH's ssh: submit
// from a file, then the menu, watching, a private battle with the
// uploaded player, a replay, and quitting with q and Ctrl-C, in tmux at
// 80×24 with TERM=xterm.
func TestServeOpenSSH(t *testing.T) {
	if testing.Short() {
		t.Skip("runs serve and OpenSSH in tmux; skipped under -short")
	}
	for _, tool := range []string{"ssh", "tmux"} {
		if _, err := exec.LookPath(tool); err != nil {
			harness.SkipOrRequire(t, "needs %s on PATH (apt-get install openssh-client tmux)", tool)
		}
	}
	bin := harness.Program(t)
	data := t.TempDir()
	o := startServe(t, bin, data)
	work := t.TempDir()

	exec1 := func(stdin string, args ...string) (string, int) {
		cmd := exec.Command(args[0], args[1:]...)
		if stdin != "" {
			f, err := os.Open(stdin)
			if err != nil {
				t.Fatal(err)
			}
			defer f.Close()
			cmd.Stdin = f
		}
		out, err := cmd.CombinedOutput()
		if ee, ok := err.(*exec.ExitError); ok {
			return string(out), ee.ExitCode()
		} else if err != nil {
			t.Fatal(err)
		}
		return string(out), 0
	}
	good := filepath.Join(work, "southpaw.lua")
	os.WriteFile(good, []byte(`return { name = "Southpaw", run = function(self) return MOVE, S end }`), 0o644)
	broken := filepath.Join(work, "broken.lua")
	os.WriteFile(broken, []byte("return {"), 0o644)
	if out, st := exec1(good, o.args("alice", "submit", "southpaw")...); st != 0 || !strings.Contains(out, "every lobby offers it now") {
		t.Fatalf("submit good: status %d\n%s", st, out)
	}
	if out, st := exec1(broken, o.args("alice", "submit", "broken")...); st != 2 || !strings.Contains(out, "syntax error") {
		t.Fatalf("submit broken: status %d\n%s", st, out)
	}
	if out, st := exec1("", o.args("alice", "watch")...); st != 2 || !strings.Contains(out, "this needs a terminal") {
		t.Fatalf("watch without -t: status %d\n%s", st, out)
	}

	term := func(t *testing.T, args ...string) *harness.Tmux {
		cmd := append([]string{"env", "-i", "TERM=xterm", "HOME=" + work, "LANG=C.UTF-8"}, o.args("alice", args...)...)
		cmd = append(cmd[:len(cmd)-len(args)], append([]string{"-t"}, args...)...)
		return harness.StartTmuxSize(t, 80, 24, work, cmd)
	}
	quit := func(t *testing.T, tm *harness.Tmux, key string) {
		tm.Send(key)
		status, screen := tm.WaitExit()
		if status != 0 {
			t.Fatalf("%s: ssh exit status %d; screen:\n%s", key, status, harness.Framed(screen))
		}
	}
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
	round := func(screen string) bool { _, _, ok := harness.StatusRound(screen); return ok }

	t.Run("menu, watch, private battle, q", func(t *testing.T) {
		tm := term(t)
		tm.WaitFor(has("Watch the featured battle", "Start a private battle"), "the menu")
		tm.Send("Enter")
		tm.WaitFor(round, "the featured battle")
		tm.Send("Escape")
		tm.WaitFor(has("Watch the featured battle"), "the menu again")
		tm.Send("Down", "Down", "Enter")
		tm.WaitFor(has("Southpaw", "Start Battle"), "the lobby, with the uploaded player")
		north := filepath.Join(work, "northpaw.lua")
		os.WriteFile(north, []byte(`return { name = "Northpaw", run = function(self) return MOVE, N end }`), 0o644)
		if out, st := exec1(north, o.args("alice", "submit", "northpaw")...); st != 0 {
			t.Fatalf("submit northpaw: status %d\n%s", st, out)
		}
		tm.WaitFor(has("Northpaw", "Southpaw"), "the open lobby showing a player submitted meanwhile")
		tm.Send("Enter", "Down", "Enter", "s")
		tm.WaitFor(round, "the private battle")
		tm.Send("Escape")
		tm.WaitFor(has("Watch the featured battle"), "the menu again")
		quit(t, tm, "q")
	})
	t.Run("watch, Ctrl-C", func(t *testing.T) {
		tm := term(t, "watch")
		tm.WaitFor(round, "the featured battle")
		quit(t, tm, "C-c")
	})
	t.Run("replay", func(t *testing.T) {
		var id string
		deadline := time.Now().Add(60 * time.Second)
		for id == "" && time.Now().Before(deadline) {
			out, _ := exec1("", o.args("alice", "replays")...)
			if f := strings.Fields(out); len(f) > 0 {
				id = f[0]
			} else {
				time.Sleep(200 * time.Millisecond)
			}
		}
		if id == "" {
			t.Fatal("no replay after 60 s of 40-round featured battles")
		}
		out, st := exec1("", o.args("alice", "get", id)...)
		if st != 0 || len(out) == 0 {
			t.Fatalf("get %s: status %d, %d bytes", id, st, len(out))
		}
		tm := term(t, "replay", id)
		tm.WaitFor(has("REPLAY of"), "the replay")
		quit(t, tm, "q")

		// kill -9, then a new server on the same data dir: the player,
		// its owner's name and the replay are all there.
		o.proc.Signal(syscall.SIGKILL)
		o.proc.Wait() // the data dir is free once the kernel has closed its files
		o2 := startServe(t, bin, data)
		o2.key = o.key
		if out, st := exec1("", o2.args("alice", "players")...); st != 0 || !strings.Contains(out, "alice.southpaw") {
			t.Fatalf("players after kill -9: status %d\n%s", st, out)
		}
		if out, _ := exec1("", o2.args("alice", "replays")...); !strings.Contains(out, id) {
			t.Fatalf("replays after kill -9 lack %s:\n%s", id, out)
		}
		if out, st := exec1(good, o2.args("alice", "submit", "southpaw")...); st != 0 || !strings.Contains(out, "replaces the older version") {
			t.Fatalf("alice after kill -9: status %d\n%s", st, out)
		}
	})
}
