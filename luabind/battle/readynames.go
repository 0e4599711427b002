package battle

import (
	"sync"

	"github.com/squarebattle/squarebattle/engine/tournament"
)

// readyNames keeps the name each bot of a tournament gave in ready, the
// first time it gave one, so that the standings call a bot as it calls
// itself rather than by its id (bot1) or listed name.
//
// Concurrency: battles start at once on many goroutines; mu guards names.
type readyNames struct {
	mu    sync.Mutex
	names map[string]string // by class id
}

// note keeps the names of the bots of a battle that said ready.
func (r *readyNames) note(bots []*Bot) {
	r.mu.Lock()
	defer r.mu.Unlock()
	for _, b := range bots {
		if b == nil || b.greet != nil || b.name == "" {
			continue
		}
		if r.names == nil {
			r.names = map[string]string{}
		}
		if _, ok := r.names[b.spec.ID]; !ok {
			r.names[b.spec.ID] = b.name
		}
	}
}

// Named returns players with each bot's name the one it gave in ready
// (a copy; a bot that never said ready keeps its listed name). tb may be
// nil: no bot played.
func (tb *TournamentBots) Named(players []tournament.Player) []tournament.Player {
	out := append([]tournament.Player(nil), players...)
	if tb == nil {
		return out
	}
	tb.ready.mu.Lock()
	defer tb.ready.mu.Unlock()
	for i, p := range out {
		if n, ok := tb.ready.names[p.ID]; ok {
			out[i].Name = n
		}
	}
	return out
}
