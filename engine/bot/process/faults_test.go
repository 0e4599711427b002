package process

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/squarebattle/squarebattle/engine/bot"
)

// startBot starts the fault bot in mode over transport, closed when the
// test ends. Its log may be read once Close has returned (no write comes
// after).
func startBot(t *testing.T, mode, transport string, opt func(*Options)) (*Bot, *bytes.Buffer) {
	t.Helper()
	log := &bytes.Buffer{}
	o := Options{Command: []string{faultBot, mode}, Transport: transport, Log: log, Team: 2, Grace: 100 * time.Millisecond}
	if opt != nil {
		opt(&o)
	}
	b, err := Start(o)
	if err != nil {
		t.Fatalf("Start(%s over %s): %v", mode, transport, err)
	}
	t.Cleanup(func() { b.Close() })
	return b, log
}

func send(t *testing.T, b *Bot, line string) {
	t.Helper()
	if err := b.Send([]byte(line)); err != nil {
		t.Fatalf("Send(%.20q): %v", line, err)
	}
}

func receive(t *testing.T, b *Bot) string {
	t.Helper()
	l, err := b.Receive(time.Time{})
	if err != nil {
		t.Fatalf("Receive: %v", err)
	}
	return string(l)
}

// receiveErr waits for Receive's error, which must wrap want.
func receiveErr(t *testing.T, b *Bot, want error) error {
	t.Helper()
	for range 1000 {
		_, err := b.Receive(time.Time{})
		if err == nil {
			continue // lines that came before the fault
		}
		if !errors.Is(err, want) {
			t.Fatalf("Receive: %v, want %v", err, want)
		}
		return err
	}
	t.Fatalf("Receive: no error after 1000 lines, want %v", want)
	return nil
}

// gone waits (a bounded while) for the bot's process to be reaped.
func gone(t *testing.T, b *Bot) {
	t.Helper()
	select {
	case <-b.exited:
	case <-time.After(10 * time.Second):
		t.Fatal("the bot's process still runs")
	}
}

