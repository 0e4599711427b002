package ssh

import (
	"bytes"
	"context"
	"net"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/gdamore/tcell/v2"
	gossh "golang.org/x/crypto/ssh"

	"github.com/squarebattle/squarebattle/tui"
)

// TestExecCommands: the commands that work without a terminal, with
// their exit statuses, as a real SSH client sees them.
func TestExecCommands(t *testing.T) {
	ts := startServer(t, nil)
	alice := dial(t, ts.addr, "Alice", newKey(t))
	anon := dial(t, ts.addr, "guest", nil)
	good := []byte("local p = {name = 'Hunter'}\nfunction p.run() end\nreturn p\n")

	tests := []struct {
		name       string
		c          *gossh.Client
		cmd        string
		stdin      []byte
		status     int
		out, errIn string
	}{
		{"help", alice, "help", nil, 0, "submit NAME < FILE.lua", ""},
		{"help shows the identity", alice, "help", nil, 0, "would be alice", ""},
		{"unknown command", alice, "rm -rf /", nil, 2, "", `unknown command "rm"`},
		{"unknown key in name", alice, "\x1b[2J", nil, 2, "", `unknown command "\x1b[2J"`},
		{"screen without a terminal", alice, "watch", nil, 2, "", "this needs a terminal: ssh -t"},
		{"menu without a terminal", anon, "", nil, 2, "", "this needs a terminal"},
		{"submit without a key", anon, "submit hunter", good, 2, "", "needs an SSH key"},
		{"submit without a name", alice, "submit", good, 2, "", "usage: submit NAME"},
		{"submit dot-dot", alice, "submit ../../etc/passwd", good, 2, "", `player name "../../etc/passwd"`},
		{"submit slash", alice, "submit a/b", good, 2, "", "may not hold '/'"},
		{"submit control characters", alice, "submit 'a\x07\x1b[31mb'", good, 2, "", `"a\a\x1b[31mb"`},
		{"submit upper case", alice, "submit hUNTER", good, 2, "", `use "hunter"`},
		{"submit empty", alice, "submit hunter", []byte{}, 2, "", "the upload is empty"},
		{"submit broken", alice, "submit hunter", []byte("return 1"), 2, "", "no function"},
		{"submit good", alice, "submit hunter", good, 0, "alice.hunter is new", ""},
		{"submit again replaces", alice, "submit hunter.lua", good, 0, "alice.hunter replaces the older version", ""},
		{"players", anon, "players", nil, 0, "alice.hunter", ""},
		{"get dot-dot", anon, "get ../users", nil, 2, "", `replay id "../users"`},
		{"get missing", anon, "get nothere", nil, 2, "", "no replay nothere"},
		{"stop needs admin", alice, "stop featured", nil, 2, "", "only an admin"},
		{"remove needs admin", alice, "remove alice/hunter", nil, 2, "", "only an admin"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			out, errOut, status := run(t, tt.c, tt.cmd, tt.stdin)
			if status != tt.status || !strings.Contains(out, tt.out) || !strings.Contains(errOut, tt.errIn) {
				t.Fatalf("%q: status %d, stdout %q, stderr %q; want status %d, stdout with %q, stderr with %q",
					tt.cmd, status, out, errOut, tt.status, tt.out, tt.errIn)
			}
		})
	}
	// Nothing but alice's player reached the disk.
	var files []string
	filepath.Walk(filepath.Join(ts.store.Dir(), "players"), func(p string, info os.FileInfo, err error) error {
		if err == nil && !info.IsDir() {
			rel, _ := filepath.Rel(ts.store.Dir(), p)
			files = append(files, rel)
		}
		return nil
	})
	if len(files) != 1 || files[0] != filepath.Join("players", "alice", "hunter.lua") {
		t.Errorf("players on disk: %v, want only players/alice/hunter.lua", files)
	}
}

