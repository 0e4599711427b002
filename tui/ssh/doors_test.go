package ssh

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gdamore/tcell/v2"
	gossh "golang.org/x/crypto/ssh"

	"github.com/squarebattle/squarebattle/engine/bot"
	"github.com/squarebattle/squarebattle/tui"
)

// rawChan is a session channel driven request by request, as a hostile
// client would: its stdout and stderr are collected, its exit status
// arrives on status (-1 when the channel closed without one).
type rawChan struct {
	ch     gossh.Channel
	status chan int
	read   sync.WaitGroup // stdout and stderr until their end
	mu     sync.Mutex
	out    bytes.Buffer
}

func openRaw(t testing.TB, c *gossh.Client) *rawChan {
	t.Helper()
	rc, err := tryRaw(c)
	if err != nil {
		t.Fatalf("open session: %v", err)
	}
	return rc
}

func tryRaw(c *gossh.Client) (*rawChan, error) {
	ch, reqs, err := c.OpenChannel("session", nil)
	if err != nil {
		return nil, err
	}
	rc := &rawChan{ch: ch, status: make(chan int, 1)}
	go func() {
		got := -1
		for r := range reqs {
			if r.Type == "exit-status" && len(r.Payload) == 4 {
				got = int(r.Payload[3])
			}
			r.Reply(false, nil)
		}
		rc.status <- got
	}()
	for _, r := range []io.Reader{ch, ch.Stderr()} {
		rc.read.Add(1)
		go func() {
			defer rc.read.Done()
			buf := make([]byte, 4096)
			for {
				n, err := r.Read(buf)
				rc.mu.Lock()
				rc.out.Write(buf[:n])
				rc.mu.Unlock()
				if err != nil {
					return
				}
			}
		}()
	}
	return rc, nil
}

func (rc *rawChan) text() string {
	rc.mu.Lock()
	defer rc.mu.Unlock()
	return rc.out.String()
}

func (rc *rawChan) env(k, v string) bool {
	ok, _ := rc.ch.SendRequest("env", true, gossh.Marshal(struct{ Key, Value string }{k, v}))
	return ok
}

func (rc *rawChan) pty(w, h int) bool {
	ok, _ := rc.ch.SendRequest("pty-req", true, gossh.Marshal(struct {
		Term               string
		Cols, Rows, PW, PH uint32
		Modes              string
	}{"xterm", uint32(w), uint32(h), 0, 0, ""}))
	return ok
}

func (rc *rawChan) resize(w, h int) bool {
	ok, _ := rc.ch.SendRequest("window-change", true, gossh.Marshal(struct{ W, H, PW, PH uint32 }{uint32(w), uint32(h), 0, 0}))
	return ok
}

func (rc *rawChan) exec(cmd string) bool {
	if cmd == "" {
		ok, _ := rc.ch.SendRequest("shell", true, nil)
		return ok
	}
	ok, _ := rc.ch.SendRequest("exec", true, gossh.Marshal(struct{ Command string }{cmd}))
	return ok
}

// waitStatus waits for the channel's end.
func (rc *rawChan) waitStatus(t testing.TB) int {
	t.Helper()
	select {
	case st := <-rc.status:
		rc.read.Wait()
		return st
	case <-time.After(15 * time.Second):
		t.Fatalf("the channel never closed; output %q", rc.text())
		return 0
	}
}

