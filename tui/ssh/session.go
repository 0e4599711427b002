package ssh

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"strings"
	"time"

	gssh "github.com/gliderlabs/ssh"
	gossh "golang.org/x/crypto/ssh"

	"github.com/squarebattle/squarebattle/engine"
	"github.com/squarebattle/squarebattle/engine/replay"
	"github.com/squarebattle/squarebattle/tui"
)

// Exit statuses, as the squarebattle command's.
const (
	exitOK       = 0
	exitFailure  = 1
	exitBadInput = 2
)

// identity is who a session is.
type identity struct {
	fingerprint string // "" without a key
	user        string // bound user name; "" until the first upload
	login       string // the SSH login name, sanitised: the name a first upload claims
	admin       bool
	mayUpload   bool
}

func (s *Server) identify(sess gssh.Session) identity {
	id := identity{login: sanitizeName(sess.User())}
	if k := sess.PublicKey(); k != nil {
		id.fingerprint = Fingerprint(k)
		id.user, _ = s.o.Store.User(id.fingerprint)
		id.admin = s.o.Admins[id.fingerprint]
		id.mayUpload = s.o.Allowlist == nil || s.o.Allowlist[id.fingerprint]
	}
	return id
}

// userOf is the user name id's key holds now ("" none, or no key): an
// upload in another session may have bound one since id was made.
func (s *Server) userOf(id identity) string {
	if id.fingerprint == "" {
		return ""
	}
	u, _ := s.o.Store.User(id.fingerprint)
	return u
}

// handle serves one session channel: admitted by the gate, bounded in
// time, then an exec command or a terminal screen.
func (s *Server) handle(sess gssh.Session) {
	remote := sess.RemoteAddr().String()
	id := s.identify(sess)
	log := s.log.With("remote", remote, "key", id.fingerprint, "user", id.user, "login", oneLine(sess.User()))
	// The gate counted the session when its channel opened (doors.go).

	ctx, cancel := context.WithCancelCause(sess.Context())
	defer cancel(nil)
	// A client that closed its channel takes nothing more: the command's
	// work (a check, a wait, a screen) ends with it, not with the
	// connection.
	defer context.AfterFunc(hungUp(sess), func() { cancel(errHungUp) })()
	ls := &liveSession{notice: make(chan string, 1), cancel: cancel}
	s.mu.Lock()
	if s.closing {
		s.mu.Unlock()
		fmt.Fprintf(sess.Stderr(), "squarebattle: %s\r\n", ErrShutdown)
		sess.Exit(exitFailure)
		return
	}
	s.sessions[ls] = struct{}{}
	s.wg.Add(1)
	s.mu.Unlock()
	defer func() {
		s.mu.Lock()
		delete(s.sessions, ls)
		s.mu.Unlock()
		s.wg.Done()
	}()
	limit := time.AfterFunc(s.o.Limits.MaxSession-time.Since(openedAt(sess)), func() { cancel(errMaxSession) })
	defer limit.Stop()

	args := sess.Command()
	cmd := ""
	if len(args) > 0 {
		cmd = args[0]
	}
	start := time.Now()
	log.Info("session start", "event", "start", "command", oneLine(sess.RawCommand()))
	status, why := s.dispatch(ctx, sess, id, args, ls.notice, log)
	if cause := context.Cause(ctx); cause != nil && !errors.Is(cause, context.Canceled) && why == "" {
		why = cause.Error()
	}
	log.Info("session end", "event", "end", "command", cmd, "status", status, "reason", why, "seconds", int(time.Since(start).Seconds()))
	sess.Exit(status)
}

var (
	errMaxSession = errors.New("the session reached the server's time limit (serve.max_session)")
	errIdle       = errors.New("no input for too long (serve.idle_timeout)")
)

// screens are the commands that need a terminal.
var screens = map[string]bool{"": true, "menu": true, "watch": true, "replay": true}

