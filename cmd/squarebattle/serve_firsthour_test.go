package main

import (
	"net"
	"strings"
	"testing"
	"time"
)

// lastLine is the last line of out.
func lastLine(out string) string {
	lines := strings.Split(strings.TrimRight(out, "\n"), "\n")
	return lines[len(lines)-1]
}

// TestServeFirstHour: what a new user meets in a real arena (the real
// check, in child processes): a player that loads but misbehaves is
// refused in so many words on the last line, a good one is stored under
// the name the last line gives, an upper-case name is told to be lower
// case, help shows the command that reaches this server, and replays
// say what was played and how it ended.
func TestServeFirstHour(t *testing.T) {
	if testing.Short() {
		t.Skip("runs check in child processes")
	}
	cfg := serveConfig(t)
	cfg.Serve.FeaturedSize, cfg.Serve.FeaturedRounds, cfg.TUI.Speed = 12, 30, 0
	addr := startArena(t, cfg)
	_, port, _ := net.SplitHostPort(addr)
	c := sshClient(t, addr, "alice")

	spin := []byte(`return { name = "Spin", run = function() while true do end end }`)
	out, errOut, st := sshRun(t, c, "submit spin", spin)
	last := lastLine(errOut)
	if st != 1 || !strings.HasPrefix(last, "squarebattle: upload of alice.spin refused: alice.spin.lua: ") ||
		!strings.Contains(last, "problem while playing") || !strings.HasSuffix(last, "; nothing was stored") {
		t.Errorf("a player with runtime errors: status %d, last line %q\nstdout %s\nstderr %s", st, last, out, errOut)
	}
	out, errOut, st = sshRun(t, c, "submit southpaw", []byte(`return { name = "Southpaw", run = function(self) return MOVE, S end }`))
	if last := lastLine(out); st != 0 || last != "upload stored: alice.southpaw is new; every lobby offers it now." {
		t.Errorf("a good player: status %d, last line %q\nstderr %s", st, last, errOut)
	}
	_, errOut, st = sshRun(t, c, "submit Southpaw", []byte("return {}"))
	if last := lastLine(errOut); st != 2 || !strings.HasSuffix(last, `has upper case: names are lower case only; use "southpaw"`) {
		t.Errorf("submit Southpaw: status %d, last line %q", st, last)
	}

	out, _, _ = sshRun(t, c, "help", nil)
	for _, want := range []string{"ssh -p " + port + " 127.0.0.1 submit NAME < FILE.lua", "ssh -t -p " + port + " 127.0.0.1 watch [ID]"} {
		if !strings.Contains(out, want) {
			t.Errorf("help lacks %q:\n%s", want, out)
		}
	}

	// A featured battle of 30 rounds ends within seconds; its replay is
	// listed with what was played.
	deadline := time.Now().Add(60 * time.Second)
	for {
		out, _, _ = sshRun(t, c, "replays", nil)
		if strings.Contains(out, "30/30 rounds") || strings.Contains(out, "won by") {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("no finished replay listed after 60 s:\n%s", out)
		}
		time.Sleep(200 * time.Millisecond)
	}
	line := strings.Split(out, "\n")[0]
	for _, want := range []string{" bytes  ", "SquareBattle", " rounds", " vs "} {
		if !strings.Contains(line, want) {
			t.Errorf("replays line lacks %q: %q", want, line)
		}
	}
	if !strings.Contains(line, "won by ") && !strings.Contains(line, "tie") {
		t.Errorf("replays line says no result: %q", line)
	}
}
