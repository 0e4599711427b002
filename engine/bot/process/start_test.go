package process

import (
	"bufio"
	"errors"
	"net"
	"os"
	"runtime"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/squarebattle/squarebattle/engine/bot"
)

// TestStartRefuses: options Start refuses before it runs anything, and
// programs it cannot run.
func TestStartRefuses(t *testing.T) {
	cmd := []string{faultBot, "echo"}
	for _, c := range []struct {
		name    string
		o       Options
		options bool // the error wraps ErrOptions
		want    string
	}{
		{"unknown transport", Options{Command: cmd, Transport: "udp"}, true, "transport"},
		{"connect over stdio", Options{Connect: "127.0.0.1:1"}, true, "connect needs"},
		{"no command", Options{}, true, "no command"},
		{"NUL in an argument", Options{Command: []string{faultBot, "a\x00b"}}, true, "NUL"},
		{"environment entry", Options{Command: cmd, Env: []string{"NOEQUALS"}}, true, "KEY=VALUE"},
		{"negative team", Options{Command: cmd, Team: -1}, true, "team"},
		{"limit below -1", Options{Command: cmd, Limits: Limits{CPUSeconds: -2}}, true, "cpu_seconds"},
		{"max line too big", Options{Command: cmd, MaxLine: 1 << 30}, true, "max line"},
		{"connect elsewhere", Options{Transport: TCP, Connect: "10.1.2.3:80"}, true, "loopback"},
		{"connect to a name", Options{Transport: TCP, Connect: "example.com:80"}, true, "loopback"},
		{"connect to a mapped address", Options{Transport: TCP, Connect: "[::ffff:8.8.8.8]:53"}, true, "loopback"},
		{"connect without port", Options{Transport: TCP, Connect: "127.0.0.1"}, true, "port"},
		{"missing program", Options{Command: []string{"no-such-bot-program-here"}}, false, "not found"},
		{"missing file", Options{Command: []string{"./nothing"}, Dir: t.TempDir()}, false, "no such file"},
		{"not executable", Options{Command: []string{"./main_test.go"}, Dir: "."}, false, "not an executable"},
	} {
		t.Run(c.name, func(t *testing.T) {
			b, err := Start(c.o)
			if err == nil {
				b.Close()
				t.Fatal("Start succeeded")
			}
			if errors.Is(err, ErrOptions) != c.options || !strings.Contains(err.Error(), c.want) {
				t.Fatalf("Start: %v; want an error with %q (options: %v)", err, c.want, c.options)
			}
		})
	}
}

// TestTCPConnectFails: a bot that never connects, or exits first, makes
// Start fail with the reason, and leaves nothing running.
func TestTCPConnectFails(t *testing.T) {
	for _, c := range []struct {
		mode string
		wait time.Duration
		want string
	}{
		{"noconnect", 300 * time.Millisecond, "did not connect in time"},
		{"exit", time.Minute, "exited before it connected"}, // at once, not at the deadline
	} {
		t.Run(c.mode, func(t *testing.T) {
			_, err := Start(Options{Command: []string{faultBot, c.mode}, Transport: TCP, InitTimeout: c.wait})
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Fatalf("Start: %v, want %q", err, c.want)
			}
		})
	}
}

// TestConnect: a bot already listening on loopback is reached with
// Options.Connect; Close closes the connection and starts nothing.
func TestConnect(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	done := make(chan string)
	go func() { // the bot: echoes each line, reports how its input ended
		c, err := ln.Accept()
		if err != nil {
			done <- err.Error()
			return
		}
		defer c.Close()
		r := bufio.NewReader(c)
		for {
			l, err := r.ReadString('\n')
			if err != nil {
				done <- "input ended"
				return
			}
			c.Write([]byte(l))
		}
	}()
	_, port, _ := net.SplitHostPort(ln.Addr().String())
	b, err := Start(Options{Transport: TCP, Connect: "localhost:" + port})
	if err != nil {
		t.Fatal(err)
	}
	send(t, b, `{"type":"hello"}`)
	if got := receive(t, b); got != `{"type":"hello"}` {
		t.Fatalf("got %q", got)
	}
	b.Close()
	if got := <-done; got != "input ended" {
		t.Fatalf("bot: %s", got)
	}
	if _, err := b.Receive(time.Time{}); !errors.Is(err, bot.ErrClosed) {
		t.Fatalf("Receive after Close: %v", err)
	}
}

// TestLauncherGuard: a process started as the launcher that did not run
// it (a binary without the hook) cannot start bots in turn.
func TestLauncherGuard(t *testing.T) {
	t.Setenv(launcherEnv, "1")
	if _, err := Start(Options{Command: []string{faultBot, "echo"}}); err == nil || !strings.Contains(err.Error(), "launcher") {
		t.Fatalf("Start: %v, want the launcher refusal", err)
	}
}

