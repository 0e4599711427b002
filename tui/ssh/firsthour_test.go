package ssh

import (
	"bytes"
	"compress/gzip"
	"context"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/gdamore/tcell/v2"
	"github.com/rivo/uniseg"

	"github.com/squarebattle/squarebattle/tui"
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
			"squarebattle: upload of alice.three refused: you hold or are submitting 2 players, this server's limit (serve.players_per_user); submit under one of their names to replace it"},
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

// writeReplay lays a replay file (a gzip stream whose first line is
// header) and, when summary is not "", the summary the hall writes beside
// it, into the store's replay folder.
func writeReplay(t *testing.T, ts *testServer, id, header, summary string, mtime time.Time) {
	t.Helper()
	path := filepath.Join(ts.store.ReplayDir(), id+".sbr")
	var buf bytes.Buffer
	gz := gzip.NewWriter(&buf)
	gz.Write([]byte(header + "\n{\"r\":1}\n"))
	gz.Close()
	if err := os.WriteFile(path, buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	if summary != "" {
		if err := os.WriteFile(path+".json", []byte(summary), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	os.Chtimes(path, mtime, mtime)
	if err := ts.store.NoteReplay(path, true, "", ""); err != nil { // a featured battle's: anybody's
		t.Fatal(err)
	}
}

// TestReplaysSayWhatWasPlayed: replays lists, besides each replay's id,
// date and size, its game, rounds, result and players, from the summary
// the hall wrote beside it or, without one, the replay's header line (no
// result then); columns line up by display width with CJK and emoji
// names; names a file holds are escaped; a file that is not a replay, or
// whose header is past the bound, is listed with question marks.
func TestReplaysSayWhatWasPlayed(t *testing.T) {
	ts := startServer(t, nil)
	now := time.Now()
	writeReplay(t, ts, "20260101-120000-1", `{"squarebattle_replay":1,"rounds":500,"players":[{"name":"Explorer"},{"name":"Pinwheel"}]}`,
		`{"players":["Explorer","Pinwheel"],"winner":"Pinwheel","round":412,"rounds":500,"over":true}`, now.Add(-4*time.Minute))
	writeReplay(t, ts, "20260101-120500-2", `{"squarebattle_replay":1,"game":"snake","rounds":300,"players":[{"name":"忍者 Ninja"},{"name":"🐍 Hiss\u001b[2J"}]}`,
		"", now.Add(-3*time.Minute))
	writeReplay(t, ts, "20260101-121000-3", `{"squarebattle_replay":1,"rounds":1000,"players":[{"name":"A"},{"name":"B"},{"name":"C"}]}`,
		`{"players":["A","B","C"],"round":37,"rounds":1000,"over":false}`, now.Add(-2*time.Minute))
	writeReplay(t, ts, "20260101-121500-4", `{"squarebattle_replay":1,"rounds":10,"pad":"`+strings.Repeat("x", 300<<10)+`"}`, "", now.Add(-time.Minute))
	os.WriteFile(filepath.Join(ts.store.ReplayDir(), "junk.sbr"), []byte("not a replay"), 0o644)
	ts.store.NoteReplay(filepath.Join(ts.store.ReplayDir(), "junk.sbr"), true, "", "")

	out, errOut, st := run(t, dial(t, ts.addr, "x", nil), "replays", nil)
	if st != 0 {
		t.Fatalf("replays: status %d %q", st, errOut)
	}
	lines := strings.Split(strings.TrimRight(out, "\n"), "\n")
	if len(lines) != 5 {
		t.Fatalf("replays:\n%s", out)
	}
	want := map[string][]string{
		"20260101-120000-1": {"SquareBattle", "412/500 rounds", "won by Pinwheel", "Explorer vs Pinwheel"},
		"20260101-120500-2": {"snake", "?/300 rounds", "?", `忍者 Ninja vs 🐍 Hiss\x1b[2J`},
		"20260101-121000-3": {"SquareBattle", "37/1000 rounds", "stopped", "A vs B vs C"},
		"20260101-121500-4": {"? rounds", "?"},
		"junk":              {"? rounds", "?"},
	}
	row := regexp.MustCompile(`^(\S+)\s+(\S+ \S+ UTC)\s+(\d+ bytes)  (\S+)\s+(\S+ rounds)\s+(\S+(?: by \S+)?)\s+(.*)$`)
	var starts []int
	for i, l := range lines {
		if strings.ContainsRune(l, 0x1b) {
			t.Errorf("line %d holds a raw ESC: %q", i, l)
		}
		id, _, _ := strings.Cut(l, " ")
		for _, w := range want[id] {
			if !strings.Contains(l, w) {
				t.Errorf("%s: no %q in %q", id, w, l)
			}
		}
		delete(want, id)
		// Where each column starts (the size: ends), in display cells:
		// the same on every line.
		m := row.FindStringSubmatchIndex(l)
		if m == nil {
			t.Errorf("line %d is not in columns: %q", i, l)
			continue
		}
		at := []int{uniseg.StringWidth(l[:m[4]]), uniseg.StringWidth(l[:m[7]]), uniseg.StringWidth(l[:m[8]]),
			uniseg.StringWidth(l[:m[10]]), uniseg.StringWidth(l[:m[12]]), uniseg.StringWidth(l[:m[14]])}
		if starts == nil {
			starts = at
		} else if fmt.Sprint(at) != fmt.Sprint(starts) {
			t.Errorf("line %d's columns are at %v, the first line's at %v:\n%s", i, at, starts, out)
		}
	}
	if len(want) > 0 {
		t.Errorf("not listed: %v\n%s", want, out)
	}
	if !strings.HasPrefix(lines[0], "junk") && !strings.HasPrefix(lines[0], "20260101-121500-4") {
		t.Errorf("not newest first:\n%s", out)
	}
}

// whoUI is a session runner that shows, at every key, who the session
// is now (Whoami) and whether it may read alice.hunter's log (MayRead).
func whoUI(ctx context.Context, scr tcell.Screen, o tui.SessionOptions) error {
	if err := scr.Init(); err != nil {
		return err
	}
	defer scr.Fini()
	draw := func() {
		scr.Clear()
		who := o.User
		if o.Whoami != nil {
			who = o.Whoami()
		}
		line := fmt.Sprintf("who=%s reads=%v account=%v.", who, o.MayRead("alice.hunter"), o.Account != "")
		for i, r := range line {
			scr.SetContent(i, 0, r, nil, tcell.StyleDefault)
		}
		scr.Sync()
	}
	draw()
	for {
		ev := scr.PollEvent()
		switch ev := ev.(type) {
		case nil:
			return nil
		case *tcell.EventKey:
			if ev.Rune() == 'q' {
				return nil
			}
			draw()
		}
		if ctx.Err() != nil {
			return nil
		}
	}
}

// TestSessionSeesItsNewName: a terminal session opened before the key's
// first submit (under the provisional name, reading no upload's log) is,
// after a submit from another connection and without reconnecting, the
// user the submit named, and reads that user's own players' logs; help
// in a later command says so too.
func TestSessionSeesItsNewName(t *testing.T) {
	ts := startServer(t, func(o *Options) { o.Session = whoUI })
	key := newKey(t)
	early := dial(t, ts.addr, "alice", key)
	tm := openTerminal(t, early, "xterm", 80, 24, "")
	tm.waitFor(t, "who=alice~")
	tm.waitFor(t, "reads=false")
	if _, e, st := run(t, dial(t, ts.addr, "alice", key), "submit hunter", []byte("function run() end")); st != 0 {
		t.Fatalf("submit: %d %q", st, e)
	}
	tm.in.Write([]byte("x"))
	tm.waitFor(t, "who=alice reads=true account=true.")
	if out, _, _ := run(t, early, "help", nil); !strings.Contains(out, "user alice.") {
		t.Errorf("help on the early connection: %q", out)
	}
	tm.in.Write([]byte("q"))
	tm.wait(t)
}
