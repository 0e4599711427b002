//go:build unix

package arena

import (
	"bytes"
	"crypto/ed25519"
	"crypto/rand"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	gossh "golang.org/x/crypto/ssh"

	"github.com/squarebattle/squarebattle/cmd/squarebattle/e2e/harness"
)

// players runs `players` on the arena o with a fresh key.
func (o openSSH) players(t *testing.T) (string, error) {
	t.Helper()
	_, priv, _ := ed25519.GenerateKey(rand.Reader)
	key, _ := gossh.NewSignerFromKey(priv)
	c, err := gossh.Dial("tcp", net.JoinHostPort("127.0.0.1", o.port), &gossh.ClientConfig{User: "alice",
		Auth: []gossh.AuthMethod{gossh.PublicKeys(key)}, HostKeyCallback: gossh.InsecureIgnoreHostKey(), Timeout: 10 * time.Second})
	if err != nil {
		return "", err
	}
	defer c.Close()
	s, err := c.NewSession()
	if err != nil {
		return "", err
	}
	defer s.Close()
	var out bytes.Buffer
	s.Stdout = &out
	err = s.Run("players")
	return out.String(), err
}

// TestServeDataDirHeld: a second serve on a data dir a running one holds
// (on its address too: the same configuration started twice) stops at
// once with exit status 2 and one line naming the dir and the holder's
// pid, and the first goes on serving; once the first has stopped — by
// SIGINT, or killed by SIGKILL — a new serve runs on the dir.
func TestServeDataDirHeld(t *testing.T) {
	if testing.Short() {
		t.Skip("runs serve four times")
	}
	bin := harness.Program(t)
	data := t.TempDir()
	first := startServe(t, bin, data)
	start := time.Now()
	code, msg := serveRefused(t, bin, data, "127.0.0.1:"+first.port) // the same configuration twice
	took := time.Since(start)
	want := fmt.Sprintf("squarebattle: serve.data_dir: %s is in use by another squarebattle serve (%s: held by process %d)",
		data, filepath.Join(data, "serve.lock"), first.proc.Pid)
	if code != 2 || msg != want || took > 10*time.Second {
		t.Errorf("a second serve: exit %d after %v, stderr %q; want 2 at once and %q", code, took.Round(time.Millisecond), msg, want)
	}
	if out, err := first.players(t); err != nil || !strings.Contains(out, "explorer") {
		t.Errorf("the first serve after the refusal: %v\n%s", err, out)
	}
	for _, sig := range []os.Signal{os.Interrupt, syscall.SIGKILL} {
		first.proc.Signal(sig)
		first.proc.Wait()
		first = startServe(t, bin, data) // fails the test when serve stops before listening
		if out, err := first.players(t); err != nil || !strings.Contains(out, "explorer") {
			t.Errorf("serve after the last one got %v: %v\n%s", sig, err, out)
		}
	}
}
