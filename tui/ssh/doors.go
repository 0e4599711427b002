package ssh

import (
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"sync"
	"time"

	gssh "github.com/gliderlabs/ssh"
	"github.com/squarebattle/squarebattle/engine/bot"
	gossh "golang.org/x/crypto/ssh"
)

// The doors: what a connection and its session channels may hold before
// (and while) a command runs. gliderlabs' own session handler keeps every
// env request a client sends, blocks its request loop on the second
// window change until a command reads them (for good, when none does),
// and lets a channel without a command sit until the connection's
// absolute timeout; x/crypto keeps each channel's 2 MiB window of stdin
// for as long as nobody reads it, in packets as small as the client
// chose. So this package serves session channels itself (sessionChannel),
// counting before it holds anything:
//
//   - a connection holds at most Limits.ChannelsPerConn session channels,
//     and each counts in the gate (Limits.Sessions, SessionsPerIP) from
//     the moment it is asked for; both are refused before Accept;
//   - env requests are refused past Limits.EnvRequests or EnvBytes;
//   - window changes are taken as they come from the moment a pty is
//     asked for, keeping only the newest, whatever the command (or none);
//   - a channel that names no command within Limits.Command is closed,
//     and a connection that ran none within Limits.Handshake too; one left
//     with no channel is closed after Limits.Idle;
//   - stdin is read from x/crypto as it arrives into an inbox that holds
//     at most what the command takes (inputFor), so what a channel holds
//     is bytes the server means to read, never a window of tiny packets;
//   - what the client sends as extended data (its own "stderr", which no
//     command reads) is read and thrown away as it arrives (dropExtended);
//   - the session's idle and lifetime clocks start when the channel opens.

// inboxSlack is what a terminal session may hold of unread input, and a
// channel whose command is not known yet beyond the largest upload (a
// client's stdin may overtake its exec request on the way in).
const inboxSlack = 64 << 10

// maxCommandBytes bounds an exec request's command line.
const maxCommandBytes = 4096

// maxTermBytes bounds a pty request's terminal name.
const maxTermBytes = 256

// checkDoors checks the doors' limits (New calls it beside check).
func (l Limits) checkDoors() error {
	switch {
	case l.ChannelsPerConn < 1:
		return errors.New("ssh: channels per connection must be at least 1")
	case l.EnvRequests < 0, l.EnvBytes < 0:
		return errors.New("ssh: env limits must not be negative")
	case l.Command <= 0:
		return errors.New("ssh: the command timeout must be positive")
	case l.Checks < 1, l.ChecksPerIP < 1, l.ChecksPerKey < 1:
		return errors.New("ssh: concurrent checks must be at least 1")
	}
	return nil
}

// connDoor is what the server keeps of one connection: its session
// channels and the timers that close it when it holds none.
type connDoor struct {
	s      *Server
	conn   net.Conn // the TCP connection, closed to end everything on it
	remote string

	mu        sync.Mutex
	channels  int
	commanded bool        // a command ran on it: the handshake deadline is off
	handshake *time.Timer // from accept to the first command
	idle      *time.Timer // while it holds no channel after a command
	gone      bool
	ping      *ping // the keepalive in flight (botcmd.go), nil when none
}

type ctxDoorKey struct{}

func (s *Server) newConnDoor(c net.Conn) *connDoor {
	d := &connDoor{s: s, conn: c, remote: c.RemoteAddr().String()}
	d.handshake = time.AfterFunc(s.o.Limits.Handshake, func() {
		s.log.Info("handshake timeout", "event", "limit", "remote", d.remote, "reason", "no command within the handshake timeout (serve.handshake_timeout)")
		c.Close()
	})
	return d
}

// closed stops the connection's timers.
func (d *connDoor) closed() {
	d.mu.Lock()
	defer d.mu.Unlock()
	d.gone = true
	d.handshake.Stop()
	if d.idle != nil {
		d.idle.Stop()
	}
}

// open counts a new session channel, or says why not.
func (d *connDoor) open() (bool, string) {
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.channels >= d.s.o.Limits.ChannelsPerConn {
		return false, fmt.Sprintf("%d sessions on this connection are open already (serve.channels_per_connection)", d.s.o.Limits.ChannelsPerConn)
	}
	d.channels++
	if d.idle != nil {
		d.idle.Stop()
		d.idle = nil
	}
	return true, ""
}

