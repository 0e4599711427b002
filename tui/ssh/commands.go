package ssh

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"strings"
	"time"

	gssh "github.com/gliderlabs/ssh"
)

// command is one exec command: `ssh HOST NAME ARGS...`. run returns the
// exit status and, for the log, why it failed.
type command struct {
	name, args, summary string
	admin               bool
	run                 func(s *Server, ctx context.Context, sess gssh.Session, id identity, args []string, log *slog.Logger) (int, string)
}

var commandsByName = map[string]*command{}

// commandList is filled by init: help lists it, which would otherwise
// make its initialisation refer to itself.
var commandList []command

func init() {
	commandList = []command{
		{"submit", "NAME < FILE.lua", "hand in a player; the server checks it like `squarebattle check`", false, (*Server).submit},
		{"players", "", "list the players battles can use", false, (*Server).players},
		{"replays", "", "list the recorded battles, newest first", false, (*Server).listReplays},
		{"get", "ID > FILE.sbr", "download a recorded battle (watch it with squarebattle replay FILE.sbr)", false, (*Server).get},
		{"help", "", "this list", false, (*Server).help},
		{"stop", "ID", "stop a live battle (admins)", true, (*Server).stop},
		{"remove", "USER/NAME", "take an uploaded player out of the battles (admins)", true, (*Server).remove},
	}
	for i := range commandList {
		commandsByName[commandList[i].name] = &commandList[i]
	}
}

func (s *Server) help(_ context.Context, sess gssh.Session, id identity, _ []string, _ *slog.Logger) (int, string) {
	w := sess
	writeLines(w, "SquareBattle arena. With a terminal (ssh -t):",
		"  ssh HOST                 the menu: the featured battle, live battles, a private battle, players, replays",
		"  ssh HOST watch [ID]      spectate a live battle (the featured one without ID)",
		"  ssh HOST replay ID       watch a recorded battle",
		"Without one:")
	for _, c := range commandList {
		if c.admin && !id.admin {
			continue
		}
		fmt.Fprintf(w, "  ssh HOST %-22s %s\n", strings.TrimSpace(c.name+" "+c.args), c.summary)
	}
	writeLines(w, "Your identity is your SSH key; the name you log in with (ssh NAME@HOST) becomes your user name on your first submit.")
	if id.fingerprint == "" {
		writeLines(w, "You connected without a key: you can watch, but not submit or start battles.")
	} else {
		u := id.user
		if u == "" {
			u = "(none yet; would be " + orNone(id.login) + ")"
		}
		fmt.Fprintf(w, "You: key %s, user %s.\n", id.fingerprint, u)
	}
	return exitOK, ""
}

func orNone(s string) string {
	if s == "" {
		return "none: log in with a name of a-z, 0-9, _ or -"
	}
	return s
}

