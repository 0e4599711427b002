package main

import (
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/squarebattle/squarebattle/config"
	"github.com/squarebattle/squarebattle/engine/bot"
	"github.com/squarebattle/squarebattle/luabind/battle"
	"github.com/squarebattle/squarebattle/tui"
)

// Remote bots in the lobby and the featured battle: while connected, a
// bot is a starting player of SquareBattle (and of the rule mods of its
// protocol) like an upload, listed by its id (user.NAME). A connection
// plays one battle at a time, so a bot whose every connection is in a
// battle is listed as busy and cannot be picked (the featured battle
// passes it over); its author may open more connections, up to
// serve.bot_connections_per_user, to play several at once. Remote bots
// play under serve.bots' clock, not the bots section's: their round trip
// crosses a network.

// entries lists the connected bots for the lobby (remoteBots).
func (h *botHub) entries() []tui.Entry {
	h.mu.Lock()
	ids := make([]string, 0, len(h.links))
	for id := range h.links {
		ids = append(ids, id)
	}
	h.mu.Unlock()
	slices.Sort(ids)
	out := make([]tui.Entry, 0, len(ids))
	for _, id := range ids {
		e := tui.Entry{ID: id, Name: botName(id), File: "ssh bot " + id}
		if !h.free(id) {
			e.Problem = "ssh bot " + id + ": busy, playing a battle (a connection plays one battle at a time)"
		}
		out = append(out, e)
	}
	return out
}

// botName is the name a bot is listed by before it says its own in
// ready: its NAME.
func botName(id string) string {
	_, name, _ := strings.Cut(id, ".")
	return name
}

// timing is the clock remote bots play under (serve.bots).
func (h *botHub) timing() *bot.Timing {
	t := battle.Timing(configWithBots(h.a.cfg), false)
	return &t
}

// configWithBots is cfg with its bots section replaced by serve.bots.
func configWithBots(cfg config.Config) config.Config {
	cfg.Bots = cfg.Serve.Bots
	return cfg
}

// claimTeam claims a connection of bot id for a battle (private,
// featured or ladder), under serve.bots' clock: false when id is no
// remote bot.
func (h *botHub) claimTeam(id string) (battle.Team, bool, error) {
	if !h.isBot(id) {
		return battle.Team{}, false, nil
	}
	t, err := h.team(id)
	if err != nil {
		return t, true, err
	}
	t.Bot.Timing = h.timing()
	return t, true, nil
}

// hubLobby is the hub as playSource's remoteBots.
type hubLobby struct{ h *botHub }

func (l hubLobby) entries() []tui.Entry { return l.h.entries() }
func (l hubLobby) team(id string) (battle.Team, bool, error) {
	return l.h.claimTeam(id)
}

// changed tells the open lobbies that a bot came or went, through the
// hub's coalescer: a client can link and drop a bot a thousand times a
// second over one connection, and each reload makes every open session
// rebuild its lobby, so the sessions hear of it at most once a
// reloadGap, after the latest change.
func (h *botHub) changed() {
	if h.a.hall != nil {
		h.reloads.poke()
	}
}

// reloadGap is the longest a lobby waits to hear that a bot came or
// went: the sessions' own housekeeping period.
const reloadGap = 250 * time.Millisecond

// coalescer runs fn once after gap for any number of pokes within it:
// every poke is followed by a run that starts after it, and at most one
// run is pending. after is time.AfterFunc (tests replace it).
type coalescer struct {
	fn    func()
	gap   time.Duration
	after func(time.Duration, func())

	mu      sync.Mutex
	pending bool
}

func newCoalescer(gap time.Duration, fn func()) *coalescer {
	return &coalescer{fn: fn, gap: gap, after: func(d time.Duration, f func()) { time.AfterFunc(d, f) }}
}

func (c *coalescer) poke() {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.pending {
		return
	}
	c.pending = true
	c.after(c.gap, func() {
		c.mu.Lock()
		c.pending = false // a poke from here on is followed by another run
		c.mu.Unlock()
		c.fn()
	})
}