// TestNoLeaks: many bots started, used and closed, over both transports
// and ending in different ways, leave no goroutine and no descriptor.
func TestNoLeaks(t *testing.T) {
	use := func(mode, tr string) {
		b, err := Start(Options{Command: []string{faultBot, mode}, Transport: tr, Grace: 20 * time.Millisecond})
		if err != nil {
			t.Fatal(err)
		}
		switch mode {
		case "echo":
			send(t, b, "x")
			receive(t, b)
		case "huge":
			receiveErr(t, b, bot.ErrLineTooLong)
		case "crash":
			send(t, b, "x")
			receiveErr(t, b, bot.ErrClosed)
		}
		b.Close()
	}
	use("echo", Stdio) // the runtime's poller and first threads
	goroutines, fds := runtime.NumGoroutine(), openFiles(t)
	for i := range 30 {
		use([]string{"echo", "huge", "crash", "floodstderr", "noread"}[i%5], []string{Stdio, TCP}[i%2])
	}
	for i := 0; runtime.NumGoroutine() > goroutines; i++ {
		if i > 500 {
			buf := make([]byte, 1<<16)
			t.Fatalf("%d goroutines, %d before:\n%s", runtime.NumGoroutine(), goroutines, buf[:runtime.Stack(buf, true)])
		}
		time.Sleep(10 * time.Millisecond)
	}
	if n := openFiles(t); n != fds {
		t.Fatalf("%d open descriptors, %d before", n, fds)
	}
}

func openFiles(t *testing.T) int {
	t.Helper()
	e, err := os.ReadDir("/proc/self/fd")
	if err != nil {
		t.Skip("no /proc/self/fd")
	}
	return len(e)
}

// TestForkBomb: a bot that starts processes without end is refused by
// the kernel after Limits.Processes more tasks, and Close kills what it
// started.
//
// RLIMIT_NPROC counts every task of the bot's real user id on the
// machine, and the kernel does not enforce it for root. So the test runs
// the bomb where that is safe on a shared machine: as the current user
// when it is not root (the bot's allowance is the user's tasks now plus
// 20, so the bomb adds at most 20 tasks, and other programs of the user,
// which run under their own limit, are not refused anything), and as root
// only as the user nobody (65534), through Options.RunAs, when nobody has
// next to no tasks. Where root cannot change user (a container without
// CAP_SETUID), it skips.
func TestForkBomb(t *testing.T) {
	if !launched {
		t.Skip("no limits off Linux")
	}
	var as *User
	uid := uint32(os.Getuid())
	if uid == 0 {
		as, uid = &User{UID: 65534, GID: 65534}, 65534
		if n, err := userTasks(uid); err != nil || n > 50 {
			t.Skipf("user nobody has %d tasks (%v): not a safe place for a fork bomb", n, err)
		}
	}
	const allowance = 20
	b, log := startBot(t, "forkbomb", Stdio, func(o *Options) {
		o.RunAs = as
		o.Limits.Processes = allowance
	})
	line, err := b.Receive(time.Time{})
	if err != nil {
		b.Close()
		if as != nil && strings.Contains(log.String(), "bot launcher:") {
			t.Skipf("cannot run a bot as nobody here: %s", strings.TrimSpace(log.String()))
		}
		t.Fatalf("Receive: %v; log %q", err, log.String())
	}
	n := -1
	if rest, ok := strings.CutPrefix(string(line), "refused after "); ok {
		n, _ = strconv.Atoi(strings.Fields(rest)[0])
	}
	if n < 0 || n > allowance {
		t.Fatalf("bomb: %q, want refused after at most %d processes", line, allowance)
	}
	t.Logf("bomb: %s", line)
	b.Close()
	if as != nil { // nobody's tasks were all the bomb's: none may be left
		for i := 0; ; i++ {
			m, _ := userTasks(uid)
			if m == 0 {
				break
			}
			if i > 500 {
				t.Fatalf("%d tasks of the bomb outlive Close", m)
			}
			time.Sleep(10 * time.Millisecond)
		}
	}
}

// TestTCPImpostor: another local process that connects to a TCP bot's
// port first is not taken for the bot: its connection is closed, and the
// bot's own is used.
func TestTCPImpostor(t *testing.T) {
	if !launched {
		t.Skip("the peer is checked on Linux only")
	}
	impostor := make(chan net.Conn, 1)
	listening = func(addr string) {
		c, err := net.Dial("tcp", addr)
		if err != nil {
			t.Error(err)
		}
		c.Write([]byte("impostor\n"))
		impostor <- c
	}
	defer func() { listening = nil }()
	b, _ := startBot(t, "echo", TCP, nil)
	send(t, b, "real")
	if got := receive(t, b); got != "real" {
		t.Fatalf("got %q from the connection taken, want the bot's echo", got)
	}
	c := <-impostor
	defer c.Close()
	c.SetReadDeadline(time.Now().Add(10 * time.Second))
	if n, err := c.Read(make([]byte, 10)); err == nil {
		t.Fatalf("the impostor's connection is open (read %d bytes)", n)
	}
}