// submit reads a player from stdin (at most ScriptBytes), checks it like
// `squarebattle check` behind the process wall, and stores it as
// user.NAME, which every lobby then offers.
func (s *Server) submit(ctx context.Context, sess gssh.Session, id identity, args []string, log *slog.Logger) (int, string) {
	fail := func(status int, format string, a ...any) (int, string) {
		msg := fmt.Sprintf(format, a...)
		fmt.Fprintf(sess.Stderr(), "squarebattle: %s\n", msg)
		return status, msg
	}
	if len(args) != 1 {
		return fail(exitBadInput, "usage: submit NAME < FILE.lua")
	}
	name := strings.TrimSuffix(args[0], ".lua")
	if err := checkName("player name", name); err != nil {
		return fail(exitBadInput, "%v", err)
	}
	switch {
	case id.fingerprint == "":
		return fail(exitBadInput, "submitting needs an SSH key (ssh-keygen -t ed25519 makes one)")
	case !id.mayUpload:
		log.Warn("upload refused", "event", "limit", "reason", "key not on the allowlist")
		return fail(exitBadInput, "your key %s is not on this server's upload list", id.fingerprint)
	case s.o.Check == nil || s.o.Limits.UploadsPerHour == 0:
		return fail(exitFailure, "this server takes no uploads")
	}
	user := id.user
	if user == "" {
		if id.login == "" {
			return fail(exitBadInput, "your login name %s has nothing usable as a user name: ssh NAME@HOST with a-z, 0-9, _ or -", quote(sess.User()))
		}
		user = id.login
	}
	// Reserved before the work, by the key (checks.go).
	release, err := s.held.hold(s.o.Store, id.fingerprint, user, name, id.user == "", s.o.Limits.PlayersPerUser)
	if err != nil {
		re := err.(*reserveError)
		log.Warn("upload refused", "event", "limit", "reason", re.reason)
		status := exitFailure
		if re.reason != "players per user" {
			status = exitBadInput
		}
		return fail(status, "%s", re.msg)
	}
	defer release()
	if ok, wait := s.ups.take(id.fingerprint); !ok {
		log.Warn("upload refused", "event", "limit", "reason", "uploads per hour")
		return fail(exitFailure, "%d uploads in the last hour is this server's limit (serve.uploads_per_hour); try again in %d min",
			s.o.Limits.UploadsPerHour, int(wait.Minutes())+1)
	}
	src, err := s.readUpload(ctx, sess)
	if err != nil {
		log.Warn("upload refused", "event", "limit", "reason", oneLine(err.Error()))
		return fail(exitBadInput, "%v", err)
	}
	pid := PlayerInfo{User: user, Name: name}.ID()
	done, err := s.waitForCheck(ctx, sess, id, log)
	if err != nil {
		return fail(exitFailure, "%v", err)
	}
	defer done()
	var report, problems bytes.Buffer
	status := s.o.Check(ctx, pid, src, &report, &problems)
	sess.Write(report.Bytes())
	sess.Stderr().Write(problems.Bytes())
	if status != exitOK {
		log.Info("upload rejected", "event", "submit", "player", pid, "status", status)
		return status, "check failed"
	}
	if id.user == "" {
		if _, err := s.o.Store.Claim(id.fingerprint, user); err != nil {
			return fail(exitBadInput, "%v", err)
		}
	}
	replaced, err := s.o.Store.Put(user, name, src)
	if err != nil {
		log.Error("upload not stored", "event", "error", "player", pid, "reason", oneLine(err.Error()))
		return fail(exitFailure, "storing the player failed; nothing changed")
	}
	if s.o.Changed != nil {
		s.o.Changed()
	}
	how := "is new"
	if replaced {
		how = "replaces the older version (kept in the history)"
	}
	fmt.Fprintf(sess, "%s %s: every lobby offers it now.\n", pid, how)
	log.Info("upload accepted", "event", "submit", "player", pid, "bytes", len(src), "replaced", replaced)
	return exitOK, ""
}

// errTooBig is an upload past ScriptBytes.
var errTooBig = errors.New("upload too large")

// readUpload reads stdin to its end, at most ScriptBytes. The session's
// idle watch covers a client that stops sending.
func (s *Server) readUpload(ctx context.Context, sess gssh.Session) ([]byte, error) {
	limit := s.o.Limits.ScriptBytes
	type result struct {
		data []byte
		err  error
	}
	done := make(chan result, 1)
	var last atomicTime
	last.touch()
	go func() {
		var buf bytes.Buffer
		chunk := make([]byte, 32<<10)
		for {
			n, err := sess.Read(chunk)
			if n > 0 {
				last.touch()
				if buf.Len()+n > limit {
					done <- result{nil, fmt.Errorf("%w: more than %d bytes (limits.script_bytes)", errTooBig, limit)}
					return
				}
				buf.Write(chunk[:n])
			}
			if err == io.EOF {
				done <- result{buf.Bytes(), nil}
				return
			}
			if err != nil {
				done <- result{nil, err}
				return
			}
		}
	}()
	ctx, cancel := context.WithCancelCause(ctx)
	defer cancel(nil)
	go s.watchIdle(ctx, cancel, last.since, nil)
	select {
	case r := <-done:
		if r.err == nil && len(r.data) == 0 {
			return nil, errors.New("the upload is empty: submit NAME < FILE.lua")
		}
		return r.data, r.err
	case <-ctx.Done():
		return nil, fmt.Errorf("reading the upload: %v", context.Cause(ctx))
	}
}