// dispatch runs the session's command and returns its exit status and,
// for the log, why it ended when that is not the client's own choice.
func (s *Server) dispatch(ctx context.Context, sess gssh.Session, id identity, args []string, notice chan string, log *slog.Logger) (int, string) {
	cmd := ""
	if len(args) > 0 {
		cmd = args[0]
	}
	if screens[cmd] {
		pty, winch, ok := sess.Pty()
		if !ok {
			tty := strings.Replace(reach(sess.LocalAddr()), "ssh", "ssh -t", 1)
			fmt.Fprintf(sess.Stderr(), "squarebattle: this needs a terminal: %s\n", strings.TrimSpace(tty+" "+engine.SafeText(strings.Join(args, " "))))
			return exitBadInput, "no terminal"
		}
		return s.screen(ctx, sess, id, args, pty, winch, notice, log)
	}
	c, ok := commandsByName[cmd]
	if !ok {
		fmt.Fprintf(sess.Stderr(), "squarebattle: unknown command %s; %s help lists them\n", quote(cmd), reach(sess.LocalAddr()))
		return exitBadInput, "unknown command"
	}
	return c.run(s, ctx, sess, id, args[1:], log)
}

// watchIdle ends the session (cause errIdle) when input has stopped for
// the idle timeout, after a warning a little before. idle reports how
// long since the last input.
func (s *Server) watchIdle(ctx context.Context, cancel context.CancelCauseFunc, idle func() time.Duration, notice chan<- string) {
	limit := s.o.Limits.Idle
	warnAt := limit - min(30*time.Second, limit/4)
	warned := false
	for {
		quiet := idle()
		var wait time.Duration
		switch {
		case quiet >= limit:
			cancel(errIdle)
			return
		case quiet >= warnAt && !warned:
			warned = true
			select {
			case notice <- fmt.Sprintf("no input for a while: press a key within %d s to stay", int((limit-quiet).Seconds()+0.5)):
			default:
			}
			wait = limit - quiet
		case quiet < warnAt:
			warned = false
			wait = warnAt - quiet
		default:
			wait = limit - quiet
		}
		t := time.NewTimer(wait)
		select {
		case <-ctx.Done():
			t.Stop()
			return
		case <-t.C:
		}
	}
}

// screen runs a terminal session: a tcell screen over the channel, handed
// to the session runner (tui.RunSession) until the client quits or the
// session is ended (idle, time limit, shutdown, a stalled client).
func (s *Server) screen(ctx context.Context, sess gssh.Session, id identity, args []string, pty gssh.Pty, winch <-chan gssh.Window, notice chan string, log *slog.Logger) (int, string) {
	ctx, cancel := context.WithCancelCause(ctx)
	defer cancel(nil)
	o := tui.SessionOptions{
		Hall:     s.o.Hall,
		User:     s.nameOf(id),
		Start:    tui.StartMenu,
		FPS:      s.o.Limits.FPS,
		CanStart: id.fingerprint != "" && s.o.PrivateBattles > 0,
		Admin:    id.admin,
		Replays:  s.replaysFor(id), // the ones id may have, as it may have them (replays.go)
		Ladder:   s.ladder(),
		// A ladder battle's replay, as id may have it.
		OpenReplay: func(rid string) (*replay.Replay, error) {
			r, _, err := s.openReplayFor(rid, id)
			return r, err
		},
		Key: id.fingerprint,
		// Visits are kept for keys with a user name, which serve.users
		// and new_users_per_ip_hour bound; a key costs nothing to make.
		Remembered: func() bool { return s.userOf(id) != "" },
		Getenv:     getenv(sess.Environ()),
		MayRead:    mayRead(func() string { return s.userOf(id) }),
		Account:    id.fingerprint,
		Reach:      reach(sess.LocalAddr()),
	}
	if id.fingerprint != "" {
		// An upload from another session may give the key its user name
		// while this one runs: the session takes it up at once.
		o.Whoami = func() string { return s.nameOf(id) }
	}
	switch args0(args) {
	case "watch":
		o.Start = tui.StartWatch
		if len(args) > 1 {
			o.WatchID = args[1]
		}
	case "replay":
		if len(args) != 2 {
			fmt.Fprintf(sess.Stderr(), "squarebattle: usage: replay ID (%s replays lists them)\n", reach(sess.LocalAddr()))
			return exitBadInput, "bad arguments"
		}
		r, name, err := s.openReplayFor(args[1], id)
		if err != nil {
			fmt.Fprintf(sess.Stderr(), "squarebattle: %v (%s replays lists them)\n", err, reach(sess.LocalAddr()))
			return exitBadInput, "no such replay"
		}
		o.Start, o.Replay, o.ReplayFile = tui.StartReplay, r, name
	}
	o.Notice = notice

	term := terminalFor(pty.Term, sess.Environ())
	drop := func(reason string) {
		log.Warn("client dropped", "event", "limit", "reason", reason)
		cancel(errors.New(reason))
		closeConn(sess)
	}
	t := newTty(sess, pty.Window, winch, s.o.Limits.Write, term.ascii, drop)
	defer t.Close()
	go s.watchIdle(ctx, cancel, t.Idle, notice)
	scr, err := term.newScreen(t)
	if err != nil {
		fmt.Fprintf(sess.Stderr(), "squarebattle: terminal: %v\n", err)
		return exitFailure, "terminal"
	}
	t.scr = scr
	o.Terminfo = term.info
	err = s.o.Session(ctx, scr, o)
	t.finish()
	cause := context.Cause(ctx)
	switch {
	case err != nil:
		log.Error("session failed", "event", "error", "reason", oneLine(err.Error()))
		fmt.Fprintf(sess.Stderr(), "squarebattle: %v\r\n", err)
		return exitFailure, "error"
	case cause != nil && !errors.Is(cause, context.Canceled):
		fmt.Fprintf(sess.Stderr(), "squarebattle: %v\r\n", cause)
		return exitOK, cause.Error()
	}
	return exitOK, ""
}

