package main

import (
	"bytes"
	"crypto/ed25519"
	"crypto/rand"
	"strings"
	"sync"
	"testing"
	"time"

	gossh "golang.org/x/crypto/ssh"
)

// keyClient connects as user with key.
func keyClient(t *testing.T, addr, user string, key gossh.Signer) *gossh.Client {
	t.Helper()
	c, err := gossh.Dial("tcp", addr, &gossh.ClientConfig{User: user, Auth: []gossh.AuthMethod{gossh.PublicKeys(key)},
		HostKeyCallback: gossh.InsecureIgnoreHostKey(), Timeout: 10 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	return c
}

func newKey(t *testing.T) gossh.Signer {
	t.Helper()
	_, priv, _ := ed25519.GenerateKey(rand.Reader)
	key, err := gossh.NewSignerFromKey(priv)
	if err != nil {
		t.Fatal(err)
	}
	return key
}

// screenSession is a terminal session whose output is kept whole.
type screenSession struct {
	in  interface{ Write([]byte) (int, error) }
	mu  sync.Mutex
	out bytes.Buffer
}

func (s *screenSession) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.out.Write(p)
}

func (s *screenSession) text() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.out.String()
}

// waitFor waits until the output holds sub.
func (s *screenSession) waitFor(t *testing.T, who, sub string) {
	t.Helper()
	deadline := time.Now().Add(60 * time.Second)
	for !strings.Contains(s.text(), sub) {
		if time.Now().After(deadline) {
			out := s.text()
			t.Fatalf("%s: no %q in the output; its end:\n%q", who, sub, out[max(0, len(out)-2000):])
		}
		time.Sleep(20 * time.Millisecond)
	}
}

func watchScreen(t *testing.T, c *gossh.Client) *screenSession {
	t.Helper()
	s, err := c.NewSession()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	if err := s.RequestPty("xterm-256color", 30, 100, nil); err != nil {
		t.Fatal(err)
	}
	ss := &screenSession{}
	s.Stdout = ss
	in, err := s.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	ss.in = in
	if err := s.Start("watch"); err != nil {
		t.Fatal(err)
	}
	return ss
}

// TestServePrivateLogs: alice and bob each upload a player that prints a
// secret every turn; the featured battle plays the two. In the errors
// pane each of them reads the own player's log and only a count of the
// other's; carol, who uploaded nothing, reads neither.
func TestServePrivateLogs(t *testing.T) {
	if testing.Short() {
		t.Skip("runs check in child processes")
	}
	cfg := serveConfig(t)
	addr, a := startLadderArena(t, cfg)
	keys := map[string]gossh.Signer{"alice": newKey(t), "bob": newKey(t), "carol": newKey(t)}
	for _, who := range []string{"alice", "bob"} {
		src := `return { name = "` + strings.ToUpper(who[:1]) + who[1:] + `", run = function(self) print("` + strings.ToUpper(who) + `-SECRET") return WAIT end }`
		if out, errOut, st := sshRun(t, keyClient(t, addr, who, keys[who]), "submit spy", []byte(src)); st != 0 {
			t.Fatalf("%s's upload: status %d\n%s\n%s", who, st, out, errOut)
		}
	}
	cfg.Serve.FeaturedPlayers = "alice.spy,bob.spy"
	stopArena(t, a)
	addr = startArena(t, cfg) // a restart: the featured battle plays the uploads
	screens := map[string]*screenSession{}
	for who, key := range keys {
		s := watchScreen(t, keyClient(t, addr, who, key))
		s.waitFor(t, who, "(featured)")
		s.in.Write([]byte("e"))
		s.waitFor(t, who, "Problems and logs")
		s.in.Write([]byte("\x1b[C")) // the first team's log
		screens[who] = s
	}
	screens["alice"].waitFor(t, "alice", "ALICE-SECRET")
	// tcell moves the cursor over cells that did not change: the words of
	// a line need not arrive together, so the test looks for single words.
	screens["bob"].waitFor(t, "bob", "printed.")
	screens["carol"].waitFor(t, "carol", "printed.")
	for _, s := range screens {
		s.in.Write([]byte("\x1b[C")) // the second team's log
	}
	screens["bob"].waitFor(t, "bob", "BOB-SECRET")
	for _, who := range []string{"alice", "carol"} {
		screens[who].waitFor(t, who, "Bob]") // the tab "[2 Bob]"
	}
	time.Sleep(300 * time.Millisecond) // a few more frames of the tab
	for who, s := range screens {
		out := s.text()
		for _, secret := range []string{"ALICE-SECRET", "BOB-SECRET"} {
			if strings.Contains(out, secret) && !strings.HasPrefix(secret, strings.ToUpper(who)) {
				t.Errorf("%s's terminal received %s", who, secret)
			}
		}
	}
}