// TestFaults: each way a bot can misbehave is contained and reported as
// the contract says, over both transports where the fault exists on both.
func TestFaults(t *testing.T) {
	for _, c := range []struct {
		name, mode string
		transports []string
		opt        func(*Options)
		check      func(t *testing.T, b *Bot, log *bytes.Buffer)
	}{
		{name: "echo", mode: "echo", check: func(t *testing.T, b *Bot, _ *bytes.Buffer) {
			for i := range 3 {
				send(t, b, "line "+strconv.Itoa(i))
				if got := receive(t, b); got != "line "+strconv.Itoa(i) {
					t.Fatalf("got %q", got)
				}
			}
			b.Close() // the bot exits at the end of its input, in its grace
			if st := b.cmd.ProcessState.String(); st != "exit status 0" {
				t.Fatalf("bot ended with %s, want exit status 0", st)
			}
		}},
		{name: "late answer is kept for the next Receive", mode: "hold", check: func(t *testing.T, b *Bot, _ *bytes.Buffer) {
			send(t, b, "question")
			if _, err := b.Receive(time.Now().Add(20 * time.Millisecond)); err != bot.ErrLate {
				t.Fatalf("Receive before the answer: %v, want ErrLate", err)
			}
			send(t, b, "release")
			if got := receive(t, b); got != "question" {
				t.Fatalf("late line %q, want question", got)
			}
			send(t, b, "still alive")
			if got := receive(t, b); got != "still alive" {
				t.Fatalf("got %q", got)
			}
		}},
		{name: "a line already there is not late, whatever the deadline", mode: "echo", check: func(t *testing.T, b *Bot, _ *bytes.Buffer) {
			past := time.Now().Add(-time.Second)
			if _, err := b.Receive(past); err != bot.ErrLate {
				t.Fatalf("Receive with nothing there: %v, want ErrLate", err)
			}
			send(t, b, "in time")
			for i := 0; ; i++ {
				l, err := b.Receive(past)
				if err == nil {
					if string(l) != "in time" {
						t.Fatalf("got %q", l)
					}
					break
				}
				if err != bot.ErrLate || i > 1000 {
					t.Fatalf("Receive: %v", err)
				}
				time.Sleep(10 * time.Millisecond) // the echo is on its way
			}
		}},
		{name: "malformed bytes pass unchanged, CR LF ends a line", mode: "garbage", check: func(t *testing.T, b *Bot, _ *bytes.Buffer) {
			if got := receive(t, b); got != "garbage\x00\xff\x1b[2J" {
				t.Fatalf("got %q", got)
			}
			if got := receive(t, b); got != `{"a":1}` {
				t.Fatalf("got %q", got)
			}
		}},
		{name: "line over MaxLine kills the bot", mode: "huge", check: func(t *testing.T, b *Bot, _ *bytes.Buffer) {
			receiveErr(t, b, bot.ErrLineTooLong)
			if b.cmd != nil {
				gone(t, b)
			}
			if _, err := b.Receive(time.Time{}); !errors.Is(err, bot.ErrLineTooLong) {
				t.Fatalf("Receive after: %v, want ErrLineTooLong again", err)
			}
		}},
		{name: "line of exactly MaxLine passes", mode: "exact", check: func(t *testing.T, b *Bot, _ *bytes.Buffer) {
			if got := receive(t, b); len(got) != bot.MaxLine {
				t.Fatalf("line of %d bytes, want %d", len(got), bot.MaxLine)
			}
			if got := receive(t, b); got != "after" {
				t.Fatalf("got %q", got)
			}
		}},
		{name: "last line without newline is dropped as closed", mode: "nonewline", check: func(t *testing.T, b *Bot, _ *bytes.Buffer) {
			err := receiveErr(t, b, bot.ErrClosed)
			var ce *ClosedError
			if !errors.As(err, &ce) || ce.Partial != len("partial") {
				t.Fatalf("Receive: %v, want a ClosedError with 7 partial bytes", err)
			}
		}},
		{name: "closed stdout, still running", mode: "closeout", transports: []string{Stdio}, check: func(t *testing.T, b *Bot, _ *bytes.Buffer) {
			receiveErr(t, b, bot.ErrClosed)
			b.Close()
			gone(t, b)
		}},
		{name: "crash", mode: "crash", check: func(t *testing.T, b *Bot, log *bytes.Buffer) {
			send(t, b, "go")
			err := receiveErr(t, b, bot.ErrClosed)
			if !strings.Contains(err.Error(), "exit status 2") {
				t.Errorf("Receive: %v, want the exit status", err)
			}
			b.Close()
			if !strings.Contains(log.String(), "panic: faultbot crashes on purpose") {
				t.Errorf("log %q lacks the panic", log.String())
			}
		}},
		{name: "exits mid-battle", mode: "midbattle", check: func(t *testing.T, b *Bot, _ *bytes.Buffer) {
			for _, l := range []string{"one", "two"} {
				send(t, b, l)
				if got := receive(t, b); got != l {
					t.Fatalf("got %q", got)
				}
			}
			err := receiveErr(t, b, bot.ErrClosed)
			if !strings.Contains(err.Error(), "exit status 3") {
				t.Errorf("Receive: %v, want exit status 3", err)
			}
			gone(t, b)
			var serr error
			for range 100 { // a socket may take a write or two before it resets
				if serr = b.Send([]byte("three")); serr != nil {
					break
				}
			}
			if !errors.Is(serr, bot.ErrClosed) {
				t.Fatalf("Send to a dead bot: %v, want ErrClosed", serr)
			}
		}},
		{name: "floods stdout", mode: "floodout", check: func(t *testing.T, b *Bot, _ *bytes.Buffer) {
			for range 100 {
				if got := receive(t, b); len(got) != 1023 {
					t.Fatalf("line of %d bytes", len(got))
				}
			}
		}},
		{name: "never reads", mode: "noread", opt: func(o *Options) { o.SendTimeout = 50 * time.Millisecond }, check: func(t *testing.T, b *Bot, _ *bytes.Buffer) {
			line := bytes.Repeat([]byte("n"), 64<<10)
			var err error
			for i := 0; i < 1000 && err == nil; i++ {
				err = b.Send(line)
			}
			if !errors.Is(err, ErrNotReading) {
				t.Fatalf("Send: %v, want ErrNotReading", err)
			}
		}},
		{name: "never reads, send deadline", mode: "noread", opt: func(o *Options) { o.SendTimeout = -1 }, check: func(t *testing.T, b *Bot, _ *bytes.Buffer) {
			b.SetSendDeadline(time.Now().Add(50 * time.Millisecond))
			line := bytes.Repeat([]byte("n"), 64<<10)
			var err error
			for i := 0; i < 1000 && err == nil; i++ {
				err = b.Send(line)
			}
			if !errors.Is(err, ErrNotReading) {
				t.Fatalf("Send: %v, want ErrNotReading", err)
			}
			if err2 := b.Send([]byte("x")); err2 == nil {
				t.Fatal("Send after a cut line succeeded")
			}
		}},
		{name: "floods stderr", mode: "floodstderr", opt: func(o *Options) { o.LogBytes = 4096 }, check: func(t *testing.T, b *Bot, log *bytes.Buffer) {
			receive(t, b) // it has flooded past the cap, and goes on
			b.Close()
			s := log.String()
			if strings.IndexByte(s, 0x1b) >= 0 {
				t.Error("an escape byte reached the log")
			}
			if !strings.Contains(s, `\x1b[31m`) {
				t.Error("the escape is not shown escaped")
			}
			if !strings.Contains(s, "the rest is dropped") {
				t.Error("no note when the cap was reached")
			}
			if len(s) > 4096+200 {
				t.Errorf("log of %d bytes, cap 4096", len(s))
			}
			if !strings.HasSuffix(s, "bytes of the bot's output dropped)\n") {
				t.Errorf("log does not end with the dropped count: %q", s[max(0, len(s)-100):])
			}
		}},
		{name: "children that outlive it die with Close", mode: "fork", check: func(t *testing.T, b *Bot, _ *bytes.Buffer) {
			pids := strings.Fields(receive(t, b))
			receiveErr(t, b, bot.ErrClosed)
			for _, p := range pids {
				if !alive(p) {
					t.Fatalf("child %s died before Close", p)
				}
			}
			b.Close()
			for _, p := range pids {
				for i := 0; alive(p); i++ {
					if i > 1000 {
						t.Fatalf("child %s outlives Close", p)
					}
					time.Sleep(10 * time.Millisecond)
				}
			}
		}},
	} {
		transports := c.transports
		if transports == nil {
			transports = []string{Stdio, TCP}
		}
		for _, tr := range transports {
			t.Run(c.name+"/"+tr, func(t *testing.T) {
				t.Parallel()
				b, log := startBot(t, c.mode, tr, c.opt)
				c.check(t, b, log)
			})
		}
	}
}

