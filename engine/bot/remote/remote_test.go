package remote

import (
	"bufio"
	"errors"
	"io"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/squarebattle/squarebattle/engine/bot"
)

// peer is the bot's end of a link over pipes.
type peer struct {
	in      *bufio.Reader  // what the server sent
	out     *io.PipeWriter // what the bot sends
	l       *Link
	writing chan struct{} // closed when the link's first write begins
}

func newPeer(t *testing.T, o Options) *peer {
	t.Helper()
	toBot, fromServer := io.Pipe()
	toServer, fromBot := io.Pipe()
	writing := make(chan struct{})
	w := &enteredWriter{w: fromServer, entered: writing}
	l := NewLink(toServer, w, func() { toServer.Close(); fromServer.Close(); toBot.Close(); fromBot.Close() }, o)
	t.Cleanup(l.Close)
	return &peer{in: bufio.NewReader(toBot), out: fromBot, l: l, writing: writing}
}

func (p *peer) say(line string) { go io.WriteString(p.out, line+"\n") }

func (p *peer) hear(t *testing.T) string {
	t.Helper()
	s, err := p.in.ReadString('\n')
	if err != nil {
		t.Fatal(err)
	}
	return strings.TrimSuffix(s, "\n")
}

func soon() time.Time { return time.Now().Add(5 * time.Second) }

// TestBattlesInTurn: a link serves one battle, then the next; the second
// waits while the first holds it; lines left from the first battle are
// dropped before the second's ready.
func TestBattlesInTurn(t *testing.T) {
	p := newPeer(t, Options{})
	c, err := p.l.Claim()
	if err != nil {
		t.Fatal(err)
	}
	if _, err := p.l.Claim(); !errors.Is(err, ErrBusy) {
		t.Fatalf("a second claim while busy: %v", err)
	}
	go c.Send([]byte(`{"type":"hello","team":0}`))
	if got := p.hear(t); !strings.Contains(got, `"hello"`) {
		t.Fatalf("bot heard %q", got)
	}
	p.say(`{"type": "ready", "name": "Remote"}`)
	if line, err := c.Receive(soon()); err != nil || !strings.Contains(string(line), "Remote") {
		t.Fatalf("ready: %q %v", line, err)
	}
	p.say(`{"type":"actions","round":1,"actions":[]}`)
	if line, err := c.Receive(soon()); err != nil || !strings.Contains(string(line), "actions") {
		t.Fatalf("actions: %q %v", line, err)
	}
	c.Close()
	// A late answer of the first battle, then the second battle.
	p.say(`{"type":"actions","round":2,"actions":[]}`)
	c2, err := p.l.Claim()
	if err != nil {
		t.Fatal(err)
	}
	go c2.Send([]byte(`{"type":"hello","team":1}`))
	p.hear(t)
	time.Sleep(10 * time.Millisecond)
	p.say(`{"type":"ready","name":"Again"}`)
	if line, err := c2.Receive(soon()); err != nil || !strings.Contains(string(line), "Again") {
		t.Fatalf("the second battle's first line: %q %v", line, err)
	}
	c2.Close()
}

// TestFaults: each way a remote bot goes wrong ends its link (or only its
// answer), with the error the protocol layer knows.
func TestFaults(t *testing.T) {
	cases := []struct {
		name string
		run  func(t *testing.T, p *peer, c bot.Conn) error
		want error
	}{
		{"never answers", func(t *testing.T, p *peer, c bot.Conn) error {
			_, err := c.Receive(time.Now().Add(20 * time.Millisecond))
			return err
		}, bot.ErrLate},
		{"hangs up", func(t *testing.T, p *peer, c bot.Conn) error {
			p.out.Close()
			_, err := c.Receive(soon())
			return err
		}, bot.ErrClosed},
		{"a line over MaxLine", func(t *testing.T, p *peer, c bot.Conn) error {
			go p.out.Write([]byte(strings.Repeat("x", bot.MaxLine+10) + "\n"))
			_, err := c.Receive(soon())
			if !errors.Is(p.l.Err(), bot.ErrLineTooLong) {
				t.Errorf("link error %v", p.l.Err())
			}
			return err
		}, bot.ErrClosed},
		{"stops reading", func(t *testing.T, p *peer, c bot.Conn) error {
			// Nobody reads p.in: the pipe takes nothing.
			return c.Send([]byte(`{"type":"round","round":1}`))
		}, bot.ErrClosed},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			p := newPeer(t, Options{SendTimeout: 100 * time.Millisecond})
			c, err := p.l.Claim()
			if err != nil {
				t.Fatal(err)
			}
			c.(*conn).awaitReady = false
			if err := tc.run(t, p, c); !errors.Is(err, tc.want) {
				t.Errorf("got %v, want %v", err, tc.want)
			}
		})
	}
}

