package ssh

import (
	"bytes"
	"context"
	"crypto/ed25519"
	"crypto/rand"
	"fmt"
	"io"
	"net"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gdamore/tcell/v2"
	gossh "golang.org/x/crypto/ssh"

	"github.com/squarebattle/squarebattle/tui"
)

// testLimits are generous except where a test narrows them.
func testLimits() Limits {
	return Limits{Sessions: 50, SessionsPerIP: 50, ConnectionsPerMinute: 1000, Handshake: 5 * time.Second,
		Idle: time.Minute, MaxSession: time.Minute, Write: 2 * time.Second, UploadsPerHour: 100, PlayersPerUser: 3, NewUsersPerIPHour: 1000,
		ScriptBytes: 64 << 10, FPS: 15,
		ChannelsPerConn: 10, EnvRequests: 16, EnvBytes: 4096, Command: 5 * time.Second, Checks: 4, ChecksPerIP: 4, ChecksPerKey: 4}
}

// testCheck stands in for `squarebattle check` (which needs the whole
// program; cmd/squarebattle's serve tests run the real one): a script is
// good when it holds "function", broken otherwise; one that calls error(
// loads but misbehaves in its trial battle (status 1, as check's).
func testCheck(_ context.Context, id string, src []byte, stdout, stderr io.Writer) int {
	if bytes.Contains(src, []byte("error(")) {
		fmt.Fprintf(stdout, "%s.lua loads\n\nTrial battle against Explorer: 3 errors\n", id)
		fmt.Fprintf(stderr, "squarebattle: %s.lua: 1 kind of problem while playing (0 timeouts, 3 errors)\n", id)
		return 1
	}
	if bytes.Contains(src, []byte("function")) {
		fmt.Fprintf(stdout, "%s.lua loads\n", id)
		return 0
	}
	fmt.Fprintf(stderr, "%s.lua:1: no function\n", id)
	return 2
}

// testUI is a session runner that draws the window size, the last key and
// the last notice, and ends on q or Ctrl-C. With busy it repaints every
// cell without pause (a flood of output for the write deadline tests).
func testUI(busy bool) func(context.Context, tcell.Screen, tui.SessionOptions) error {
	return func(ctx context.Context, scr tcell.Screen, o tui.SessionOptions) error {
		if err := scr.Init(); err != nil {
			return err
		}
		defer scr.Fini()
		last, notice := "none", ""
		frame := 0
		// draw shows the frame; sync redraws every cell, so that the text
		// appears whole in the output (tcell otherwise sends only changed
		// cells).
		draw := func(sync bool) {
			frame++
			w, h := scr.Size()
			if busy {
				for y := 0; y < h; y++ {
					for x := 0; x < w; x++ {
						scr.SetContent(x, y, rune('a'+(x+y+frame)%26), nil, tcell.StyleDefault.Background(tcell.PaletteColor(16+(x+frame)%200)))
					}
				}
			} else {
				scr.Clear()
			}
			line := fmt.Sprintf("%s size %dx%d key %s user %s start %s watch %s █", notice, w, h, last, o.User, o.Start, o.WatchID)
			for i, r := range line {
				scr.SetContent(i, 0, r, nil, tcell.StyleDefault)
			}
			if sync {
				scr.Sync()
			} else {
				scr.Show()
			}
		}
		events := make(chan tcell.Event, 16)
		go func() {
			for {
				ev := scr.PollEvent()
				if ev == nil {
					close(events)
					return
				}
				events <- ev
			}
		}()
		draw(true)
		tick := time.NewTicker(5 * time.Millisecond)
		defer tick.Stop()
		for {
			select {
			case <-ctx.Done():
				return nil
			case n := <-o.Notice:
				notice = n
				draw(true)
			case <-tick.C:
				if busy {
					draw(false)
				}
			case ev, ok := <-events:
				if !ok {
					return nil
				}
				switch ev := ev.(type) {
				case *tcell.EventKey:
					if ev.Key() == tcell.KeyCtrlC || ev.Rune() == 'q' {
						return nil
					}
					last = ev.Name()
				}
				draw(true)
			}
		}
	}
}

type testServer struct {
	*Server
	addr  string
	store *Store
	logs  *syncBuffer
}

type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
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

func startServer(t testing.TB, edit func(*Options)) *testServer {
	t.Helper()
	store, err := OpenStore(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	_, priv, _ := ed25519.GenerateKey(rand.Reader)
	host, _ := gossh.NewSignerFromKey(priv)
	logs := &syncBuffer{}
	o := Options{HostKey: host, Store: store, Limits: testLimits(), Anonymous: true, Check: testCheck,
		Session: testUI(false), Logger: newTestLogger(logs)}
	if edit != nil {
		edit(&o)
	}
	srv, err := New(o)
	if err != nil {
		t.Fatal(err)
	}
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	go srv.Serve(l)
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		srv.Shutdown(ctx)
	})
	return &testServer{Server: srv, addr: l.Addr().String(), store: store, logs: logs}
}

