package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/squarebattle/squarebattle/engine"
	"github.com/squarebattle/squarebattle/engine/bot"
	"github.com/squarebattle/squarebattle/engine/bot/remote"
	"github.com/squarebattle/squarebattle/engine/ladder"
	"github.com/squarebattle/squarebattle/luabind/battle"
)

// Remote bots: `ssh HOST bot NAME` hands the arena a connection to a bot
// that runs on its author's machine. While connected, the bot is the
// user's player NAME (id user.NAME): the ladder plays it whenever one of
// its connections is free; away, it waits on the table, unpenalised. Each
// connection plays one battle at a time (the next battle's hello follows
// the last one's end on the same stream); a user may hold
// serve.bot_connections_per_user of them, all users serve.bot_connections.
// The record of each bot (its owner and name) is kept in the data dir's
// bots/ folder, so that it keeps its place on the ladder while away.

// botHub holds the arena's remote bots.
type botHub struct {
	a   *serveArena
	dir string // the records
	// sendTimeout is how long a connection's bot may leave a message
	// untaken before the connection ends (remote.Options.SendTimeout);
	// set before the server serves (tests shorten it).
	sendTimeout time.Duration

	// reloads tells the hall's sessions of bots that came or went
	// (changed).
	reloads *coalescer

	mu    sync.Mutex
	links map[string][]*remote.Link // by bot id, while connected
	known map[string]botRecord      // every bot that ever connected
	total int
}

// botRecord is what the data dir keeps of a bot.
type botRecord struct {
	User    string    `json:"user"`
	Name    string    `json:"name"`
	Created time.Time `json:"created"`
}

func (r botRecord) id() string { return r.User + "." + r.Name }

// botSource is what the ladder keeps as a remote bot's source: the bot
// runs elsewhere, so its one version is its name.
func botSource(id string) []byte { return []byte("-- squarebattle remote bot " + id + "\n") }

// openBotHub reads the records of dir/bots.
func openBotHub(a *serveArena) (*botHub, error) {
	h := &botHub{a: a, dir: botDir(a.store.Dir()), sendTimeout: 10 * time.Second, links: map[string][]*remote.Link{}, known: map[string]botRecord{}}
	h.reloads = newCoalescer(reloadGap, func() {
		if a.hall != nil {
			a.hall.Reload()
		}
	})
	if err := os.MkdirAll(h.dir, 0o700); err != nil {
		return nil, err
	}
	entries, err := os.ReadDir(h.dir)
	if err != nil {
		return nil, err
	}
	for _, e := range entries {
		data, err := battle.ReadBounded(os.DirFS(h.dir), e.Name(), 4096)
		var r botRecord
		if err != nil || json.Unmarshal(data, &r) != nil || r.id()+".json" != e.Name() {
			a.log.Warn("a bot record that does not read", "event", "error", "file", e.Name())
			continue
		}
		h.known[r.id()] = r
	}
	return h, nil
}

// ids lists every known bot.
func (h *botHub) ids() []string {
	h.mu.Lock()
	defer h.mu.Unlock()
	out := make([]string, 0, len(h.known))
	for id := range h.known {
		out = append(out, id)
	}
	slices.Sort(out)
	return out
}

// namesOf lists the NAMEs of user's known bots (tui/ssh's
// Options.BotNames: they count among the user's players, and no upload
// takes one).
func (h *botHub) namesOf(user string) []string {
	h.mu.Lock()
	defer h.mu.Unlock()
	var out []string
	for _, r := range h.known {
		if r.User == user {
			out = append(out, r.Name)
		}
	}
	return out
}

// isBot says whether id is a known bot.
func (h *botHub) isBot(id string) bool {
	h.mu.Lock()
	defer h.mu.Unlock()
	_, ok := h.known[id]
	return ok
}

// free says whether bot id has a connection no battle holds.
func (h *botHub) free(id string) bool {
	h.mu.Lock()
	defer h.mu.Unlock()
	for _, l := range h.links[id] {
		if !l.Busy() {
			return true
		}
	}
	return false
}

// claim takes a free connection of bot id for one battle.
func (h *botHub) claim(id string) (bot.Conn, error) {
	h.mu.Lock()
	links := slices.Clone(h.links[id])
	h.mu.Unlock()
	if len(links) == 0 {
		return nil, fmt.Errorf("bot %s is not connected", id)
	}
	for _, l := range links {
		if c, err := l.Claim(); err == nil {
			return c, nil
		}
	}
	return nil, fmt.Errorf("bot %s: %w", id, remote.ErrBusy)
}

// team is bot id claimed for one battle, as a battle's team.
func (h *botHub) team(id string) (battle.Team, error) {
	c, err := h.claim(id)
	if err != nil {
		return battle.Team{}, err
	}
	var once sync.Once
	spec := &bot.Spec{ID: id, File: "ssh bot " + id, Name: strings.SplitN(id, ".", 2)[1], Dial: func() (bot.Conn, error) {
		var out bot.Conn
		once.Do(func() { out = c })
		if out == nil {
			return nil, errors.New("already playing")
		}
		return out, nil
	}}
	return battle.Team{Bot: spec}, nil
}

