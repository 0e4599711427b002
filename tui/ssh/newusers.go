package ssh

import (
	"errors"
	"fmt"
	"log/slog"

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
// stay on the ladder). take(address, fingerprint) counts a key once per
// hour whatever its attempts, so a newcomer whose first upload fails its
// check is not charged again; keys that hold a name already are never
// counted. Memory: at most max keys per address, of the last hour.
type newUsers struct{ window }

func newNewUsers(max int) *newUsers { return &newUsers{newWindow(max)} }
