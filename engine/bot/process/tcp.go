package process

import (
	"errors"
	"fmt"
	"net"
	"os"
	"time"
)

// maxRefused bounds the connections accept refuses before it gives up:
// each costs a look at the kernel's tables, and a process that connects
// without end should not keep the engine at it until the deadline.
const maxRefused = 1000

// accept waits for the bot's one connection until deadline. It refuses,
// closing each at once (with a reset, so that none lingers), any from an
// address that is not loopback (the listener is bound to 127.0.0.1, so
// none should come) and, on Linux, any that is not the bot's (fromBot):
// loopback is shared by every user of the machine, and another local
// process could connect first, hang up, or stay. It keeps accepting until
// the bot's connection comes, the deadline passes, maxRefused connections
// were refused, or the bot exits. note is told of the first refusals and
// of their number.
func accept(ln *net.TCPListener, deadline time.Time, id botID, exited <-chan struct{}, note func(string)) (*net.TCPConn, error) {
	stop := make(chan struct{})
	defer close(stop)
	go func() {
		select {
		case <-exited:
			// A bot may connect, write and exit at once: its connection
			// waits in the backlog. A deadline in the future still lets
			// Accept take it; one in the past would not even look.
			_ = ln.SetDeadline(time.Now().Add(100 * time.Millisecond))
		case <-stop:
		}
	}()
	if err := ln.SetDeadline(deadline); err != nil {
		return nil, err
	}
	refused := 0
	defer func() {
		if refused > 3 {
			note(fmt.Sprintf("(%d connections to the bot's port were refused in all)", refused))
		}
	}()
	for {
		c, err := ln.AcceptTCP()
		if err != nil {
			select {
			case <-exited:
				return nil, errors.New("exited before it connected")
			default:
			}
			if errors.Is(err, os.ErrDeadlineExceeded) {
				return nil, errors.New("did not connect in time")
			}
			return nil, err
		}
		ok, why := loopback(c.RemoteAddr()), "not a loopback address"
		if ok {
			ok, why = fromBot(c, id)
		}
		if ok {
			return c, nil
		}
		refused++
		if refused <= 3 {
			note(fmt.Sprintf("(refused a connection from %s to the bot's port: %s)", c.RemoteAddr(), why))
		}
		_ = c.SetLinger(0)
		_ = c.Close()
		if refused >= maxRefused {
			return nil, fmt.Errorf("refused %d connections that were not the bot's: giving up", refused)
		}
	}
}

// connect dials a bot already listening at o.Connect, which must be a
// loopback address: a bot elsewhere is not a program the operator runs
// here, and the protocol has no authentication or encryption.
func connect(o Options) (*Bot, error) {
	host, port, err := net.SplitHostPort(o.Connect)
	if err != nil {
		return nil, fmt.Errorf("%w: connect %q: %v", ErrOptions, o.Connect, err)
	}
	if host == "localhost" {
		host = "127.0.0.1" // not looked up: a name could resolve anywhere
	}
	ip := net.ParseIP(host)
	if ip == nil || !ip.IsLoopback() {
		return nil, fmt.Errorf("%w: connect %q: only a loopback address (127.0.0.1, ::1) is allowed", ErrOptions, o.Connect)
	}
	c, err := net.DialTimeout("tcp", net.JoinHostPort(ip.String(), port), o.InitTimeout)
	if err != nil {
		return nil, fmt.Errorf("bot at %s: %w", o.Connect, err)
	}
	if !loopback(c.RemoteAddr()) {
		_ = c.Close()
		return nil, fmt.Errorf("bot at %s: not a loopback peer", o.Connect)
	}
	b := &Bot{o: o, in: c.(*net.TCPConn), lines: lineReader{r: c, max: o.MaxLine}}
	b.closers = append(b.closers, c)
	return b, nil
}

func loopback(a net.Addr) bool {
	t, ok := a.(*net.TCPAddr)
	return ok && t.IP.IsLoopback()
}
