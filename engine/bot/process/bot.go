package process

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"os/exec"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/squarebattle/squarebattle/engine/bot"
	"github.com/squarebattle/squarebattle/engine/oslimit"
)

// Bot is one running bot (or, with Options.Connect, one connection to a
// bot someone else runs). It implements bot.Conn.
//
// Concurrency: one goroutine at a time calls Send, SetSendDeadline and
// Receive (the team's controller); Close may be called from any goroutine
// at any time, also while Send or Receive is blocked, which it then ends
// (they return an error wrapping bot.ErrClosed).
type Bot struct {
	o Options
	// cmd is the launcher, the bot's reaper (on Linux), or the bot's
	// process (elsewhere); nil for Connect.
	cmd   *exec.Cmd
	in    deadlineWriter
	lines lineReader
	// closers are closed by Close after the process is gone: the read
	// end of stdout, the connection, the listener.
	closers []io.Closer
	logR    *os.File      // read end of the log pipe; nil for Connect
	exited  chan struct{} // closed when the bot's own process has ended (or its reaper)
	done    chan struct{} // closed when cmd is reaped: nothing of the bot runs
	logged  chan struct{} // closed when the log copier is done
	status  string        // how the bot's own process ended, from its reaper; set before exited closes

	control     *os.File // the reaper's control pipe: closing it ends the bot's tree
	endOnce     sync.Once
	cgroup      *cgroup // nil: none
	inCgroup    bool    // the reaper, so the tree, is in cgroup
	containment string

	sendDeadline time.Time
	sendBuf      []byte // line and newline, reused
	broken       error  // why Send can no longer be used

	failed    atomic.Pointer[error] // why Receive can no longer be used
	closing   atomic.Bool           // Close has begun
	closeOnce sync.Once
}

var _ bot.Conn = (*Bot)(nil)

// deadlineWriter is where the engine's lines go: the write end of the
// bot's stdin pipe, or its TCP connection.
type deadlineWriter interface {
	io.Writer
	SetWriteDeadline(t time.Time) error
}

// ErrNotReading is wrapped by Send's error when the bot does not take
// the line in time: it stopped reading its input, whose pipe or socket
// buffer is full. If part of the line went out, the stream is cut and
// every later Send fails too.
var ErrNotReading = errors.New("bot does not read its input")

// ClosedError says the bot's output ended: EOF, the process died, or
// Close was called. It wraps bot.ErrClosed.
type ClosedError struct {
	// Exit says how the process ended ("exit status 3", "signal:
	// killed"), when it had within a moment of the end of its output; ""
	// when it is still running or there is no process (Connect).
	Exit string
	// Partial is the length of a last line the bot began without ending
	// it with a newline before its output ended: it is dropped, never
	// handed on as a line (a cut JSON text may still parse).
	Partial int
}

func (e *ClosedError) Error() string {
	s := bot.ErrClosed.Error()
	if e.Exit != "" {
		s += " (" + e.Exit + ")"
	}
	if e.Partial > 0 {
		s += fmt.Sprintf("; a last line of %d bytes without a newline was dropped", e.Partial)
	}
	return s
}

func (e *ClosedError) Unwrap() error { return bot.ErrClosed }

// SetSendDeadline bounds the Sends that follow until it is changed; the
// zero time goes back to Options.SendTimeout per Send. A deadline already
// past fails a Send at once, even when the bot would take the line.
func (b *Bot) SetSendDeadline(t time.Time) { b.sendDeadline = t }

// Send writes line and a newline. It returns an error wrapping
// ErrNotReading when the bot has not taken it by the deadline
// (SetSendDeadline, or Options.SendTimeout from now), and one wrapping
// bot.ErrClosed when the bot's input is closed or it is gone. line must
// not hold a newline.
func (b *Bot) Send(line []byte) error {
	if b.broken != nil {
		return b.broken
	}
	if bytes.IndexByte(line, '\n') >= 0 {
		return errors.New("bot: a line to send holds a newline")
	}
	d := b.sendDeadline
	if d.IsZero() && b.o.SendTimeout > 0 {
		d = time.Now().Add(b.o.SendTimeout)
	}
	if err := b.in.SetWriteDeadline(d); err != nil {
		return b.sendFailed(0, err)
	}
	// One write of line and newline, so a bot never sees half a line
	// when the pipe has room for the whole.
	b.sendBuf = append(append(b.sendBuf[:0], line...), '\n')
	n, err := b.in.Write(b.sendBuf)
	if cap(b.sendBuf) > 1<<20 {
		b.sendBuf = nil // one hello of a big arena need not stay
	}
	if err != nil {
		return b.sendFailed(n, err)
	}
	return nil
}

func (b *Bot) sendFailed(written int, err error) error {
	var e error
	switch {
	case errors.Is(err, os.ErrDeadlineExceeded):
		e = fmt.Errorf("%w (%d bytes of the line taken)", ErrNotReading, written)
		if written == 0 {
			return e // the stream is whole: a later Send may succeed
		}
	case b.closing.Load(), errors.Is(err, syscall.EPIPE), errors.Is(err, syscall.ECONNRESET),
		errors.Is(err, os.ErrClosed), errors.Is(err, net.ErrClosed), errors.Is(err, io.ErrClosedPipe):
		e = &ClosedError{Exit: b.exitState()}
	default:
		e = fmt.Errorf("bot: send: %w", err)
	}
	b.broken = e
	return e
}

