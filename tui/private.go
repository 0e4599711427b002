package tui

import (
	"errors"
	"slices"
)

// Private battles: the ones sessions start. Each holds one of the hall's
// MaxPrivate running slots from its start until it ends or nobody watches
// it any more (its owner left, and so did whoever watched it with them);
// requests beyond wait in a queue, in order. Each account holds at most
// MaxPerUser battles and requests at once.

// ticket is a session's request for a private battle.
type ticket struct {
	owner   string // Hall.mu while queued
	account string
	su      Setup
	p       pace
	counted bool // counts against its account's cap (Hall.mu) until its battle does
	// set under Hall.mu once decided: the battle, or why it failed
	b   *liveBattle
	err error
}

// checkCaps refuses a private battle over the hall's caps. A board size
// of 0 (the game's rules choose it) counts as the size they choose.
func (h *Hall) checkCaps(su Setup) error {
	size := su.Size
	if size == 0 && h.o.MaxSize > 0 {
		var err error
		if size, err = h.seedSize(su); err != nil {
			return err
		}
	}
	if h.o.MaxSize > 0 && size > h.o.MaxSize {
		return &CapError{What: "board size", Asked: size, Cap: h.o.MaxSize}
	}
	if h.o.MaxRounds > 0 && su.Rounds > h.o.MaxRounds {
		return &CapError{What: "round limit", Asked: su.Rounds, Cap: h.o.MaxRounds}
	}
	if len(su.Players) > h.o.MaxTeams {
		return &CapError{What: "team count", Asked: len(su.Players), Cap: h.o.MaxTeams}
	}
	return nil
}

// seedSize is the board size the rules of su's game choose for its seed
// and teams (Game.SeedSize); an error when the game chooses none.
func (h *Hall) seedSize(su Setup) (int, error) {
	if gs, ok := h.o.Source.(GameSource); ok {
		for _, g := range gs.Games() {
			if g.ID == su.Game && g.SeedSize != nil {
				return g.SeedSize(su.Seed, len(su.Players))
			}
		}
	}
	return 0, errors.New("the board size must be at least 2")
}

// request asks for a private battle for owner, whose account is its name.
func (h *Hall) request(owner string, su Setup, p pace) (*ticket, error) {
	return h.requestFor(owner, owner, su, p)
}

// requestFor asks for a private battle for owner, counted against
// account's cap (MaxPerUser). It starts at once when a slot is free (on
// the caller's goroutine: building a battle compiles its players) or
// waits in the queue; ticketState tells which.
func (h *Hall) requestFor(owner, account string, su Setup, p pace) (*ticket, error) {
	if err := h.checkCaps(su); err != nil {
		return nil, err
	}
	t := &ticket{owner: owner, account: account, su: su, p: p}
	h.mu.Lock()
	if h.closed {
		h.mu.Unlock()
		return nil, ErrHallClosed
	}
	if n := h.perUser[account]; h.o.MaxPerUser > 0 && n >= h.o.MaxPerUser {
		h.mu.Unlock()
		h.log.Warn("private battle refused", "event", "limit", "owner", owner, "reason", "private battles per user (serve.private_battles_per_user)")
		return nil, &UserCapError{Have: n, Cap: h.o.MaxPerUser}
	}
	h.perUser[account]++
	t.counted = true
	if h.running >= h.o.MaxPrivate || len(h.queue) > 0 {
		h.queue = append(h.queue, t)
		h.mu.Unlock()
		h.log.Info("battle queued", "owner", owner, "players", titleOf(su.Players))
		return t, nil
	}
	h.running++
	h.mu.Unlock()
	h.begin(t)
	return t, nil
}

