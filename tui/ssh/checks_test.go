package ssh

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	gossh "golang.org/x/crypto/ssh"
)

// TestCheckSlots: places go, in order, to the waiters whose address and
// key are below their caps; one at its cap lets those behind it go first;
// one that gives up leaves the queue.
func TestCheckSlots(t *testing.T) {
	t.Parallel() // its own server; it waits on the server's timeouts and deadlines
	type req struct{ ip, key string }
	tests := []struct {
		name               string
		max, perIP, perKey int
		reqs               []req
		now                []int // started at once
		release            []int // then these are released, one by one,
		then               []int // and after each this one starts (-1: none)
	}{
		{"in all", 2, 9, 9, []req{{"a", "1"}, {"b", "2"}, {"c", "3"}, {"d", "4"}}, []int{0, 1}, []int{1, 0, 2, 3}, []int{2, 3, -1, -1}},
		{"per address", 9, 1, 9, []req{{"a", "1"}, {"a", "2"}, {"b", "3"}, {"a", "4"}}, []int{0, 2}, []int{2, 0, 1, 3}, []int{-1, 1, 3, -1}},
		{"per key", 9, 9, 1, []req{{"a", "1"}, {"b", "1"}, {"c", "2"}, {"d", "1"}}, []int{0, 2}, []int{0, 2, 1, 3}, []int{1, -1, 3, -1}},
		{"a waiter at its cap lets the next go first", 2, 1, 9, []req{{"a", "1"}, {"a", "2"}, {"b", "3"}, {"c", "4"}}, []int{0, 2}, []int{2, 0, 3, 1}, []int{3, 1, -1, -1}},
		{"all at once", 9, 9, 9, []req{{"a", "1"}, {"a", "1"}, {"a", "1"}}, []int{0, 1, 2}, []int{0, 1, 2}, []int{-1, -1, -1}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := newCheckSlots(Limits{Checks: tt.max, ChecksPerIP: tt.perIP, ChecksPerKey: tt.perKey})
			started := make(chan int, len(tt.reqs))
			releases := make([]func(), len(tt.reqs))
			var mu sync.Mutex
			told := make([]bool, len(tt.reqs))
			for i, r := range tt.reqs {
				go func() {
					rel, err := c.acquire(context.Background(), r.ip, r.key, func(int, int) {
						mu.Lock()
						told[i] = true
						mu.Unlock()
					})
					if err == nil {
						mu.Lock()
						releases[i] = rel
						mu.Unlock()
						started <- i
					}
				}()
				// In order: the next asks once this one holds its place
				// or waits in the queue (no sleep that a loaded machine
				// could outlast).
				for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(time.Millisecond) {
					if r, w := c.counts(); r+w == i+1 {
						break
					}
					if time.Now().After(deadline) {
						t.Fatalf("request %d neither started nor waits", i)
					}
				}
			}
			var got []int
			for range tt.now {
				got = append(got, <-started)
			}
			slices.Sort(got)
			if !slices.Equal(got, tt.now) {
				t.Fatalf("started at once %v, want %v", got, tt.now)
			}
			if r, w := c.counts(); r != len(tt.now) || w != len(tt.reqs)-len(tt.now) {
				t.Fatalf("%d running, %d waiting; want %d, %d", r, w, len(tt.now), len(tt.reqs)-len(tt.now))
			}
			for k, i := range tt.release {
				mu.Lock()
				rel := releases[i]
				mu.Unlock()
				rel()
				rel() // twice is once
				// One that should start has all the time it needs; that
				// none starts is seen over 200 ms.
				wait := 10 * time.Second
				if tt.then[k] < 0 {
					wait = 200 * time.Millisecond
				}
				next := -1
				select {
				case next = <-started:
				case <-time.After(wait):
				}
				if next != tt.then[k] {
					t.Fatalf("after releasing %d, %d started; want %d", i, next, tt.then[k])
				}
			}
			for i := range tt.reqs {
				if want := !slices.Contains(tt.now, i); told[i] != want {
					t.Errorf("request %d told to wait: %v, want %v", i, told[i], want)
				}
			}
			if r, w := c.counts(); r != 0 || w != 0 {
				t.Fatalf("after all: %d running, %d waiting", r, w)
			}
		})
	}

	t.Run("gives up", func(t *testing.T) {
		c := newCheckSlots(Limits{Checks: 1, ChecksPerIP: 1, ChecksPerKey: 1})
		rel, _ := c.acquire(context.Background(), "a", "1", nil)
		ctx, cancel := context.WithCancelCause(context.Background())
		errc := make(chan error, 1)
		go func() {
			_, err := c.acquire(ctx, "b", "2", nil)
			errc <- err
		}()
		time.Sleep(20 * time.Millisecond)
		cancel(errors.New("hung up"))
		if err := <-errc; err == nil || err.Error() != "hung up" {
			t.Fatalf("acquire after the client left: %v", err)
		}
		if _, w := c.counts(); w != 0 {
			t.Fatalf("%d still waiting", w)
		}
		rel()
		if r, _ := c.counts(); r != 0 {
			t.Fatalf("%d running", r)
		}
	})
}