// waitGoroutines waits until no more than base+slack goroutines run.
func waitGoroutines(t testing.TB, base int) {
	t.Helper()
	deadline := time.Now().Add(15 * time.Second)
	for runtime.NumGoroutine() > base+2 {
		if time.Now().After(deadline) {
			buf := make([]byte, 1<<20)
			t.Fatalf("%d goroutines, %d before:\n%s", runtime.NumGoroutine(), base, buf[:runtime.Stack(buf, true)])
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// envUI is a session runner that hands the client's LANG and COLORTERM
// to got, then ends.
func envUI(got chan<- string) func(context.Context, tcell.Screen, tui.SessionOptions) error {
	return func(_ context.Context, _ tcell.Screen, o tui.SessionOptions) error {
		got <- o.Getenv("LANG") + "," + o.Getenv("COLORTERM")
		return nil
	}
}

// TestEnvDoor: env requests are kept up to serve.env_requests and
// serve.env_bytes and refused past either; none is taken once the command
// runs; the ones kept reach the session; a flood of them costs nothing
// lasting.
func TestEnvDoor(t *testing.T) {
	type kv struct{ k, v string }
	many := func(n int, k, v string) []kv {
		var out []kv
		for i := range n {
			out = append(out, kv{k + string(rune('a'+i%26)) + strings.Repeat("x", i/26), v})
		}
		return out
	}
	tests := []struct {
		name          string
		requests, max int
		send          []kv
		accepted      int
		lang          string // what the session reads of LANG, COLORTERM
	}{
		{"within both", 16, 4096, []kv{{"LANG", "C"}, {"COLORTERM", "truecolor"}}, 2, "C,truecolor"},
		{"count", 4, 4096, append([]kv{{"LANG", "C"}}, many(20, "K", "v")...), 4, "C,"},
		{"bytes", 16, 100, []kv{{"LANG", strings.Repeat("x", 40)}, {"COLORTERM", strings.Repeat("y", 40)}, {"K", strings.Repeat("z", 40)}}, 2, strings.Repeat("x", 40) + "," + strings.Repeat("y", 40)},
		{"one too large", 16, 100, []kv{{"LANG", strings.Repeat("x", 97)}, {"COLORTERM", "24bit"}}, 1, ",24bit"},
		{"none allowed", 0, 4096, []kv{{"LANG", "C"}}, 0, ","},
		{"zero bytes", 16, 0, []kv{{"LANG", "C"}}, 0, ","},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := make(chan string, 1)
			ts := startServer(t, func(o *Options) {
				o.Limits.EnvRequests, o.Limits.EnvBytes = tt.requests, tt.max
				o.Session = envUI(got)
			})
			rc := openRaw(t, dial(t, ts.addr, "x", nil))
			accepted := 0
			for _, e := range tt.send {
				if rc.env(e.k, e.v) {
					accepted++
				}
			}
			rc.pty(80, 24)
			if !rc.exec("") {
				t.Fatal("shell refused")
			}
			if rc.env("LATE", "1") {
				t.Error("an env request after the command was taken")
			}
			if accepted != tt.accepted {
				t.Errorf("%d env requests accepted, want %d", accepted, tt.accepted)
			}
			if g := <-got; g != tt.lang {
				t.Errorf("the session read LANG,COLORTERM %q, want %q", g, tt.lang)
			}
			rc.waitStatus(t)
			refused := len(tt.send) - tt.accepted
			if note := strings.Contains(rc.text(), "environment variables were refused"); note != (refused > 0) {
				t.Errorf("%d refused; the client was told: %v (%q)", refused, note, rc.text())
			}
			if logged := strings.Contains(ts.logs.String(), "env refused"); logged != (refused > 0) {
				t.Errorf("%d refused; logged: %v", refused, logged)
			}
		})
	}

	t.Run("flood", func(t *testing.T) {
		ts := startServer(t, nil)
		c := dial(t, ts.addr, "x", nil)
		run(t, c, "help", nil)
		heap0 := heapAfterGC()
		rc := openRaw(t, c)
		value := strings.Repeat("v", 40<<10)
		accepted := 0
		for i := range 2000 {
			if rc.env("K"+string(rune('a'+i%26)), value) {
				accepted++
			}
		}
		grew := int64(heapAfterGC()) - int64(heap0)
		if accepted > 0 || grew > 4<<20 {
			t.Errorf("2000 env requests of 40 KB: %d accepted, heap grew %d KB (want 0 and < 4 MB)", accepted, grew>>10)
		}
	})
}

func heapAfterGC() uint64 {
	runtime.GC()
	runtime.GC()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	return ms.HeapAlloc
}

// TestChannelDoor: session channels are counted when asked for: past
// serve.channels_per_connection, serve.sessions_per_ip or serve.sessions
// they are refused before the server accepts them, with the limit named;
// a place given back is taken again.
func TestChannelDoor(t *testing.T) {
	tests := []struct {
		name        string
		edit        func(*Limits)
		conns, each int // connections, channels asked on each
		opened      int
		why         string
	}{
		{"per connection", func(l *Limits) { l.ChannelsPerConn = 3 }, 1, 5, 3, "serve.channels_per_connection"},
		{"per connection, two connections", func(l *Limits) { l.ChannelsPerConn = 2 }, 2, 3, 4, "serve.channels_per_connection"},
		{"per address", func(l *Limits) { l.SessionsPerIP = 4 }, 2, 3, 4, "serve.sessions_per_ip"},
		{"in all", func(l *Limits) { l.Sessions = 3 }, 1, 5, 3, "the server is full"},
		{"within", func(l *Limits) {}, 2, 4, 8, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ts := startServer(t, func(o *Options) { tt.edit(&o.Limits) })
			opened, why := 0, ""
			var first *gossh.Client
			var kept []*rawChan
			for range tt.conns {
				c := dial(t, ts.addr, "x", nil)
				if first == nil {
					first = c
				}
				for range tt.each {
					rc, err := tryRaw(c)
					if err != nil {
						why = err.Error()
						continue
					}
					kept = append(kept, rc)
					opened++
				}
			}
			if opened != tt.opened || !strings.Contains(why, tt.why) {
				t.Fatalf("%d opened (refused: %q), want %d refused with %q", opened, why, tt.opened, tt.why)
			}
			if tt.why == "" {
				return
			}
			if !strings.Contains(ts.logs.String(), "session refused") {
				t.Error("no log line")
			}
			// One closed, one more may open (on the first connection).
			kept[0].ch.Close()
			deadline := time.Now().Add(10 * time.Second)
			for {
				rc, err := tryRaw(first)
				if err == nil {
					rc.ch.Close()
					break
				}
				if time.Now().After(deadline) {
					t.Fatalf("no session after one closed: %v", err)
				}
				time.Sleep(20 * time.Millisecond)
			}
		})
	}
}