// nameOf is who a session of id is now: the user name its key holds, else
// its provisional name ("" without a key).
func (s *Server) nameOf(id identity) string {
	if u := s.userOf(id); u != "" || id.fingerprint == "" {
		return u
	}
	return provisional(id)
}

// provisional names a key that has no user name yet (it has uploaded
// nothing): its login and the start of its fingerprint, joined by '~',
// which a user name never holds. The hall tells owners apart by this name,
// so two keys logging in as the same login never share private battles,
// and nobody shows up under a name another key holds.
func provisional(id identity) string {
	login := id.login
	if login == "" {
		login = "key"
	}
	fp := strings.TrimPrefix(id.fingerprint, "SHA256:")
	var b strings.Builder
	for _, r := range fp {
		if r < 128 && isNameByte(byte(r)) && b.Len() < 8 {
			b.WriteRune(r)
		}
	}
	return login + "~" + b.String()
}

// mayRead is whose problems and print log a session of user may read in
// the errors pane: a shipped player's (its class id has no '.') and the
// user's own uploads (user.name); an unknown class's, nobody's. A session
// without a user name (no upload yet) reads only the shipped players'.
// user is asked each time: the name the key holds now, which an upload
// from another session may have given it since the session began.
func mayRead(user func() string) func(class string) bool {
	return func(class string) bool {
		owner, _, upload := strings.Cut(class, ".")
		if !upload {
			return class != ""
		}
		u := user()
		return u != "" && owner == u
	}
}

func args0(args []string) string {
	if len(args) == 0 {
		return ""
	}
	return args[0]
}

// getenv reads a client's environment (sent with SSH env requests).
func getenv(environ []string) func(string) string {
	return func(k string) string {
		for _, kv := range environ {
			if v, ok := strings.CutPrefix(kv, k+"="); ok {
				return v
			}
		}
		return ""
	}
}

// writeLines writes lines to w, each ended for a terminal or a pipe.
func writeLines(w io.Writer, lines ...string) {
	for _, l := range lines {
		io.WriteString(w, l+"\n")
	}
}

// closeConn closes a session's whole connection: the one thing that makes
// a write blocked on a full SSH window return.
func closeConn(sess gssh.Session) {
	if c, ok := sess.Context().Value(gssh.ContextKeyConn).(gossh.Conn); ok {
		c.Close()
	}
}