// alive says whether process pid exists and is not a zombie.
func alive(pid string) bool {
	b, err := os.ReadFile("/proc/" + pid + "/stat")
	if err != nil {
		return false
	}
	i := bytes.LastIndexByte(b, ')')
	return i >= 0 && i+2 < len(b) && b[i+2] != 'Z' && b[i+2] != 'X'
}

// TestCloseEndsBlockedCalls: Close from another goroutine ends a Receive
// waiting without a deadline and a Send blocked on a full pipe.
func TestCloseEndsBlockedCalls(t *testing.T) {
	for _, tr := range []string{Stdio, TCP} {
		t.Run(tr, func(t *testing.T) {
			b, _ := startBot(t, "noread", tr, func(o *Options) { o.SendTimeout = -1 })
			recv := make(chan error)
			go func() {
				_, err := b.Receive(time.Time{})
				recv <- err
			}()
			sent := make(chan error)
			go func() {
				line := bytes.Repeat([]byte("n"), 1<<20)
				for {
					if err := b.Send(line); err != nil {
						sent <- err
						return
					}
				}
			}()
			time.Sleep(50 * time.Millisecond)
			b.Close()
			if err := <-recv; !errors.Is(err, bot.ErrClosed) {
				t.Errorf("Receive: %v, want ErrClosed", err)
			}
			if err := <-sent; !errors.Is(err, bot.ErrClosed) {
				t.Errorf("Send: %v, want ErrClosed", err)
			}
			b.Close() // idempotent
		})
	}
}