// release gives a channel's place back; a connection left with none after
// a command is closed once it has held none for the idle timeout.
func (d *connDoor) release() {
	d.mu.Lock()
	defer d.mu.Unlock()
	d.channels--
	if d.channels > 0 || !d.commanded || d.gone {
		return
	}
	d.idle = time.AfterFunc(d.s.o.Limits.Idle, func() {
		d.s.log.Info("connection idle", "event", "limit", "remote", d.remote, "reason", "no session for the idle timeout (serve.idle_timeout)")
		d.conn.Close()
	})
}

// commanded notes that a command runs: the handshake deadline is off.
func (d *connDoor) command() {
	d.mu.Lock()
	defer d.mu.Unlock()
	d.commanded = true
	d.handshake.Stop()
}

// sessionChannel serves one session channel: counted and admitted before
// it is accepted, then its requests handled here (doorSession) and its
// command run by handle.
func (s *Server) sessionChannel(_ *gssh.Server, conn *gossh.ServerConn, nc gossh.NewChannel, ctx gssh.Context) {
	cd, _ := ctx.Value(ctxDoorKey{}).(*connDoor)
	if cd == nil { // not admitted by connect: cannot happen
		nc.Reject(gossh.Prohibited, "not admitted")
		return
	}
	log := s.log.With("remote", conn.RemoteAddr().String())
	refuse := func(why string) {
		log.Warn("session refused", "event", "limit", "reason", why)
		nc.Reject(gossh.ResourceShortage, why)
	}
	s.mu.Lock()
	closing := s.closing
	s.mu.Unlock()
	if closing {
		nc.Reject(gossh.ResourceShortage, ErrShutdown.Error())
		return
	}
	if ok, why := cd.open(); !ok {
		refuse(why)
		return
	}
	defer cd.release()
	key := addrKey(conn.RemoteAddr())
	if ok, why := s.gate.open(key); !ok {
		refuse(why)
		return
	}
	defer s.gate.close(key)
	ch, reqs, err := nc.Accept()
	if err != nil {
		return
	}
	d := &doorSession{Channel: ch, s: s, conn: conn, ctx: ctx, cd: cd, log: log, opened: time.Now(), done: make(chan struct{})}
	d.gone, d.hangUp = context.WithCancel(context.Background())
	d.in = newInbox(ch, s.o.Limits.ScriptBytes+inboxSlack, d.overflow)
	go dropExtended(ch)
	d.serve(reqs)
}

// doorSession is one session channel as handle sees it (a gssh.Session).
// Its requests are served by serve, on the channel's goroutine; its
// command runs on another.
type doorSession struct {
	gossh.Channel
	s      *Server
	conn   *gossh.ServerConn
	ctx    gssh.Context
	cd     *connDoor
	log    *slog.Logger
	in     *inbox
	opened time.Time
	done   chan struct{} // closed once the command has returned
	// gone ends when the client has closed the channel (or the
	// connection ended): nobody takes the command's output any more.
	gone   context.Context
	hangUp context.CancelFunc

	mu         sync.Mutex
	env        []string
	envBytes   int
	envRefused int
	pty        *gssh.Pty
	winch      chan gssh.Window // one slot; the newest size replaces an unread one
	rawCmd     string
	started    bool
	exited     bool
	ack        *time.Timer // after we closed it, the client's close must follow
	closed     bool        // closed on both sides: its requests ended
}