// TestCommandDoor: a session channel must name its command within
// serve.command_timeout, else it is closed with a message; a connection
// that ran no command is closed after serve.handshake_timeout, one that
// holds no channel after serve.idle_timeout; a command line past 4 KiB is
// refused.
func TestCommandDoor(t *testing.T) {
	t.Parallel() // its own server; it waits on the server's timeouts and deadlines
	tests := []struct {
		name       string
		delay      time.Duration // before the command; -1: once the channel is closed
		cmd        string
		commandOK  bool
		statusWant int // -1: closed without a status
		told       string
	}{
		{"in time", 100 * time.Millisecond, "help", true, 0, "SquareBattle arena"},
		{"in time, a shell", 100 * time.Millisecond, "", true, 2, "this needs a terminal"},
		{"never", -1, "help", false, -1, "no command within 400ms (serve.command_timeout)"},
		{"too long", 0, "help " + strings.Repeat("x", 5000), false, -1, "no command within"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ts := startServer(t, func(o *Options) {
				o.Limits.Command = 400 * time.Millisecond
				o.Limits.Handshake = 10 * time.Second
			})
			c := dial(t, ts.addr, "x", nil)
			rc := openRaw(t, c)
			done := make(chan bool, 1)
			if tt.delay >= 0 {
				go func() {
					time.Sleep(tt.delay)
					done <- rc.exec(tt.cmd)
				}()
			}
			st := rc.waitStatus(t)
			if tt.delay < 0 {
				done <- rc.exec(tt.cmd)
			}
			if ok := <-done; ok != tt.commandOK {
				t.Errorf("command accepted %v, want %v", ok, tt.commandOK)
			}
			if st != tt.statusWant || !strings.Contains(rc.text(), tt.told) {
				t.Fatalf("status %d, output %q; want %d and %q", st, rc.text(), tt.statusWant, tt.told)
			}
			waitCounts(t, ts.Server, 1, 0)
		})
	}

	t.Run("connections", func(t *testing.T) {
		tests := []struct {
			name    string
			command bool // run one, then open a channel and leave it
			closed  time.Duration
			reason  string
		}{
			{"no command ever: the handshake deadline", false, 600 * time.Millisecond, "no command within the handshake timeout"},
			{"no channel after a command: the idle timeout", true, 1400 * time.Millisecond, "no session for the idle timeout"},
		}
		for _, tt := range tests {
			t.Run(tt.name, func(t *testing.T) {
				ts := startServer(t, func(o *Options) {
					o.Limits.Handshake = 700 * time.Millisecond
					o.Limits.Command = 300 * time.Millisecond
					o.Limits.Idle = 1500 * time.Millisecond
				})
				// The server's clocks start when it accepts, before the
				// handshake dial waits for (which a loaded machine can
				// stretch past a tenth of a second).
				start := time.Now()
				c := dial(t, ts.addr, "x", nil)
				if tt.command {
					run(t, c, "help", nil)
				}
				openRaw(t, c) // no command: closed after 300 ms
				done := make(chan struct{})
				go func() { c.Wait(); close(done) }()
				select {
				case <-done:
				case <-time.After(10 * time.Second):
					t.Fatal("the connection stayed open")
				}
				if took := time.Since(start); took < tt.closed {
					t.Errorf("closed after %s, before %s", took, tt.closed)
				}
				if !strings.Contains(ts.logs.String(), tt.reason) {
					t.Errorf("no log line %q", tt.reason)
				}
				waitCounts(t, ts.Server, 0, 0)
			})
		}
	})
}

