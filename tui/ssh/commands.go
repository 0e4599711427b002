package ssh

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/netip"
	"slices"
	"strconv"
	"strings"
	"time"

	gssh "github.com/gliderlabs/ssh"
	"github.com/rivo/uniseg"

	"github.com/squarebattle/squarebattle/engine"
	"github.com/squarebattle/squarebattle/tui"
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
		{"submit", "NAME < FILE.lua", "hand in a player; the server checks it like `squarebattle check` (submit NAME --wait also waits for its rated battles and rank)", false, (*Server).submit},
		{"players", "", "list the players battles can use", false, (*Server).players},
		{"replays", "", "list the recorded battles, newest first", false, (*Server).listReplays},
		{"get", "ID > FILE.sbr", "download a recorded battle (watch it with squarebattle replay FILE.sbr)", false, (*Server).get},
		{"ladder", "[--game G] [--json]", "the ladder's table: rank, player, owner, rating (mu-3sigma) +- 3sigma, battles, wins", false, (*Server).ladderTable},
		{"history", "PLAYER [--game G] [--json]", "a player on the ladder: versions, rating changes, recent battles with their replay IDs", false, (*Server).history},
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
	ssh := reach(sess.LocalAddr())
	tty := strings.Replace(ssh, "ssh", "ssh -t", 1)
	menu := "the menu: the featured battle, live battles, a private battle, players, replays"
	if s.ladder() != nil {
		menu += ", the ladder"
	}
	rows := [][2]string{
		{tty, menu},
		{tty + " watch [ID]", "spectate a live battle (the featured one without ID)"},
		{tty + " replay ID", "watch a recorded battle"},
	}
	var plain [][2]string
	for _, c := range commandList {
		if c.admin && !id.admin || (c.name == "ladder" || c.name == "history") && s.ladder() == nil {
			continue
		}
		plain = append(plain, [2]string{strings.TrimSpace(ssh + " " + c.name + " " + c.args), c.summary})
	}
	width := 0
	for _, r := range append(rows, plain...) {
		width = max(width, len(r[0]))
	}
	writeLines(w, "SquareBattle arena. With a terminal:")
	for _, r := range rows {
		fmt.Fprintf(w, "  %-*s  %s\n", width, r[0], r[1])
	}
	writeLines(w, "Without one:")
	for _, r := range plain {
		fmt.Fprintf(w, "  %-*s  %s\n", width, r[0], r[1])
	}
	i := strings.LastIndexByte(ssh, ' ')
	login := ssh[:i+1] + "NAME@" + ssh[i+1:]
	writeLines(w, "Your identity is your SSH key; the name you log in with ("+login+") becomes your user name on your first submit.")
	if id.fingerprint == "" {
		writeLines(w, "You connected without a key: you can watch, but not submit or start battles.")
	} else {
		u := s.userOf(id)
		if u == "" {
			u = "(none yet; would be " + orNone(id.login) + ")"
		}
		fmt.Fprintf(w, "You: key %s, user %s.\n", id.fingerprint, u)
	}
	return exitOK, ""
}

// reach is the ssh command that reaches this server, as a client would
// type it: the address and port the connection arrived at (the server's
// own port; `-p` left out for 22). SSH does not tell the server the name
// the client typed, so the host is the address the client reached; when
// there is none worth showing (unknown, unspecified, link-local) it is
// HOST.
func reach(local net.Addr) string {
	host, port := "HOST", "2222"
	if ap, err := netip.ParseAddrPort(local.String()); err == nil {
		port = strconv.Itoa(int(ap.Port()))
		ip := ap.Addr().Unmap().WithZone("")
		if ip.IsValid() && !ip.IsUnspecified() && !ip.IsLinkLocalUnicast() && !ip.IsMulticast() {
			host = ip.String()
		}
	}
	if port == "22" {
		return "ssh " + host
	}
	return "ssh -p " + port + " " + host
}

func orNone(s string) string {
	if s == "" {
		return "none: log in with a name of a-z, 0-9, _ or -"
	}
	return s
}