// newKey makes a client key.
func newKey(t testing.TB) gossh.Signer {
	_, priv, _ := ed25519.GenerateKey(rand.Reader)
	s, err := gossh.NewSignerFromKey(priv)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// dial connects as user with key (nil: anonymous, keyboard-interactive).
func dial(t testing.TB, addr, user string, key gossh.Signer) *gossh.Client {
	t.Helper()
	c, err := dialErr(addr, user, key)
	if err != nil {
		t.Fatalf("dial: %v", err)
	}
	t.Cleanup(func() { c.Close() })
	return c
}

func dialErr(addr, user string, key gossh.Signer) (*gossh.Client, error) {
	auth := []gossh.AuthMethod{gossh.KeyboardInteractive(func(string, string, []string, []bool) ([]string, error) { return nil, nil })}
	if key != nil {
		auth = []gossh.AuthMethod{gossh.PublicKeys(key)}
	}
	return gossh.Dial("tcp", addr, &gossh.ClientConfig{User: user, Auth: auth,
		HostKeyCallback: gossh.InsecureIgnoreHostKey(), Timeout: 10 * time.Second})
}

// run runs an exec command with stdin and returns stdout, stderr and the
// exit status.
func run(t testing.TB, c *gossh.Client, cmd string, stdin []byte) (string, string, int) {
	t.Helper()
	sess, err := c.NewSession()
	if err != nil {
		t.Fatalf("new session: %v", err)
	}
	defer sess.Close()
	var out, errOut bytes.Buffer
	sess.Stdout, sess.Stderr = &out, &errOut
	if stdin != nil {
		sess.Stdin = bytes.NewReader(stdin)
	}
	err = sess.Run(cmd)
	status := 0
	if ee, ok := err.(*gossh.ExitError); ok {
		status = ee.ExitStatus()
	} else if err != nil {
		t.Fatalf("%s: %v (stderr %q)", cmd, err, errOut.String())
	}
	return out.String(), errOut.String(), status
}

// clientTerm is a PTY session whose output a goroutine collects.
type clientTerm struct {
	sess *gossh.Session
	in   io.WriteCloser
	mu   sync.Mutex
	out  bytes.Buffer
	done chan error
}

func openTerminal(t testing.TB, c *gossh.Client, term string, w, h int, cmd string, env ...string) *clientTerm {
	t.Helper()
	sess, err := c.NewSession()
	if err != nil {
		t.Fatal(err)
	}
	for _, kv := range env {
		k, v, _ := strings.Cut(kv, "=")
		if err := sess.Setenv(k, v); err != nil {
			t.Fatal(err)
		}
	}
	if err := sess.RequestPty(term, h, w, gossh.TerminalModes{}); err != nil {
		t.Fatal(err)
	}
	tm := &clientTerm{sess: sess, done: make(chan error, 1)}
	tm.in, _ = sess.StdinPipe()
	sess.Stderr = termWriter{tm}
	stdout, _ := sess.StdoutPipe()
	go func() {
		buf := make([]byte, 32<<10)
		for {
			n, err := stdout.Read(buf)
			tm.mu.Lock()
			tm.out.Write(buf[:n])
			tm.mu.Unlock()
			if err != nil {
				return
			}
		}
	}()
	if cmd == "" {
		err = sess.Shell()
	} else {
		err = sess.Start(cmd)
	}
	if err != nil {
		t.Fatal(err)
	}
	go func() { tm.done <- sess.Wait() }()
	t.Cleanup(func() { sess.Close() })
	return tm
}

// termWriter adds stderr to the output, as a terminal shows both.
type termWriter struct{ tm *clientTerm }

func (w termWriter) Write(p []byte) (int, error) {
	w.tm.mu.Lock()
	defer w.tm.mu.Unlock()
	return w.tm.out.Write(p)
}

func (tm *clientTerm) output() string {
	tm.mu.Lock()
	defer tm.mu.Unlock()
	return tm.out.String()
}

// waitFor polls the output until it contains want.
func (tm *clientTerm) waitFor(t testing.TB, want string) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for time.Now().Before(deadline) {
		if strings.Contains(tm.output(), want) {
			return
		}
		time.Sleep(10 * time.Millisecond)
	}
	out := tm.output()
	t.Fatalf("output never held %q; last 400 bytes: %q", want, out[max(0, len(out)-400):])
}

// wait returns the session's exit status once it ends.
func (tm *clientTerm) wait(t testing.TB) int {
	t.Helper()
	select {
	case err := <-tm.done:
		if ee, ok := err.(*gossh.ExitError); ok {
			return ee.ExitStatus()
		}
		if err != nil {
			return -1
		}
		return 0
	case <-time.After(10 * time.Second):
		t.Fatal("session did not end")
		return -1
	}
}