func (s *Server) players(_ context.Context, sess gssh.Session, _ identity, _ []string, _ *slog.Logger) (int, string) {
	if s.o.Players != nil {
		writeLines(sess, s.o.Players()...)
		return exitOK, ""
	}
	for _, p := range s.o.Store.Players() {
		fmt.Fprintf(sess, "%-40s %s\n", p.ID(), p.Updated.UTC().Format(time.DateTime))
	}
	return exitOK, ""
}

func (s *Server) listReplays(_ context.Context, sess gssh.Session, id identity, _ []string, _ *slog.Logger) (int, string) {
	for _, r := range s.replaysOf(id, 100) { // the ones id may have (replays.go)
		fmt.Fprintf(sess, "%-40s %s %8d bytes\n", r.ID, r.Saved.UTC().Format(time.DateTime), r.Bytes)
	}
	return exitOK, ""
}

// get writes a replay to stdout as id may have it (replays.go).
func (s *Server) get(_ context.Context, sess gssh.Session, id identity, args []string, _ *slog.Logger) (int, string) {
	if len(args) != 1 {
		fmt.Fprintln(sess.Stderr(), "squarebattle: usage: get ID > FILE.sbr")
		return exitBadInput, "bad arguments"
	}
	out := deadlineWriter{w: sess, d: s.o.Limits.Write, drop: func() { closeConn(sess) }}
	if err := s.writeReplay(out, args[0], id); err != nil {
		fmt.Fprintf(sess.Stderr(), "squarebattle: %v\n", err)
		if errors.Is(err, ErrNotFound) || errors.As(err, new(*NameError)) {
			return exitBadInput, "no such replay"
		}
		return exitFailure, oneLine(err.Error())
	}
	return exitOK, ""
}

func (s *Server) stop(_ context.Context, sess gssh.Session, id identity, args []string, log *slog.Logger) (int, string) {
	if !id.admin {
		fmt.Fprintln(sess.Stderr(), "squarebattle: only an admin may stop battles")
		return exitBadInput, "not an admin"
	}
	if len(args) != 1 || s.o.Hall == nil {
		fmt.Fprintln(sess.Stderr(), "squarebattle: usage: stop ID")
		return exitBadInput, "bad arguments"
	}
	if err := s.o.Hall.Stop(args[0]); err != nil {
		fmt.Fprintf(sess.Stderr(), "squarebattle: %s\n", oneLine(err.Error()))
		return exitBadInput, "no such battle"
	}
	log.Info("battle stopped", "event", "admin", "battle", oneLine(args[0]))
	fmt.Fprintf(sess, "stopped %s\n", args[0])
	return exitOK, ""
}

func (s *Server) remove(_ context.Context, sess gssh.Session, id identity, args []string, log *slog.Logger) (int, string) {
	if !id.admin {
		fmt.Fprintln(sess.Stderr(), "squarebattle: only an admin may remove players")
		return exitBadInput, "not an admin"
	}
	var user, name string
	ok := len(args) == 1
	if ok {
		user, name, ok = strings.Cut(args[0], "/")
	}
	if !ok {
		fmt.Fprintln(sess.Stderr(), "squarebattle: usage: remove USER/NAME")
		return exitBadInput, "bad arguments"
	}
	if err := s.o.Store.Remove(user, name); err != nil {
		fmt.Fprintf(sess.Stderr(), "squarebattle: %v\n", err)
		return exitBadInput, "no such player"
	}
	if s.o.Changed != nil {
		s.o.Changed()
	}
	log.Info("player removed", "event", "admin", "player", user+"."+name)
	fmt.Fprintf(sess, "removed %s.%s (its history stays)\n", user, name)
	return exitOK, ""
}
