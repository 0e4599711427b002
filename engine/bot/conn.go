// Package bot speaks the bot protocol (docs/bots.md): newline-delimited
// JSON between the engine and a team's external program. It holds the
// messages, the SquareBattle Controller and the rule-mod Caller that talk
// to a bot over a Conn. It does no I/O of its own: how a bot is started and
// reached (a process's pipes, a TCP connection) is package bot/process,
// behind Conn, so the protocol is tested over in-process pipes as well as
// real programs.
package bot

import (
	"errors"
	"time"
)

// Conn is one connected bot: lines of JSON text, one message a line, no
// newline in the slices.
//
// Concurrency: Send and Receive are called from one goroutine at a time
// (the team's exchange), never both at once; Close may be called from any
// goroutine at any time, also while Send or Receive is blocked, and makes
// them return (with ErrClosed or another error) promptly.
type Conn interface {
	// Send writes line and a newline. It may block while the bot does not
	// read; Close unblocks it.
	Send(line []byte) error
	// Receive returns the next line, without its newline. Past deadline
	// it returns ErrLate (the bot may still answer later: the line then
	// comes out of a later Receive). A zero deadline waits forever
	// (--no-timeout). The returned slice is valid until the next call.
	Receive(deadline time.Time) ([]byte, error)
	// Close ends the bot: kills its whole process group and closes its
	// pipes or socket. It is idempotent.
	Close() error
}

// Errors a Conn returns. Implementations wrap them (errors.Is) to add what
// happened, such as the exit status of a bot that died.
var (
	// ErrLate: Receive's deadline passed before a whole line came. The
	// bot is still alive; its late line is skipped later.
	ErrLate = errors.New("bot answered too late")
	// ErrLineTooLong: a line over MaxLine bytes. The connection is then
	// unusable (the rest of the line cannot be told from the next one).
	ErrLineTooLong = errors.New("bot line too long")
	// ErrClosed: the bot closed its output (end of file) or its process
	// died, or Close was called.
	ErrClosed = errors.New("bot closed its output")
)

// MaxLine bounds a line in bytes, newline excluded: a 64×64 arena's full
// round message or answer fits many times over, and a bot that writes
// more cannot make the engine buffer it.
const MaxLine = 1 << 20
