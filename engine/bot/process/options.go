package process

import (
	"errors"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/squarebattle/squarebattle/engine/bot"
)

// Transports: how the engine and a bot exchange lines.
const (
	// Stdio: the bot reads the engine's lines on its stdin and writes its
	// own on its stdout; its stderr goes to the log.
	Stdio = "stdio"
	// TCP: one loopback connection. The engine listens on 127.0.0.1 and
	// starts the bot with ADDRESS PORT TEAM appended to its arguments, or,
	// with Options.Connect, connects to a bot already listening. The bot's
	// stdout and stderr both go to the log.
	TCP = "tcp"
)

// Options say which bot to start and how to talk to it. Zero fields take
// the defaults named on each.
type Options struct {
	// Command is the bot's argv, run without a shell. A first word without
	// a slash is looked up in this program's PATH; one with a slash that
	// is relative is taken relative to Dir.
	Command []string
	// Dir is the bot's working directory ("" = this program's).
	Dir string
	// Env is added to the bot's environment, which is otherwise only PATH
	// (this program's) and LANG=C.UTF-8: nothing else of the operator's
	// environment reaches a bot. Entries are KEY=VALUE.
	Env []string
	// Transport is Stdio (default) or TCP.
	Transport string
	// Connect is the address ("127.0.0.1:PORT", loopback only) of a bot
	// already listening: no process is started, so Limits do not apply.
	// TCP only.
	Connect string
	// Team is the bot's team index, passed to a TCP bot as its argument.
	Team int
	// Limits bound the bot's process and everything it starts.
	Limits Limits
	// RunAs, when not nil, runs the bot as this user and group (this
	// program must then be root): the way to give bots a process count
	// and files of their own (see Limits.Processes).
	RunAs *User
	// Launcher starts the program that sets the limits on itself and then
	// becomes the bot (LauncherMain): default this executable with the
	// hidden subcommand LauncherCommand. A test binary that starts bots
	// must handle that subcommand in its TestMain.
	Launcher []string
	// Log receives the bot's stderr (and, over TCP, its stdout), one line
	// at a time, made safe for a terminal (engine.SafeLine), each line cut
	// at MaxLogLine bytes. It is written from a goroutine of the Bot's own
	// until Close returns, never after, so it must not block for long (a
	// buffer or a file): Close waits for the last write. nil: the output
	// is read and dropped.
	Log io.Writer
	// LogBytes caps what Log receives over the bot's life (default
	// DefaultLogBytes); the rest is counted and dropped, with one note when
	// the cap is reached and one at Close saying how much was dropped.
	LogBytes int
	// MaxLine bounds a line the bot sends, in bytes without the newline
	// (default bot.MaxLine, at most 64 MiB).
	MaxLine int
	// InitTimeout bounds how long a TCP bot may take to connect, or a
	// Connect to succeed (default 10 s).
	InitTimeout time.Duration
	// SendTimeout bounds each Send when no SetSendDeadline is in force
	// (default 5 s; negative: none, for --no-timeout).
	SendTimeout time.Duration
	// Grace is how long Close waits for the bot to exit after its input
	// closes before it kills the process group (default 1 s, as
	// docs/bots.md promises bots).
	Grace time.Duration
}

// User is a numeric user and group to run a bot as.
type User struct{ UID, GID uint32 }

// Defaults.
const (
	DefaultLogBytes    = 64 << 10
	DefaultInitTimeout = 10 * time.Second
	DefaultSendTimeout = 5 * time.Second
	DefaultGrace       = time.Second
	// MaxLogLine is where a log line is cut.
	MaxLogLine = 240
	// maxMaxLine bounds Options.MaxLine: the line buffer is allocated up
	// to it.
	maxMaxLine = 64 << 20
)

// ErrOptions is wrapped by every error Start returns for options it
// refuses, before anything runs.
var ErrOptions = errors.New("bot options")

// withDefaults checks o and fills its zero fields.
func (o Options) withDefaults() (Options, error) {
	bad := func(format string, a ...any) (Options, error) {
		return o, fmt.Errorf("%w: %s", ErrOptions, fmt.Sprintf(format, a...))
	}
	switch o.Transport {
	case "":
		o.Transport = Stdio
	case Stdio, TCP:
	default:
		return bad("transport %q is neither %q nor %q", o.Transport, Stdio, TCP)
	}
	if o.Connect != "" && o.Transport != TCP {
		return bad("connect needs transport %q", TCP)
	}
	if o.Connect == "" && len(o.Command) == 0 {
		return bad("no command")
	}
	for _, a := range o.Command {
		if strings.IndexByte(a, 0) >= 0 {
			return bad("a command word holds a NUL byte")
		}
	}
	for _, e := range o.Env {
		if k, _, ok := strings.Cut(e, "="); !ok || k == "" || strings.IndexByte(e, 0) >= 0 {
			return bad("environment entry %q is not KEY=VALUE", e)
		}
	}
	if o.RunAs != nil && !launched {
		return bad("run as another user needs Linux")
	}
	if o.Team < 0 {
		return bad("team %d", o.Team)
	}
	if err := o.Limits.check(); err != nil {
		return bad("%v", err)
	}
	switch {
	case o.MaxLine == 0:
		o.MaxLine = bot.MaxLine
	case o.MaxLine < 0 || o.MaxLine > maxMaxLine:
		return bad("max line %d is not in 1..%d", o.MaxLine, maxMaxLine)
	}
	if o.LogBytes == 0 {
		o.LogBytes = DefaultLogBytes
	}
	if o.InitTimeout <= 0 {
		o.InitTimeout = DefaultInitTimeout
	}
	if o.SendTimeout == 0 {
		o.SendTimeout = DefaultSendTimeout
	}
	if o.Grace <= 0 {
		o.Grace = DefaultGrace
	}
	return o, nil
}