// TestWindowDoor: window changes are taken from the moment a pty is asked
// for, whatever comes next: a client that resizes before its command, or
// during one that reads no window changes, then hangs up, leaves nothing
// behind; the newest size before a shell is the screen's first.
func TestWindowDoor(t *testing.T) {
	tests := []struct {
		name    string
		pty     bool
		before  int    // window changes before the command
		cmd     string // "-": none, hang up
		during  int    // window changes while it runs (-1: none, and hang up at once)
		resized bool   // window changes accepted
	}{
		{"hang up before a command", true, 50, "-", 0, true},
		{"help while resizing (ssh -t HOST help)", true, 5, "help", 200, true},
		{"unknown command while resizing", true, 5, "nothing", 200, true},
		{"no pty", false, 5, "help", 5, false},
		{"a shell, then hang up at once", true, 5, "", -1, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ts := startServer(t, nil)
			warm := dial(t, ts.addr, "x", nil)
			run(t, warm, "help", nil)
			warm.Close()
			waitCounts(t, ts.Server, 0, 0)
			base := runtime.NumGoroutine()
			for range 5 {
				c, err := dialErr(ts.addr, "x", nil)
				if err != nil {
					t.Fatal(err)
				}
				rc := openRaw(t, c)
				rc.env("LANG", "C.UTF-8")
				if tt.pty && !rc.pty(80, 24) {
					t.Fatal("pty refused")
				}
				for i := range tt.before {
					if rc.resize(81+i%9, 25) != tt.resized {
						t.Fatalf("window change %d: accepted %v", i, !tt.resized)
					}
				}
				if tt.cmd != "-" {
					rc.exec(tt.cmd)
					if tt.during < 0 {
						rc.ch.Close()
						c.Close()
						continue
					}
					for i := range tt.during {
						rc.ch.SendRequest("window-change", false, gossh.Marshal(struct{ W, H, PW, PH uint32 }{uint32(90 + i%5), 30, 0, 0}))
					}
					rc.waitStatus(t)
				}
				c.Close()
			}
			waitCounts(t, ts.Server, 0, 0)
			waitGoroutines(t, base)
		})
	}

	t.Run("the newest size first", func(t *testing.T) {
		ts := startServer(t, nil)
		rc := openRaw(t, dial(t, ts.addr, "x", nil))
		rc.pty(80, 24)
		for i := range 100 {
			rc.resize(60+i, 20)
		}
		rc.resize(123, 45)
		rc.exec("")
		deadline := time.Now().Add(10 * time.Second)
		for !strings.Contains(rc.text(), "size 123x45") {
			if time.Now().After(deadline) {
				t.Fatalf("the screen never showed 123x45: %q", rc.text())
			}
			time.Sleep(10 * time.Millisecond)
		}
		rc.ch.Write([]byte("q"))
		if st := rc.waitStatus(t); st != 0 {
			t.Fatalf("status %d", st)
		}
	})
}