// serve handles the channel's requests until the channel closes, then
// waits for the command to return.
func (d *doorSession) serve(reqs <-chan *gossh.Request) {
	s := d.s
	noCommand := time.AfterFunc(s.o.Limits.Command, func() {
		d.mu.Lock()
		started := d.started
		d.mu.Unlock()
		if !started {
			d.log.Info("session closed", "event", "limit", "reason", "no command within the command timeout (serve.command_timeout)")
			d.refuseAndClose(fmt.Sprintf("no command within %s (serve.command_timeout)", s.o.Limits.Command))
		}
	})
	// A backstop past the session's own time limit (handle ends it at
	// Limits.MaxSession from d.opened): a command that will not return, or
	// a client that never closes its side, loses its connection.
	backstop := time.AfterFunc(s.o.Limits.MaxSession+s.o.Limits.Write, func() {
		d.log.Warn("session past its time limit", "event", "limit", "reason", "still open past serve.max_session")
		d.conn.Close()
	})
	for req := range reqs {
		switch req.Type {
		case "env":
			req.Reply(d.setenv(req.Payload), nil)
		case "pty-req":
			req.Reply(d.ptyRequest(req.Payload), nil)
		case "window-change":
			req.Reply(d.windowChange(req.Payload), nil)
		case "shell", "exec":
			d.start(req) // replies before the command runs: its output must follow the reply
		default: // subsystems, signals, breaks, agent and X11 forwarding
			req.Reply(false, nil)
		}
	}
	noCommand.Stop()
	d.hangUp()
	d.mu.Lock()
	if d.winch != nil {
		close(d.winch) // left in place: a command that asks for it later sees it closed
	}
	started := d.started
	d.closed = true
	if d.ack != nil {
		d.ack.Stop()
	}
	d.mu.Unlock()
	d.in.discard()
	if started {
		<-d.done
	}
	backstop.Stop()
}

// refuseAndClose tells the client why on stderr (within the write
// timeout) and closes the channel; a client that does not close its side
// in turn loses the connection.
func (d *doorSession) refuseAndClose(msg string) {
	writeWithin(d.Stderr(), []byte("squarebattle: "+msg+"\r\n"), d.s.o.Limits.Write, func() { d.conn.Close() })
	d.closeChannel()
}

// closeChannel closes the channel and arms the wait for the client's
// close.
func (d *doorSession) closeChannel() {
	d.mu.Lock()
	if d.ack == nil && !d.closed {
		d.ack = time.AfterFunc(d.s.o.Limits.Write, func() {
			d.log.Warn("client dropped", "event", "limit", "reason", "it did not close a session the server closed")
			d.conn.Close()
		})
	}
	d.mu.Unlock()
	d.Channel.Close()
}

// setenv keeps one environment variable, within the env limits.
func (d *doorSession) setenv(payload []byte) bool {
	var kv struct{ Key, Value string }
	if err := gossh.Unmarshal(payload, &kv); err != nil {
		return false
	}
	d.mu.Lock()
	defer d.mu.Unlock()
	l := d.s.o.Limits
	n := len(kv.Key) + len(kv.Value)
	if d.started || len(d.env) >= l.EnvRequests || d.envBytes+n > l.EnvBytes {
		if d.envRefused++; d.envRefused == 1 && !d.started {
			d.log.Warn("env refused", "event", "limit", "reason", fmt.Sprintf("more than %d variables or %d bytes (serve.env_requests, serve.env_bytes)", l.EnvRequests, l.EnvBytes))
		}
		return false
	}
	d.env = append(d.env, kv.Key+"="+kv.Value)
	d.envBytes += n
	return true
}

// ptyRequest takes a pty request: from here on window changes are taken
// as they come (the newest kept), whatever the command turns out to be.
func (d *doorSession) ptyRequest(payload []byte) bool {
	term, rest, ok := parseSSHString(payload)
	if !ok || len(term) > maxTermBytes {
		return false
	}
	w, rest, ok := parseUint32(rest)
	if !ok {
		return false
	}
	h, _, ok := parseUint32(rest)
	if !ok {
		return false
	}
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.started || d.pty != nil {
		return false
	}
	d.pty = &gssh.Pty{Term: term, Window: gssh.Window{Width: int(min(w, 1<<20)), Height: int(min(h, 1<<20))}}
	d.winch = make(chan gssh.Window, 1)
	d.winch <- d.pty.Window
	return true
}

// windowChange keeps the newest window size: never blocks.
func (d *doorSession) windowChange(payload []byte) bool {
	w, rest, ok := parseUint32(payload)
	if !ok || w < 1 {
		return false
	}
	h, _, ok := parseUint32(rest)
	if !ok || h < 1 {
		return false
	}
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.pty == nil {
		return false
	}
	win := gssh.Window{Width: int(min(w, 1<<20)), Height: int(min(h, 1<<20))}
	d.pty.Window = win
	for { // one sender (this loop), so this ends at the second try
		select {
		case d.winch <- win:
			return true
		default:
		}
		select {
		case <-d.winch:
		default:
		}
	}
}

