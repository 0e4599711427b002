// Package remote speaks the bot protocol with a bot that runs on its
// author's machine and reached the server over a stream of its own (an SSH
// channel: `ssh HOST bot NAME`). The server never runs the bot; it only
// reads and writes its lines.
//
// One Link is one such connection. It serves battles one after another:
// Claim hands a battle a bot.Conn over the link, and the battle's Close
// gives the link back for the next battle (the bot then reads the next
// hello on the same stream). Lines that arrive while no battle holds the
// link, or before a battle's ready, are the previous battle's leftovers
// and are dropped.
//
// Every cost is bounded by the link. Reading: one goroutine reads the
// stream; a line past bot.MaxLine ends the link; at most one line waits
// for a battle to take it (so a flood fills the stream's own window, not
// the server's memory); lines that come while no battle holds the link
// are dropped at once (so that a bot that hangs up after its battle is
// seen to have gone), and more than MaxIdleLines of them end the link.
// Writing: one goroutine writes, one message at a time (a Send waits for
// the writer to take its message, so at most one message is in flight and
// none queue up), and a write the bot does not take within
// Options.SendTimeout ends the link, whoever still waits for it. A link
// therefore costs two goroutines however many messages it carries and
// however its battles end. Ending the link retires the bot's team in the
// battle that held it and nothing else.
package remote

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"sync"
	"time"

	"github.com/squarebattle/squarebattle/engine/bot"
)

// Options configure a Link.
type Options struct {
	// SendTimeout bounds one write: a bot that stops reading is let go
	// after it. 0: 10 s.
	SendTimeout time.Duration
}

// MaxIdleLines bounds the lines a bot may write while no battle holds its
// link (late answers of its last battle): past it the bot floods, and the
// link ends. Each battle's claim starts the count again.
const MaxIdleLines = 1024

// ErrBusy: the link is playing another battle.
var ErrBusy = errors.New("the bot is playing another battle")

// Link is one remote bot's connection.
//
// Concurrency: Claim, Close and Done may be called from any goroutine; a
// claimed Conn is used as bot.Conn says.
type Link struct {
	end   func()
	o     Options
	lines chan []byte   // what the reader read, one line at a time
	done  chan struct{} // closed when the link ends
	out   chan []byte   // a message for the writer, taken only when it is idle
	wrote chan error    // the writer's result for the message it took last

	mu     sync.Mutex
	busy   bool
	held   chan struct{} // the holding battle's Conn's stop; nil while idle
	idle   int           // lines dropped since the last claim
	err    error         // why the link ended
	closed bool
}

// NewLink starts serving a connection: r and w are its two directions and
// end closes it (it must make a blocked Read and Write return).
func NewLink(r io.Reader, w io.Writer, end func(), o Options) *Link {
	if o.SendTimeout <= 0 {
		o.SendTimeout = 10 * time.Second
	}
	l := &Link{end: end, o: o, lines: make(chan []byte), done: make(chan struct{}),
		out: make(chan []byte), wrote: make(chan error)}
	go l.read(r)
	go l.write(w)
	return l
}

// write writes the messages Send hands over, one at a time, until the link
// ends. Each write has Options.SendTimeout: past it the link ends (end
// makes the blocked Write return), also when the Send that handed the
// message over has given up waiting (its battle closed its Conn). The
// result goes to the next receiver of wrote: the Send that waits for it,
// or the next Send, which drops it.
func (l *Link) write(w io.Writer) {
	stuck := time.AfterFunc(time.Hour, func() {
		l.fail(fmt.Errorf("the bot took no input for %v: it does not read", l.o.SendTimeout))
	})
	stuck.Stop()
	defer stuck.Stop()
	for {
		var msg []byte
		select {
		case msg = <-l.out:
		case <-l.done:
			return
		}
		stuck.Reset(l.o.SendTimeout)
		_, err := w.Write(msg)
		stuck.Stop()
		if err != nil {
			// The stream ended under the write: the same end as the
			// reader's end of file, whichever side notices first.
			err = fmt.Errorf("%w: its connection ended (%v)", bot.ErrClosed, err)
			l.fail(err)
		}
		select {
		case l.wrote <- err:
		case <-l.done:
			return
		}
	}
}

// read hands the stream's lines over one at a time until it ends.
func (l *Link) read(r io.Reader) {
	br := bufio.NewReaderSize(r, 64<<10)
	var line []byte
	for {
		chunk, err := br.ReadSlice('\n')
		if len(line)+len(chunk) > bot.MaxLine+1 {
			l.fail(fmt.Errorf("%w: over %d bytes", bot.ErrLineTooLong, bot.MaxLine))
			return
		}
		line = append(line, chunk...)
		switch {
		case errors.Is(err, bufio.ErrBufferFull):
			continue
		case err != nil:
			if errors.Is(err, io.EOF) {
				err = fmt.Errorf("%w: its connection ended", bot.ErrClosed)
			}
			l.fail(err)
			return
		}
		out := bytes.TrimSuffix(bytes.TrimSuffix(line, []byte("\n")), []byte("\r"))
		line = nil
		if !l.hand(out) {
			return
		}
	}
}

