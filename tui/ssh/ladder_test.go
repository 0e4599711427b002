package ssh

import (
	"context"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gdamore/tcell/v2"
	"github.com/rivo/uniseg"

	"github.com/squarebattle/squarebattle/engine/ladder"
	"github.com/squarebattle/squarebattle/engine/ladder/laddertest"
	"github.com/squarebattle/squarebattle/tui"
)

// hostileName is 10,000 characters of escapes, controls and invisible
// characters.
var hostileName = strings.Repeat("A\x1b[2J\x1b]0;pwned\x07\n\r\t\u202e\u200b\xff", 10000/22+1)[:10000]

// testLadder is a real ladder on the memory store, played by a fake
// outcome generator (laddertest.Sim, no Lua): shipped players, alice's
// and bob's uploads (both have a "snaky" on snake's ladder), a player
// with a hostile name, and alice's hunter handed in twice.
func testLadder(t *testing.T) *ladder.Ladder {
	t.Helper()
	ctx := context.Background()
	var mu sync.Mutex
	clock := time.Date(2026, 11, 28, 9, 0, 0, 0, time.UTC)
	now := func() time.Time {
		mu.Lock()
		defer mu.Unlock()
		clock = clock.Add(time.Minute)
		return clock
	}
	l, err := ladder.New(ladder.Options{Store: ladder.NewMemory(), Rand: rand.New(rand.NewPCG(1, 2)), Now: now,
		Games: []ladder.Game{{Teams: 3}, {Name: "snake", Teams: 2, Columns: []string{"length"}}}})
	if err != nil {
		t.Fatal(err)
	}
	sim := &laddertest.Sim{Ladder: l, Strength: map[ladder.PlayerID]float64{}, Faulty: map[ladder.PlayerID]bool{},
		Replay: func(b ladder.Battle) string {
			if b.ID%4 == 0 {
				return "" // pruned
			}
			return fmt.Sprintf("ladder-%d.sbr", b.ID)
		}}
	for i, p := range []struct{ game, name, owner, display string }{
		{"", "explorer", "", "Explorer"}, {"", "hunter", "", "Hunter"}, {"", "pinwheel", "", "Pinwheel"},
		{"", "alice.hunter", "alice", "Hunter Prime"}, {"", "bob.blitz", "bob", "Blitz"}, {"", "evil.x", "evil", hostileName},
		{"", "dana.crash", "dana", "Crash"},
		{"snake", "alice.snaky", "alice", "Snaky"}, {"snake", "bob.snaky", "bob", "Snaky Too"}, {"snake", "slither", "", "Slither"},
	} {
		got, err := l.Enter(ctx, p.game, p.name, p.owner, p.display, []byte(p.name))
		if err != nil {
			t.Fatal(err)
		}
		sim.Strength[got.ID] = float64(i % 5)
		sim.Faulty[got.ID] = p.name == "dana.crash"
	}
	for _, step := range []func() error{
		func() error { _, err := sim.Play(ctx, "", 20); return err },
		func() error {
			_, err := l.Enter(ctx, "", "alice.hunter", "alice", "Hunter Prime", []byte("v2"))
			return err
		},
		func() error { _, err := sim.Play(ctx, "", 20); return err },
		func() error { _, err := sim.Play(ctx, "snake", 10); return err },
	} {
		if err := step(); err != nil {
			t.Fatal(err)
		}
	}
	return l
}

