package ssh

import (
	"context"
	"fmt"
	"log/slog"
	"strings"

	gssh "github.com/gliderlabs/ssh"
)

// The ladder's admin command: `ssh HOST ladder-admin pause|resume|reset
// PLAYER|rerate [GAME]`, run by Options.LadderAdmin.

func init() {
	commandList = append(commandList, command{"ladder-admin", "pause|resume|reset PLAYER|rerate [GAME]",
		"pause or resume the ladder, reset a player's rating, re-rate a game from its stored results (admins)", true, (*Server).ladderAdmin})
	// The list may have moved: name every command again.
	for i := range commandList {
		commandsByName[commandList[i].name] = &commandList[i]
	}
}

func (s *Server) ladderAdmin(ctx context.Context, sess gssh.Session, id identity, args []string, log *slog.Logger) (int, string) {
	if !id.admin {
		fmt.Fprintln(sess.Stderr(), "squarebattle: only an admin may run the ladder")
		return exitBadInput, "not an admin"
	}
	if s.o.LadderAdmin == nil {
		fmt.Fprintln(sess.Stderr(), "squarebattle: this server has no ladder")
		return exitBadInput, "no ladder"
	}
	var what string
	if len(args) > 0 {
		what = args[0]
	}
	switch {
	case (what == "pause" || what == "resume") && len(args) == 1,
		what == "reset" && len(args) == 2,
		what == "rerate" && len(args) <= 2:
	default:
		fmt.Fprintln(sess.Stderr(), "squarebattle: usage: ladder-admin pause|resume|reset PLAYER|rerate [GAME]")
		return exitBadInput, "bad arguments"
	}
	status := s.o.LadderAdmin(ctx, args, sess, sess.Stderr())
	log.Info("ladder admin", "event", "admin", "what", oneLine(strings.Join(args, " ")), "status", status)
	return status, ""
}