// TestSubmitLimits: the upload size, the players per user, the uploads
// per hour and a user name that belongs to another key.
func TestSubmitLimits(t *testing.T) {
	ts := startServer(t, func(o *Options) {
		o.Limits.PlayersPerUser = 2
		o.Limits.UploadsPerHour = 4
	})
	key := newKey(t)
	c := dial(t, ts.addr, "bob", key)
	good := []byte("function run() end")
	huge := bytes.Repeat([]byte("-- padding line\n"), 10<<20/16) // 10 MB

	if _, e, st := run(t, c, "submit big", huge); st != 2 || !strings.Contains(e, "more than 65536 bytes") {
		t.Fatalf("10 MB upload: status %d, stderr %q", st, e)
	}
	for _, n := range []string{"one", "two"} {
		if _, e, st := run(t, c, "submit "+n, good); st != 0 {
			t.Fatalf("submit %s: status %d %q", n, st, e)
		}
	}
	if _, e, st := run(t, c, "submit three", good); st != 1 || !strings.Contains(e, "serve.players_per_user") {
		t.Fatalf("third player: status %d, stderr %q", st, e)
	}
	// big, one, two and this one count (three was refused before).
	if _, e, st := run(t, c, "submit one", good); st != 0 {
		t.Fatalf("fourth upload in the hour: status %d, stderr %q", st, e)
	}
	if _, e, st := run(t, c, "submit one", good); st != 1 || !strings.Contains(e, "serve.uploads_per_hour") {
		t.Fatalf("fifth upload in the hour: status %d, stderr %q", st, e)
	}
	other := dial(t, ts.addr, "bob", newKey(t))
	if _, e, st := run(t, other, "submit mine", good); st != 2 || !strings.Contains(e, "belongs to another key") {
		t.Fatalf("bob with another key: status %d, stderr %q", st, e)
	}
	if ts.store.Has("bob", "big") || ts.store.Count("bob") != 2 {
		t.Errorf("store holds %v", ts.store.Players())
	}
	for _, want := range []string{"upload too large", "players per user", "uploads per hour"} {
		if !strings.Contains(ts.logs.String(), want) {
			t.Errorf("no log line for %q", want)
		}
	}
}

// TestAllowlistAndAdmins: only listed keys upload; an admin removes a
// player.
func TestAllowlistAndAdmins(t *testing.T) {
	listed, admin := newKey(t), newKey(t)
	ts := startServer(t, func(o *Options) {
		o.Allowlist = map[string]bool{Fingerprint(listed.PublicKey()): true}
		o.Admins = map[string]bool{Fingerprint(admin.PublicKey()): true}
	})
	good := []byte("function run() end")
	if _, e, st := run(t, dial(t, ts.addr, "eve", newKey(t)), "submit x", good); st != 2 || !strings.Contains(e, "not on this server's upload list") {
		t.Fatalf("unlisted key: status %d, stderr %q", st, e)
	}
	if _, e, st := run(t, dial(t, ts.addr, "carol", listed), "submit x", good); st != 0 {
		t.Fatalf("listed key: status %d, stderr %q", st, e)
	}
	adm := dial(t, ts.addr, "root", admin)
	if out, e, st := run(t, adm, "remove carol/x", nil); st != 0 || !strings.Contains(out, "removed carol.x") {
		t.Fatalf("admin remove: status %d, %q %q", st, out, e)
	}
	if _, e, st := run(t, adm, "remove carol/../x", nil); st != 2 || !strings.Contains(e, "player name") {
		t.Fatalf("admin remove traversal: status %d, %q", st, e)
	}
	if ts.store.Count("carol") != 0 {
		t.Error("carol.x still listed")
	}
}

// TestAnonymousOff: without anonymous watching, a client without a key
// is refused at authentication.
func TestAnonymousOff(t *testing.T) {
	ts := startServer(t, func(o *Options) { o.Anonymous = false })
	if _, err := dialErr(ts.addr, "guest", nil); err == nil {
		t.Fatal("anonymous client got in")
	}
	dial(t, ts.addr, "guest", newKey(t))
}

// TestGarbageAndHalfOpen: bytes that are not SSH, and connections that
// never finish the handshake, cost the server nothing lasting.
func TestGarbageAndHalfOpen(t *testing.T) {
	ts := startServer(t, func(o *Options) { o.Limits.Handshake = 300 * time.Millisecond })
	garbage, err := net.Dial("tcp", ts.addr)
	if err != nil {
		t.Fatal(err)
	}
	garbage.Write(bytes.Repeat([]byte{0xff, 0x00, '\n', 'G', 'E', 'T'}, 5000))
	silent, err := net.Dial("tcp", ts.addr)
	if err != nil {
		t.Fatal(err)
	}
	half, err := net.Dial("tcp", ts.addr)
	if err != nil {
		t.Fatal(err)
	}
	half.Write([]byte("SSH-2.0-half\r\n")) // then nothing
	for _, c := range []net.Conn{garbage, silent, half} {
		c.SetReadDeadline(time.Now().Add(10 * time.Second))
		if _, err := readAll(c); err != nil {
			t.Errorf("server did not close a connection: %v", err)
		}
		c.Close()
	}
	waitCounts(t, ts.Server, 0, 0)
	out, _, st := run(t, dial(t, ts.addr, "x", nil), "help", nil)
	if st != 0 || out == "" {
		t.Fatal("server unwell after garbage")
	}
	if !strings.Contains(ts.logs.String(), "handshake timeout") {
		t.Error("no log line for the handshake timeout")
	}
}