// submit reads a player from stdin (at most ScriptBytes), checks it like
// `squarebattle check` behind the process wall, and stores it as
// user.NAME, which every lobby then offers. Its last line says what
// became of the upload: stored (under which id, new or replacing), or
// refused and why (on stderr, like every refusal).
func (s *Server) submit(ctx context.Context, sess gssh.Session, id identity, args []string, log *slog.Logger) (int, string) {
	what := "upload"
	fail := func(status int, format string, a ...any) (int, string) {
		msg := fmt.Sprintf(format, a...)
		fmt.Fprintf(sess.Stderr(), "squarebattle: %s refused: %s\n", what, msg)
		return status, msg
	}
	wait := false
	if i := slices.Index(args, "--wait"); i >= 0 {
		wait, args = true, slices.Delete(slices.Clone(args), i, i+1)
	}
	if len(args) != 1 || strings.HasPrefix(args[0], "-") {
		return fail(exitBadInput, "usage: submit NAME [--wait] < FILE.lua")
	}
	if wait && s.o.WaitRated == nil {
		return fail(exitBadInput, "this server has no ladder to wait for (submit without --wait)")
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
		if why := s.mayClaim(sess, id, log); why != "" {
			return fail(exitFailure, "%s", why)
		}
		user = id.login
	}
	pid := PlayerInfo{User: user, Name: name}.ID()
	what = "upload of " + pid
	// Reserved before the work, by the key (checks.go).
	release, err := s.held.hold(s.o.Store, id.fingerprint, user, name, id.user == "", s.o.Limits.PlayersPerUser, s.botNames(user))
	if err != nil {
		return fail(refused(err, "upload refused", log))
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
		fail(status, "%s; nothing was stored", verdict(problems.String(), status))
		return status, "check failed"
	}
	if id.user == "" {
		// Another session of this key may have claimed a name meanwhile
		// (the check takes seconds): the upload was checked as user.NAME,
		// so it is stored only under the name the key now holds.
		bound, err := s.o.Store.Claim(id.fingerprint, user)
		if err != nil {
			return fail(claimStatus(err), "%v", err)
		}
		if bound != user {
			return fail(exitFailure, "your key was given the user name %s by another upload meanwhile; submit again (it will be %s.%s)", bound, bound, name)
		}
	}
	s.admit.Lock()
	if s.o.Admit != nil {
		var why bytes.Buffer
		if status := s.o.Admit(pid, src, &why); status != exitOK {
			s.admit.Unlock()
			sess.Stderr().Write(why.Bytes())
			log.Info("upload rejected", "event", "submit", "player", pid, "status", status)
			fail(status, "%s; nothing was stored", verdict(why.String(), status))
			return status, "admit failed"
		}
	}
	replaced, err := s.o.Store.Put(user, name, src)
	if err != nil {
		s.admit.Unlock()
		log.Error("upload not stored", "event", "error", "player", pid, "reason", oneLine(err.Error()))
		return fail(exitFailure, "storing the player failed; nothing changed")
	}
	if s.o.Changed != nil {
		s.o.Changed()
	}
	s.admit.Unlock()
	how := "is new"
	if replaced {
		how = "replaces the older version (kept in the history)"
	}
	fmt.Fprintf(sess, "upload stored: %s %s; every lobby offers it now.\n", pid, how)
	log.Info("upload accepted", "event", "submit", "player", pid, "bytes", len(src), "replaced", replaced)
	if wait {
		release() // the reservation is for storing; waiting holds nothing
		done()
		return s.o.WaitRated(ctx, pid, sess), ""
	}
	return exitOK, ""
}

// verdict is why a check refused an upload, in one line: the check's own
// last word on stderr when it said one (`squarebattle check` ends with
// its verdict), else what its exit status means.
func verdict(stderr string, status int) string {
	lines := strings.Split(strings.TrimRight(stderr, "\n"), "\n")
	last := strings.TrimSpace(lines[len(lines)-1])
	last = strings.TrimPrefix(last, "squarebattle: ")
	if last != "" {
		if len(last) > 300 {
			last = last[:300] + "…"
		}
		return engine.SafeText(strings.ToValidUTF8(last, "?"))
	}
	if status == exitBadInput {
		return "the script does not load (see above)"
	}
	return "the player misbehaved in its trial battle (see the report above)"
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

// listReplays lists the recorded battles id may have, newest first: each one's id,
// date and size, and from its summary (tui.ReadReplaySummary: a few
// kilobytes of each file at most) the game, the rounds played of the
// limit, how it ended and the players, in columns; the id comes first
// on each line, for scripts (`awk '{print $1}'`), and nothing else is
// written to stdout.
func (s *Server) listReplays(_ context.Context, sess gssh.Session, id identity, _ []string, _ *slog.Logger) (int, string) {
	var rows [][]string
	for _, r := range s.replaysOf(id, 100) { // the ones id may have (replays.go)
		sum := s.summary(r.ID)
		rows = append(rows, []string{r.ID, r.Saved.UTC().Format(time.DateTime) + " UTC", strconv.FormatInt(r.Bytes, 10) + " bytes",
			gameName(sum.Game), roundsOf(sum), sum.Result(), strings.Join(sum.Players, " vs ")})
	}
	if len(rows) == 0 {
		fmt.Fprintln(sess.Stderr(), "no replays yet: battles are saved here when they end")
		return exitOK, ""
	}
	writeLines(sess, columns(rows, map[int]bool{2: true})...)
	return exitOK, ""
}

// summary describes replay id; what cannot be read is "?".
func (s *Server) summary(id string) tui.ReplaySummary {
	path, err := s.o.Store.ReplayPath(id)
	if err != nil {
		return tui.ReplaySummary{Players: []string{"?"}}
	}
	sum, err := tui.ReadReplaySummary(path)
	if err != nil {
		return tui.ReplaySummary{Players: []string{"? (" + oneLine(err.Error()) + ")"}}
	}
	return sum
}

// gameName names a replay's game ("" is SquareBattle).
func gameName(g string) string {
	if g == "" {
		return "SquareBattle"
	}
	return g
}

// roundsOf is "played/limit", or what is known of it.
func roundsOf(sum tui.ReplaySummary) string {
	switch {
	case sum.Known && sum.Rounds > 0:
		return fmt.Sprintf("%d/%d rounds", sum.Round, sum.Rounds)
	case sum.Rounds > 0:
		return fmt.Sprintf("?/%d rounds", sum.Rounds)
	}
	return "? rounds"
}

// columns lays rows out in columns two spaces apart, by display width
// (names may be CJK or emoji), right-aligning the columns in right; the
// last column is not padded. Every cell is made safe to print.
func columns(rows [][]string, right map[int]bool) []string {
	var widths []int
	for _, r := range rows {
		for i, c := range r {
			r[i] = engine.SafeText(c)
			if i >= len(widths) {
				widths = append(widths, 0)
			}
			widths[i] = max(widths[i], uniseg.StringWidth(r[i]))
		}
	}
	out := make([]string, 0, len(rows))
	for _, r := range rows {
		var b strings.Builder
		for i, c := range r {
			pad := strings.Repeat(" ", widths[i]-uniseg.StringWidth(c))
			switch {
			case i == len(r)-1:
				b.WriteString(c)
			case right[i]:
				b.WriteString(pad + c + "  ")
			default:
				b.WriteString(c + pad + "  ")
			}
		}
		out = append(out, strings.TrimRight(b.String(), " "))
	}
	return out
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