// TestLadderCommands: `ladder` and `history` over a real SSH connection,
// as text and JSON, for each game; unknown games and players, ambiguous
// names and bad arguments are one line on stderr and exit status 2.
func TestLadderCommands(t *testing.T) {
	l := testLadder(t)
	ts := startServer(t, func(o *Options) { o.Ladder = tui.NewLadderView(l, tui.LadderViewOptions{}) })
	c := dial(t, ts.addr, "viewer", newKey(t))
	tests := []struct {
		cmd    string
		status int
		want   []string // in stdout, or in the stderr line when status is not 0
		not    []string // not in stdout
	}{
		{"ladder", 0, []string{"#  player", "Hunter Prime", "alice/hunter", "+-3sigma", "probation"}, []string{"Slither"}},
		{"ladder --game snake", 0, []string{"Slither", "alice/snaky", "bob/snaky"}, []string{"Explorer"}},
		{"ladder --game=Snake", 0, []string{"Slither"}, nil},
		{"ladder --game squarebattle", 0, []string{"Explorer"}, nil},
		{"ladder --game chess", 2, []string{`no game "chess" on the ladder (it has squarebattle, snake)`}, nil},
		{"ladder --bogus", 2, []string{"unknown option", "usage: ladder [--game G] [--json]"}, nil},
		{"ladder extra", 2, []string{`unexpected "extra"`}, nil},
		{"history alice/hunter", 0, []string{"Hunter Prime (alice/hunter), SquareBattle: rank", "versions (newest first):", "  v2", "plays now",
			"version v2", "recent battles", "ladder-", "(pruned)"}, []string{"-0.0", "+0.0"}},
		{"history alice.hunter", 0, []string{"Hunter Prime (alice/hunter)"}, nil},
		{"history hunter", 0, []string{"Hunter (hunter), SquareBattle"}, nil},
		{"history crash", 0, []string{"on probation", "the first problem: p.lua:4: attempt to call a nil value"}, nil},
		{"history --game snake slither", 0, []string{"Slither (slither), snake"}, nil},
		{"history snaky --game snake", 2, []string{"more than one player has that name", "alice/snaky, bob/snaky"}, nil},
		{"history alice/snaky --game snake", 0, []string{"Snaky (alice/snaky)"}, nil},
		{"history nobody", 2, []string{`no player "nobody" on the ladder of SquareBattle`, "ladder lists them"}, nil},
		{"history slither", 2, []string{`no player "slither"`}, nil},
		{"history", 2, []string{"which player?", "usage: history PLAYER [--game G] [--json]"}, nil},
		{"history hunter --game chess", 2, []string{`no game "chess"`}, nil},
	}
	for _, tt := range tests {
		t.Run(tt.cmd, func(t *testing.T) {
			out, errOut, st := run(t, c, tt.cmd, nil)
			if st != tt.status {
				t.Fatalf("status %d, want %d\nstdout %q\nstderr %q", st, tt.status, out, errOut)
			}
			got := out
			if tt.status != 0 {
				got = errOut
				if out != "" || strings.Count(errOut, "\n") != 1 || !strings.HasPrefix(errOut, "squarebattle: ") {
					t.Errorf("a refusal is one line on stderr, nothing on stdout: stdout %q stderr %q", out, errOut)
				}
			}
			for _, w := range tt.want {
				if !strings.Contains(got, w) {
					t.Errorf("no %q in:\n%s", w, got)
				}
			}
			for _, w := range tt.not {
				if strings.Contains(got, w) {
					t.Errorf("%q in:\n%s", w, got)
				}
			}
			checkText(t, out)
		})
	}
}

// checkText fails when text holds a control character other than line
// breaks, a bidi override or a zero-width character, or a line over 400
// columns.
func checkText(t *testing.T, text string) {
	t.Helper()
	for _, r := range text {
		if r != '\n' && (r < 0x20 || r == 0x7f || (r >= 0x80 && r < 0xa0) || r == '\u202e' || r == '\u200b' || r == 0xfffd) {
			t.Fatalf("the output holds %U:\n%q", r, text)
		}
	}
	for _, l := range strings.Split(text, "\n") {
		if w := uniseg.StringWidth(l); w > 400 {
			t.Errorf("a line is %d columns wide: %.100q…", w, l)
		}
	}
}