// deafUI draws once and reads nothing until the session ends.
func deafUI(ctx context.Context, scr tcell.Screen, _ tui.SessionOptions) error {
	if err := scr.Init(); err != nil {
		return err
	}
	defer scr.Fini()
	scr.SetContent(0, 0, 'D', nil, tcell.StyleDefault)
	scr.Sync()
	<-ctx.Done()
	return nil
}

// TestInputDoor: stdin is read as it arrives and kept only as far as the
// command takes it: thrown away for commands that read none, an upload up
// to its limit, a terminal's keys up to 64 KiB unread, before a command
// the largest upload and 64 KiB; past that the session ends with a
// message.
func TestInputDoor(t *testing.T) {
	mib := bytes.Repeat([]byte("k"), 1<<20)
	tests := []struct {
		name   string
		pty    bool
		cmd    string // "-": none
		early  []byte // sent before the command
		late   []byte // sent after it
		status int    // -1: closed without one
		told   string
	}{
		{"help with 2 MiB of stdin", false, "help", nil, append(mib, mib...), 0, "SquareBattle arena"},
		{"help after 100 KiB", false, "help", mib[:100<<10], nil, 0, "SquareBattle arena"},
		{"before a command, past the largest upload", false, "-", mib, nil, -1, "input arrived faster than it was read"},
		{"a terminal that reads nothing", true, "", nil, append(mib, mib...), -1, "input arrived faster than it was read"},
		{"an upload past its limit", false, "submit big", nil, mib, 2, "more than 65536 bytes"},
		{"an upload within it", false, "submit small", nil, []byte("function run() end"), 0, "x.small is new"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ts := startServer(t, func(o *Options) { o.Session = deafUI })
			rc := openRaw(t, dial(t, ts.addr, "x", newKey(t)))
			if tt.pty {
				rc.pty(80, 24)
			}
			writeAll := func(p []byte) {
				for len(p) > 0 {
					n := min(len(p), 32<<10)
					if _, err := rc.ch.Write(p[:n]); err != nil {
						return
					}
					p = p[n:]
				}
			}
			writeAll(tt.early)
			if tt.cmd != "-" {
				time.Sleep(50 * time.Millisecond)
				rc.exec(tt.cmd)
				writeAll(tt.late)
				rc.ch.CloseWrite()
			}
			st := rc.waitStatus(t)
			if st != tt.status || !strings.Contains(rc.text(), tt.told) {
				t.Fatalf("status %d, output %q; want %d and %q", st, rc.text()[:min(len(rc.text()), 300)], tt.status, tt.told)
			}
		})
	}
}