// TestLateLineKept: a line that comes after its deadline is the next
// Receive's.
func TestLateLineKept(t *testing.T) {
	p := newPeer(t, Options{})
	c, _ := p.l.Claim()
	c.(*conn).awaitReady = false
	if _, err := c.Receive(time.Now().Add(10 * time.Millisecond)); !errors.Is(err, bot.ErrLate) {
		t.Fatal(err)
	}
	p.say(`{"type":"actions","round":1}`)
	if line, err := c.Receive(soon()); err != nil || !strings.Contains(string(line), `"round":1`) {
		t.Fatalf("%q %v", line, err)
	}
}

// TestNoLeaks: links that end, however they end, leave no goroutine.
func TestNoLeaks(t *testing.T) {
	base := runtime.NumGoroutine()
	for i := range 50 {
		toBot, fromServer := io.Pipe()
		toServer, fromBot := io.Pipe()
		l := NewLink(toServer, fromServer, func() { toServer.Close(); fromServer.Close(); toBot.Close(); fromBot.Close() }, Options{SendTimeout: 20 * time.Millisecond})
		c, _ := l.Claim()
		switch i % 3 {
		case 0:
			c.Send([]byte("x")) // nobody reads: times out, ends the link
		case 1:
			go fromBot.Write([]byte("flood\nflood\nflood\n"))
			l.Close()
		case 2:
			c.Close()
			l.Close()
		}
		<-l.Done()
	}
	deadline := time.Now().Add(5 * time.Second)
	for runtime.NumGoroutine() > base+2 && time.Now().Before(deadline) {
		time.Sleep(10 * time.Millisecond)
	}
	if n := runtime.NumGoroutine(); n > base+2 {
		t.Errorf("%d goroutines after 50 links, %d before", n, base)
	}
}

// TestConstantGoroutines: a link costs its reader and its writer however
// many messages it carries, whether the bot takes them at once or late.
func TestConstantGoroutines(t *testing.T) {
	base := runtime.NumGoroutine()
	p := newPeer(t, Options{})
	go io.Copy(io.Discard, p.in) // the bot reads everything: one goroutine of the test's
	c, err := p.l.Claim()
	if err != nil {
		t.Fatal(err)
	}
	most := 0
	for i := range 500 {
		if err := c.Send([]byte(`{"type":"round","round":` + strings.Repeat("1", 1+i%7) + `}`)); err != nil {
			t.Fatal(err)
		}
		most = max(most, runtime.NumGoroutine()-base)
	}
	// reader, writer, the test's copier.
	if most > 3 {
		t.Errorf("up to %d goroutines over 500 messages, want 3", most)
	}
}

// TestStuckWriteEndsLink: a message the bot does not take ends the link
// within SendTimeout even when its battle stopped waiting for it (closed
// its Conn): nothing of the link outlives the timeout.
func TestStuckWriteEndsLink(t *testing.T) {
	p := newPeer(t, Options{SendTimeout: 50 * time.Millisecond})
	c, err := p.l.Claim()
	if err != nil {
		t.Fatal(err)
	}
	sent := make(chan error, 1)
	go func() { sent <- c.Send([]byte(`{"type":"round","round":1}`)) }()
	<-p.writing // a Close before the write leaves nothing to time out
	c.Close()   // the battle gives up before the timeout
	if err := <-sent; !errors.Is(err, bot.ErrClosed) {
		t.Fatalf("Send after Close: %v", err)
	}
	select {
	case <-p.l.Done():
	case <-time.After(5 * time.Second):
		t.Fatal("the link outlived a write nobody took")
	}
	if err := p.l.Err(); err == nil || !strings.Contains(err.Error(), "does not read") {
		t.Errorf("link error %v", err)
	}
}

// enteredWriter closes entered when its first write begins.
type enteredWriter struct {
	w       io.Writer
	entered chan struct{}
	once    sync.Once
}

