package main

import (
	"bytes"
	"crypto/ed25519"
	"crypto/rand"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	gossh "golang.org/x/crypto/ssh"

	"github.com/squarebattle/squarebattle/config"
)

// serveTestMain makes this test binary the program when serve's checker
// starts it (init runs before TestMain, and the checker's environment
// carries the variable).
const serveTestMain = "SERVE_TEST_RUN_MAIN"

func init() {
	if os.Getenv(serveTestMain) == "1" && len(os.Args) > 1 {
		os.Exit(Main(os.Args[1:], os.Stdout, os.Stderr))
	}
}

// startArena runs the arena of cfg on a loopback port and returns its
// address; the arena stops when the test ends.
func startArena(t *testing.T, cfg config.Config) string {
	t.Helper()
	addr, _ := startLadderArena(t, cfg)
	return addr
}

// stopArena stops a as serve does on SIGTERM: the server, then what
// writes in the data dir, then the dir's lock, so that another arena may
// open the dir. Stopping again (at the test's end) does nothing more.
func stopArena(t *testing.T, a *serveArena) {
	a.srv.Shutdown(t.Context())
	a.close()
}

func serveConfig(t *testing.T) config.Config {
	cfg := config.Default()
	cfg.Serve.DataDir = t.TempDir()
	cfg.Isolation.PoolSize = 1
	cfg.Serve.Ladder.Enabled = false // the ladder's tests turn it on
	return cfg
}

func sshClient(t *testing.T, addr, user string) *gossh.Client {
	t.Helper()
	_, priv, _ := ed25519.GenerateKey(rand.Reader)
	key, _ := gossh.NewSignerFromKey(priv)
	c, err := gossh.Dial("tcp", addr, &gossh.ClientConfig{User: user, Auth: []gossh.AuthMethod{gossh.PublicKeys(key)},
		HostKeyCallback: gossh.InsecureIgnoreHostKey(), Timeout: 10 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	return c
}

func sshRun(t *testing.T, c *gossh.Client, cmd string, stdin []byte) (string, string, int) {
	t.Helper()
	s, err := c.NewSession()
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	var out, errOut bytes.Buffer
	s.Stdout, s.Stderr = &out, &errOut
	if stdin != nil {
		s.Stdin = bytes.NewReader(stdin)
	}
	err = s.Run(cmd)
	if ee, ok := err.(*gossh.ExitError); ok {
		return out.String(), errOut.String(), ee.ExitStatus()
	}
	if err != nil {
		t.Fatalf("%s: %v", cmd, err)
	}
	return out.String(), errOut.String(), 0
}

// TestServeSubmit: uploads go through the real check (in a child process,
// with worker processes for the trial battle): good, broken and hostile
// players get check's report and status; a good one is in the catalog at
// once as user.name, and is still there after a restart.
func TestServeSubmit(t *testing.T) {
	if testing.Short() {
		t.Skip("runs check in child processes")
	}
	cfg := serveConfig(t)
	addr, a := startLadderArena(t, cfg)
	c := sshClient(t, addr, "alice")
	good := []byte(`return { name = "Southpaw", run = function(self) return MOVE, S end }`)
	tests := []struct {
		name, cmd string
		src       []byte
		status    int
		out, err  string
	}{
		{"good", "submit southpaw", good, 0, `alice.southpaw.lua loads: starting player "Southpaw"`, ""},
		{"good again", "submit southpaw", good, 0, "alice.southpaw replaces the older version", ""},
		{"syntax error", "submit broken", []byte("return {"), 2, "", "alice.broken.lua: at end of file: syntax error"},
		{"no run", "submit norun", []byte(`return { name = "NoRun" }`), 2, "", "run"},
		{"hostile: spins", "submit spin", []byte(`return { name = "Spin", run = function() while true do end end }`), 1, "timeout", "of problem while playing"},
		{"hostile: memory", "submit hog", []byte(`return { name = "Hog", run = function() local t = {} for i = 1, 1e9 do t[i] = string.rep("x", 1000) .. i end end }`), 1, "", "of problem while playing"},
		{"takes a shipped name", "submit fake", []byte(`return { name = "explorer", run = function() return WAIT end }`), 2, "", "explorer"},
		{"takes an uploaded name", "submit copy", good, 2, "", `"Southpaw" is taken by alice.southpaw`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			out, errOut, st := sshRun(t, c, tt.cmd, tt.src)
			if st != tt.status || !strings.Contains(out, tt.out) || !strings.Contains(errOut, tt.err) {
				t.Fatalf("%s: status %d\nstdout %s\nstderr %s\nwant status %d, stdout with %q, stderr with %q", tt.cmd, st, out, errOut, tt.status, tt.out, tt.err)
			}
		})
	}
	out, _, _ := sshRun(t, c, "players", nil)
	if !strings.Contains(out, "alice.southpaw") || !strings.Contains(out, "Southpaw") || strings.Contains(out, "alice.broken") {
		t.Fatalf("players:\n%s", out)
	}
	if _, err := os.Stat(filepath.Join(cfg.Serve.DataDir, "players", "alice", "southpaw.lua")); err != nil {
		t.Fatal(err)
	}

	// A restart on the same data dir keeps the player and the user name.
	stopArena(t, a)
	addr2 := startArena(t, cfg)
	out, _, _ = sshRun(t, sshClient(t, addr2, "mallory"), "players", nil)
	if !strings.Contains(out, "alice.southpaw") {
		t.Fatalf("after a restart, players:\n%s", out)
	}
	if _, e, st := sshRun(t, sshClient(t, addr2, "alice"), "submit x", good); st != 2 || !strings.Contains(e, "belongs to another key") {
		t.Fatalf("another key as alice: status %d %q", st, e)
	}
}