// TestClocksFromOpen: a session's time limit and idle timeout run from
// the moment its channel opened, not from its command.
func TestClocksFromOpen(t *testing.T) {
	t.Parallel() // its own server; it waits on the server's timeouts and deadlines
	tests := []struct {
		name  string
		edit  func(*Limits)
		wait  time.Duration // between opening and the command
		told  string
		after time.Duration // the most the session may last after its command
	}{
		{"time limit", func(l *Limits) { l.MaxSession = 1500 * time.Millisecond }, time.Second, "serve.max_session", 1200 * time.Millisecond},
		{"idle", func(l *Limits) { l.Idle = 1500 * time.Millisecond }, time.Second, "no input for too long", 1200 * time.Millisecond},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ts := startServer(t, func(o *Options) { tt.edit(&o.Limits); o.Session = testUI(false) })
			rc := openRaw(t, dial(t, ts.addr, "x", nil))
			rc.pty(80, 24)
			time.Sleep(tt.wait)
			start := time.Now()
			rc.exec("")
			rc.waitStatus(t)
			if took := time.Since(start); took > tt.after || !strings.Contains(rc.text(), tt.told) {
				t.Fatalf("the session lasted %s after its command (at most %s), output %q", took, tt.after, rc.text())
			}
		})
	}
}

// TestLineEnds: with a pty, what a command writes reaches the client with
// its line feeds as \r\n (the server has no line discipline to do it);
// without one, as written.
func TestLineEnds(t *testing.T) {
	t.Parallel() // its own server, waiting on the command
	ts := startServer(t, nil)
	for _, pty := range []bool{true, false} {
		c := dial(t, ts.addr, "x", nil)
		rc := openRaw(t, c)
		if pty && !rc.pty(80, 24) {
			t.Fatal("pty refused")
		}
		if !rc.exec("help") {
			t.Fatal("exec refused")
		}
		if st := rc.waitStatus(t); st != 0 {
			t.Fatalf("pty %v: status %d, output %q", pty, st, rc.text())
		}
		out := rc.text()
		lines, crlf := strings.Count(out, "\n"), strings.Count(out, "\r\n")
		want := 0
		if pty {
			want = lines
		}
		if lines < 2 || crlf != want || strings.Contains(out, "\r\r") {
			t.Errorf("pty %v: %d line feeds, %d of them after \\r (want %d); output %q", pty, lines, crlf, want, out)
		}
	}
}

// TestInputBoundsNamed: what a session may leave unread depends on its
// command, and the message that ends a flooding session names that
// command's own bound (a bot's is a whole line more than a terminal's).
func TestInputBoundsNamed(t *testing.T) {
	s := &Server{}
	s.o.Limits.ScriptBytes = 1000
	for _, c := range []struct {
		args  []string
		pty   bool
		limit int
		says  string
	}{
		{[]string{"menu"}, true, inboxSlack, "more than 64 KiB waiting"},
		{nil, true, inboxSlack, "more than 64 KiB waiting"},
		{[]string{"bot", "pyloop"}, false, bot.MaxLine + inboxSlack, fmt.Sprintf("more than %d KiB waiting", (bot.MaxLine+inboxSlack)>>10)},
		{[]string{"submit", "x"}, false, 1001, "more than 1000 bytes"},
		{[]string{"ladder"}, false, 0, ""},
	} {
		limit, err := s.inputFor(c.args, c.pty)
		if limit != c.limit {
			t.Errorf("%q: may leave %d bytes unread, want %d", c.args, limit, c.limit)
		}
		if got := fmt.Sprint(err); c.says != "" && !strings.Contains(got, c.says) || c.says == "" && err != nil {
			t.Errorf("%q: ends with %q, want it to say %q", c.args, got, c.says)
		}
	}
}