// TestLimits: the bot runs in a group of its own, under the limits, in
// its directory, with only the environment it is given and, over TCP,
// ADDRESS PORT TEAM appended to its arguments.
func TestLimits(t *testing.T) {
	if !launched {
		t.Skip("no limits off Linux")
	}
	dir := t.TempDir()
	if err := os.Chmod(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		name, transport string
		as              *User
	}{{"stdio", Stdio, nil}, {"tcp", TCP, nil}}
	if os.Getuid() == 0 {
		// Run as another user: the change of user must not lose the
		// parent-death signal.
		cases = append(cases, struct {
			name, transport string
			as              *User
		}{"stdio as nobody", Stdio, &User{UID: 65534, GID: 65534}})
	}
	for _, c := range cases {
		tr := c.transport
		t.Run(c.name, func(t *testing.T) {
			b, log := startBot(t, "report", tr, func(o *Options) {
				o.Dir = dir
				o.Env = []string{"BOT_SETTING=1"}
				o.Limits = Limits{MemoryMiB: 100, CPUSeconds: 7, OpenFiles: 33, FileMiB: 2}
				o.RunAs = c.as
			})
			uid := os.Getuid()
			if c.as != nil {
				uid = int(c.as.UID)
			}
			first, err := b.Receive(time.Time{})
			if err != nil && c.as != nil {
				b.Close()
				t.Skipf("cannot run a bot as nobody here: %s", log)
			}
			if want := fmt.Sprintf("own-group=true pdeathsig=9 uid=%d", uid); string(first) != want {
				t.Errorf("%s, want %s", first, want)
			}
			lims := map[string]string{}
			for _, f := range strings.Fields(receive(t, b)) {
				k, v, _ := strings.Cut(f, "=")
				lims[k] = v
			}
			for k, want := range map[string]string{
				"as": strconv.Itoa(100<<20 + 2<<30), "cpu": "7", "nofile": "33", "fsize": strconv.Itoa(2 << 20), "core": "0",
			} {
				if lims[k] != want {
					t.Errorf("limit %s = %s, want %s", k, lims[k], want)
				}
			}
			if n, _ := strconv.Atoi(lims["nproc"]); n < DefaultLimits().Processes || uint64(n) == ^uint64(0) {
				t.Errorf("nproc %s: want the user's tasks plus %d", lims["nproc"], DefaultLimits().Processes)
			}
			args := receive(t, b)
			if tr == Stdio && args != "args=report" || tr == TCP && !strings.HasPrefix(args, "args=report 127.0.0.1 ") || tr == TCP && !strings.HasSuffix(args, " 2") {
				t.Errorf("%s", args)
			}
			if got := receive(t, b); got != "dir="+dir {
				t.Errorf("%s, want dir=%s", got, dir)
			}
			env := strings.Split(strings.TrimPrefix(receive(t, b), "env="), "|")
			want := []string{"PATH=" + os.Getenv("PATH"), "LANG=C.UTF-8", "BOT_SETTING=1"}
			if fmt.Sprint(env) != fmt.Sprint(want) {
				t.Errorf("environment %q, want %q", env, want)
			}
		})
	}
}

// TestMemoryLimit: a bot that maps memory without end dies at its
// address-space limit (the memory is never touched, so this costs the
// machine nothing).
func TestMemoryLimit(t *testing.T) {
	if !launched {
		t.Skip("no limits off Linux")
	}
	b, log := startBot(t, "alloc", Stdio, func(o *Options) { o.Limits.MemoryMiB = 64 })
	err := receiveErr(t, b, bot.ErrClosed)
	b.Close()
	if !strings.Contains(log.String(), "out of memory") {
		t.Errorf("Receive: %v; log %q: want the bot dead of out of memory", err, log.String())
	}
}
