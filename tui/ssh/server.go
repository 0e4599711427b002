package ssh

import (
	"context"
	"errors"
	"io"
	"log/slog"
	"net"
	"os"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/gdamore/tcell/v2"
	gssh "github.com/gliderlabs/ssh"
	gossh "golang.org/x/crypto/ssh"

	"github.com/squarebattle/squarebattle/engine/bot"
	"github.com/squarebattle/squarebattle/tui"
)

// Options configure a Server.
type Options struct {
	HostKey gossh.Signer
	Store   *Store
	Limits  Limits
	// Anonymous lets clients without a key in (to watch); uploads and
	// private battles always need a key.
	Anonymous bool
	// Allowlist, when not nil, holds the fingerprints that may upload.
	Allowlist map[string]bool
	// Admins hold the fingerprints that may stop battles and remove
	// players.
	Admins map[string]bool
	// PrivateBattles is how many private battles may run at once; 0 lets
	// no session start one.
	PrivateBattles int
	// Hall holds the live battles; nil serves only the exec commands and
	// the lobby-less screens the session runner allows.
	Hall *tui.Hall
	// Check runs `squarebattle check` on an upload (see CheckFunc).
	Check CheckFunc
	// LadderReplay, when not nil, says where the replay of a ladder
	// battle is kept: ok for an ID of the ladder's (whether or not its
	// file is still there), which anybody may get and watch.
	LadderReplay func(id string) (path string, ok bool)
	// WaitRated, when not nil, serves `submit --wait`: it writes to w each
	// rated battle of the player (its class id) as it ends, then its
	// settled rank, and returns the exit status. ctx ends with the session.
	WaitRated func(ctx context.Context, player string, w io.Writer) int
	// Admit, when not nil, has the last word on a checked upload, right
	// before it is stored, with no other upload admitted meanwhile: it
	// refuses (writing why to w and returning a non-zero status) what
	// the players stored since the check started make wrong, such as a
	// display name taken meanwhile.
	Admit func(player string, src []byte, w io.Writer) int
	// LadderAdmin, when not nil, runs the admins' `ladder-admin` command
	// (args: pause, resume, reset PLAYER or rerate [GAME]), writing its
	// report to out and its errors to errw; it returns the exit status.
	LadderAdmin func(ctx context.Context, args []string, out, errw io.Writer) int
	// BotLink, when not nil, serves `ssh HOST bot NAME` (botcmd.go).
	BotLink BotLinkFunc
	// BotNames, when not nil, lists the names of user's remote bots (the
	// ones it ever linked, connected or not): each counts under
	// Limits.PlayersPerUser like an upload, and an upload may not take
	// one's name. The names of bot commands under way count too.
	BotNames func(user string) []string
	// BotClock is the clock remote bots play under (serve.bots), which
	// the bot command states to the bot's author with the network round
	// trip it measures.
	BotClock bot.Timing
	// Changed is called after the uploaded players changed (a submit, a
	// removal), so the battles' catalog can be rebuilt.
	Changed func()
	// Players lists the players battles can use, shipped and uploaded,
	// one line each, for the players command; nil lists the uploads only.
	Players func() []string
	// Ladder is the arena's ladder: the exec commands ladder and history
	// (ladder.go) and the menu's Ladder and My players (passed on as
	// tui.SessionOptions.Ladder). nil takes the Hall's
	// (tui.HallOptions.Ladder); without either the server has no ladder.
	Ladder tui.Ladder
	// Session runs a terminal session; nil is tui.RunSession.
	Session func(ctx context.Context, scr tcell.Screen, o tui.SessionOptions) error
	// Logger receives one line per event; nil discards them.
	Logger *slog.Logger
}

// CheckFunc runs the checks of `squarebattle check` on src, the upload
// that would become class id (user.name), beside the other players. It
// writes check's report to stdout and its error to stderr and returns
// check's exit status: 0 good, 1 the player misbehaved in its trial
// battle, 2 the script does not load. It must run the script behind the
// process wall and give up when ctx ends.
type CheckFunc func(ctx context.Context, id string, src []byte, stdout, stderr io.Writer) int

// Server is the SSH arena's front end. Start it with Serve; stop it with
// Shutdown. Safe for concurrent use.
type Server struct {
	o    Options
	log  *slog.Logger
	srv  *gssh.Server
	gate *gate
	ups  *uploads
	news *newUsers
	// checks and held bound the submits at work (checks.go).
	checks *checkSlots
	held   *reservations
	// admit makes admitting a checked upload and storing it one step:
	// two checks that passed at once are admitted one after the other,
	// the second against the players as the first left them.
	admit sync.Mutex

	mu       sync.Mutex
	listener net.Listener
	sessions map[*liveSession]struct{}
	closing  bool
	wg       sync.WaitGroup // sessions in their handlers
}

// liveSession is what Shutdown needs of an open session.
type liveSession struct {
	notice chan string
	cancel context.CancelCauseFunc
}

// ErrShutdown is the cause of sessions ended by Shutdown.
var ErrShutdown = errors.New("the server is shutting down")