// start runs the channel's command (a shell is the empty command).
func (d *doorSession) start(req *gossh.Request) {
	cmd := ""
	if req.Type == "exec" {
		var p struct{ Value string }
		if err := gossh.Unmarshal(req.Payload, &p); err != nil || len(p.Value) > maxCommandBytes {
			req.Reply(false, nil)
			return
		}
		cmd = p.Value
	}
	d.mu.Lock()
	if d.started {
		d.mu.Unlock()
		req.Reply(false, nil)
		return
	}
	d.started, d.rawCmd = true, cmd
	refused := d.envRefused
	hasPty := d.pty != nil
	d.mu.Unlock()
	d.cd.command()
	limit, over := d.s.inputFor(d.Command(), hasPty)
	d.in.command(limit, over)
	req.Reply(true, nil)
	go func() {
		defer close(d.done)
		if refused > 0 {
			fmt.Fprintf(deadlineWriter{w: d.Stderr(), d: d.s.o.Limits.Write, drop: func() { d.conn.Close() }},
				"squarebattle: %d environment variables were refused (serve.env_requests %d, serve.env_bytes %d)\r\n",
				refused, d.s.o.Limits.EnvRequests, d.s.o.Limits.EnvBytes)
		}
		d.s.handle(d)
		d.Exit(0) // an error when handle exited already
		d.closeChannel()
	}()
}

// errInputFlood ends a terminal session whose client sends more than the
// server has read by inboxSlack.
var errInputFlood = fmt.Errorf("input arrived faster than it was read (more than %d KiB waiting)", inboxSlack>>10)

// errBotFlood is errInputFlood for a bot's session, which may hold one
// whole line besides: the message names the bound that session has.
var errBotFlood = fmt.Errorf("input arrived faster than it was read (more than %d KiB waiting)", (bot.MaxLine+inboxSlack)>>10)

// inputFor is how much unread stdin a command may leave waiting, and what
// happens past it: an upload may wait whole (past it, the upload is too
// large: the reader says so), a terminal's keys up to inboxSlack and a
// bot's lines up to one line and that (past it, the session ends); any
// other command reads no stdin, which is
// thrown away as it comes (limit 0).
func (s *Server) inputFor(args []string, pty bool) (int, error) {
	switch {
	case len(args) > 0 && args[0] == "submit":
		return s.o.Limits.ScriptBytes + 1, fmt.Errorf("%w: more than %d bytes (limits.script_bytes)", errTooBig, s.o.Limits.ScriptBytes)
	case screens[args0(args)] && pty:
		return inboxSlack, errInputFlood
	case len(args) > 0 && args[0] == "bot":
		// A bot's lines, read as the battle asks for them: one whole
		// line and some may wait; a bot that sends faster than its
		// battles read is let go.
		return bot.MaxLine + inboxSlack, errBotFlood
	}
	return 0, nil
}

// overflow ends a session whose unread input passed what its command
// takes (an upload past its limit is the reader's to refuse instead).
func (d *doorSession) overflow(err error) {
	if errors.Is(err, errTooBig) {
		return
	}
	d.log.Warn("input flood", "event", "limit", "reason", err.Error())
	d.refuseAndClose(err.Error())
}

// errHungUp ends a command whose client closed its channel.
var errHungUp = errors.New("the client closed the session")

// hungUp is a context that ends when sess's client has closed its
// channel (never, for a session that is not the door's).
func hungUp(sess gssh.Session) context.Context {
	if d, ok := sess.(*doorSession); ok {
		return d.gone
	}
	return context.Background()
}

// openedAt is when a session's channel opened: its idle and lifetime
// clocks start there.
func openedAt(sess gssh.Session) time.Time {
	if d, ok := sess.(*doorSession); ok {
		return d.opened
	}
	return time.Now()
}

func parseSSHString(in []byte) (string, []byte, bool) {
	if len(in) < 4 {
		return "", nil, false
	}
	n := binary.BigEndian.Uint32(in)
	if uint64(len(in)-4) < uint64(n) {
		return "", nil, false
	}
	return string(in[4 : 4+n]), in[4+n:], true
}

func parseUint32(in []byte) (uint32, []byte, bool) {
	if len(in) < 4 {
		return 0, nil, false
	}
	return binary.BigEndian.Uint32(in), in[4:], true
}
