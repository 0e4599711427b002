package ssh

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"runtime"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	gossh "golang.org/x/crypto/ssh"

	"github.com/squarebattle/squarebattle/engine/bot"
	"github.com/squarebattle/squarebattle/engine/bot/remote"
)

// dialDeaf connects with key and hands the server's global requests to
// answer: true replies to them (as every client does), false holds them
// unanswered for good, as a hostile client may.
func dialDeaf(t testing.TB, addr string, key gossh.Signer, answer bool) *gossh.Client {
	t.Helper()
	nc, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	cc, chans, reqs, err := gossh.NewClientConn(nc, addr, &gossh.ClientConfig{User: "bob",
		Auth: []gossh.AuthMethod{gossh.PublicKeys(key)}, HostKeyCallback: gossh.InsecureIgnoreHostKey()})
	if err != nil {
		t.Fatal(err)
	}
	var mu sync.Mutex
	var held []*gossh.Request
	go func() {
		for r := range reqs {
			if answer {
				r.Reply(false, nil)
				continue
			}
			mu.Lock()
			held = append(held, r)
			mu.Unlock()
		}
	}()
	c := gossh.NewClient(cc, chans, make(chan *gossh.Request))
	t.Cleanup(func() { c.Close() })
	return c
}

// TestBotPingBounded: the bot command measures the round trip with a
// keepalive, which a client may never answer; however many bot commands
// it runs on one connection, one after another or at once, the server
// holds at most one keepalive (one goroutine) for it, and each command is
// refused with the reason. A client that answers gets its bot linked.
func TestBotPingBounded(t *testing.T) {
	for _, tc := range []struct {
		name     string
		answer   bool
		attempts int // at once (at most serve.channels_per_connection)
		waves    int // one after another
		want     string
	}{
		{"silent, one after another", false, 1, 4, "does not answer"},
		{"silent, at once", false, 8, 1, "does not answer"},
		{"silent, in waves", false, 8, 3, "does not answer"},
		{"answers", true, 4, 2, "network round trip"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ts := startServer(t, func(o *Options) {
				o.BotLink = func(ctx context.Context, user, name string, in io.Reader, out io.Writer, notes io.Writer, end func()) int {
					io.WriteString(out, "hello\n")
					bufio.NewReader(in).ReadString('\n')
					return 0
				}
			})
			c := dialDeaf(t, ts.addr, newKey(t), tc.answer)
			base := runtime.NumGoroutine()
			one := func() string {
				rc := openRaw(t, c)
				if !rc.exec("bot b") {
					t.Error("the bot command was refused")
				}
				rc.ch.Write([]byte("bye\n"))
				rc.waitStatus(t)
				return rc.text()
			}
			for w := 0; w < tc.waves; w++ {
				outs := make([]string, tc.attempts)
				var wg sync.WaitGroup
				for i := range outs {
					wg.Go(func() { outs[i] = one() })
				}
				wg.Wait()
				for i, out := range outs {
					if !strings.Contains(out, tc.want) {
						t.Errorf("wave %d, attempt %d: output %q lacks %q", w, i, out, tc.want)
					}
				}
			}
			// One keepalive may still wait for its reply.
			waitGoroutines(t, base+1)
		})
	}
}

// fakeHub stands in for serve's bot hub: a bot's name is kept from its
// first link on (BotNames); a link lasts until its stdin ends.
type fakeHub struct {
	mu    sync.Mutex
	known map[string][]string // user -> bot names
}

func (h *fakeHub) link(ctx context.Context, user, name string, in io.Reader, out io.Writer, notes io.Writer, end func()) int {
	h.mu.Lock()
	if !slices.Contains(h.known[user], name) {
		h.known[user] = append(h.known[user], name)
	}
	h.mu.Unlock()
	io.WriteString(notes, "linked\n")
	io.Copy(io.Discard, in)
	return 0
}

func (h *fakeHub) names(user string) []string {
	h.mu.Lock()
	defer h.mu.Unlock()
	return slices.Clone(h.known[user])
}

