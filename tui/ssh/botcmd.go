package ssh

import (
	"context"
	"fmt"
	"io"
	"log/slog"

	gssh "github.com/gliderlabs/ssh"
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
		bound, err := s.o.Store.Claim(id.fingerprint, id.login)
		if err != nil {
			return fail(exitBadInput, "%v", err)
		}
		user = bound
	}
	log.Info("bot connected", "event", "bot", "player", user+"."+name)
	status := s.o.BotLink(ctx, user, name, sess, sess, sess.Stderr(), func() { sess.Close() })
	log.Info("bot gone", "event", "bot", "player", user+"."+name, "status", status)
	return status, ""
}

// BotLinkFunc serves one bot connection of user's player name: in and out
// are the stream, notes (the session's stderr) what the server tells the
// bot's author, end closes the stream. It returns when the connection
// ends, with the exit status.
type BotLinkFunc func(ctx context.Context, user, name string, in io.Reader, out io.Writer, notes io.Writer, end func()) int
