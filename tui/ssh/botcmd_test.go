package ssh

import (
	"bufio"
	"context"
	"io"
	"net"
	"runtime"
	"strings"
	"sync"
	"testing"

	gossh "golang.org/x/crypto/ssh"
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