// TestExtendedDataDoor: what a client sends as extended data (its own
// "stderr", which no command reads) is thrown away as it comes, whatever
// the channel runs or before it runs anything: a flood of one-byte
// packets, which x/crypto would keep a packet at a time up to the
// channel's 2 MiB window, costs no lasting memory, and the session still
// works and ends as usual.
func TestExtendedDataDoor(t *testing.T) {
	const packets = 150_000 // kept, about 7 MB of heap
	tests := []struct {
		name   string
		pty    bool
		cmd    string // "-": none
		finish func(t *testing.T, rc *rawChan)
	}{
		{"before a command", false, "-", func(t *testing.T, rc *rawChan) { rc.ch.Close(); rc.waitStatus(t) }},
		{"a terminal", true, "", func(t *testing.T, rc *rawChan) {
			rc.ch.Write([]byte("q"))
			if st := rc.waitStatus(t); st != 0 {
				t.Errorf("the terminal after the flood: status %d, output %q", st, rc.text())
			}
		}},
		{"a submit reading its upload", false, "submit x", func(t *testing.T, rc *rawChan) {
			rc.ch.Write([]byte("function run() end"))
			rc.ch.CloseWrite()
			if st := rc.waitStatus(t); st != 0 || !strings.Contains(rc.text(), "x.x is new") {
				t.Errorf("the upload after the flood: status %d, output %q", st, rc.text())
			}
		}},
		{"a bot", false, "bot b", func(t *testing.T, rc *rawChan) { rc.ch.CloseWrite(); rc.waitStatus(t) }},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ts := startServer(t, func(o *Options) {
				// Far away: the flood takes its time (under -race, seconds).
				o.Limits.Command, o.Limits.Handshake = time.Hour, time.Hour
				o.BotLink = func(ctx context.Context, user, name string, in io.Reader, out io.Writer, notes io.Writer, end func()) int {
					io.Copy(io.Discard, in)
					return 0
				}
			})
			c := dial(t, ts.addr, "x", newKey(t))
			base := runtime.NumGoroutine()
			rc := openRaw(t, c)
			if tt.pty {
				rc.pty(80, 24)
			}
			if tt.cmd != "-" && !rc.exec(tt.cmd) {
				t.Fatal("the command was refused")
			}
			before := heapAfterGC()
			one := []byte{'e'}
			for i := 0; i < packets; i++ {
				if _, err := rc.ch.Stderr().Write(one); err != nil {
					t.Fatalf("packet %d: %v", i, err)
				}
			}
			// A request's reply follows every packet sent before it.
			rc.ch.SendRequest("keepalive@openssh.com", true, nil)
			if grew := int64(heapAfterGC()) - int64(before); grew > 2<<20 {
				t.Errorf("%d one-byte packets of extended data: heap grew %d KB (want < 2 MB)", packets, grew>>10)
			}
			tt.finish(t, rc)
			waitGoroutines(t, base)
		})
	}
}

// TestHangUpEndsCommand: a client that closes its session channel while
// the command still works (a check, a wait for rated battles, a screen,
// an admin's ladder command) ends that work and gives the session's place
// back at once, though its connection stays open.
func TestHangUpEndsCommand(t *testing.T) {
	admin := newKey(t)
	tests := []struct {
		name string
		pty  bool
		cmd  string
		src  string // stdin, then its end
	}{
		{"a submit in its check", false, "submit slow", "function run() end"},
		{"a submit waiting for its rated battles", false, "submit quick --wait", "function run() end"},
		{"a screen", true, "", ""},
		{"a watch", true, "watch", ""},
		{"the ladder's admin command", false, "ladder-admin rerate", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			working := make(chan struct{}, 1)
			ended := make(chan error, 1)
			work := func(ctx context.Context) {
				working <- struct{}{}
				<-ctx.Done()
				ended <- context.Cause(ctx)
			}
			ts := startServer(t, func(o *Options) {
				o.Limits.Idle, o.Limits.MaxSession = time.Hour, time.Hour
				o.Admins = map[string]bool{Fingerprint(admin.PublicKey()): true}
				o.Session = func(ctx context.Context, _ tcell.Screen, _ tui.SessionOptions) error { work(ctx); return nil }
				o.Check = func(ctx context.Context, id string, src []byte, stdout, stderr io.Writer) int {
					if strings.HasSuffix(id, ".slow") {
						work(ctx)
						return 1
					}
					return testCheck(ctx, id, src, stdout, stderr)
				}
				o.WaitRated = func(ctx context.Context, _ string, _ io.Writer) int { work(ctx); return 1 }
				o.LadderAdmin = func(ctx context.Context, _ []string, _, _ io.Writer) int { work(ctx); return 1 }
			})
			c := dial(t, ts.addr, "x", admin)
			rc := openRaw(t, c)
			if tt.pty {
				rc.pty(80, 24)
			}
			if !rc.exec(tt.cmd) {
				t.Fatal("the command was refused")
			}
			if tt.src != "" {
				rc.ch.Write([]byte(tt.src))
				rc.ch.CloseWrite()
			}
			<-working
			rc.ch.Close()
			select {
			case cause := <-ended:
				if !errors.Is(cause, errHungUp) {
					t.Errorf("the work ended for %v", cause)
				}
			case <-time.After(time.Minute):
				t.Fatal("the work went on after the client closed its channel")
			}
			waitCounts(t, ts.Server, 1, 0)
		})
	}
}