// slowCheck stands in for check, taking d, counting the checks at once.
type slowCheck struct {
	d        time.Duration
	now, max atomic.Int32
	calls    atomic.Int32
}

func (c *slowCheck) check(ctx context.Context, id string, src []byte, stdout, stderr io.Writer) int {
	c.calls.Add(1)
	n := c.now.Add(1)
	for {
		m := c.max.Load()
		if n <= m || c.max.CompareAndSwap(m, n) {
			break
		}
	}
	defer c.now.Add(-1)
	select {
	case <-time.After(c.d):
	case <-ctx.Done():
	}
	return testCheck(ctx, id, src, stdout, stderr)
}

// dialFrom connects from another loopback address (127.0.0.N).
func dialFrom(t testing.TB, addr string, n int, user string, key gossh.Signer) *gossh.Client {
	t.Helper()
	d := net.Dialer{LocalAddr: &net.TCPAddr{IP: net.IPv4(127, 0, 0, byte(n))}, Timeout: 10 * time.Second}
	raw, err := d.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	conn, chans, reqs, err := gossh.NewClientConn(raw, addr, &gossh.ClientConfig{User: user, Auth: []gossh.AuthMethod{gossh.PublicKeys(key)},
		HostKeyCallback: gossh.InsecureIgnoreHostKey()})
	if err != nil {
		t.Fatal(err)
	}
	c := gossh.NewClient(conn, chans, reqs)
	t.Cleanup(func() { c.Close() })
	return c
}

// TestChecksAtOnce: checks run at most serve.checks at once, per address
// serve.checks_per_ip, per key serve.checks_per_key; the others wait, are
// told so, and all end checked.
func TestChecksAtOnce(t *testing.T) {
	t.Parallel() // its own server; it waits on the server's timeouts and deadlines

	type from struct{ ip, key int } // 127.0.0.ip, the key'th key
	tests := []struct {
		name               string
		max, perIP, perKey int
		submits            []from
		most, waited       int
	}{
		{"one address, many keys", 4, 1, 4, []from{{1, 0}, {1, 1}, {1, 2}, {1, 3}}, 1, 3},
		{"one key, many addresses", 4, 4, 1, []from{{1, 0}, {2, 0}, {3, 0}}, 1, 2},
		{"in all", 2, 4, 4, []from{{1, 0}, {2, 1}, {3, 2}, {4, 3}}, 2, 2},
		{"within every cap", 4, 4, 4, []from{{1, 0}, {2, 1}, {3, 2}}, 3, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			sc := &slowCheck{d: 300 * time.Millisecond}
			ts := startServer(t, func(o *Options) {
				o.Limits.Checks, o.Limits.ChecksPerIP, o.Limits.ChecksPerKey = tt.max, tt.perIP, tt.perKey
				o.Limits.PlayersPerUser = 10
				o.Check = sc.check
			})
			keys := make([]gossh.Signer, len(tt.submits))
			for i := range keys {
				keys[i] = newKey(t)
			}
			var wg sync.WaitGroup
			var waited, ok atomic.Int32
			for i, f := range tt.submits {
				c := dialFrom(t, ts.addr, f.ip, fmt.Sprintf("u%d", f.key), keys[f.key])
				wg.Add(1)
				go func() {
					defer wg.Done()
					_, e, st := run(t, c, fmt.Sprintf("submit p%d", i), []byte("function run() end"))
					if strings.Contains(e, "your check waits for a free place") {
						waited.Add(1)
					}
					if st == 0 {
						ok.Add(1)
					}
				}()
			}
			wg.Wait()
			if int(sc.max.Load()) != tt.most || int(waited.Load()) != tt.waited || int(ok.Load()) != len(tt.submits) {
				t.Fatalf("at most %d checks at once, %d told to wait, %d good; want %d, %d, %d",
					sc.max.Load(), waited.Load(), ok.Load(), tt.most, tt.waited, len(tt.submits))
			}
			if r, w := ts.Checks(); r != 0 || w != 0 {
				t.Fatalf("after all: %d running, %d waiting", r, w)
			}
		})
	}
}