// Receive returns the bot's next line (without its newline; a copy the
// caller keeps). At the deadline it returns bot.ErrLate and consumes
// nothing: the bot lives on, and a line it finishes later is the next
// Receive's (the caller skips it as stale). A zero deadline waits for
// ever. A line over Options.MaxLine returns bot.ErrLineTooLong and kills
// the bot; the end of its output returns a *ClosedError. After either,
// every Receive returns the same.
func (b *Bot) Receive(deadline time.Time) ([]byte, error) {
	if p := b.failed.Load(); p != nil {
		return nil, *p
	}
	line, partial, err := b.lines.next(deadline)
	switch {
	case err == nil:
		return bytes.Clone(line), nil
	case err == errLate:
		return nil, bot.ErrLate
	case err == errTooLong:
		err = fmt.Errorf("%w (over %d bytes)", bot.ErrLineTooLong, b.o.MaxLine)
		b.kill()
	default:
		err = &ClosedError{Exit: b.exitState(), Partial: partial}
	}
	b.failed.Store(&err)
	return nil, err
}

// exitState is how the process ended, if it has within a moment.
func (b *Bot) exitState() string {
	if b.cmd == nil {
		return ""
	}
	select {
	case <-b.exited:
	case <-time.After(100 * time.Millisecond):
		return ""
	}
	if b.status != "" {
		return b.status
	}
	select {
	case <-b.done:
		return b.cmd.ProcessState.String()
	case <-time.After(100 * time.Millisecond):
		return ""
	}
}

// kill ends the bot and everything it started at once (or, for Connect,
// the connection); Close still reaps it.
func (b *Bot) kill() {
	if b.cmd != nil {
		b.end()
		return
	}
	for _, c := range b.closers {
		_ = c.Close()
	}
}

// end tells the reaper to kill the bot's whole tree (on Linux; elsewhere
// it kills the bot's process). It does not wait.
func (b *Bot) end() {
	b.endOnce.Do(func() {
		if b.control == nil {
			oslimit.Kill(b.cmd)
			return
		}
		_ = b.control.Close()
		wake(b.cmd.Process)
	})
}

// reapTimeout bounds how long Close waits for the reaper to have killed
// the bot's tree before it kills the reaper itself (one a bot of the same
// user stopped or hangs; the cgroup, if any, then still holds the tree).
const reapTimeout = 5 * time.Second

// Containment says what holds the bot's processes: on Linux "subreaper
// and cgroup DIR", or "subreaper (no cgroup: WHY)" where no cgroup v2 is
// mounted or this program may not make one; elsewhere "its process
// only"; "" for Connect.
func (b *Bot) Containment() string { return b.containment }

// dropCgroup removes the bot's cgroup before anything ran in it.
func (b *Bot) dropCgroup() {
	if b.cgroup != nil {
		_ = b.cgroup.remove(0)
		b.cgroup = nil
	}
}

// Close ends the bot: it closes the bot's input, gives it Options.Grace to
// exit, then kills every process the bot started and is still running,
// also those that left its process group or session or whose parent
// exited (its reaper kills its tree; its cgroup, when it has one, is
// killed after), waits for them to be gone, and closes every descriptor.
// It waits until the log copier has written its last line. Safe to call
// more than once and from any goroutine; it always returns nil (the bot's
// fate is Receive's to report).
//
// What Close cannot reach, without a cgroup: the descendants of a bot of
// this program's user that killed its own reaper (they go to init). Run
// bots as a user of their own (Options.RunAs) where that matters.
func (b *Bot) Close() error {
	b.closeOnce.Do(b.close)
	return nil
}

func (b *Bot) close() {
	b.closing.Store(true)
	if c, ok := b.in.(interface{ CloseWrite() error }); ok && b.cmd != nil {
		_ = c.CloseWrite() // TCP: the bot sees its input end
	} else if c, ok := b.in.(io.Closer); ok && b.cmd != nil {
		_ = c.Close()
	}
	if b.cmd != nil {
		select {
		case <-b.exited:
		case <-time.After(b.o.Grace):
		}
		b.end()
		select {
		case <-b.done:
		case <-time.After(reapTimeout):
			oslimit.Kill(b.cmd) // the reaper does not answer
			<-b.done
		}
		if b.cgroup != nil {
			b.cgroup.kill()
			if err := b.cgroup.remove(reapTimeout); err != nil {
				b.note(fmt.Sprintf("(the bot's cgroup stays: %v)", err))
			}
		}
	}
	if c, ok := b.in.(io.Closer); ok {
		_ = c.Close()
	}
	for _, c := range b.closers {
		_ = c.Close()
	}
	if b.logR != nil {
		// The tree is dead, so the log pipe ends as soon as the copier
		// has read what is left; a process that escaped it (see above)
		// may still hold it open, so do not wait for ever.
		select {
		case <-b.logged:
		case <-time.After(b.o.Grace):
			_ = b.logR.Close()
			<-b.logged
		}
		_ = b.logR.Close()
	}
}
