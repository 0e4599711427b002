package ssh

import (
	"errors"
	"io"
	"sync"
	"sync/atomic"
	"time"
	"unicode/utf8"

	"github.com/gdamore/tcell/v2"
	gssh "github.com/gliderlabs/ssh"

	"github.com/squarebattle/squarebattle/tui"
)

// Window sizes past these are clamped: tcell keeps a cell per column and
// row, so a client claiming 100,000×100,000 would otherwise cost gigabytes.
const (
	maxCols = 512
	maxRows = 256
)

// clampWindow bounds a client's window; 0 (unknown) becomes 80×24.
func clampWindow(w, h int) (int, int) {
	if w <= 0 {
		w = 80
	}
	if h <= 0 {
		h = 24
	}
	return min(w, maxCols), min(h, maxRows)
}

// tty is a tcell.Tty over one SSH session channel.
//
// Input: a goroutine (pump) copies the channel into an io.Pipe that tcell
// reads. Drain and Close close the pipe, so tcell's reader wakes up and
// Fini returns even though a channel read cannot be interrupted; the pump
// ends when the channel does. Every read from the client stamps lastInput,
// which the session's idle watch reads.
//
// Window changes: gliderlabs sends them on a one-slot channel with a
// blocking send from the goroutine that serves the session's requests, so
// a goroutine (watchWindow) receives them as they come and keeps only the
// latest, clamped.
//
// Output: Write hands the bytes to the channel with a deadline; a write
// that has not finished in time (the client stopped reading and the SSH
// window is shut) calls drop, which closes the connection and so unblocks
// the write. Safe for use by tcell's goroutines and the session's.
type tty struct {
	sess     gssh.Session
	pr       *io.PipeReader
	pw       *io.PipeWriter
	deadline time.Duration
	drop     func(reason string)
	ascii    bool

	lastInput atomic.Int64 // unix nanoseconds
	inBytes   atomic.Int64
	outBytes  atomic.Int64

	mu       sync.Mutex
	w, h     int
	onResize func()
	carry    []byte // an incomplete UTF-8 sequence held back by an ASCII session

	scr       tcell.Screen // the screen over this tty, for draining its events
	drainOnce sync.Once
	draining  atomic.Bool
	finished  chan struct{} // closed once the session's screen is finalised
}

func newTty(sess gssh.Session, win gssh.Window, winch <-chan gssh.Window, deadline time.Duration, ascii bool, drop func(string)) *tty {
	pr, pw := io.Pipe()
	t := &tty{sess: sess, pr: pr, pw: pw, deadline: deadline, drop: drop, ascii: ascii, finished: make(chan struct{})}
	t.w, t.h = clampWindow(win.Width, win.Height)
	t.lastInput.Store(openedAt(sess).UnixNano()) // the idle clock runs from the channel's opening
	go t.pump()
	go t.watchWindow(winch)
	return t
}

func (t *tty) pump() {
	buf := make([]byte, 4096)
	for {
		n, err := t.sess.Read(buf)
		if n > 0 {
			t.lastInput.Store(time.Now().UnixNano())
			t.inBytes.Add(int64(n))
			if _, werr := t.pw.Write(buf[:n]); werr != nil {
				return
			}
		}
		if err != nil {
			t.pw.CloseWithError(io.EOF)
			return
		}
	}
}

// resizeGap is the shortest time between two resize notifications to
// tcell: each makes tcell start a goroutine that posts an event, so a
// storm of window changes is coalesced (the latest size always arrives).
const resizeGap = 20 * time.Millisecond

func (t *tty) watchWindow(winch <-chan gssh.Window) {
	var last time.Time
	var pending *time.Timer
	notify := func() {
		t.mu.Lock()
		cb := t.onResize
		t.mu.Unlock()
		if cb != nil {
			cb() // tcell's callback never blocks: a one-slot queue it skips when full
		}
	}
	for win := range winch {
		w, h := clampWindow(win.Width, win.Height)
		t.mu.Lock()
		changed := w != t.w || h != t.h
		t.w, t.h = w, h
		t.mu.Unlock()
		switch {
		case !changed:
		case time.Since(last) >= resizeGap:
			last = time.Now()
			notify()
		case pending == nil || !pending.Stop():
			pending = time.AfterFunc(resizeGap, notify)
		default:
			pending.Reset(resizeGap)
		}
	}
	if pending != nil {
		pending.Stop()
	}
}

// Idle is how long since the client last sent a byte.
func (t *tty) Idle() time.Duration {
	return time.Since(time.Unix(0, t.lastInput.Load()))
}

func (t *tty) Start() error { return nil }
func (t *tty) Stop() error  { return nil }