// TestSubmitReserves: what submit bounds is reserved before the check,
// so submits at once cannot pass it together: player names under
// serve.players_per_user, a user name two keys claim; the hourly quota is
// the key's, not the login name's.
func TestSubmitReserves(t *testing.T) {
	t.Parallel() // its own server; it waits on the server's timeouts and deadlines
	good := []byte("function run() end")
	tests := []struct {
		name     string
		limit    int
		logins   []string // one submit each, at once; keys as keyOf says
		sameKey  bool
		names    []string
		accepted int
		refusal  string
		stored   map[string]int // user -> players on disk
	}{
		{"players per user", 2, []string{"bob", "bob", "bob", "bob", "bob"}, true, []string{"a", "b", "c", "d", "e"}, 2, "serve.players_per_user", map[string]int{"bob": 2}},
		{"one name at once", 1, []string{"bob", "bob", "bob", "bob"}, true, []string{"a", "a", "a", "a"}, 4, "", map[string]int{"bob": 1}},
		{"a user name two keys claim", 5, []string{"carol", "carol"}, false, []string{"a", "b"}, 1, "another key", map[string]int{"carol": 1}},
		{"within", 3, []string{"dan", "dan", "dan"}, true, []string{"a", "b", "c"}, 3, "", map[string]int{"dan": 3}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			sc := &slowCheck{d: 300 * time.Millisecond}
			ts := startServer(t, func(o *Options) {
				o.Limits.PlayersPerUser = tt.limit
				o.Check = sc.check
			})
			shared := newKey(t)
			var wg sync.WaitGroup
			var accepted atomic.Int32
			var mu sync.Mutex
			var refusals []string
			for i, login := range tt.logins {
				key := shared
				if !tt.sameKey {
					key = newKey(t)
				}
				c := dial(t, ts.addr, login, key)
				wg.Add(1)
				go func() {
					defer wg.Done()
					_, e, st := run(t, c, "submit "+tt.names[i], good)
					if st == 0 {
						accepted.Add(1)
						return
					}
					mu.Lock()
					refusals = append(refusals, e)
					mu.Unlock()
				}()
			}
			wg.Wait()
			if int(accepted.Load()) != tt.accepted {
				t.Errorf("%d accepted, want %d (refusals %q)", accepted.Load(), tt.accepted, refusals)
			}
			for _, r := range refusals {
				if tt.refusal == "" || !strings.Contains(r, tt.refusal) {
					t.Errorf("refused with %q, want %q", r, tt.refusal)
				}
			}
			if calls := int(sc.calls.Load()); calls != tt.accepted {
				t.Errorf("%d checks ran for %d accepted: a refused submit must not run one", calls, tt.accepted)
			}
			for user, n := range tt.stored {
				if got := ts.store.Count(user); got != n {
					t.Errorf("%s holds %d players, want %d", user, got, n)
				}
			}
		})
	}

	t.Run("quota by key", func(t *testing.T) {
		ts := startServer(t, func(o *Options) { o.Limits.UploadsPerHour = 2 })
		mk := newKey(t)
		mallory := dial(t, ts.addr, "alice", mk)
		for range 2 {
			if _, e, st := run(t, mallory, "submit x", []byte("broken")); st != 2 {
				t.Fatalf("a broken upload: status %d %q", st, e)
			}
		}
		if _, e, st := run(t, mallory, "submit x", []byte("broken")); st != 1 || !strings.Contains(e, "serve.uploads_per_hour") {
			t.Fatalf("mallory's third upload: status %d %q", st, e)
		}
		alice := dial(t, ts.addr, "alice", newKey(t))
		if _, e, st := run(t, alice, "submit mine", good); st != 0 {
			t.Fatalf("alice after another key spent its uploads logged in as alice: status %d %q", st, e)
		}
		if _, e, st := run(t, dial(t, ts.addr, "mal", mk), "submit y", good); st != 1 || !strings.Contains(e, "serve.uploads_per_hour") {
			t.Fatalf("mallory's key under its own name: status %d %q", st, e)
		}
	})
}