func readAll(c net.Conn) ([]byte, error) {
	var all []byte
	buf := make([]byte, 4096)
	for {
		n, err := c.Read(buf)
		all = append(all, buf[:n]...)
		if err != nil {
			if ne, ok := err.(net.Error); ok && ne.Timeout() {
				return all, err
			}
			return all, nil
		}
	}
}

// waitCounts waits until the server's open connections and sessions are
// as given.
func waitCounts(t testing.TB, s *Server, conns, sessions int) {
	t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for {
		c, ss := s.Counts()
		if c == conns && ss == sessions {
			return
		}
		if time.Now().After(deadline) {
			if dump := os.Getenv("SSH_TEST_STACKS"); dump != "" {
				buf := make([]byte, 8<<20)
				os.WriteFile(dump, buf[:runtime.Stack(buf, true)], 0o644)
			}
			t.Fatalf("open connections %d sessions %d, want %d %d", c, ss, conns, sessions)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// TestTooManyConnections: the per-address connection cap and rate refuse
// with a line; the session caps refuse the channel with a message.
func TestTooManyConnections(t *testing.T) {
	t.Run("per address", func(t *testing.T) {
		ts := startServer(t, func(o *Options) { o.Limits.SessionsPerIP = 2 })
		dial(t, ts.addr, "a", nil)
		dial(t, ts.addr, "b", nil)
		c, err := net.Dial("tcp", ts.addr)
		if err != nil {
			t.Fatal(err)
		}
		c.SetReadDeadline(time.Now().Add(10 * time.Second))
		line, _ := readAll(c)
		if !strings.Contains(string(line), "2 connections from your address are open already") {
			t.Fatalf("third connection read %q", line)
		}
		if !strings.Contains(ts.logs.String(), "connection refused") {
			t.Error("no log line")
		}
	})
	t.Run("rate", func(t *testing.T) {
		ts := startServer(t, func(o *Options) { o.Limits.ConnectionsPerMinute = 3 })
		for i := 0; i < 3; i++ {
			dial(t, ts.addr, "a", nil).Close()
		}
		_, err := dialErr(ts.addr, "a", nil)
		if err == nil {
			t.Fatal("fourth connection in a minute admitted")
		}
	})
	t.Run("sessions on one connection", func(t *testing.T) {
		ts := startServer(t, func(o *Options) { o.Limits.SessionsPerIP = 2 })
		c := dial(t, ts.addr, "a", nil)
		t1 := openTerminal(t, c, "xterm", 80, 24, "")
		t1.waitFor(t, "size 80x24")
		_, e, st := run(t, c, "help", nil)
		if st != 0 {
			t.Fatalf("second session refused: %q", e)
		}
		waitCounts(t, ts.Server, 1, 1) // its place is given back once its channel is closed on both sides
		t2 := openTerminal(t, c, "xterm", 80, 24, "")
		t2.waitFor(t, "size 80x24")
		// Refused when asked for, before the server holds anything for it.
		if _, err := c.NewSession(); err == nil || !strings.Contains(err.Error(), "2 sessions from your address are open already") {
			t.Fatalf("third session: %v", err)
		}
	})
}

// TestTerminal: pty-req and window-change reach the screen, absurd sizes
// are clamped, a storm of resizes does not wedge the session, keys arrive,
// and q and Ctrl-C end it with status 0.
func TestTerminal(t *testing.T) {
	ts := startServer(t, nil)
	c := dial(t, ts.addr, "alice", newKey(t))
	tm := openTerminal(t, c, "xterm", 80, 24, "")
	tm.waitFor(t, "size 80x24")
	tm.waitFor(t, "user alice~")
	tm.sess.WindowChange(30, 100)
	tm.waitFor(t, "size 100x30")
	tm.sess.WindowChange(100000, 100000)
	tm.waitFor(t, "size 512x256")
	for i := 0; i < 2000; i++ {
		tm.sess.WindowChange(20+i%50, 40+i%90)
	}
	tm.sess.WindowChange(33, 111)
	tm.waitFor(t, "size 111x33")
	tm.in.Write([]byte("x"))
	tm.waitFor(t, "key Rune[x]")
	tm.in.Write([]byte("q"))
	if st := tm.wait(t); st != 0 {
		t.Fatalf("q: status %d", st)
	}

	tm = openTerminal(t, c, "no-such-terminal", 0, 0, "watch b-7")
	tm.waitFor(t, "size 80x24")
	tm.waitFor(t, "start watch watch b-7")
	tm.in.Write([]byte{3})
	if st := tm.wait(t); st != 0 {
		t.Fatalf("Ctrl-C: status %d", st)
	}
	waitCounts(t, ts.Server, 1, 0)
}

// TestIdle: a session with no input is warned, then closed with a
// message, even while output flows.
func TestIdle(t *testing.T) {
	t.Parallel() // its own server; it waits on the server's timeouts and deadlines
	ts := startServer(t, func(o *Options) {
		o.Limits.Idle = 1200 * time.Millisecond
		o.Session = testUI(true)
	})
	c := dial(t, ts.addr, "x", nil)
	tm := openTerminal(t, c, "xterm", 40, 10, "")
	tm.waitFor(t, "press a key within")
	tm.waitFor(t, "no input for too long")
	tm.wait(t)
	if !strings.Contains(ts.logs.String(), "no input for too long") {
		t.Error("no log line")
	}
}

// TestStalledClient: a client that stops reading while the screen keeps
// drawing is dropped after the write timeout; the server goes on.
func TestStalledClient(t *testing.T) {
	ts := startServer(t, func(o *Options) {
		o.Limits.Write = 500 * time.Millisecond
		o.Session = testUI(true)
	})
	c := dial(t, ts.addr, "x", nil)
	sess, err := c.NewSession()
	if err != nil {
		t.Fatal(err)
	}
	sess.RequestPty("xterm-256color", 60, 200, nil)
	sess.Stdout = nil // x/crypto then never reads: the window shuts
	stdout, _ := sess.StdoutPipe()
	_ = stdout
	if err := sess.Shell(); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- sess.Wait() }()
	select {
	case <-done:
	case <-time.After(20 * time.Second):
		t.Fatal("stalled client never dropped")
	}
	if !strings.Contains(ts.logs.String(), "client dropped") {
		t.Errorf("no log line; logs:\n%s", ts.logs.String())
	}
	waitCounts(t, ts.Server, 0, 0)
	if _, _, st := run(t, dial(t, ts.addr, "y", nil), "help", nil); st != 0 {
		t.Fatal("server unwell after a stalled client")
	}
}

// TestDisconnectMidFrame: clients that vanish while frames flow (closing
// the connection, or the TCP socket under it) leave no session, no
// connection and no goroutine behind.
func TestDisconnectMidFrame(t *testing.T) {
	ts := startServer(t, func(o *Options) { o.Session = testUI(true) })
	c := dial(t, ts.addr, "warmup", nil)
	run(t, c, "help", nil)
	c.Close()
	waitCounts(t, ts.Server, 0, 0)
	base := runtime.NumGoroutine()
	for i := range 10 {
		raw, err := net.Dial("tcp", ts.addr)
		if err != nil {
			t.Fatal(err)
		}
		conn, chans, reqs, err := gossh.NewClientConn(raw, ts.addr, &gossh.ClientConfig{User: "x",
			Auth:            []gossh.AuthMethod{gossh.KeyboardInteractive(func(string, string, []string, []bool) ([]string, error) { return nil, nil })},
			HostKeyCallback: gossh.InsecureIgnoreHostKey()})
		if err != nil {
			t.Fatal(err)
		}
		c := gossh.NewClient(conn, chans, reqs)
		tm := openTerminal(t, c, "xterm-256color", 200, 60, "")
		for len(tm.output()) < 20000 {
			time.Sleep(time.Millisecond)
		}
		if i%2 == 0 {
			raw.Close() // the socket goes mid-frame
		} else {
			c.Close()
		}
	}
	waitCounts(t, ts.Server, 0, 0)
	deadline := time.Now().Add(10 * time.Second)
	for runtime.NumGoroutine() > base+2 {
		if time.Now().After(deadline) {
			buf := make([]byte, 1<<20)
			t.Fatalf("%d goroutines, %d before:\n%s", runtime.NumGoroutine(), base, buf[:runtime.Stack(buf, true)])
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// TestTerminalPerClient: the charset and the colours follow each client's
// environment, not the server's: LANG=C gets ASCII only, NO_COLOR no
// colour sequences, while a UTF-8 client beside them gets both.
func TestTerminalPerClient(t *testing.T) {
	// A server environment that decides nothing (envOverrides): the
	// server no longer clears it itself.
	for _, k := range []string{"LC_ALL", "LC_CTYPE", "NO_COLOR", "TCELL_TRUECOLOR", "TCELL_ALTSCREEN"} {
		t.Setenv(k, "")
	}
	t.Setenv("LANG", "C.UTF-8")
	ts := startServer(t, func(o *Options) { o.Session = testUI(true) })
	c := dial(t, ts.addr, "x", nil)
	for _, tt := range []struct {
		env             []string
		utf8, colour256 bool
	}{
		{[]string{"LANG=C.UTF-8"}, true, true},
		{[]string{"LANG=C"}, false, true},
		{[]string{"LC_ALL=en_US.ISO-8859-1", "LANG=en_US.UTF-8"}, false, true},
		{[]string{"NO_COLOR=1"}, true, false},
	} {
		tm := openTerminal(t, c, "xterm-256color", 60, 10, "", tt.env...)
		tm.waitFor(t, "size 60x10")
		time.Sleep(100 * time.Millisecond)
		tm.in.Write([]byte("q"))
		tm.wait(t)
		out := tm.output()
		hasUTF8 := strings.Contains(out, "█")
		high := strings.IndexFunc(out, func(r rune) bool { return r >= 0x80 }) >= 0
		colour := strings.Contains(out, "\x1b[48;5;")
		if hasUTF8 != tt.utf8 || (!tt.utf8 && high) || colour != tt.colour256 {
			t.Errorf("env %v: block %v, non-ASCII %v, 256 colours %v; want UTF-8 %v, colours %v", tt.env, hasUTF8, high, colour, tt.utf8, tt.colour256)
		}
	}
}

// TestShutdownAndTimeLimit: Shutdown ends a watching session with a
// message; a session past the time limit ends with another.
func TestShutdownAndTimeLimit(t *testing.T) {
	ts := startServer(t, func(o *Options) { o.Limits.MaxSession = 700 * time.Millisecond })
	c := dial(t, ts.addr, "x", nil)
	tm := openTerminal(t, c, "xterm", 80, 24, "")
	tm.waitFor(t, "time limit (serve.max_session)")
	tm.wait(t)

	ts = startServer(t, nil)
	c = dial(t, ts.addr, "x", nil)
	tm = openTerminal(t, c, "xterm", 80, 24, "")
	tm.waitFor(t, "size 80x24")
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if err := ts.Shutdown(ctx); err != nil {
		t.Fatal(err)
	}
	tm.waitFor(t, "the server is shutting down")
	tm.wait(t)
	if _, err := dialErr(ts.addr, "x", nil); err == nil {
		t.Error("a connection after Shutdown got in")
	}
}

// TestFiniWithFullQueue: a client that keeps typing and resizing while the
// session reads no events fills tcell's event queue; tcell's Fini waits
// for its input goroutines, stuck on that queue, so the tty drains it
// until the screen is finalised. The session ends; nothing is left.
func TestFiniWithFullQueue(t *testing.T) {
	deaf := func(ctx context.Context, scr tcell.Screen, _ tui.SessionOptions) error {
		if err := scr.Init(); err != nil {
			return err
		}
		defer scr.Fini()
		scr.SetContent(0, 0, 'D', nil, tcell.StyleDefault)
		scr.Sync()
		<-ctx.Done()
		return nil
	}
	ts := startServer(t, func(o *Options) { o.Session = deaf; o.Limits.Idle = 2 * time.Second })
	c := dial(t, ts.addr, "x", nil)
	base := runtime.NumGoroutine()
	tm := openTerminal(t, c, "xterm", 80, 24, "")
	tm.waitFor(t, "D")
	for i := range 2000 {
		tm.in.Write([]byte("abcdefgh"))
		if i%10 == 0 {
			tm.sess.WindowChange(24+i%7, 80+i%13)
		}
	}
	c.Close()
	waitCounts(t, ts.Server, 0, 0)
	deadline := time.Now().Add(10 * time.Second)
	for runtime.NumGoroutine() > base+2 {
		if time.Now().After(deadline) {
			t.Fatalf("%d goroutines, %d before", runtime.NumGoroutine(), base)
		}
		time.Sleep(10 * time.Millisecond)
	}
}