// begin builds and starts a ticket's battle; the ticket already holds a
// running slot, which a failure gives back.
func (h *Hall) begin(t *ticket) {
	b, err := h.launch(t.owner, t.su, t.p, false)
	h.mu.Lock()
	switch {
	case err != nil:
		t.err = err
		h.running--
		h.uncount(t.account, &t.counted)
	case h.closed || t.err != nil: // closed, or cancelled while building
		if t.err == nil {
			t.err = ErrHallClosed
		}
		h.running--
		h.uncount(t.account, &t.counted)
	default:
		b.slot = true
		b.account, b.counted, t.counted = t.account, t.counted, false
		if to, ok := h.renames[t.owner]; ok {
			b.owner.Store(&to)
		}
		t.b = b
		h.live[b.id] = b
		b = nil
	}
	h.mu.Unlock()
	if b != nil {
		_ = b.d.stop()
	}
	if err != nil {
		h.poke()
	}
}

// ticketState is the battle a ticket got (nil while it waits) or why it
// failed.
func (h *Hall) ticketState(t *ticket) (*liveBattle, error) {
	h.mu.Lock()
	defer h.mu.Unlock()
	return t.b, t.err
}

// position is a waiting ticket's place in the queue, from 1; 0 when it
// is not waiting.
func (h *Hall) position(t *ticket) int {
	h.mu.Lock()
	defer h.mu.Unlock()
	return slices.Index(h.queue, t) + 1
}

// cancel withdraws a ticket: out of the queue, or its battle stopped.
func (h *Hall) cancel(t *ticket) {
	h.mu.Lock()
	if i := slices.Index(h.queue, t); i >= 0 {
		h.queue = slices.Delete(h.queue, i, i+1)
		h.uncount(t.account, &t.counted)
	}
	b := t.b
	if b == nil && t.err == nil {
		t.err = errors.New("cancelled")
	}
	h.mu.Unlock()
	if b != nil {
		h.release(b)
	}
}

// leave is a session no longer watching b; own: the session that started
// it. A private battle goes on while anyone watches it: its owner leaving
// stops it only when nobody else watches (then it stops at once), and
// once its owner has left, the last viewer to go stops it. The owner
// leaving a battle others watch un-pauses it, so that it plays on to its
// end for them. It returns how many others still watch b when its owner
// leaves it to them (0 otherwise).
func (h *Hall) leave(b *liveBattle, own bool) int {
	if b.featured || b.d.stopped() {
		b.viewers.Add(-1)
		return 0
	}
	if own {
		b.left.Store(true) // before the count: a viewer whose leaving empties it sees it
	}
	n := b.viewers.Add(-1)
	switch {
	case !b.left.Load():
		return 0
	case n <= 0:
		why := "the last viewer left"
		if own {
			why = "owner left"
		}
		h.releaseWhy(b, why)
		return 0
	case own:
		if f := b.d.latest(); f.paused {
			b.d.send(command{kind: cmdPause})
		}
		h.logEvent("owner left", b, "viewers", n)
		return int(n)
	}
	return 0
}

// release stops b for everyone (saved when ReplayDir is set), and its
// slot goes to the next in the queue: its owner cancelled it, or stopped
// it for everyone.
func (h *Hall) release(b *liveBattle) { h.releaseWhy(b, "owner stopped it") }

func (h *Hall) releaseWhy(b *liveBattle, why string) {
	h.mu.Lock()
	if h.live[b.id] == b {
		delete(h.live, b.id)
	}
	h.freeSlot(b)
	h.mu.Unlock()
	if !b.d.stopped() {
		h.logEvent("battle stopped", b, "why", why)
	}
	_ = b.d.stop()
	h.saveSummary(b)
	h.poke()
}

// freeSlot gives back b's running slot and its place in its account's
// cap, once. Call with mu held.
func (h *Hall) freeSlot(b *liveBattle) {
	if b.slot {
		b.slot = false
		h.running--
	}
	h.uncount(b.account, &b.counted)
}

// uncount takes one battle or request of account off its cap, once (the
// flag it counted with says whether it still counts). Call with mu held.
func (h *Hall) uncount(account string, counted *bool) {
	if !*counted {
		return
	}
	*counted = false
	if h.perUser[account]--; h.perUser[account] <= 0 {
		delete(h.perUser, account)
	}
}
