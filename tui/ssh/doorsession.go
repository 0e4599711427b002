package ssh

import (
	"bytes"
	"errors"
	"io"
	"net"

	shlex "github.com/anmitsu/go-shlex"
	gssh "github.com/gliderlabs/ssh"
	gossh "golang.org/x/crypto/ssh"
)

// A doorSession is the gliderlabs Session its command is handed: these
// are the methods that interface asks for, over the door's own channel,
// inbox and pty state.

// Read reads stdin from the inbox.
func (d *doorSession) Read(p []byte) (int, error) { return d.in.Read(p) }

// Write writes stdout; with a pty, \n becomes \r\n (as gliderlabs does:
// the server has no line discipline). A screen's frames move the cursor
// by escape sequences and hold no \n: they go out as they are, without
// the two copies the replacing makes (a frame a viewer, 15 times a
// second).
func (d *doorSession) Write(p []byte) (int, error) {
	d.mu.Lock()
	pty := d.pty != nil
	d.mu.Unlock()
	if !pty || bytes.IndexByte(p, '\n') < 0 {
		return d.write(d.Channel, p)
	}
	m := len(p)
	p = bytes.ReplaceAll(p, []byte{'\n'}, []byte{'\r', '\n'})
	p = bytes.ReplaceAll(p, []byte{'\r', '\r', '\n'}, []byte{'\r', '\n'})
	n, err := d.write(d.Channel, p)
	return min(n, m), err
}

// write writes p to w (the channel's stdout or stderr) within the write
// timeout: a client that leaves its channel's window shut longer loses
// its connection (which makes the write return), whatever command wrote.
func (d *doorSession) write(w io.Writer, p []byte) (int, error) {
	if err := writeWithin(w, p, d.s.o.Limits.Write, d.stalled); err != nil {
		return 0, err
	}
	return len(p), nil
}

// stalled drops a client that took no output for the write timeout.
func (d *doorSession) stalled() {
	d.log.Warn("client dropped", "event", "limit", "reason", "the client stopped reading: a write took longer than the write timeout (serve.write_timeout)")
	d.conn.Close()
}

// Stderr is the channel's stderr, written within the write timeout.
func (d *doorSession) Stderr() io.ReadWriter {
	return stderr{d: d, ch: d.Channel.Stderr()}
}

type stderr struct {
	d  *doorSession
	ch io.ReadWriter
}

func (e stderr) Read(p []byte) (int, error)  { return e.ch.Read(p) }
func (e stderr) Write(p []byte) (int, error) { return e.d.write(e.ch, p) }

// Exit sends the exit status and closes the channel, once.
func (d *doorSession) Exit(code int) error {
	d.mu.Lock()
	if d.exited {
		d.mu.Unlock()
		return errors.New("exit called twice")
	}
	d.exited = true
	d.mu.Unlock()
	if _, err := d.SendRequest("exit-status", false, gossh.Marshal(&struct{ Status uint32 }{uint32(code)})); err != nil {
		return err
	}
	return d.Channel.Close()
}

func (d *doorSession) User() string         { return d.conn.User() }
func (d *doorSession) RemoteAddr() net.Addr { return d.conn.RemoteAddr() }
func (d *doorSession) LocalAddr() net.Addr  { return d.conn.LocalAddr() }
func (d *doorSession) Context() gssh.Context {
	return d.ctx
}
func (d *doorSession) Subsystem() string          { return "" }
func (d *doorSession) Signals(chan<- gssh.Signal) {}
func (d *doorSession) Break(chan<- bool)          {}
func (d *doorSession) RawCommand() string         { d.mu.Lock(); defer d.mu.Unlock(); return d.rawCmd }
func (d *doorSession) Environ() []string {
	d.mu.Lock()
	defer d.mu.Unlock()
	return append([]string(nil), d.env...)
}
func (d *doorSession) Permissions() gssh.Permissions {
	if p, ok := d.ctx.Value(gssh.ContextKeyPermissions).(*gssh.Permissions); ok && p != nil {
		return *p
	}
	return gssh.Permissions{}
}

func (d *doorSession) PublicKey() gssh.PublicKey {
	k, _ := d.ctx.Value(gssh.ContextKeyPublicKey).(gssh.PublicKey)
	return k
}

// Command splits the command as a POSIX shell would (as gliderlabs does).
func (d *doorSession) Command() []string {
	args, _ := shlex.Split(d.RawCommand(), true)
	return args
}

// Pty is the pty request with the newest window size, and the window
// changes to come.
func (d *doorSession) Pty() (gssh.Pty, <-chan gssh.Window, bool) {
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.pty == nil {
		return gssh.Pty{}, nil, false
	}
	return *d.pty, d.winch, true
}
