package ssh

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"time"

	gssh "github.com/gliderlabs/ssh"
	gossh "golang.org/x/crypto/ssh"
)

// `ssh HOST bot NAME`: the session's stdin and stdout become a bot
// connection (docs/bots.md's protocol) for the user's player NAME, which
// plays while the session lasts. The bot runs on its author's machine;
// the server only reads and writes lines (Options.BotLink).

func init() {
	commandList = append(commandList, command{"bot", "NAME", "connect a bot of yours: stdin/stdout speak docs/bots.md's protocol, and player NAME plays while connected (squarebattle connect HOST NAME -- COMMAND does the plumbing)", false, (*Server).botLink})
	for i := range commandList {
		commandsByName[commandList[i].name] = &commandList[i]
	}
}

func (s *Server) botLink(ctx context.Context, sess gssh.Session, id identity, args []string, log *slog.Logger) (int, string) {
	fail := func(status int, format string, a ...any) (int, string) {
		msg := fmt.Sprintf(format, a...)
		fmt.Fprintf(sess.Stderr(), "squarebattle: bot refused: %s\n", msg)
		return status, msg
	}
	if len(args) != 1 {
		return fail(exitBadInput, "usage: bot NAME (stdin and stdout then speak the bot protocol)")
	}
	name := args[0]
	if err := checkName("bot name", name); err != nil {
		return fail(exitBadInput, "%v", err)
	}
	switch {
	case s.o.BotLink == nil:
		return fail(exitFailure, "this server takes no bots")
	case id.fingerprint == "":
		return fail(exitBadInput, "a bot needs an SSH key (ssh-keygen -t ed25519 makes one)")
	case !id.mayUpload:
		return fail(exitBadInput, "your key %s is not on this server's upload list", id.fingerprint)
	}
	user := id.user
	if user == "" {
		if id.login == "" {
			return fail(exitBadInput, "your login name %s has nothing usable as a user name: ssh NAME@HOST with a-z, 0-9, _ or -", quote(sess.User()))
		}
		if why := s.mayClaim(sess, id, log); why != "" {
			return fail(exitFailure, "%s", why)
		}
		bound, err := s.o.Store.Claim(id.fingerprint, id.login)
		if err != nil {
			return fail(claimStatus(err), "%v", err)
		}
		user = bound
	}
	// The name is reserved while the bot links: no submit takes it
	// meanwhile, nor does the bot take one being submitted, and a new
	// bot counts under serve.players_per_user with the uploads.
	release, err := s.held.holdBot(s.o.Store, user, name, s.o.Limits.PlayersPerUser, s.botNames(user))
	if err != nil {
		return fail(refused(err, "bot refused", log))
	}
	defer release()
	trip, err := pingClient(sess, s.o.Limits.Write)
	if err != nil {
		return fail(exitFailure, "the connection does not answer: %v", err)
	}
	c := s.o.BotClock
	fmt.Fprintf(sess.Stderr(), "squarebattle: network round trip to you %s; each round your bot has %d ms from the server's write to its answer's newline (serve.bots.round_ms), plus a bank of up to %d ms of time it did not use, and %d ms from hello to ready\n",
		fmtTrip(trip), c.Round.Milliseconds(), c.Bank.Milliseconds(), c.Init.Milliseconds())
	log.Info("bot connected", "event", "bot", "player", user+"."+name, "round_trip_ms", trip.Milliseconds())
	status := s.o.BotLink(ctx, user, name, sess, sess, sess.Stderr(), func() { endInput(sess) })
	log.Info("bot gone", "event", "bot", "player", user+"."+name, "status", status)
	return status, ""
}

// endInput ends a bot session's stream as its link ends: its reads
// return at once, and the channel stays open for the exit status, which
// handle sends when BotLink returns (closing the channel here lost it: the
// client saw no status). A write blocked on the client's window returns
// within the write timeout, which every write of the session has.
func endInput(sess gssh.Session) {
	if d, ok := sess.(*doorSession); ok {
		d.in.discard()
		return
	}
	sess.Close()
}

// botNames are the names of user's remote bots (Options.BotNames).
func (s *Server) botNames(user string) []string {
	if s.o.BotNames == nil {
		return nil
	}
	return s.o.BotNames(user)
}

// BotLinkFunc serves one bot connection of user's player name: in and out
// are the stream, notes (the session's stderr) what the server tells the
// bot's author, end closes the stream. It returns when the connection
// ends, with the exit status.
type BotLinkFunc func(ctx context.Context, user, name string, in io.Reader, out io.Writer, notes io.Writer, end func()) int

// pingClient measures the network round trip to a session's client: a
// global request that wants a reply (OpenSSH's keepalive, which every
// client answers, if only to refuse it). A client that does not answer
// within wait (serve.write_timeout) is an error. The request waits for its reply on a goroutine
// that ends only with the reply or the connection, so a connection has at
// most one keepalive in flight (its door's): every bot command on it
// waits for that one, however many a client that never answers sends.
func pingClient(sess gssh.Session, wait time.Duration) (time.Duration, error) {
	c, ok := sess.Context().Value(gssh.ContextKeyConn).(gossh.Conn)
	if !ok {
		return 0, errors.New("no connection")
	}
	cd, _ := sess.Context().Value(ctxDoorKey{}).(*connDoor)
	if cd == nil { // not admitted by connect: cannot happen
		return 0, errors.New("no connection")
	}
	p := cd.keepalive(c)
	t := time.NewTimer(wait)
	defer t.Stop()
	select {
	case <-p.done:
		if p.err != nil {
			return 0, p.err
		}
		return p.trip, nil
	case <-t.C:
		return 0, fmt.Errorf("no reply to a keepalive within %v", wait)
	}
}

// ping is one keepalive sent on a connection: done is closed when its
// reply came (trip is then the round trip) or the connection ended (err).
type ping struct {
	done chan struct{}
	trip time.Duration
	err  error
}

// keepalive returns the connection's keepalive in flight, sending one
// when there is none.
func (d *connDoor) keepalive(c gossh.Conn) *ping {
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.ping != nil {
		return d.ping
	}
	p := &ping{done: make(chan struct{})}
	d.ping = p
	start := time.Now()
	go func() {
		_, _, err := c.SendRequest("keepalive@openssh.com", true, nil)
		p.trip, p.err = time.Since(start), err
		d.mu.Lock()
		d.ping = nil
		d.mu.Unlock()
		close(p.done)
	}()
	return p
}

// fmtTrip is a round trip for people: milliseconds, with a tenth under
// ten.
func fmtTrip(d time.Duration) string {
	if d < 10*time.Millisecond {
		return fmt.Sprintf("%.1f ms", float64(d.Microseconds())/1000)
	}
	return fmt.Sprintf("%d ms", d.Milliseconds())
}
