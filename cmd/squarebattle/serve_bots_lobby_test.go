package main

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/squarebattle/squarebattle/engine/ladder"
	"github.com/squarebattle/squarebattle/tui"
)

// entry is the lobby's entry of id, and whether it lists one.
// The entries are read once: the lobby reloads as bots come and go, and
// a second read may list fewer.
func entry(src *playSource, id string) (tui.Entry, bool) {
	entries := src.Entries()
	i := slices.IndexFunc(entries, func(e tui.Entry) bool { return e.ID == id })
	if i < 0 {
		return tui.Entry{}, false
	}
	return entries[i], true
}

// twoPlayers is a scripts folder of two Lua players.
func twoPlayers(t *testing.T) string {
	dir := t.TempDir()
	for _, n := range []string{"north", "south"} {
		src := `return { name = "` + n + `", run = function(self) return MOVE, ` + strings.ToUpper(n[:1]) + ` end }`
		if err := os.WriteFile(filepath.Join(dir, n+".lua"), []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// TestServeRemoteBotLobby: a bot connected with `ssh HOST bot NAME` is a
// starting player of the lobby while connected, under serve.bots' clock,
// which hello and the connection's note state; each connection plays one
// battle at a time (busy, it is listed so and cannot be picked); a
// private battle fields it, the team table's round trips name it, and
// closing the battle gives the connection back.
func TestServeRemoteBotLobby(t *testing.T) {
	if testing.Short() {
		t.Skip("plays battles over SSH")
	}
	t.Parallel()
	cfg := serveConfig(t)
	cfg.Serve.Bots.RoundMS = 777
	cfg.Scripts = twoPlayers(t)
	cfg.Serve.FeaturedPlayers = "north, south" // not the bot: this test holds its connections
	addr, a := startLadderArena(t, cfg)
	alice := sshClient(t, addr, "alice")
	if _, errOut, status := sshRun(t, alice, "submit hunter", []byte(hunterSrc)); status != 0 {
		t.Fatalf("submit: %d %s", status, errOut)
	}
	if _, ok := entry(a.src, "alice.waiter"); ok {
		t.Fatal("the lobby lists a bot before it connects")
	}

	// One connection, held by a battle.
	first := connectBot(t, alice, "waiter", 0)
	waitFor(t, func() bool { e, ok := entry(a.src, "alice.waiter"); return ok && e.Starting() }, "the bot in the lobby")
	held, err := a.src.NewBattle(tui.Setup{Players: []string{"alice.waiter", "north"}, Size: 12, Rounds: 20, Seed: 3})
	if err != nil {
		t.Fatal(err)
	}
	defer held.Close()
	if got := first.roundMS.Load(); got != 777 {
		t.Errorf("hello's time.round_ms = %d, want serve.bots.round_ms 777", got)
	}
	waitFor(t, func() bool { e, ok := entry(a.src, "alice.waiter"); return ok && strings.Contains(e.Problem, "busy") },
		"the bot listed as busy while its one connection plays")
	if _, err := a.src.NewBattle(tui.Setup{Players: []string{"alice.waiter", "alice.hunter"}, Size: 12, Rounds: 20, Seed: 3}); err == nil ||
		!strings.Contains(err.Error(), "playing another battle") {
		t.Fatalf("a battle of a busy bot: %v", err)
	}
	note := first.stderr.String()
	if !strings.Contains(note, "network round trip to you") || !strings.Contains(note, "777 ms") {
		t.Errorf("the connection's note: %q", note)
	}

	if out, _, _ := sshRun(t, alice, "players", nil); !strings.Contains(out, "alice.waiter") || !strings.Contains(out, "remote bot, busy") {
		t.Errorf("players while the bot is busy:\n%s", out)
	}

	// A second connection: free, listed as a starting player.
	second := connectBot(t, alice, "waiter", 0)
	waitFor(t, func() bool { e, ok := entry(a.src, "alice.waiter"); return ok && e.Starting() }, "the bot's free connection")
	b, err := a.src.NewBattle(tui.Setup{Players: []string{"north", "alice.waiter"}, Size: 16, Rounds: 20, Seed: 3})
	if err != nil {
		t.Fatal(err)
	}
	for !b.Over() {
		b.Step()
	}
	s := b.Snapshot()
	if s.Teams[1].Retired.Round != 0 || s.Teams[1].Player.Name != "Remote Waiter" {
		t.Errorf("the bot's team: %+v", s.Teams[1])
	}
	trips := b.(tui.Timed).RoundTrips()
	if len(trips) != 2 || trips[0] != nil || trips[1] == nil || trips[1].Late || trips[1].D <= 0 {
		t.Errorf("round trips: %v", trips)
	} else {
		t.Logf("the bot's last round trip: %v", trips[1].D)
	}
	if got := second.rounds.Load(); s.Round != 20 || got < 20 {
		t.Errorf("the second connection played %d rounds, want 20; battle ended in round %d: %+v", got, s.Round, s.Teams)
	}
	b.Close()
	waitFor(t, func() bool { e, ok := entry(a.src, "alice.waiter"); return ok && e.Starting() }, "the connection given back")
	held.Close()

	// Gone: no longer listed.
	first.s.Close()
	second.s.Close()
	waitFor(t, func() bool { _, ok := entry(a.src, "alice.waiter"); return !ok }, "the bot gone from the lobby")
}

// TestServeRemoteBotFeatured: the featured battle picks a connected bot
// among the starting players like an upload.
func TestServeRemoteBotFeatured(t *testing.T) {
	if testing.Short() {
		t.Skip("plays battles over SSH")
	}
	t.Parallel()
	cfg := serveConfig(t)
	cfg.Scripts = twoPlayers(t) // with the bot, three starting players: the featured battle takes all
	cfg.Serve.FeaturedRounds = 10
	addr, _ := startLadderArena(t, cfg)
	b := connectBot(t, sshClient(t, addr, "alice"), "waiter", 0)
	waitFor(t, func() bool { return b.rounds.Load() >= 10 }, "the bot playing a featured battle")
}

// TestBotReloadsCoalesce: bots that come and go, however fast, make the
// hall's sessions reload their lobbies once per gap, never zero times
// after a change: every poke is followed by a run that starts after it.
func TestBotReloadsCoalesce(t *testing.T) {
	tests := []struct {
		name  string
		waves []int // pokes, then the pending run fires
		tail  int   // pokes after the last run
		runs  int   // runs once everything pending fired
	}{
		{"one change", []int{1}, 0, 1},
		{"a thousand changes at once", []int{1000}, 0, 1},
		{"a churn in waves", []int{500, 500, 500}, 0, 3},
		{"a change after the run", []int{1000}, 1, 2},
		{"nothing", nil, 0, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			runs := 0
			var pending []func()
			c := newCoalescer(reloadGap, func() { runs++ })
			c.after = func(_ time.Duration, f func()) { pending = append(pending, f) }
			fire := func() {
				fs := pending
				pending = nil
				for _, f := range fs {
					f()
				}
			}
			for _, n := range tt.waves {
				for range n {
					c.poke()
				}
				if len(pending) != 1 {
					t.Fatalf("%d pokes left %d runs pending, want 1", n, len(pending))
				}
				fire()
			}
			for range tt.tail {
				c.poke()
			}
			fire()
			if runs != tt.runs {
				t.Errorf("%d runs, want %d", runs, tt.runs)
			}
		})
	}
}

// TestBotEnteredOnce: a bot's link enters it on the ladder only when the
// ladder does not hold it as it would be entered, so that a client
// linking and dropping a bot over and over costs the ladder's store reads,
// not write transactions; a bot the ladder retired, or holds under
// another owner or name, is entered again.
func TestBotEnteredOnce(t *testing.T) {
	if testing.Short() {
		t.Skip("runs a ladder arena")
	}
	_, a := startLadderArena(t, ladderConfig(t))
	ctx := context.Background()
	l := a.ladder.l
	enter := func(id, owner, name string) ladder.Player {
		p, err := l.Enter(ctx, "", id, owner, name, botSource(id))
		if err != nil {
			t.Fatal(err)
		}
		return p
	}
	tests := []struct {
		name    string
		prepare func(id string)
		want    bool
	}{
		{"unknown", func(string) {}, false},
		{"entered", func(id string) { enter(id, "alice", "b") }, true},
		{"entered twice", func(id string) { enter(id, "alice", "b"); enter(id, "alice", "b") }, true},
		{"retired", func(id string) {
			if err := l.Retire(ctx, enter(id, "alice", "b").ID); err != nil {
				t.Fatal(err)
			}
		}, false},
		{"under another owner", func(id string) { enter(id, "bob", "b") }, false},
		{"under another name", func(id string) { enter(id, "alice", "other") }, false},
	}
	for i, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			id := fmt.Sprintf("alice.b%d", i)
			tt.prepare(id)
			if got := a.bots.entered(ctx, id, "alice", "b"); got != tt.want {
				t.Errorf("entered %v, want %v", got, tt.want)
			}
		})
	}
}