// TestLadderJSON: --json writes one object: the table's rows in rank
// order with the names as they are (a hostile one too, escaped by JSON,
// which writes bytes that are not UTF-8 as U+FFFD);
// a player's page with its versions, rating changes and battles, each
// battle with its replay ID unless it was pruned.
func TestLadderJSON(t *testing.T) {
	l := testLadder(t)
	ts := startServer(t, func(o *Options) { o.Ladder = tui.NewLadderView(l, tui.LadderViewOptions{}) })
	c := dial(t, ts.addr, "viewer", nil)

	out, errOut, st := run(t, c, "ladder --json", nil)
	if st != 0 || strings.Count(out, "\n") != 1 {
		t.Fatalf("ladder --json: status %d, %d lines, stderr %q", st, strings.Count(out, "\n"), errOut)
	}
	var board struct {
		Game    string
		Title   string
		Players int
		Rows    []struct {
			Rank      int
			Player    string
			Display   string
			Owner     string
			Rating    float64
			PlusMinus float64 `json:"plus_minus"`
			Battles   int
			Probation bool
		}
	}
	if err := json.Unmarshal([]byte(out), &board); err != nil {
		t.Fatal(err)
	}
	if board.Title != "SquareBattle" || board.Players != 7 || len(board.Rows) != 7 {
		t.Fatalf("the table: %+v", board)
	}
	hostile, probation := false, false
	for i, r := range board.Rows {
		if r.Rank != i+1 || (i > 0 && r.Rating > board.Rows[i-1].Rating) || r.PlusMinus <= 0 {
			t.Errorf("row %d out of order or without ±: %+v", i, r)
		}
		hostile = hostile || r.Display == strings.ToValidUTF8(hostileName, "\ufffd") // JSON's own replacement
		probation = probation || (r.Player == "dana/crash" && r.Probation)
	}
	if !hostile || !probation {
		t.Errorf("the hostile name is not given as it is (%v), or dana/crash not on probation (%v)", hostile, probation)
	}

	out, _, st = run(t, c, "history alice/hunter --json", nil)
	var h struct {
		Player   struct{ Player, Display string }
		Versions []struct {
			Version int
			Hash    string
			Current bool
		}
		Changes []struct {
			Kind    string
			Version int
			Before  float64
			After   float64
		}
		Battles []struct {
			Battle    int64
			Place     int
			Teams     int
			Change    float64
			Replay    string
			Opponents []struct{ Player string }
		}
	}
	if err := json.Unmarshal([]byte(out), &h); st != 0 || err != nil {
		t.Fatalf("history --json: status %d, %v: %q", st, err, out)
	}
	if h.Player.Player != "alice/hunter" || len(h.Versions) != 2 || !h.Versions[0].Current || h.Versions[0].Version != 2 || h.Versions[0].Hash != ladder.Hash([]byte("v2")) {
		t.Errorf("player and versions: %+v %+v", h.Player, h.Versions)
	}
	versions := 0
	for _, ch := range h.Changes {
		if ch.Kind == "version" {
			versions++
		}
	}
	if versions != 2 || len(h.Battles) == 0 {
		t.Errorf("%d version changes (want 2), %d battles", versions, len(h.Battles))
	}
	pruned := 0
	for _, b := range h.Battles {
		if b.Place < 1 || b.Place > b.Teams || len(b.Opponents) != b.Teams-1 {
			t.Errorf("battle %+v", b)
		}
		switch {
		case b.Battle%4 == 0 && b.Replay != "":
			t.Errorf("battle %d was pruned, yet has replay %q", b.Battle, b.Replay)
		case b.Battle%4 == 0:
			pruned++
		case b.Replay != fmt.Sprintf("ladder-%d", b.Battle):
			t.Errorf("battle %d: replay %q", b.Battle, b.Replay)
		}
	}
	t.Logf("%d battles, %d of them pruned", len(h.Battles), pruned)
}

// TestLadderHelp: help lists ladder and history when the server runs a
// ladder, and not otherwise; without one they say so, exit status 2.
func TestLadderHelp(t *testing.T) {
	l := testLadder(t)
	with := startServer(t, func(o *Options) { o.Ladder = tui.NewLadderView(l, tui.LadderViewOptions{}) })
	without := startServer(t, nil)
	for _, c := range []struct {
		ts     *testServer
		listed bool
	}{{with, true}, {without, false}} {
		cl := dial(t, c.ts.addr, "viewer", nil)
		out, _, _ := run(t, cl, "help", nil)
		if got := strings.Contains(out, " ladder [--game G] [--json]") && strings.Contains(out, " history PLAYER [--game G] [--json]"); got != c.listed {
			t.Errorf("help lists the ladder's commands: %v, want %v:\n%s", got, c.listed, out)
		}
		if !c.listed {
			_, errOut, st := run(t, cl, "ladder", nil)
			if st != 2 || errOut != "squarebattle: this server runs no ladder\n" {
				t.Errorf("ladder without one: status %d, %q", st, errOut)
			}
		}
	}
}

// TestLadderReplayDoor: a terminal session gets the server's ladder, and
// its OpenReplay (a ladder battle's replay from a player's page) hands out
// a replay as get does: anybody's when it was noted as anybody's, never
// another key's private one.
func TestLadderReplayDoor(t *testing.T) {
	opened := make(chan func(string) error, 1)
	view := tui.NewLadderView(testLadder(t), tui.LadderViewOptions{})
	ts := startServer(t, func(o *Options) {
		o.Ladder = view
		o.Session = func(ctx context.Context, scr tcell.Screen, so tui.SessionOptions) error {
			if so.Ladder != view {
				t.Error("the session was not given the server's ladder")
			}
			opened <- func(id string) error { _, err := so.OpenReplay(id); return err }
			return nil
		}
	})
	saveReplay(t, ts.store, "ladder-1", true, "", false)
	saveReplay(t, ts.store, "private-1", false, "SHA256:someoneelse", false)
	c := dial(t, ts.addr, "viewer", newKey(t))
	tm := openTerminal(t, c, "xterm", 80, 24, "")
	open := <-opened
	if err := open("ladder-1"); err != nil {
		t.Errorf("a replay noted as anybody's: %v", err)
	}
	if err := open("private-1"); err == nil {
		t.Error("another key's private replay opened")
	}
	if err := open("../users"); err == nil {
		t.Error("a path opened as a replay")
	}
	tm.wait(t)
}