// Drain wakes tcell's reader: the pipe is closed for good (a session's
// screen is never resumed). tcell's Fini then waits for its input
// goroutines, which may be stuck posting to a full event queue (a client
// typing or resizing while the session stopped reading events), so Drain
// also empties that queue until the screen is finalised (finish).
func (t *tty) Drain() error {
	t.draining.Store(true)
	t.pr.CloseWithError(io.EOF)
	t.drainOnce.Do(func() {
		if t.scr == nil {
			return
		}
		go func() {
			grace := time.NewTimer(time.Hour)
			defer grace.Stop()
			finished := t.finished
			for {
				select {
				case <-finished:
					// tcell may still post a resize it started before; take
					// those for a moment more.
					grace.Reset(50 * time.Millisecond)
					finished = nil
				case <-grace.C:
					return
				default:
				}
				if t.scr.PollEvent() == nil { // finalised and nothing queued
					time.Sleep(time.Millisecond)
				}
			}
		}()
	})
	return nil
}

// finish is called once the session's screen is finalised.
func (t *tty) finish() {
	select {
	case <-t.finished:
	default:
		close(t.finished)
	}
}

func (t *tty) Close() error {
	t.pr.CloseWithError(io.EOF)
	return nil
}

func (t *tty) NotifyResize(cb func()) {
	t.mu.Lock()
	t.onResize = cb
	t.mu.Unlock()
}

func (t *tty) WindowSize() (tcell.WindowSize, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	return tcell.WindowSize{Width: t.w, Height: t.h}, nil
}

// maxChunk bounds what one Read hands tcell: each byte may become an event.
const maxChunk = 64

// Read hands tcell the client's input, but only once the session has
// taken every event already queued. tcell's input goroutines block when
// its event queue (256) is full, and its Fini waits for them; a client
// typing faster than the session reads events would otherwise wedge the
// screen for good when the session ends. With at most maxChunk bytes in
// flight beyond an empty queue, the queue cannot fill. (Keys a flooding
// client types meanwhile wait in the pipe and the SSH window.)
func (t *tty) Read(p []byte) (int, error) {
	if t.scr != nil {
		for t.scr.HasPendingEvent() {
			if t.draining.Load() {
				return 0, io.EOF
			}
			time.Sleep(2 * time.Millisecond)
		}
	}
	if len(p) > maxChunk {
		p = p[:maxChunk]
	}
	return t.pr.Read(p)
}

// errWriteTimeout is what a write that ran past the deadline returns.
var errWriteTimeout = errors.New("write to client timed out")

// Write sends p to the client, or gives up after the deadline and drops
// the session.
func (t *tty) Write(p []byte) (int, error) {
	n := len(p)
	if t.ascii {
		p = t.toASCII(p)
	}
	if err := writeWithin(t.sess, p, t.deadline, func() {
		t.drop("the client stopped reading: a write took longer than the write timeout")
	}); err != nil {
		return 0, err
	}
	t.outBytes.Add(int64(len(p)))
	return n, nil
}

// writeWithin writes p to w; when the write has not returned after d, it
// calls drop (which must make the write return, by closing the
// connection) and reports errWriteTimeout.
func writeWithin(w io.Writer, p []byte, d time.Duration, drop func()) error {
	var late atomic.Bool
	timer := time.AfterFunc(d, func() {
		late.Store(true)
		drop()
	})
	_, err := w.Write(p)
	timer.Stop()
	if late.Load() {
		return errWriteTimeout
	}
	return err
}

// deadlineWriter is an io.Writer over writeWithin.
type deadlineWriter struct {
	w    io.Writer
	d    time.Duration
	drop func()
}

func (dw deadlineWriter) Write(p []byte) (int, error) {
	if err := writeWithin(dw.w, p, dw.d, dw.drop); err != nil {
		return 0, err
	}
	return len(p), nil
}

// toASCII replaces what is not ASCII with the UI's stand-ins
// (tui.ASCIIFallback: the same one column), else tcell's (box drawing
// becomes + - |), else '?', for clients whose locale is not UTF-8. tcell
// decides its charset once for the whole process, from the server's
// environment; this decides it for each session, from the client's.
func (t *tty) toASCII(p []byte) []byte {
	t.mu.Lock()
	defer t.mu.Unlock()
	if len(t.carry) > 0 {
		p = append(t.carry, p...)
		t.carry = nil
	}
	out := make([]byte, 0, len(p))
	for i := 0; i < len(p); {
		c := p[i]
		if c < utf8.RuneSelf {
			out = append(out, c)
			i++
			continue
		}
		if !utf8.FullRune(p[i:]) {
			t.carry = append([]byte(nil), p[i:]...)
			break
		}
		r, size := utf8.DecodeRune(p[i:])
		i += size
		if fb, ok := tui.ASCIIFallback(r); ok {
			out = append(out, fb...)
		} else if fb, ok := tcell.RuneFallbacks[r]; ok && len(fb) == 1 {
			out = append(out, fb...)
		} else {
			out = append(out, '?')
		}
	}
	return out
}

// atomicTime is a time many goroutines stamp and read.
type atomicTime struct{ ns atomic.Int64 }

func (a *atomicTime) touch() { a.ns.Store(time.Now().UnixNano()) }

func (a *atomicTime) since() time.Duration { return time.Since(time.Unix(0, a.ns.Load())) }