// New checks the options and makes a server.
func New(o Options) (*Server, error) {
	if o.HostKey == nil || o.Store == nil {
		return nil, errors.New("ssh: a host key and a store are required")
	}
	if err := o.Limits.check(); err != nil {
		return nil, err
	}
	if err := o.Limits.checkDoors(); err != nil {
		return nil, err
	}
	if o.Session == nil {
		o.Session = tui.RunSession
	}
	if o.Logger == nil {
		o.Logger = slog.New(slog.DiscardHandler)
	}
	if over := envOverrides(os.Getenv); len(over) > 0 {
		o.Logger.Warn("the server's environment overrides every client's terminal: run serve without it",
			"event", "config", "variables", strings.Join(over, " "))
	}
	s := &Server{o: o, log: o.Logger, gate: newGate(o.Limits), ups: newUploads(o.Limits.UploadsPerHour),
		news: newNewUsers(o.Limits.NewUsersPerIPHour), sessions: map[*liveSession]struct{}{},
		checks: newCheckSlots(o.Limits), held: newReservations()}
	o.Store.LimitUsers(o.Limits.Users)
	s.srv = &gssh.Server{
		Version:     "SquareBattle",
		HostSigners: []gssh.Signer{o.HostKey},
		Handler:     s.handle,
		// Any key is accepted: a key is an identity here, not a password.
		PublicKeyHandler: func(ctx gssh.Context, key gssh.PublicKey) bool { return true },
		// Without a key: an anonymous spectator, when allowed.
		KeyboardInteractiveHandler: func(ctx gssh.Context, _ gossh.KeyboardInteractiveChallenge) bool { return o.Anonymous },
		ConnCallback:               s.connect,
		ConnectionFailedCallback: func(c net.Conn, err error) {
			s.log.Info("handshake failed", "event", "refused", "remote", c.RemoteAddr().String(), "reason", oneLine(err.Error()))
		},
		ChannelHandlers: map[string]gssh.ChannelHandler{"session": s.sessionChannel},
		// Nothing else: no port forwarding, no agent, no subsystems.
		RequestHandlers: map[string]gssh.RequestHandler{},
		// A backstop past the sessions' own limit, for connections that
		// hold no session.
		MaxTimeout: o.Limits.MaxSession + time.Minute,
	}
	return s, nil
}

// Serve accepts connections on l until Shutdown, which closes l; then it
// returns an error.
func (s *Server) Serve(l net.Listener) error {
	s.mu.Lock()
	s.listener = l
	closing := s.closing
	s.mu.Unlock()
	if closing {
		l.Close()
		return gssh.ErrServerClosed
	}
	s.log.Info("serving", "event", "listen", "addr", l.Addr().String(), "host_key", Fingerprint(s.o.HostKey.PublicKey()))
	return s.srv.Serve(l)
}

// Shutdown stops accepting, ends every session with a message (the
// server is shutting down), waits for them until ctx ends, then closes
// every connection left. The hall's battles are the caller's to close
// after. (gliderlabs' own Shutdown waits on a WaitGroup that a connection
// accepted meanwhile may still Add to: a race, so it is not used.)
func (s *Server) Shutdown(ctx context.Context) error {
	s.mu.Lock()
	s.closing = true
	l := s.listener
	for ls := range s.sessions {
		select {
		case ls.notice <- ErrShutdown.Error():
		default:
		}
		ls.cancel(ErrShutdown)
	}
	s.mu.Unlock()
	if l != nil {
		l.Close()
	}
	done := make(chan struct{})
	go func() { s.wg.Wait(); close(done) }()
	var err error
	select {
	case <-done:
	case <-ctx.Done():
		err = ctx.Err()
	}
	s.srv.Close()
	s.log.Info("stopped", "event", "shutdown")
	return err
}

// Counts returns the open connections and sessions (for tests and logs).
func (s *Server) Counts() (conns, sessions int) { return s.gate.counts() }

// connect admits a TCP connection (or refuses it with one plain line: no
// SSH exchange has happened yet, so that is all a client can be told;
// OpenSSH shows it with -v) and arms the handshake deadline, which the
// first command disarms (doors.go).
func (s *Server) connect(ctx gssh.Context, c net.Conn) net.Conn {
	key := addrKey(c.RemoteAddr())
	if ok, why := s.gate.connect(key); !ok {
		s.log.Warn("connection refused", "event", "limit", "remote", c.RemoteAddr().String(), "reason", why)
		c.SetWriteDeadline(time.Now().Add(time.Second))
		io.WriteString(c, "squarebattle: "+why+"\r\n")
		return nil
	}
	door := s.newConnDoor(c)
	ctx.SetValue(ctxDoorKey{}, door)
	return &countedConn{Conn: c, done: func() { door.closed(); s.gate.disconnect(key) }}
}

// countedConn gives its slot in the gate back once, when closed.
type countedConn struct {
	net.Conn
	once sync.Once
	done func()
}

func (c *countedConn) Close() error {
	c.once.Do(c.done)
	return c.Conn.Close()
}

// oneLine makes text from a client or an error safe for one log field.
func oneLine(s string) string {
	if len(s) > 200 {
		s = s[:200]
	}
	q := strconv.Quote(s)
	return q[1 : len(q)-1]
}
