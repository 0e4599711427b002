package ssh

import (
	"context"
	"fmt"
	"log/slog"
	"slices"
	"sync"

	gssh "github.com/gliderlabs/ssh"
)

// The limits of submit are reserved before the work they bound, and kept
// by the identity the server has proven: the key's fingerprint. Checks
// (each a child process running a trial battle behind the process wall,
// up to isolation.memory_mib and its workers) run at most Limits.Checks at
// once, Limits.ChecksPerIP for one address and Limits.ChecksPerKey for
// one key; further submits wait in order, told so, and a waiting submit
// whose address or key is at its cap lets the ones behind it go first.
// A first submit reserves the user name it claims, and every submit of a
// new player name reserves its place under Limits.PlayersPerUser, so that
// submits at once cannot pass a check that each made alone.

// checkSlots hands out the places of the checks running at once.
type checkSlots struct {
	max, perIP, perKey int

	mu      sync.Mutex
	running int
	byIP    map[string]int
	byKey   map[string]int
	queue   []*checkWaiter
}

type checkWaiter struct {
	ip, key string
	ready   chan struct{} // closed once it holds a place
	granted bool
}

func newCheckSlots(l Limits) *checkSlots {
	return &checkSlots{max: l.Checks, perIP: l.ChecksPerIP, perKey: l.ChecksPerKey, byIP: map[string]int{}, byKey: map[string]int{}}
}

// acquire waits for a place for a check of key from address ip, calling
// waiting once (with how many wait before it) when it cannot start at
// once; it returns the place's release, or ctx's error when ctx ends
// first.
func (c *checkSlots) acquire(ctx context.Context, ip, key string, waiting func(ahead, running int)) (func(), error) {
	w := &checkWaiter{ip: ip, key: key, ready: make(chan struct{})}
	c.mu.Lock()
	c.queue = append(c.queue, w)
	c.grant()
	if !w.granted {
		ahead, running := len(c.queue)-1, c.running
		c.mu.Unlock()
		if waiting != nil {
			waiting(ahead, running)
		}
		select {
		case <-w.ready:
		case <-ctx.Done():
			c.mu.Lock()
			if !w.granted {
				for i, q := range c.queue {
					if q == w {
						c.queue = append(c.queue[:i], c.queue[i+1:]...)
						break
					}
				}
				c.grant() // its going may let one behind it start
				c.mu.Unlock()
				return nil, context.Cause(ctx)
			}
			c.mu.Unlock()
			c.release(w)
			return nil, context.Cause(ctx)
		}
	} else {
		c.mu.Unlock()
	}
	var once sync.Once
	return func() { once.Do(func() { c.release(w) }) }, nil
}

// grant starts, in order, every waiter whose address and key are below
// their caps, while places remain. Call with mu held.
func (c *checkSlots) grant() {
	for i := 0; i < len(c.queue) && c.running < c.max; {
		w := c.queue[i]
		if c.byIP[w.ip] >= c.perIP || c.byKey[w.key] >= c.perKey {
			i++
			continue
		}
		c.queue = append(c.queue[:i], c.queue[i+1:]...)
		c.running++
		c.byIP[w.ip]++
		c.byKey[w.key]++
		w.granted = true
		close(w.ready)
	}
}

func (c *checkSlots) release(w *checkWaiter) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.running--
	if c.byIP[w.ip]--; c.byIP[w.ip] <= 0 {
		delete(c.byIP, w.ip)
	}
	if c.byKey[w.key]--; c.byKey[w.key] <= 0 {
		delete(c.byKey, w.key)
	}
	c.grant()
}

// counts returns the checks running and waiting.
func (c *checkSlots) counts() (running, waiting int) {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.running, len(c.queue)
}

// Checks returns the checks running and waiting now (for tests and logs).
func (s *Server) Checks() (running, waiting int) { return s.checks.counts() }

// reservations are the submits under way: the user names first submits
// claim (by key), and the player names submits would add (by user); and
// the bot commands under way (by user), whose names an upload may not
// take while they link, nor they an upload's.
type reservations struct {
	mu      sync.Mutex
	claims  map[string]claim          // user name -> the key claiming it, and how many submits
	players map[string]map[string]int // user -> player name -> submits under way
	bots    map[string]map[string]int // user -> bot name -> bot commands under way
}

type claim struct {
	key string
	n   int
}

func newReservations() *reservations {
	return &reservations{claims: map[string]claim{}, players: map[string]map[string]int{}, bots: map[string]map[string]int{}}
}

// reserveError says why a submit was refused (msg, for the client) and
// names the limit (reason, for the log).
type reserveError struct{ msg, reason string }

func (e *reserveError) Error() string { return e.msg }

// refused logs a reservation's refusal as what ("upload refused") and
// returns a command's fail arguments for it: status 1 for the server's
// limit on players, 2 for a name the client must change.
func refused(err error, what string, log *slog.Logger) (status int, format string, msg any) {
	re := err.(*reserveError)
	log.Warn(what, "event", "limit", "reason", re.reason)
	status = exitFailure
	if re.reason != "players per user" {
		status = exitBadInput
	}
	return status, "%s", re.msg
}

