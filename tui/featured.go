package tui

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"time"
)

// The featured battle, always running, and the hall's supervisor, which
// starts the next featured battle and gives free slots to the queue.

// featuredSetup is the next featured battle.
func (h *Hall) featuredSetup() (Setup, error) {
	f := h.o.Featured
	su := Setup{Game: f.Game, Size: f.Size, Rounds: f.Rounds, Seed: f.Seed, Players: slices.Clone(f.Players)}
	if su.Size <= 0 {
		su.Size = h.o.Settings.Size
	}
	if su.Rounds <= 0 {
		su.Rounds = h.o.Settings.Rounds
	}
	if su.Seed == 0 {
		su.Seed = h.o.NewSeed()
	}
	if len(su.Players) == 0 {
		var ids []string
		for _, e := range gameEntries(h.o.Source, su.Game) {
			if e.Starting() {
				ids = append(ids, e.ID)
			}
		}
		if len(ids) == 0 {
			return su, errors.New("hall: no starting players for the featured battle")
		}
		slices.Sort(ids)
		r := rand.New(rand.NewPCG(su.Seed, 0x5eed))
		r.Shuffle(len(ids), func(i, j int) { ids[i], ids[j] = ids[j], ids[i] })
		su.Players = ids[:min(4, len(ids))]
	}
	return su, nil
}

// gameEntries are a game's players ("" SquareBattle).
func gameEntries(src Source, game string) []Entry {
	if gs, ok := src.(GameSource); ok && game != "" {
		return gs.GameEntries(game)
	}
	return src.Entries()
}

// startFeatured starts the next featured battle and stops the last one.
func (h *Hall) startFeatured() error {
	su, err := h.featuredSetup()
	if err != nil {
		return err
	}
	p := pace{speed: h.o.Settings.Speed, limit: h.o.Settings.TimeLimit}
	b, err := h.launch("", su, p, true)
	if err != nil {
		return fmt.Errorf("featured battle: %w", err)
	}
	h.mu.Lock()
	if h.closed {
		h.mu.Unlock()
		_ = b.d.stop()
		return ErrHallClosed
	}
	old := h.featured
	h.featured = b
	h.live[b.id] = b
	if old != nil && h.live[old.id] == old {
		delete(h.live, old.id)
	}
	h.mu.Unlock()
	if old != nil {
		_ = old.d.stop()
	}
	return nil
}

// supervise is the hall's goroutine: it notes battles that ended, starts
// the next featured battle once the last has lingered, and gives free
// slots to the queue.
func (h *Hall) supervise() {
	defer close(h.done)
	next := time.NewTimer(time.Hour)
	next.Stop()
	defer next.Stop()
	for {
		select {
		case <-h.quit:
			return
		case <-h.wake:
		case <-next.C:
			if err := h.startFeatured(); err != nil && !errors.Is(err, ErrHallClosed) {
				h.log.Warn("featured battle", "err", err)
				next.Reset(max(h.o.Featured.Linger, time.Second)) // try again, not in a loop
			}
		}
		h.mu.Lock()
		ended := h.ended
		h.ended = nil
		for _, b := range ended {
			h.freeSlot(b)
		}
		h.mu.Unlock()
		for _, b := range ended {
			f := b.d.latest()
			h.logEvent("battle ended", b, "round", f.snap.Round, "winner", f.snap.Winner)
			if b.featured && b == h.currentFeatured() {
				next.Reset(max(h.o.Featured.Linger, 0))
			}
		}
		h.promote()
	}
}

// promote gives free slots to the queue, in order.
func (h *Hall) promote() {
	for {
		h.mu.Lock()
		if h.closed || h.running >= h.o.MaxPrivate || len(h.queue) == 0 {
			h.mu.Unlock()
			return
		}
		t := h.queue[0]
		h.queue = h.queue[1:]
		h.running++
		h.mu.Unlock()
		h.begin(t)
	}
}
