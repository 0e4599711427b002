package ssh

import (
	"io"
	"sync"
	"sync/atomic"
	"time"

	gossh "golang.org/x/crypto/ssh"
)

// dropExtended reads what the client sends on a channel as extended data
// (SSH_MSG_CHANNEL_EXTENDED_DATA, a client's "stderr"; no client sends it
// on a session, and no command reads it) and throws it away, until the
// channel ends. x/crypto keeps every such packet, unread, for the
// channel's life, up to its 2 MiB window: a client sending one-byte
// packets made it hold about 48 bytes of heap per byte, some 100 MB a
// channel.
func dropExtended(ch gossh.Channel) {
	buf := make([]byte, 1024)
	for {
		if _, err := ch.Stderr().Read(buf); err != nil {
			return
		}
	}
}

// inbox reads a channel's stdin as it arrives (so x/crypto never holds a
// window of it) and keeps what the session has not read yet, at most
// limit bytes; past that, over is called once with the limit's error,
// which Read returns after the bytes before it, and the rest is thrown
// away. Limit 0 throws everything away. Its buffer grows with what it
// holds, never past the limit.
type inbox struct {
	ch   gossh.Channel
	over func(error)
	last atomic.Int64 // unix nanoseconds of the latest input

	mu      sync.Mutex
	cond    sync.Cond
	buf     []byte
	head    int
	limit   int
	overErr error // the limit's error, for over
	err     error // what Read returns once buf is empty
	tossing bool  // past the limit, or nobody reads: keep nothing
}

// inboxChunk is what the inbox reads from x/crypto at a time.
const inboxChunk = 8 << 10

func newInbox(ch gossh.Channel, limit int, over func(error)) *inbox {
	in := &inbox{ch: ch, over: over, limit: limit, overErr: errInputFlood}
	in.cond.L = &in.mu
	in.last.Store(time.Now().UnixNano())
	go in.pump()
	return in
}

func (in *inbox) pump() {
	chunk := make([]byte, inboxChunk)
	for {
		n, err := in.ch.Read(chunk)
		if n > 0 {
			in.last.Store(time.Now().UnixNano())
			in.put(chunk[:n])
		}
		if err != nil {
			in.mu.Lock()
			if in.err == nil {
				in.err = io.EOF
			}
			in.cond.Broadcast()
			in.mu.Unlock()
			return
		}
	}
}

func (in *inbox) put(p []byte) {
	in.mu.Lock()
	if in.tossing {
		in.mu.Unlock()
		return
	}
	held := len(in.buf) - in.head
	if held+len(p) > in.limit {
		in.tossing = true
		var over error
		if in.limit > 0 {
			over = in.overErr
			if in.err == nil {
				in.err = over
			}
		}
		in.cond.Broadcast()
		in.mu.Unlock()
		if over != nil && in.over != nil {
			in.over(over)
		}
		return
	}
	if in.head > 0 && len(in.buf)+len(p) > cap(in.buf) {
		in.buf = append(in.buf[:0], in.buf[in.head:]...)
		in.head = 0
	}
	if len(in.buf)+len(p) > cap(in.buf) {
		grown := make([]byte, len(in.buf), min(in.limit, max(2*cap(in.buf), len(in.buf)+len(p), 4096)))
		copy(grown, in.buf)
		in.buf = grown
	}
	in.buf = append(in.buf, p...)
	in.cond.Broadcast()
	in.mu.Unlock()
}

// command sets the limit for the channel's command; what is held already
// counts.
func (in *inbox) command(limit int, over error) {
	in.mu.Lock()
	in.limit = limit
	if over != nil {
		in.overErr = over
	}
	held := len(in.buf) - in.head
	if limit == 0 {
		in.tossing = true
		in.buf, in.head = nil, 0
	}
	in.mu.Unlock()
	if limit > 0 && held > limit {
		in.put(nil) // past it already
	}
}

// discard throws away whatever comes from here on: nobody will read it.
func (in *inbox) discard() {
	in.mu.Lock()
	in.tossing = true
	in.buf, in.head = nil, 0
	if in.err == nil {
		in.err = io.EOF
	}
	in.cond.Broadcast()
	in.mu.Unlock()
}

// Read returns held input, waiting for some; then the end or the limit's
// error.
func (in *inbox) Read(p []byte) (int, error) {
	in.mu.Lock()
	defer in.mu.Unlock()
	for in.head == len(in.buf) && in.err == nil {
		in.cond.Wait()
	}
	if in.head == len(in.buf) {
		return 0, in.err
	}
	n := copy(p, in.buf[in.head:])
	in.head += n
	if in.head == len(in.buf) {
		in.buf, in.head = in.buf[:0], 0
		if cap(in.buf) > 64<<10 { // give a large upload's buffer back
			in.buf = nil
		}
	}
	return n, nil
}

// since is how long since the latest input.
func (in *inbox) since() time.Duration {
	return time.Since(time.Unix(0, in.last.Load()))
}