// TestBotsAmongPlayers: a user's remote bots are players of the user: they
// count under serve.players_per_user with the uploads, whichever came
// first, and a bot and an upload never share a name, also when the one
// is still under way (a submit in its check, a bot linking) when the
// other comes.
func TestBotsAmongPlayers(t *testing.T) {
	type step struct {
		cmd  string // "bot NAME", "submit NAME", "hold bot NAME" (linked until the end), "hold submit NAME" (in its check until the end)
		want int    // exit status
		msg  string // in the output
	}
	for _, tc := range []struct {
		name  string
		steps []step
	}{
		{"bots first, then uploads past the limit", []step{
			{"bot one", 0, "linked"}, {"bot two", 0, "linked"},
			{"submit luaa", exitFailure, "serve.players_per_user"},
		}},
		{"uploads first, then a bot past the limit", []step{
			{"submit luaa", 0, "upload stored"}, {"submit luab", 0, "upload stored"},
			{"bot one", exitFailure, "serve.players_per_user"},
		}},
		{"one of each, then either past the limit", []step{
			{"bot one", 0, "linked"}, {"submit luaa", 0, "upload stored"},
			{"bot two", exitFailure, "serve.players_per_user"},
			{"submit luab", exitFailure, "serve.players_per_user"},
			{"bot one", 0, "linked"}, {"submit luaa", 0, "upload stored"},
		}},
		{"an upload named as a bot", []step{
			{"bot one", 0, "linked"}, {"submit one", exitBadInput, "remote bot of yours"},
		}},
		{"a bot named as an upload", []step{
			{"submit one", 0, "upload stored"}, {"bot one", exitBadInput, "uploaded Lua player"},
		}},
		{"a submit while the bot of its name links", []step{
			{"hold bot one", 0, ""}, {"submit one", exitBadInput, "remote bot of yours"},
		}},
		{"a bot while the submit of its name is checked", []step{
			{"hold submit one", 0, ""}, {"bot one", exitBadInput, "being submitted"},
		}},
		{"bots and submits under way count", []step{
			{"hold bot one", 0, ""}, {"hold submit luaa", 0, ""},
			{"bot two", exitFailure, "serve.players_per_user"},
			{"submit luab", exitFailure, "serve.players_per_user"},
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			hub := &fakeHub{known: map[string][]string{}}
			checking := make(chan struct{})
			unblock := make(chan struct{})
			ts := startServer(t, func(o *Options) {
				o.Limits.PlayersPerUser = 2
				o.BotLink, o.BotNames = hub.link, hub.names
				o.Check = func(ctx context.Context, id string, src []byte, stdout, stderr io.Writer) int {
					if strings.Contains(string(src), "hold") {
						checking <- struct{}{}
						select {
						case <-unblock:
						case <-ctx.Done():
						}
					}
					return testCheck(ctx, id, src, stdout, stderr)
				}
			})
			c := dial(t, ts.addr, "alice", newKey(t))
			var held []*rawChan
			for _, st := range tc.steps {
				if what, ok := strings.CutPrefix(st.cmd, "hold "); ok {
					rc := openRaw(t, c)
					rc.exec(what)
					held = append(held, rc)
					if strings.HasPrefix(what, "bot ") {
						for !strings.Contains(rc.text(), "linked") {
							time.Sleep(time.Millisecond)
						}
					} else {
						rc.ch.Write([]byte("function hold() end"))
						rc.ch.CloseWrite()
						<-checking
					}
					continue
				}
				var stdin []byte
				if strings.HasPrefix(st.cmd, "submit ") {
					stdin = []byte("function run() end")
				}
				out, errOut, status := run(t, c, st.cmd, stdin)
				if status != st.want || !strings.Contains(out+errOut, st.msg) {
					t.Errorf("%s: status %d, output %q; want %d and %q", st.cmd, status, out+errOut, st.want, st.msg)
				}
			}
			close(unblock)
			for _, rc := range held {
				rc.ch.Close()
			}
		})
	}
}

// TestBotExitStatus: however a bot's link ends (its stdin ends, it sends
// a line past bot.MaxLine, it floods lines while no battle asks, the
// server ends it), the client gets the session's exit status and the
// reason on stderr, and nothing of the session is left.
func TestBotExitStatus(t *testing.T) {
	long := bytes.Repeat([]byte("x"), bot.MaxLine+100<<10) // past a line and the reader's buffer
	tests := []struct {
		name  string
		send  func(ch gossh.Channel)
		stop  bool // the server ends the link
		notes string
	}{
		{"stdin ends", func(ch gossh.Channel) { ch.CloseWrite() }, false, "linked"},
		{"a line past the limit", func(ch gossh.Channel) { ch.Write(long) }, false, "over 1048576 bytes"},
		{"lines while no battle asks", func(ch gossh.Channel) {
			ch.Write(bytes.Repeat([]byte("{}\n"), remote.MaxIdleLines+10))
		}, false, "while no battle asked"},
		{"the server ends it", func(gossh.Channel) {}, true, "linked"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			stop := make(chan struct{})
			ts := startServer(t, func(o *Options) {
				o.BotLink = func(ctx context.Context, user, name string, in io.Reader, out io.Writer, notes io.Writer, end func()) int {
					l := remote.NewLink(in, out, end, remote.Options{SendTimeout: time.Minute})
					io.WriteString(notes, "linked\n")
					select {
					case <-l.Done():
					case <-stop:
						l.Close()
					}
					if err := l.Err(); err != nil && !errors.Is(err, bot.ErrClosed) {
						fmt.Fprintf(notes, "gone: %v\n", err)
					}
					return 0
				}
			})
			c := dial(t, ts.addr, "x", newKey(t))
			base := runtime.NumGoroutine()
			rc := openRaw(t, c)
			if !rc.exec("bot b") {
				t.Fatal("the bot command was refused")
			}
			for !strings.Contains(rc.text(), "linked") {
				time.Sleep(time.Millisecond)
			}
			tt.send(rc.ch)
			if tt.stop {
				close(stop)
			}
			if st := rc.waitStatus(t); st != 0 || !strings.Contains(rc.text(), tt.notes) {
				t.Errorf("status %d, output %q; want 0 and %q", st, rc.text(), tt.notes)
			}
			rc.ch.Close()
			waitGoroutines(t, base)
		})
	}
}