// hold reserves, for a submit by key of user's player name, the user name
// (when claiming says the key has none bound yet) and a place under limit
// players (unless user holds or is submitting name already), or says
// why not. bots are the names of user's remote bots (Options.BotNames):
// they count under limit like uploads, and an upload may not take one.
// The returned release gives both back once the submit is over.
func (r *reservations) hold(store *Store, key, user, name string, claiming bool, limit int, bots []string) (func(), error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if claiming {
		if owner, taken := store.byNameLookup(user); taken && owner != key {
			return nil, &reserveError{fmt.Sprintf("user name %s belongs to another key; log in as another name (ssh OTHER@HOST)", user), "name taken"}
		}
		if c, ok := r.claims[user]; ok && c.key != key {
			return nil, &reserveError{fmt.Sprintf("user name %s is being claimed by another key's submit; log in as another name (ssh OTHER@HOST)", user), "name being claimed"}
		}
	}
	if slices.Contains(bots, name) || r.bots[user][name] > 0 {
		return nil, &reserveError{fmt.Sprintf("%s.%s is a remote bot of yours (ssh HOST bot %s); give the upload another name", user, name, name), "bot name"}
	}
	if err := r.room(store, user, name, limit, bots); err != nil {
		return nil, err
	}
	if claiming {
		c := r.claims[user]
		c.key = key
		c.n++
		r.claims[user] = c
	}
	release := r.take(r.players, user, name)
	return func() {
		release()
		if claiming {
			r.mu.Lock()
			defer r.mu.Unlock()
			if c := r.claims[user]; c.n <= 1 {
				delete(r.claims, user)
			} else {
				c.n--
				r.claims[user] = c
			}
		}
	}, nil
}

// holdBot reserves, for a bot command of user's bot name, the name while
// the bot links (no upload takes it meanwhile) and a place under limit
// players (0: bots are not counted), or says why not.
func (r *reservations) holdBot(store *Store, user, name string, limit int, bots []string) (func(), error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if store.Has(user, name) || r.players[user][name] > 0 {
		return nil, &reserveError{fmt.Sprintf("%s.%s is an uploaded Lua player of yours, or being submitted; give the bot another name", user, name), "upload name"}
	}
	if limit > 0 {
		if err := r.room(store, user, name, limit, bots); err != nil {
			return nil, err
		}
	}
	return r.take(r.bots, user, name), nil
}

// room says whether user may add player name under limit: the names user
// holds (uploads and bots) and is adding (submits and bot commands under
// way) count once each; a name among them is no new one. r.mu is held.
func (r *reservations) room(store *Store, user, name string, limit int, bots []string) error {
	held := map[string]bool{}
	for _, n := range store.Names(user) {
		held[n] = true
	}
	for _, b := range bots {
		held[b] = true
	}
	for n := range r.players[user] {
		held[n] = true
	}
	for n := range r.bots[user] {
		held[n] = true
	}
	if !held[name] && len(held) >= limit {
		return &reserveError{fmt.Sprintf("you hold or are submitting %d players, this server's limit (serve.players_per_user); submit under one of their names to replace it", limit), "players per user"}
	}
	return nil
}

// take counts one more reservation of user's name in m; the returned
// release gives it back, once. r.mu is held.
func (r *reservations) take(m map[string]map[string]int, user, name string) func() {
	mine := m[user]
	if mine == nil {
		mine = map[string]int{}
		m[user] = mine
	}
	mine[name]++
	var once sync.Once
	return func() {
		once.Do(func() {
			r.mu.Lock()
			defer r.mu.Unlock()
			mine := m[user]
			if mine[name]--; mine[name] <= 0 {
				delete(mine, name)
			}
			if len(mine) == 0 {
				delete(m, user)
			}
		})
	}
}

// waitForCheck holds a place for the session's check, telling the client
// when it has to wait; done gives it back.
func (s *Server) waitForCheck(ctx context.Context, sess gssh.Session, id identity, log *slog.Logger) (done func(), err error) {
	l := s.o.Limits
	done, err = s.checks.acquire(ctx, addrKey(sess.RemoteAddr()), id.fingerprint, func(ahead, running int) {
		log.Info("check queued", "event", "limit", "reason", "checks at once", "ahead", ahead, "running", running)
		fmt.Fprintf(deadlineWriter{w: sess.Stderr(), d: l.Write, drop: func() { closeConn(sess) }},
			"squarebattle: your check waits for a free place: %d run now (at most %d at once, %d per address, %d per key: serve.checks, serve.checks_per_ip, serve.checks_per_key), %d wait before yours\n",
			running, l.Checks, l.ChecksPerIP, l.ChecksPerKey, ahead)
	})
	if err != nil {
		return nil, fmt.Errorf("gave up waiting for a check: %v", err)
	}
	return done, nil
}
