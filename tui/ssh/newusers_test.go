package ssh

import (
	"context"
	"io"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	gossh "golang.org/x/crypto/ssh"
)

// TestNewUsersTake: the count of new keys per address over an hour, with
// a clock the test moves.
func TestNewUsersTake(t *testing.T) {
	type step struct {
		after    time.Duration // the clock moves this much first
		addr, fp string
		ok       bool
		wait     time.Duration // when refused
	}
	tests := []struct {
		name  string
		max   int
		steps []step
		left  int // addresses still held at the end
	}{
		{"two a hour", 2, []step{
			{0, "a", "k1", true, 0},
			{0, "a", "k2", true, 0},
			{0, "a", "k3", false, time.Hour},
			{0, "a", "k1", true, 0}, // counted once, however often it comes
			{0, "b", "k3", true, 0}, // another address counts apart
			{30 * time.Minute, "a", "k3", false, 30 * time.Minute},
			{30 * time.Minute, "a", "k3", true, 0}, // k1 and k2 are an hour old
			{0, "a", "k4", true, 0},
			{0, "a", "k5", false, time.Hour},
		}, 1},
		{"none", 0, []step{
			{0, "a", "k1", false, time.Hour},
			{2 * time.Hour, "a", "k1", false, time.Hour},
		}, 0},
		{"forgotten after an hour", 1, []step{
			{0, "a", "k1", true, 0},
			{0, "b", "k2", true, 0},
			{0, "c", "k3", true, 0},
			{61 * time.Minute, "d", "k4", true, 0}, // the sweep drops a, b and c
		}, 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			now := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
			n := newNewUsers(tt.max)
			n.now = func() time.Time { return now }
			for i, s := range tt.steps {
				now = now.Add(s.after)
				ok, wait := n.take(s.addr, s.fp)
				if ok != s.ok || (!ok && wait != s.wait) {
					t.Errorf("step %d (%s from %s): %v, wait %v; want %v, wait %v", i, s.fp, s.addr, ok, wait, s.ok, s.wait)
				}
			}
			if len(n.by) != tt.left {
				t.Errorf("%d addresses held, want %d: %v", len(n.by), tt.left, n.by)
			}
		})
	}
}

// TestNewUsersDoor: through a real server, keys without a user name are
// refused past serve.new_users_per_ip_hour or serve.users before their
// upload is checked or their bot linked; a key with a name, or one counted
// already, goes on.
func TestNewUsersDoor(t *testing.T) {
	t.Parallel()
	good, broken := []byte("function run() end"), []byte("run = ")
	type step struct {
		key    int    // which key (index into the test's keys)
		cmd    string // "submit NAME" or "bot NAME"
		src    []byte
		status int
		stderr string // a part of stderr ("" anything)
	}
	tests := []struct {
		name      string
		perIP     int
		users     int
		steps     []step
		checks    int32    // checks run in all
		bots      int32    // bots linked in all
		usersLeft []string // user names bound at the end
	}{
		{"per address", 2, 0, []step{
			{0, "submit a", good, exitOK, ""},
			{1, "submit a", broken, exitBadInput, "no function"}, // counted, though refused by its check
			{1, "submit a", good, exitOK, ""},                    // and not counted again
			{2, "submit a", good, exitFailure, "serve.new_users_per_ip_hour"},
			{2, "bot b", nil, exitFailure, "serve.new_users_per_ip_hour"},
			{0, "submit b", good, exitOK, ""}, // a key with a name is never counted
			{0, "bot c", nil, exitOK, ""},
		}, 4, 1, []string{"u0", "u1"}},
		{"none", 0, 0, []step{
			{0, "submit a", good, exitFailure, "takes no new users"},
			{0, "bot a", nil, exitFailure, "takes no new users"},
		}, 0, 0, nil},
		{"users in all", 100, 2, []step{
			{0, "bot a", nil, exitOK, ""},
			{1, "submit a", good, exitOK, ""},
			{2, "submit a", good, exitFailure, "serve.users"},
			{2, "bot a", nil, exitFailure, "serve.users"},
			{1, "submit b", good, exitOK, ""},
		}, 2, 1, []string{"u0", "u1"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var checks, bots atomic.Int32
			ts := startServer(t, func(o *Options) {
				o.Limits.NewUsersPerIPHour, o.Limits.Users = tt.perIP, tt.users
				o.Check = func(ctx context.Context, id string, src []byte, stdout, stderr io.Writer) int {
					checks.Add(1)
					return testCheck(ctx, id, src, stdout, stderr)
				}
				o.BotLink = func(ctx context.Context, user, name string, in io.Reader, out io.Writer, notes io.Writer, end func()) int {
					bots.Add(1)
					return exitOK
				}
			})
			keys := []gossh.Signer{newKey(t), newKey(t), newKey(t)}
			clients := make([]*gossh.Client, len(keys))
			for i, k := range keys {
				clients[i] = dial(t, ts.addr, "u"+string(rune('0'+i)), k)
			}
			for i, s := range tt.steps {
				_, stderr, status := run(t, clients[s.key], s.cmd, s.src)
				if status != s.status || !strings.Contains(stderr, s.stderr) {
					t.Errorf("step %d (key %d: %s): status %d, stderr %q; want %d with %q", i, s.key, s.cmd, status, stderr, s.status, s.stderr)
				}
			}
			if n := checks.Load(); n != tt.checks {
				t.Errorf("%d checks ran, want %d: a refused key must cost none", n, tt.checks)
			}
			if n := bots.Load(); n != tt.bots {
				t.Errorf("%d bots linked, want %d", n, tt.bots)
			}
			var bound []string
			for i, k := range keys {
				if u, ok := ts.store.User(Fingerprint(k.PublicKey())); ok {
					if u != "u"+string(rune('0'+i)) {
						t.Errorf("key %d holds %s", i, u)
					}
					bound = append(bound, u)
				}
			}
			if strings.Join(bound, ",") != strings.Join(tt.usersLeft, ",") {
				t.Errorf("user names bound %v, want %v", bound, tt.usersLeft)
			}
		})
	}
}
