package main

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"strings"
	"time"

	"github.com/squarebattle/squarebattle/config"
	"github.com/squarebattle/squarebattle/engine/ladder"
	"github.com/squarebattle/squarebattle/luabind/battle/ranked"
	"github.com/squarebattle/squarebattle/luabind/battle/ranked/river"
)

// The arena's ladder on PostgreSQL (serve.ladder.db a postgres:// URL,
// docs/ladder.md "Worker hosts"): the server plans and rates, worker hosts
// running `squarebattle ladder work` play the battles, through River's
// queue in the same database (luabind/battle/ranked/river).

// pgLadderStore is the ladder's store on PostgreSQL with its job queue.
type pgLadderStore struct {
	ladder.Store
	db *river.DB
}

// Close closes the queue's connections and the store's.
func (s pgLadderStore) Close() error { return s.db.Close() }

// openPGLadder connects to the ladder's PostgreSQL database and brings its
// schemas up to date; any failure is one line naming the setting.
func openPGLadder(ctx context.Context, cfg config.Config, log *slog.Logger) (*river.DB, error) {
	d, err := river.Open(ctx, cfg.Serve.Ladder.DB, log)
	if err != nil {
		return nil, bad(fmt.Errorf("serve.ladder.db: %w", flatErr{err}))
	}
	return d, nil
}

// flatErr is an error whose text is put on one line (the database
// driver's spread over several).
type flatErr struct{ err error }

func (e flatErr) Error() string { return strings.Join(strings.Fields(e.err.Error()), " ") }
func (e flatErr) Unwrap() error { return e.err }

// rescueAfter is serve.ladder.rescue_seconds as a duration.
func rescueAfter(lc config.ServeLadder) time.Duration {
	if lc.RescueSeconds <= 0 {
		return 5 * time.Minute
	}
	return time.Duration(lc.RescueSeconds) * time.Second
}

// startHosted runs the ladder's server side on PostgreSQL until close:
// battles go to the worker hosts, except those only this server can play
// (a remote bot seated, a rule mod); serve.ladder.workers is how many of
// the hosts' battles it plays itself besides (0: none).
func (al *arenaLadder) startHosted(d *river.DB) {
	lc := al.a.cfg.Serve.Ladder
	o := ranked.Options{Ladder: al.l, Games: al.games, Replays: al.replays, Workers: max(lc.Workers, 1),
		Walls: al.walls, Finished: al.battleDone, Logger: al.log}
	if al.a.bots != nil {
		o.Available, o.Bot = al.a.bots.available, al.a.bots.ladderBot
	}
	ctx, cancel := context.WithCancel(context.Background())
	al.cancel, al.done = cancel, make(chan struct{})
	al.log.Info("ladder playing on worker hosts", "event", "ladder_start", "workers", lc.Workers, "games", len(al.games))
	go func() {
		defer close(al.done)
		err := d.Serve(ctx, river.ServeOptions{Runner: o, Workers: lc.Workers, ServerOnly: al.serverOnly, RescueAfter: rescueAfter(lc)})
		if err != nil && !errors.Is(err, context.Canceled) {
			al.log.Error("ladder", "event", "error", "reason", err.Error())
		}
	}()
}

// serverOnly says whether battle b must be played here: a rule mod's (its
// folder is here) or one that seats a remote bot (its connection is here).
func (al *arenaLadder) serverOnly(b ladder.Battle) bool {
	if b.Game != "" {
		return true
	}
	if al.a.bots == nil {
		return false
	}
	bots := map[string]bool{}
	for _, id := range al.a.bots.ids() {
		bots[id] = true
	}
	if len(bots) == 0 {
		return false // no player's read for nothing: one snapshot a seat
	}
	for _, s := range b.Seats {
		p, err := al.l.Player(context.Background(), s.Player)
		if err != nil || bots[p.Name] {
			return true // when in doubt, here
		}
	}
	return false
}