// link serves one connection (tui/ssh's Options.BotLink).
func (h *botHub) link(ctx context.Context, user, name string, in io.Reader, out io.Writer, notes io.Writer, end func()) int {
	id := user + "." + name
	sc := h.a.cfg.Serve
	if h.a.store.Has(user, name) {
		fmt.Fprintf(notes, "squarebattle: bot refused: %s is an uploaded Lua player of yours; give the bot another name\n", id)
		return exitBadInput
	}
	h.mu.Lock()
	mine, players := 0, h.a.store.Count(user)
	for bid, ls := range h.links {
		if strings.HasPrefix(bid, user+".") {
			mine += len(ls)
		}
	}
	for bid := range h.known {
		if strings.HasPrefix(bid, user+".") {
			players++
		}
	}
	_, known := h.known[id]
	switch {
	case mine >= sc.BotConnectionsPerUser:
		h.mu.Unlock()
		fmt.Fprintf(notes, "squarebattle: bot refused: you hold %d bot connections, this server's limit (serve.bot_connections_per_user)\n", mine)
		return exitFailure
	case h.total >= sc.BotConnections:
		h.mu.Unlock()
		fmt.Fprintf(notes, "squarebattle: bot refused: the server holds %d bot connections, its limit (serve.bot_connections); try later\n", h.total)
		return exitFailure
	case !known && sc.PlayersPerUser > 0 && players >= sc.PlayersPerUser:
		h.mu.Unlock()
		fmt.Fprintf(notes, "squarebattle: bot refused: you hold %d players, this server's limit (serve.players_per_user)\n", players)
		return exitFailure
	}
	if !known {
		r := botRecord{User: user, Name: name, Created: time.Now().UTC()}
		data, _ := json.Marshal(r)
		if err := writeFileAtomic(filepath.Join(h.dir, id+".json"), func(w io.Writer) error { _, err := w.Write(data); return err }); err != nil {
			h.mu.Unlock()
			fmt.Fprintln(notes, "squarebattle: bot refused: the server cannot keep its record")
			return exitFailure
		}
		h.known[id] = r
	}
	var l *remote.Link
	made, ended := make(chan struct{}), make(chan struct{})
	l = remote.NewLink(in, out, func() {
		<-made
		farewell(notes, id, l.Err())
		end()
		close(ended) // the link calls this once
	}, remote.Options{SendTimeout: h.sendTimeout})
	close(made)
	h.links[id] = append(h.links[id], l)
	h.total++
	h.mu.Unlock()
	h.changed()
	defer func() {
		h.mu.Lock()
		h.links[id] = slices.DeleteFunc(h.links[id], func(x *remote.Link) bool { return x == l })
		if len(h.links[id]) == 0 {
			delete(h.links, id)
		}
		h.total--
		h.mu.Unlock()
		h.changed()
	}()
	if h.a.ladder != nil && !h.entered(ctx, id, user, name) {
		if _, err := h.a.ladder.l.Enter(ctx, "", id, user, name, botSource(id)); err != nil && !errors.Is(err, context.Canceled) {
			h.a.log.Error("ladder: entering a bot", "event", "error", "bot", id, "reason", err.Error())
		}
	}
	fmt.Fprintf(notes, "squarebattle: %s connected; it plays while this connection lasts (one battle at a time)\n", engine.SafeText(id))
	select {
	case <-ctx.Done():
		// The session ended (its client hung up, the server stops): the
		// battle that holds the link reads that the connection ended, as
		// when the stream itself ends first.
		l.CloseWith(context.Cause(ctx))
	case <-l.Done():
	}
	<-ended // the farewell is out before the session ends
	return linkStatus(l.Err())
}

// linkStatus is the exit status of a bot's session whose link ended for
// reason err: 0 when the stream ended (the bot left, or its session did:
// hung up, the server stopping, the session's time limit), 1 when the
// server let the bot go for what it did (a flood, a line too long, not
// reading), which farewell told it. A bot's author, or the script that
// connects it, reads the failure from the status as from the note.
func linkStatus(err error) int {
	if err == nil || errors.Is(err, bot.ErrClosed) {
		return exitOK
	}
	return exitFailure
}

// entered says whether bot id is on the ladder already as it would be
// entered (owner, name, not retired): then its link writes nothing to the
// ladder's store. A client may link and drop a bot a thousand times a
// second; a read each time costs the store less than a write transaction.
func (h *botHub) entered(ctx context.Context, id, user, name string) bool {
	p, err := h.a.ladder.l.PlayerByName(ctx, "", id)
	return err == nil && !p.Retired && p.Version != 0 && p.Owner == user && p.Display == name
}

// farewell tells a bot's author why the server ends its connection, before
// it does (after, the session is gone): not when the bot left or the
// server closed it (bot.ErrClosed). A bot that does not read may not take
// the note either (its stderr shares the channel's window), so the wait
// is bounded; ending the session then unblocks the write.
func farewell(notes io.Writer, id string, err error) {
	if err == nil || errors.Is(err, bot.ErrClosed) {
		return
	}
	wrote := make(chan struct{})
	go func() {
		defer close(wrote)
		fmt.Fprintf(notes, "squarebattle: %s disconnected: %s\n", engine.SafeText(id), engine.SafeText(err.Error()))
	}()
	t := time.NewTimer(time.Second)
	defer t.Stop()
	select {
	case <-wrote:
	case <-t.C:
	}
}

// ladderBot is ranked.Options.Bot: a known bot is claimed for a battle.
func (h *botHub) ladderBot(p ladder.Player) (battle.Team, bool, error) {
	return h.claimTeam(p.Name)
}

// available is ranked.Options.Available: a bot plays while a connection of
// it is free; everybody else always.
func (h *botHub) available(p ladder.Player) bool {
	return !h.isBot(p.Name) || h.free(p.Name)
}
