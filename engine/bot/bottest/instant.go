// Package bottest has bot connections for tests and benchmarks that play
// a bot in the engine's own process, so that what the engine spends on a
// bot can be measured without a program on the other end.
package bottest

import (
	"bytes"
	"sync/atomic"
	"time"

	"github.com/squarebattle/squarebattle/engine/bot"
)

// Instant is a bot.Conn whose bot answers at once, in the caller's
// goroutine: hello with Ready, every round message with what Answer
// appends. It counts the bytes each way as a pipe would carry them.
//
// Concurrency: as for any Conn; the counters are read once the battle is
// over.
type Instant struct {
	// Ready is the line answering hello, such as
	// {"type":"ready","protocol":2}.
	Ready []byte
	// Answer appends the answer to a round message to b; round is the
	// text of the message's round number. It may keep msg only until it
	// returns. Lines before the last (ended by a newline) come first,
	// such as a protocol-2 bot's {"type":"resync"}.
	Answer func(b, msg, round []byte) []byte

	In, Out  int64 // bytes sent to the bot and received, newlines included
	Messages int   // round messages sent

	next   []byte // the answer waiting to be read
	ready  bool   // next holds a line
	buf    []byte
	closed atomic.Bool
}

// Send takes a message of the engine and prepares the bot's answer.
func (c *Instant) Send(line []byte) error {
	if c.closed.Load() {
		return bot.ErrClosed
	}
	c.In += int64(len(line)) + 1
	switch {
	case bytes.HasPrefix(line, []byte(`{"type":"hello"`)):
		c.next, c.ready = c.Ready, true
	case bytes.HasPrefix(line, []byte(`{"type":"round"`)):
		c.Messages++
		round := RoundOf(line)
		c.buf = c.Answer(c.buf[:0], line, round)
		c.next, c.ready = c.buf, true
	case bytes.HasPrefix(line, []byte(`{"type":"end"`)):
		c.closed.Store(true) // the bot exits
	}
	return nil
}

// Receive returns the answer to the last message; a bot with nothing to
// say is late at once.
func (c *Instant) Receive(time.Time) ([]byte, error) {
	if c.closed.Load() {
		return nil, bot.ErrClosed
	}
	if !c.ready {
		return nil, bot.ErrLate
	}
	line := c.next
	if i := bytes.IndexByte(line, '\n'); i >= 0 {
		line, c.next = line[:i], line[i+1:]
	} else {
		c.ready = false
	}
	c.Out += int64(len(line)) + 1
	return line, nil
}

// Close ends the bot.
func (c *Instant) Close() error {
	c.closed.Store(true)
	return nil
}

// RoundOf is the text of a round message's round number.
func RoundOf(msg []byte) []byte {
	const key = `"round":`
	i := bytes.Index(msg, []byte(key))
	if i < 0 {
		return nil
	}
	j := i + len(key)
	k := j
	for k < len(msg) && msg[k] >= '0' && msg[k] <= '9' {
		k++
	}
	return msg[j:k]
}

// Counting is a bot.Conn that counts the bytes that pass through Conn,
// newlines included.
type Counting struct {
	bot.Conn
	In, Out atomic.Int64
}

// Send counts and sends line.
func (c *Counting) Send(line []byte) error {
	c.In.Add(int64(len(line)) + 1)
	return c.Conn.Send(line)
}

// Receive receives and counts a line.
func (c *Counting) Receive(deadline time.Time) ([]byte, error) {
	line, err := c.Conn.Receive(deadline)
	if err == nil {
		c.Out.Add(int64(len(line)) + 1)
	}
	return line, err
}