// TestWriteDoor: every write of every command to a client has the write
// timeout: a client that stops reading (its channel's window shut) loses
// its connection after it, whichever command wrote and on stdout or
// stderr, and the session's place is given back.
func TestWriteDoor(t *testing.T) {
	line := strings.Repeat("p", 99)
	many := make([]string, 40_000) // 4 MB: past a client's 2 MiB window
	for i := range many {
		many[i] = line
	}
	tests := []struct {
		name string
		cmd  string
		pty  bool
	}{
		{"players", "players", false},
		{"players with a pty", "players", true},
		{"the ladder's admin command, on stdout", "ladder-admin rerate out", false},
		{"the ladder's admin command, on stderr", "ladder-admin rerate err", false},
		{"a check's report", "submit big", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			admin := newKey(t)
			ts := startServer(t, func(o *Options) {
				o.Limits.Write = 300 * time.Millisecond
				o.Limits.Idle, o.Limits.MaxSession = time.Hour, time.Hour
				o.Admins = map[string]bool{Fingerprint(admin.PublicKey()): true}
				o.Players = func() []string { return many }
				o.LadderAdmin = func(_ context.Context, args []string, out, errw io.Writer) int {
					w := out
					if args[len(args)-1] == "err" {
						w = errw
					}
					writeLines(w, many...)
					return 0
				}
				o.Check = func(_ context.Context, _ string, _ []byte, stdout, _ io.Writer) int {
					writeLines(stdout, many...)
					return 0
				}
			})
			c := dial(t, ts.addr, "x", admin)
			// A channel whose output nobody reads.
			ch, reqs, err := c.OpenChannel("session", nil)
			if err != nil {
				t.Fatal(err)
			}
			go gossh.DiscardRequests(reqs)
			if tt.pty {
				ch.SendRequest("pty-req", true, gossh.Marshal(struct {
					Term               string
					Cols, Rows, PW, PH uint32
					Modes              string
				}{"xterm", 80, 24, 0, 0, ""}))
			}
			if ok, _ := ch.SendRequest("exec", true, gossh.Marshal(struct{ Command string }{tt.cmd})); !ok {
				t.Fatal("the command was refused")
			}
			if strings.HasPrefix(tt.cmd, "submit") {
				ch.Write([]byte("function run() end"))
				ch.CloseWrite()
			}
			done := make(chan struct{})
			go func() { c.Wait(); close(done) }()
			select {
			case <-done:
			case <-time.After(time.Minute):
				t.Fatal("the connection of a client that reads nothing stayed open")
			}
			waitCounts(t, ts.Server, 0, 0)
			if !strings.Contains(ts.logs.String(), "serve.write_timeout") {
				t.Errorf("no log line names serve.write_timeout")
			}
		})
	}
}
