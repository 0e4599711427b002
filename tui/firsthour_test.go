package tui

import (
	"errors"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/gdamore/tcell/v2"
)

// ownBattle is the ID of the battle user owns in h ("" none).
func ownBattle(h *Hall, user string) string {
	for _, b := range h.Battles(user) {
		if b.Owner == user && !b.Queued {
			return b.ID
		}
	}
	return ""
}

// roundOf is the round battle id has reached.
func roundOf(h *Hall, id string) int {
	b, _ := battleInfo(h, "", id)
	return b.Round
}

// TestOwnerLeavesSharedBattle: the owner's Esc leaves a shared battle
// that others watch without ending it for them: it plays on (un-paused)
// and stays listed; the owner is told so, may come back to it with the
// owner's keys, and stops it for everyone only with x, confirmed. When the
// owner has left, the last viewer leaving stops it and frees its slot.
func TestOwnerLeavesSharedBattle(t *testing.T) {
	t.Parallel() // a session of its own, mostly waiting on the battle's pace and frames

	src := newScriptSource(t)
	h := newHall(t, HallOptions{Source: src, MaxPrivate: 1, Settings: Settings{Size: 16, Rounds: 100_000, Speed: 20, FPS: 30}})
	alice := join(t, h, 100, 30, SessionOptions{User: "alice", Start: StartLobby, CanStart: true}, nil)
	startInLobby(t, alice, src)
	alice.waitText("(yours, private: s shares)")
	id := ownBattle(h, "alice")
	alice.keys("s")
	alice.waitText("shared: others can watch battle " + id)
	bob := join(t, h, 100, 30, SessionOptions{User: "bob", Start: StartWatch, WatchID: id}, nil)
	bob.waitText("(watching)")
	alice.keys(" ") // paused: leaving must not leave it paused for ever
	bob.waitText("PAUSED")

	alice.key(tcell.KeyEscape)
	alice.waitText("battle " + id + " goes on for its viewer")
	alice.waitText("Watch the featured battle")
	at := roundOf(h, id)
	waitHall(t, "the battle to play on for bob", func() bool { return roundOf(h, id) > at+5 })
	if _, listed := battleInfo(h, "bob", id); !listed {
		t.Fatal("the battle its owner left is gone for its viewer")
	}
	if bob.screen() == "" || strings.Contains(bob.screen(), "this battle was stopped") {
		t.Fatalf("bob's battle stopped:\n%s", bob.screen())
	}

	// Back to it: the owner's keys again; x asks, x again stops it for all.
	alice.keys("j")
	alice.key(tcell.KeyEnter)
	alice.waitText("live battles")
	alice.keys("j")
	alice.key(tcell.KeyEnter)
	alice.waitText("battle " + id)
	alice.keys("x")
	alice.waitText("stop this battle for everyone watching?")
	alice.keys("j") // any other key keeps it
	at = roundOf(h, id)
	waitHall(t, "the battle to play on after a no", func() bool { return roundOf(h, id) > at+2 })
	alice.keys("x")
	alice.waitText("stop this battle for everyone watching?")
	alice.keys("x")
	alice.waitText("battle " + id + " stopped for everyone")
	bob.waitText("this battle was stopped")
	if _, listed := battleInfo(h, "bob", id); listed {
		t.Error("a battle stopped for everyone is still listed")
	}

	// The owner leaves, then the last viewer: the battle stops, its slot
	// goes to the next.
	alice.keys("q")
	alice = join(t, h, 100, 30, SessionOptions{User: "alice", Start: StartLobby, CanStart: true}, nil)
	startInLobby(t, alice, src)
	alice.waitText("(yours, private: s shares)")
	id = ownBattle(h, "alice")
	alice.keys("s")
	bob.key(tcell.KeyEscape)
	bob.waitText("Watch the featured battle")
	bob.keys("j")
	bob.key(tcell.KeyEnter)
	bob.waitText("live battles")
	bob.keys("j")
	bob.key(tcell.KeyEnter)
	bob.waitText("battle " + id)
	alice.key(tcell.KeyEscape)
	alice.waitText("goes on for its viewer")
	bob.key(tcell.KeyEscape)
	waitHall(t, "the battle nobody watches to stop", func() bool { _, listed := battleInfo(h, "bob", id); return !listed })
	h.mu.Lock()
	running, held := h.running, len(h.perUser)
	h.mu.Unlock()
	if running != 0 || held != 0 {
		t.Errorf("after everyone left: %d slots held, %d accounts counted", running, held)
	}
}