func (e *enteredWriter) Write(p []byte) (int, error) {
	e.once.Do(func() { close(e.entered) })
	return e.w.Write(p)
}

// TestResultOfAbandonedSend: a battle that closed its Conn while its
// message was being written leaves the write's result behind; the next
// battle's Send is not confused by it.
func TestResultOfAbandonedSend(t *testing.T) {
	p := newPeer(t, Options{})
	c, _ := p.l.Claim()
	sent := make(chan error, 1)
	go func() { sent <- c.Send([]byte(`{"type":"round","round":1}`)) }()
	<-p.writing // the writer holds the message: Close abandons its Send only
	c.Close()
	<-sent
	if got := p.hear(t); !strings.Contains(got, `"round":1`) { // the write completes now
		t.Fatalf("bot heard %q", got)
	}
	c2, err := p.l.Claim()
	if err != nil {
		t.Fatal(err)
	}
	go func() { sent <- c2.Send([]byte(`{"type":"hello","team":2}`)) }()
	if got := p.hear(t); !strings.Contains(got, `"hello"`) {
		t.Fatalf("bot heard %q", got)
	}
	if err := <-sent; err != nil {
		t.Fatalf("the second battle's Send: %v", err)
	}
}

// TestIdle: lines that come while no battle holds the link are dropped,
// so that a bot that answers late and then hangs up is seen to have gone;
// a bot that floods while idle is let go.
func TestIdle(t *testing.T) {
	cases := []struct {
		name  string
		lines int
		close bool
		want  string // in the link's error
	}{
		{"late answer, then gone", 3, true, "connection ended"},
		{"floods while idle", MaxIdleLines + 1, false, "no battle asked"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			p := newPeer(t, Options{})
			c, _ := p.l.Claim()
			c.Close()
			go func() {
				for range tc.lines {
					io.WriteString(p.out, `{"type":"actions","round":7}`+"\n")
				}
				if tc.close {
					p.out.Close()
				}
			}()
			select {
			case <-p.l.Done():
			case <-time.After(5 * time.Second):
				t.Fatal("the link lasts")
			}
			if err := p.l.Err(); err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("link error %v, want %q", err, tc.want)
			}
		})
	}
}

// TestLeftoverOfClosedBattle: a line its battle left untaken when it gave
// the link back does not hold the reader.
func TestLeftoverOfClosedBattle(t *testing.T) {
	p := newPeer(t, Options{})
	c, _ := p.l.Claim()
	io.WriteString(p.out, "leftover\n") // the reader now waits for c to take it
	c.Close()
	p.out.Close()
	select {
	case <-p.l.Done():
	case <-time.After(5 * time.Second):
		t.Fatal("a line nobody takes holds the link")
	}
}

// TestCloseWith: a link its stream's owner ends (the session hung up, the
// server stops) tells the battle that holds it, and Err, that its
// connection ended and why, as when the stream itself ends; either way
// the error is bot.ErrClosed, and a second end changes nothing.
func TestCloseWith(t *testing.T) {
	hungUp := errors.New("the client closed the session")
	tests := []struct {
		name  string
		end   func(l *Link)
		want  string
		claim bool // a battle holds the link when it ends
	}{
		{"hung up, idle", func(l *Link) { l.CloseWith(hungUp) }, "bot closed its output: its connection ended (the client closed the session)", false},
		{"hung up, in a battle", func(l *Link) { l.CloseWith(hungUp) }, "its connection ended (the client closed the session)", true},
		{"already ErrClosed", func(l *Link) { l.CloseWith(bot.ErrClosed) }, "bot closed its output", true},
		{"twice", func(l *Link) { l.CloseWith(hungUp); l.CloseWith(errors.New("later")); l.Close() }, "(the client closed the session)", true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := newPeer(t, Options{})
			var c bot.Conn
			if tt.claim {
				c, _ = p.l.Claim()
			}
			tt.end(p.l)
			<-p.l.Done()
			err := p.l.Err()
			if !errors.Is(err, bot.ErrClosed) || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("link error %v, want ErrClosed and %q", err, tt.want)
			}
			if c != nil {
				if _, err := c.Receive(soon()); !errors.Is(err, bot.ErrClosed) || !strings.Contains(err.Error(), tt.want) {
					t.Errorf("the battle reads %v, want ErrClosed and %q", err, tt.want)
				}
			}
		})
	}
}