// hand gives a line to the battle that holds the link, waiting until it
// takes it; a line that comes while no battle holds the link, or that its
// battle leaves untaken when it gives the link back, is dropped. It says
// whether the reader goes on.
func (l *Link) hand(line []byte) bool {
	for {
		l.mu.Lock()
		held := l.held
		if held == nil {
			l.idle++
			n := l.idle
			l.mu.Unlock()
			if n > MaxIdleLines {
				l.fail(fmt.Errorf("it wrote over %d lines while no battle asked it anything", MaxIdleLines))
				return false
			}
			return true
		}
		l.mu.Unlock()
		select {
		case l.lines <- line:
			return true
		case <-held: // given back: dropped, or the next battle's leftover
		case <-l.done:
			return false
		}
	}
}

// fail ends the link for reason err.
func (l *Link) fail(err error) {
	l.mu.Lock()
	if l.closed {
		l.mu.Unlock()
		return
	}
	l.closed, l.err = true, err
	l.mu.Unlock()
	close(l.done)
	l.end()
}

// closedErr is what a battle's calls return once the link has ended.
func (l *Link) closedErr() error {
	if err := l.Err(); errors.Is(err, bot.ErrClosed) {
		return err
	} else if err != nil {
		return fmt.Errorf("%w: %w", bot.ErrClosed, err)
	}
	return bot.ErrClosed
}

// Close ends the link.
func (l *Link) Close() { l.fail(bot.ErrClosed) }

// CloseWith ends the link because its stream's owner ended it for reason
// err (the session hung up, the server stops): the battle that held it
// reads that its connection ended, and why. err is wrapped in
// bot.ErrClosed when it is not one.
func (l *Link) CloseWith(err error) {
	if !errors.Is(err, bot.ErrClosed) {
		err = fmt.Errorf("%w: its connection ended (%w)", bot.ErrClosed, err)
	}
	l.fail(err)
}

// Done is closed when the link has ended.
func (l *Link) Done() <-chan struct{} { return l.done }

// Err is why the link ended (nil while it lasts).
func (l *Link) Err() error {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.err
}

// Busy says whether a battle holds the link.
func (l *Link) Busy() bool {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.busy
}

// Claim gives a battle the link as a bot.Conn; the Conn's Close gives it
// back.
func (l *Link) Claim() (bot.Conn, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	switch {
	case l.closed:
		return nil, fmt.Errorf("%w: %w", bot.ErrClosed, l.err) // l.mu held: not closedErr
	case l.busy:
		return nil, ErrBusy
	}
	c := &conn{l: l, stop: make(chan struct{}), awaitReady: true}
	l.busy, l.held, l.idle = true, c.stop, 0
	return c, nil
}

// conn is one battle's use of a link.
type conn struct {
	l          *Link
	stop       chan struct{} // closed by Close
	once       sync.Once
	awaitReady bool // drop lines until the battle's ready
	buf        []byte
}

func (c *conn) Send(line []byte) error {
	select {
	case <-c.stop:
		return bot.ErrClosed
	case <-c.l.done:
		return c.l.closedErr()
	default:
	}
	if bytes.HasPrefix(line, []byte(`{"type":"hello"`)) {
		c.awaitReady = true
	}
	// The caller may reuse line once Send returns, which may be before
	// the writer is done with it: the writer gets a copy.
	msg := make([]byte, 0, len(line)+1)
	msg = append(append(msg, line...), '\n')
	for handed := false; !handed; {
		select {
		case c.l.out <- msg:
			handed = true
		case <-c.l.wrote:
			// The result of a message whose Send gave up (its battle
			// closed): nobody needs it.
		case <-c.stop:
			return bot.ErrClosed
		case <-c.l.done:
			return c.l.closedErr()
		}
	}
	// The writer delivers results in order and took this message idle:
	// the next result is this message's.
	select {
	case err := <-c.l.wrote:
		return err // nil, or already an ErrClosed
	case <-c.stop:
		return bot.ErrClosed
	case <-c.l.done:
		return c.l.closedErr()
	}
}

func (c *conn) Receive(deadline time.Time) ([]byte, error) {
	var timeout <-chan time.Time
	if !deadline.IsZero() {
		t := time.NewTimer(time.Until(deadline))
		defer t.Stop()
		timeout = t.C
	}
	for {
		// A line already there counts, even past the deadline.
		var line []byte
		select {
		case line = <-c.l.lines:
		default:
			select {
			case line = <-c.l.lines:
			case <-timeout:
				return nil, bot.ErrLate
			case <-c.stop:
				return nil, bot.ErrClosed
			case <-c.l.done:
				return nil, c.l.closedErr()
			}
		}
		if c.awaitReady {
			if !isReady(line) {
				continue // the previous battle's leftovers
			}
			c.awaitReady = false
		}
		c.buf = append(c.buf[:0], line...)
		return c.buf, nil
	}
}

// isReady says whether line is a ready message.
func isReady(line []byte) bool {
	var m struct {
		Type string `json:"type"`
	}
	return json.Unmarshal(line, &m) == nil && m.Type == "ready"
}

// Close gives the link back for the next battle (the link itself stays).
func (c *conn) Close() error {
	c.once.Do(func() {
		c.l.mu.Lock()
		c.l.busy, c.l.held = false, nil
		c.l.mu.Unlock()
		close(c.stop)
	})
	return nil
}