// TestPrivateBattlesPerUser: one account (whatever name each session
// logged in with) holds at most MaxPerUser private battles, running or
// queued: a second session of the same key is told so, another user is
// not held up, and ending the first lets the second start.
func TestPrivateBattlesPerUser(t *testing.T) {
	src := newScriptSource(t)
	h := newHall(t, HallOptions{Source: src, MaxPrivate: 3, MaxPerUser: 1})
	a1 := join(t, h, 100, 30, SessionOptions{User: "alice~k1", Account: "SHA256:k1", Start: StartLobby, CanStart: true}, nil)
	startInLobby(t, a1, src)
	a1.waitText("(yours, private")
	a2 := join(t, h, 100, 30, SessionOptions{User: "al~k1", Account: "SHA256:k1", Start: StartLobby, CanStart: true}, nil)
	startInLobby(t, a2, src)
	a2.waitText("you have a private battle already, the limit per user")
	carol := join(t, h, 100, 30, SessionOptions{User: "carol", Account: "SHA256:k2", Start: StartLobby, CanStart: true}, nil)
	startInLobby(t, carol, src)
	carol.waitText("(yours, private")
	// The queue counts too.
	// (Long enough to last: a battle that ends gives its place back, and
	// an unthrottled one of 10 rounds could end before the next request.)
	if _, err := h.requestFor("dave", "SHA256:k3", Setup{Players: []string{"explorer"}, Size: 10, Rounds: 1_000_000}, pace{}); err != nil {
		t.Fatal(err)
	}
	var ue *UserCapError
	if _, err := h.requestFor("dave", "SHA256:k3", Setup{Players: []string{"explorer"}, Size: 10, Rounds: 10}, pace{}); !errors.As(err, &ue) || !errors.Is(err, ErrOverCap) {
		t.Errorf("dave's second request: %v, want a UserCapError", err)
	}
	a1.key(tcell.KeyEscape)
	a1.waitText("Watch the featured battle")
	a2.key(tcell.KeyEscape) // back in the lobby's battle list: start again
	a2.waitText("Watch the featured battle")
	a2.keys("jj")
	a2.key(tcell.KeyEnter)
	a2.waitText("Start Battle")
	a2.keys("s")
	a2.waitText("(yours, private")
}

// TestSessionTakesUpItsName: a session that began under its key's
// provisional name takes up the user name the key is given meanwhile (an
// upload from another session): the menu shows it, and its battles and
// queued requests are owned by it, with the owner's keys, without
// reconnecting.
func TestSessionTakesUpItsName(t *testing.T) {
	t.Parallel() // a session of its own, mostly waiting on the battle's pace and frames

	src := newScriptSource(t)
	h := newHall(t, HallOptions{Source: src, MaxPrivate: 1})
	var name atomic.Pointer[string]
	prov := "alice~k1"
	name.Store(&prov)
	whoami := func() string { return *name.Load() }
	blocker := join(t, h, 100, 30, SessionOptions{User: "zed", Start: StartLobby, CanStart: true}, nil)
	startInLobby(t, blocker, src)
	blocker.waitText("(yours, private")

	s := join(t, h, 100, 30, SessionOptions{User: prov, Whoami: whoami, Account: "SHA256:k1", Start: StartLobby, CanStart: true}, nil)
	startInLobby(t, s, src)
	s.waitText("you are number 1 in the queue")
	bound := "alice"
	name.Store(&bound)
	waitHall(t, "the queued request renamed", func() bool {
		bs := h.Battles("alice")
		return len(bs) > 0 && bs[len(bs)-1].Queued && bs[len(bs)-1].Owner == "alice"
	})
	blocker.key(tcell.KeyEscape) // a slot frees up: the battle starts as alice's
	s.waitText("(yours, private: s shares)")
	id := ownBattle(h, "alice")
	if id == "" {
		t.Fatalf("alice owns no battle: %+v", h.Battles("alice"))
	}
	if _, seen := battleInfo(h, prov, id); seen {
		t.Error("the provisional name still sees the battle")
	}
	s.keys(" ")
	s.waitText("PAUSED")
	s.key(tcell.KeyEscape)
	menu := s.waitText("Watch the featured battle")
	if first, _, _ := strings.Cut(menu, "\n"); !strings.HasSuffix(first, " alice") {
		t.Errorf("the menu does not show the new name:\n%s", menu)
	}
	if strings.Contains(menu, prov) {
		t.Errorf("the menu still shows %s:\n%s", prov, menu)
	}
}

// TestHelpScreenShowsTheRealCommand: the menu's help says how to hand in
// a player with the command that reaches this server.
func TestHelpScreenShowsTheRealCommand(t *testing.T) {
	h := newHall(t, HallOptions{})
	s := join(t, h, 100, 30, SessionOptions{Reach: "ssh -p 2200 192.0.2.7"}, nil)
	s.waitText("Watch the featured battle")
	s.keys("jjjjj")
	s.key(tcell.KeyEnter)
	text := s.waitText("Ctrl-C quits")
	flat := strings.Join(strings.Fields(text), " ")
	if !strings.Contains(flat, "ssh -p 2200 192.0.2.7 submit NAME < player.lua") || strings.Contains(flat, "ssh HOST") {
		t.Errorf("help:\n%s", text)
	}
}
