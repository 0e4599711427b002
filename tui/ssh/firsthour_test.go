package ssh

import (
	"net"
	"strings"
	"testing"
)

// lastLine is the last line of out.
func lastLine(out string) string {
	lines := strings.Split(strings.TrimRight(out, "\n"), "\n")
	return lines[len(lines)-1]
}

// TestSubmitSaysWhatBecameOfIt: every submit ends with one line that says
// whether the upload was stored (and as what) or refused (and why), with
// check's exit status: a player that loads but misbehaves in its trial
// battle is refused in so many words, not only by its status.
func TestSubmitSaysWhatBecameOfIt(t *testing.T) {
	ts := startServer(t, func(o *Options) { o.Limits.PlayersPerUser = 2 })
	c := dial(t, ts.addr, "alice", newKey(t))
	good := []byte("function run() end")
	tests := []struct {
		name, cmd string
		src       []byte
		status    int
		last      string // the last line: of stdout when stored, of stderr when refused
	}{
		{"runtime errors", "submit spin", []byte("function run() error('x') end"), 1,
			"squarebattle: upload of alice.spin refused: alice.spin.lua: 1 kind of problem while playing (0 timeouts, 3 errors); nothing was stored"},
		{"does not load", "submit broken", []byte("return 1"), 2,
			"squarebattle: upload of alice.broken refused: alice.broken.lua:1: no function; nothing was stored"},
		{"bad name", "submit Upper", good, 2,
			`squarebattle: upload refused: player name "Upper": has upper case: names are lower case only; use "upper"`},
		{"empty", "submit empty", []byte{}, 2,
			"squarebattle: upload of alice.empty refused: the upload is empty: submit NAME < FILE.lua"},
		{"stored", "submit hunter", good, 0, "upload stored: alice.hunter is new; every lobby offers it now."},
		{"replaced", "submit hunter.lua", good, 0,
			"upload stored: alice.hunter replaces the older version (kept in the history); every lobby offers it now."},
		{"second", "submit two", good, 0, "upload stored: alice.two is new; every lobby offers it now."},
		{"over the cap", "submit three", good, 1,
			"squarebattle: upload of alice.three refused: you hold 2 players, this server's limit (serve.players_per_user); submit under one of their names to replace it"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			out, errOut, st := run(t, c, tt.cmd, tt.src)
			got := lastLine(out)
			if tt.status != 0 {
				got = lastLine(errOut)
				if strings.Contains(out, "stored") {
					t.Errorf("a refused upload's stdout says stored: %q", out)
				}
			}
			if st != tt.status || got != tt.last {
				t.Fatalf("%s: status %d, last line %q\nstdout %q\nstderr %q\nwant status %d, last line %q", tt.cmd, st, got, out, errOut, tt.status, tt.last)
			}
		})
	}
	if ts.store.Has("alice", "spin") || ts.store.Has("alice", "broken") {
		t.Error("a refused upload was stored")
	}
}

// TestHelpShowsTheRealCommand: help's examples are the ssh command that
// reaches this server: its port and the address the client connected
// to, for every command.
func TestHelpShowsTheRealCommand(t *testing.T) {
	ts := startServer(t, nil)
	_, port, _ := net.SplitHostPort(ts.addr)
	out, _, st := run(t, dial(t, ts.addr, "alice", newKey(t)), "help", nil)
	if st != 0 {
		t.Fatalf("help: status %d", st)
	}
	cmd := "ssh -p " + port + " 127.0.0.1"
	for _, want := range []string{
		"ssh -t -p " + port + " 127.0.0.1 ",
		"ssh -t -p " + port + " 127.0.0.1 watch [ID]",
		cmd + " submit NAME < FILE.lua",
		cmd + " replays",
		"ssh -p " + port + " NAME@127.0.0.1",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("help lacks %q:\n%s", want, out)
		}
	}
	if strings.Contains(out, "ssh HOST") {
		t.Errorf("help still says ssh HOST:\n%s", out)
	}
	for _, tt := range []struct{ addr, want string }{
		{"127.0.0.1:2222", "ssh -p 2222 127.0.0.1"},
		{"192.0.2.7:22", "ssh 192.0.2.7"},
		{"[2001:db8::1]:2200", "ssh -p 2200 2001:db8::1"},
		{"[::ffff:192.0.2.7]:2222", "ssh -p 2222 192.0.2.7"},
		{"[fe80::1%eth0]:2222", "ssh -p 2222 HOST"},
		{"0.0.0.0:2222", "ssh -p 2222 HOST"},
	} {
		a, err := net.ResolveTCPAddr("tcp", tt.addr)
		if err != nil {
			t.Fatal(err)
		}
		if got := reach(a); got != tt.want {
			t.Errorf("reach(%s) = %q, want %q", tt.addr, got, tt.want)
		}
	}
}
