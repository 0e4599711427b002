package process

import (
	"bytes"
	"errors"
	"io"
	"os"
	"time"
)

// deadlineReader is what a bot's lines come from: the read end of its
// stdout pipe, or its TCP connection. Both wait in the runtime's poller,
// so a read deadline wakes a blocked Read without a goroutine, and a
// Close from another goroutine ends it.
type deadlineReader interface {
	io.Reader
	SetReadDeadline(t time.Time) error
}

// lineReader splits what a bot sends into lines of at most max bytes.
// A read that times out consumes nothing: bytes that arrived stay in buf,
// so a line that comes late is whole when the next call reads on. One
// goroutine calls next at a time.
type lineReader struct {
	r          deadlineReader
	max        int
	buf        []byte
	start, end int // buffered bytes are buf[start:end]
	scanned    int // buf[start:start+scanned] holds no newline
}

// errLate and errTooLong are what next reports; the Bot turns them into
// the bot package's errors.
var (
	errLate    = errors.New("late")
	errTooLong = errors.New("too long")
)

// next returns the next line, without its newline (nor a carriage return
// before it), as a slice that stays valid until the next call. When the
// stream ends, it returns io.EOF (or the read's error) and the number of
// bytes of an unfinished last line, which are dropped: a line counts only
// with its newline, since a cut JSON text may still parse (a number, or a
// truncated list that happens to close).
//
// A call made after its deadline still returns a line that is already
// there, whole, in the pipe or socket: the deadline measures the bot, and
// an engine that looks late (a busy machine, other teams first) must not
// turn an answer given in time into a late one.
func (l *lineReader) next(deadline time.Time) ([]byte, int, error) {
	passed := !deadline.IsZero() && !time.Now().Before(deadline)
	if passed {
		deadline = time.Time{} // readNow never waits
	}
	if err := l.r.SetReadDeadline(deadline); err != nil {
		return nil, 0, err
	}
	for {
		if i := bytes.IndexByte(l.buf[l.start+l.scanned:l.end], '\n'); i >= 0 {
			n := l.scanned + i
			line := l.buf[l.start : l.start+n]
			l.start += n + 1
			l.scanned = 0
			if n > l.max {
				return nil, 0, errTooLong
			}
			if k := len(line); k > 0 && line[k-1] == '\r' {
				line = line[:k-1]
			}
			return line, 0, nil
		}
		l.scanned = l.end - l.start
		if l.scanned > l.max {
			return nil, 0, errTooLong
		}
		l.make()
		var n int
		var err error
		if passed {
			n, err = readNow(l.r, l.buf[l.end:])
		} else {
			n, err = l.r.Read(l.buf[l.end:])
		}
		l.end += n
		if n > 0 {
			continue
		}
		switch {
		case err == errLate, errors.Is(err, os.ErrDeadlineExceeded):
			return nil, 0, errLate
		case err != nil:
			return nil, l.end - l.start, err
		}
	}
}

// readChunk is how much a read asks for at least.
const readChunk = 64 << 10

// make moves the buffered bytes to the front and grows buf so that a read
// has room, never beyond what a line of max bytes and its newline need
// plus one chunk.
func (l *lineReader) make() {
	if l.start > 0 {
		l.end = copy(l.buf, l.buf[l.start:l.end])
		l.start = 0
	}
	if len(l.buf)-l.end >= readChunk/4 {
		return
	}
	size := max(2*len(l.buf), readChunk)
	size = min(size, l.max+1+readChunk)
	if size <= len(l.buf) {
		return // full size: at least a chunk is free (end <= max)
	}
	b := make([]byte, size)
	copy(b, l.buf[:l.end])
	l.buf = b
}
