package bot

import (
	"errors"
	"time"
)

// Conn is one connected bot: lines of JSON text, one message a line, no newline in the slices.
type Conn interface {
	Send(line []byte) error                     // writes line + "\n"; never blocks past the deadline set by SetDeadline
	Receive(deadline time.Time) ([]byte, error) // next line; zero deadline = wait forever (--no-timeout)
	Close() error                               // ends the bot: kills its whole process group, closes sockets; idempotent
}

var ErrLate = errors.New("bot answered too late")    // Receive past deadline (the bot is still alive; its late line is skipped later)
var ErrLineTooLong = errors.New("bot line too long") // a line over MaxLine bytes (connection is then unusable)
var ErrClosed = errors.New("bot closed its output")  // EOF / process died
const MaxLine = 1 << 20                              // bytes per line (a 64x64 arena's full answer fits comfortably)
