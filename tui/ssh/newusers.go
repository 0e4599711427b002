package ssh

import (
	"errors"
	"fmt"
	"log/slog"
	"slices"
	"sync"
	"time"

	gssh "github.com/gliderlabs/ssh"
)

// claimStatus is the exit status of a refused claim: a name taken is the
// client's to change, a server at its limit is not.
func claimStatus(err error) int {
	if errors.Is(err, ErrUsersFull) {
		return exitFailure
	}
	return exitBadInput
}

// mayClaim says why a session's key, which holds no user name yet, may
// not claim one now ("" it may): the server's user names are at their
// limit, or its address has brought serve.new_users_per_ip_hour new keys
// in the last hour. It is asked before any work the claim would follow
// (reading and checking an upload, linking a bot).
func (s *Server) mayClaim(sess gssh.Session, id identity, log *slog.Logger) string {
	if s.o.Store.UsersFull() {
		log.Warn("new user refused", "event", "limit", "reason", "users")
		return fmt.Sprintf("this server holds %d user names, its limit (serve.users); ask its operator", s.o.Limits.Users)
	}
	if ok, wait := s.news.take(addrKey(sess.RemoteAddr()), id.fingerprint); !ok {
		log.Warn("new user refused", "event", "limit", "reason", "new users per address")
		if s.o.Limits.NewUsersPerIPHour == 0 {
			return "this server takes no new users (serve.new_users_per_ip_hour is 0): only keys it knows may submit"
		}
		return fmt.Sprintf("%d new keys from your address in the last hour is this server's limit (serve.new_users_per_ip_hour); try again in %d min, or use a key that has a user name already",
			s.o.Limits.NewUsersPerIPHour, int(wait.Minutes())+1)
	}
	return ""
}

// newUsers bounds the keys from one address that may become users in an
// hour. A key costs nothing to make, and a key without a user name claims
// one with its first submit or bot: without this bound one address could
// claim names without end (each a line of users.json, rewritten whole at
// every claim, a quota of uploads of its own, and a bot's players that
// stay on the ladder). A key is counted once per hour whatever its
// attempts, so a newcomer whose first upload fails its check is not
// charged again; keys that hold a name already are never counted.
//
// Memory: one entry per key counted in the last hour, at most max per
// address; an address is forgotten once its last entry is an hour old.
// Safe for concurrent use.
type newUsers struct {
	mu    sync.Mutex
	by    map[string][]keyTaken // address key (addrKey) -> keys, oldest first
	max   int
	span  time.Duration
	now   func() time.Time
	swept time.Time
}

type keyTaken struct {
	fingerprint string
	at          time.Time
}

func newNewUsers(max int) *newUsers {
	return &newUsers{by: map[string][]keyTaken{}, max: max, span: time.Hour, now: time.Now}
}

// take counts fingerprint as a new user from addr, or returns how long
// until one more is allowed (an hour when max is 0: none ever is).
func (n *newUsers) take(addr, fingerprint string) (ok bool, wait time.Duration) {
	n.mu.Lock()
	defer n.mu.Unlock()
	now := n.now()
	n.sweep(now)
	keys := n.fresh(addr, now)
	if slices.ContainsFunc(keys, func(k keyTaken) bool { return k.fingerprint == fingerprint }) {
		return true, 0
	}
	if len(keys) >= n.max {
		if len(keys) == 0 {
			return false, n.span
		}
		return false, n.span - now.Sub(keys[0].at)
	}
	n.by[addr] = append(keys, keyTaken{fingerprint, now})
	return true, 0
}

// fresh drops addr's entries that are an hour old and returns the rest.
func (n *newUsers) fresh(addr string, now time.Time) []keyTaken {
	keys := n.by[addr]
	i := 0
	for i < len(keys) && now.Sub(keys[i].at) >= n.span {
		i++
	}
	if i == len(keys) {
		delete(n.by, addr)
		return nil
	}
	keys = keys[i:]
	n.by[addr] = keys
	return keys
}

// sweep forgets addresses whose entries are all an hour old, at most once
// a minute, so that addresses seen once do not stay.
func (n *newUsers) sweep(now time.Time) {
	if now.Sub(n.swept) < time.Minute {
		return
	}
	n.swept = now
	for addr := range n.by {
		n.fresh(addr, now)
	}
}
