//go:build linux

package process

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/squarebattle/squarebattle/engine/bot"
)

// containments runs f once with the bot's cgroup, where this machine lets
// the program make one, and once with the subreaper alone. Not parallel:
// cgroupsOff is the package's.
func containments(t *testing.T, f func(t *testing.T, withCgroup bool)) {
	for _, withCgroup := range []bool{true, false} {
		name := "subreaper"
		if withCgroup {
			name = "cgroup"
		}
		t.Run(name, func(t *testing.T) {
			if withCgroup {
				if g, err := newCgroup(); err != nil {
					t.Skipf("no cgroup here: %v", err)
				} else {
					_ = g.remove(0)
				}
			}
			cgroupsOff.Store(!withCgroup)
			defer cgroupsOff.Store(false)
			f(t, withCgroup)
		})
	}
}

var tokens atomic.Int64

// newToken is put in the argument list of every process a fault bot
// starts to escape (FAULTBOT_TOKEN), so that leftovers finds them.
func newToken() string {
	return fmt.Sprintf("escapee-%d-%d", os.Getpid(), tokens.Add(1))
}

// tree is the reaper's descendants as /proc shows them now: the bot and
// everything it started, however far it went from the bot's group.
func tree(b *Bot) map[int]proc {
	t := procTable()
	out := map[int]proc{}
	for _, pid := range descendants(t, b.cmd.Process.Pid) {
		out[pid] = t[pid]
	}
	return out
}

// leftovers scans /proc for anything of the bot's still running after
// Close: a process whose arguments hold token, one of before (by pid and
// start time), one in the bot's cgroup, or a descendant of any of these.
func leftovers(token string, before map[int]proc, g *cgroup) []string {
	var out []string
	t := procTable()
	for pid, p := range t {
		s := strconv.Itoa(pid)
		if !alive(s) {
			continue // a zombie runs nothing; its parent reaps it
		}
		cmd, _ := os.ReadFile("/proc/" + s + "/cmdline")
		why := ""
		switch {
		case bytes.Contains(cmd, []byte(token)):
			why = "holds the token"
		case before[pid] == p:
			why = "was in the bot's tree"
		case g != nil && g.holds(s):
			why = "is in the bot's cgroup"
		default:
			for q := p.ppid; q > 1; q = t[q].ppid {
				if old, ok := before[q]; ok && old == t[q] {
					why = "descends from the bot's tree"
					break
				}
				if _, ok := t[q]; !ok {
					break
				}
			}
		}
		if why != "" {
			out = append(out, fmt.Sprintf("%d %s (%s)", pid, why, bytes.ReplaceAll(cmd, []byte{0}, []byte{' '})))
		}
	}
	if g != nil {
		if _, err := os.Stat(g.dir); err == nil {
			out = append(out, g.dir+" not removed")
		}
	}
	return out
}

// session is the session and process group of pid.
func session(t *testing.T, pid int) (sid, pgid int) {
	t.Helper()
	pgid, err := syscall.Getpgid(pid)
	if err != nil {
		t.Fatalf("getpgid %d: %v", pid, err)
	}
	s, _, e := syscall.RawSyscall(syscall.SYS_GETSID, uintptr(pid), 0, 0)
	if e != 0 {
		t.Fatalf("getsid %d: %v", pid, e)
	}
	return int(s), pgid
}

// TestEscapes: processes a bot starts that leave its process group, its
// session, or their parent, die at Close, with the cgroup or the
// subreaper alone, and nothing of the bot is left running afterwards.
func TestEscapes(t *testing.T) {
	containments(t, func(t *testing.T, withCgroup bool) {
		for _, c := range []struct {
			mode    string
			session bool // the escapee leaves the bot's session too
		}{
			{"setsid", true},
			{"daemon", true},
			{"setpgid", false},
			{"termproof-daemon", true},
		} {
			for _, tr := range []string{Stdio, TCP} {
				t.Run(c.mode+"/"+tr, func(t *testing.T) {
					token := newToken()
					b, _ := startBot(t, c.mode, tr, func(o *Options) { o.Env = []string{"FAULTBOT_TOKEN=" + token} })
					if got := b.Containment(); withCgroup != strings.Contains(got, "cgroup /") {
						t.Fatalf("Containment() = %q", got)
					}
					pid, err := strconv.Atoi(receive(t, b))
					if err != nil {
						t.Fatal(err)
					}
					botPid := 0
					for p, info := range tree(b) {
						if info.ppid == b.cmd.Process.Pid && p != pid {
							botPid = p
						}
					}
					sid, pgid := session(t, pid)
					botSid, botPgid := session(t, botPid)
					if pgid == botPgid || c.session && sid == botSid {
						t.Fatalf("the escapee (session %d, group %d) did not leave the bot's (%d, %d)", sid, pgid, botSid, botPgid)
					}
					if c.mode == "daemon" || c.mode == "termproof-daemon" {
						if pp, _ := procStat(strconv.Itoa(pid)); pp.ppid != b.cmd.Process.Pid {
							t.Fatalf("the orphan's parent is %d, not the reaper %d", pp.ppid, b.cmd.Process.Pid)
						}
					}
					send(t, b, "still here")
					if got := receive(t, b); got != "still here" {
						t.Fatalf("got %q", got)
					}
					before := tree(b)
					if _, ok := before[pid]; !ok {
						t.Fatalf("the escapee %d is not below the reaper", pid)
					}
					g := b.cgroup
					b.Close()
					if l := leftovers(token, before, g); len(l) > 0 {
						t.Fatalf("after Close:\n%s", strings.Join(l, "\n"))
					}
				})
			}
		}
		t.Run("spawning while it is closed", func(t *testing.T) {
			token := newToken()
			b, _ := startBot(t, "spawner", Stdio, func(o *Options) {
				o.Env = []string{"FAULTBOT_TOKEN=" + token}
				o.Grace = 30 * time.Millisecond
			})
			receive(t, b)
			before := tree(b)
			g := b.cgroup
			b.Close() // the bot spawns from the end of its input on
			if l := leftovers(token, before, g); len(l) > 0 {
				t.Fatalf("after Close:\n%s", strings.Join(l, "\n"))
			}
		})
		t.Run("a child started right before Close", func(t *testing.T) {
			token := newToken()
			b, _ := startBot(t, "setsid", Stdio, func(o *Options) { o.Env = []string{"FAULTBOT_TOKEN=" + token} })
			g := b.cgroup
			b.Close() // before even reading its pid: the child may be mid-start
			if l := leftovers(token, nil, g); len(l) > 0 {
				t.Fatalf("after Close:\n%s", strings.Join(l, "\n"))
			}
		})
		t.Run("killed by a line too long", func(t *testing.T) {
			token := newToken()
			b, _ := startBot(t, "setsid", Stdio, func(o *Options) {
				o.Env = []string{"FAULTBOT_TOKEN=" + token}
				o.MaxLine = 1 // below any pid the bot can say (3 let a pid of three digits through: a hang)
			})
			err := receiveErr(t, b, bot.ErrLineTooLong)
			gone(t, b)
			if st := b.exitState(); st != "signal: killed" {
				t.Errorf("the bot ended with %q, want signal: killed (%v)", st, err)
			}
			<-b.done // the kill ended the tree, before any Close
			if l := leftovers(token, nil, b.cgroup); len(l) > 0 && !strings.HasSuffix(l[0], "not removed") {
				t.Fatalf("after the kill:\n%s", strings.Join(l, "\n"))
			}
		})
		if withCgroup {
			// A bot of the program's user can kill its reaper: its
			// escapees go to init, and only the cgroup holds them.
			t.Run("kills its reaper", func(t *testing.T) {
				token := newToken()
				b, _ := startBot(t, "killreaper", Stdio, func(o *Options) { o.Env = []string{"FAULTBOT_TOKEN=" + token} })
				if _, err := strconv.Atoi(receive(t, b)); err != nil {
					t.Fatal(err)
				}
				<-b.done
				g := b.cgroup
				b.Close()
				if l := leftovers(token, nil, g); len(l) > 0 {
					t.Fatalf("after Close:\n%s", strings.Join(l, "\n"))
				}
			})
		}
	})
}

// TestProgramDies: when the program that started a bot dies, the reaper
// (told by its parent-death signal and by its control pipe's end) kills
// the bot's whole tree. The program here is a child test binary that
// starts a bot whose escapee leaves the session, then is killed.
func TestProgramDies(t *testing.T) {
	if os.Getenv("PROCESS_TEST_PROGRAM") != "" {
		cgroupsOff.Store(os.Getenv("PROCESS_TEST_NO_CGROUP") != "")
		b, err := Start(Options{Command: []string{faultBot, "setsid"}, Env: []string{"FAULTBOT_TOKEN=" + os.Getenv("PROCESS_TEST_PROGRAM")}})
		if err != nil {
			fmt.Println(err)
			os.Exit(1)
		}
		l, err := b.Receive(time.Time{})
		fmt.Printf("%s %v\n", l, err)
		time.Sleep(time.Hour)
	}
	containments(t, func(t *testing.T, withCgroup bool) {
		token := newToken()
		c := exec.Command(os.Args[0], "-test.run=^TestProgramDies$")
		c.Env = append(os.Environ(), "PROCESS_TEST_PROGRAM="+token, "FAULTBOT_PATH="+faultBot)
		if cgroupsOff.Load() {
			c.Env = append(c.Env, "PROCESS_TEST_NO_CGROUP=1")
		}
		out, err := c.StdoutPipe()
		if err != nil {
			t.Fatal(err)
		}
		if err := c.Start(); err != nil {
			t.Fatal(err)
		}
		line, err := bufio.NewReader(out).ReadString('\n')
		if _, perr := strconv.Atoi(strings.Fields(line + " x")[0]); err != nil || perr != nil {
			c.Process.Kill()
			c.Wait()
			t.Fatalf("the program said %q (%v)", line, err)
		}
		t.Logf("escapee %s", strings.TrimSpace(line))
		c.Process.Kill()
		c.Wait()
		for i := 0; ; i++ {
			l := leftovers(token, nil, nil)
			if len(l) == 0 {
				break
			}
			if i > 500 {
				t.Fatalf("after the program died:\n%s", strings.Join(l, "\n"))
			}
			time.Sleep(10 * time.Millisecond)
		}
		if withCgroup {
			// The dead program's cgroup is the next program's to remove.
			dir := fmt.Sprintf("%s%d-", cgroupPrefix, c.Process.Pid)
			mount, rel, err := ownCgroup()
			if err != nil {
				t.Fatal(err)
			}
			sweepCgroups(filepath.Join(mount, rel))
			if m, _ := filepath.Glob(filepath.Join(mount, rel, dir+"*")); len(m) > 0 {
				t.Fatalf("%s not swept", m)
			}
		}
	})
}

// impostor is a way another local process connects to a TCP bot's port
// before the bot does.
type impostor struct {
	name string
	// connect runs in listening, before the bot starts; check runs once
	// Start has returned.
	connect func(t *testing.T, addr string) (check func(t *testing.T))
}

// refused waits for c to be closed by the engine.
func refused(t *testing.T, c net.Conn) {
	t.Helper()
	c.SetReadDeadline(time.Now().Add(10 * time.Second))
	for {
		_, err := c.Read(make([]byte, 64))
		if err == nil {
			continue // "impostor\n" never comes back; anything else is odd but harmless
		}
		if errors.Is(err, os.ErrDeadlineExceeded) {
			t.Fatalf("the impostor's connection is still open")
		}
		return
	}
}

var impostors = []impostor{
	{"connects and hangs up", func(t *testing.T, addr string) func(*testing.T) {
		c, err := net.Dial("tcp", addr)
		if err != nil {
			t.Fatal(err)
		}
		c.Write([]byte(`{"type":"ready","name":"impostor"}` + "\n"))
		c.Close()
		return func(*testing.T) {}
	}},
	{"connects and stays", func(t *testing.T, addr string) func(*testing.T) {
		c, err := net.Dial("tcp", addr)
		if err != nil {
			t.Fatal(err)
		}
		c.Write([]byte("impostor\n"))
		return func(t *testing.T) {
			defer c.Close()
			refused(t, c)
		}
	}},
	{"connects 100 times", func(t *testing.T, addr string) func(*testing.T) {
		var cs []net.Conn
		for i := range 100 {
			c, err := net.Dial("tcp", addr)
			if err != nil {
				t.Fatal(err)
			}
			if i%2 == 0 {
				c.Close() // half hang up, half stay
				continue
			}
			cs = append(cs, c)
		}
		return func(t *testing.T) {
			for _, c := range cs {
				refused(t, c)
				c.Close()
			}
		}
	}},
	{"connects as another user", func(t *testing.T, addr string) func(*testing.T) {
		if os.Getuid() != 0 {
			t.Skip("needs root to run a process as nobody")
		}
		c := exec.Command(faultBot, "impostor", addr)
		c.SysProcAttr = &syscall.SysProcAttr{Credential: &syscall.Credential{Uid: 65534, Gid: 65534}}
		out, err := c.StdoutPipe()
		if err != nil {
			t.Fatal(err)
		}
		if err := c.Start(); err != nil {
			t.Skipf("cannot run a process as nobody: %v", err)
		}
		r := bufio.NewReader(out)
		if l, _ := r.ReadString('\n'); l != "connected\n" {
			c.Process.Kill()
			c.Wait()
			t.Fatalf("the impostor said %q", l)
		}
		return func(t *testing.T) {
			l, _ := r.ReadString('\n')
			c.Wait()
			if l != "closed\n" {
				t.Fatalf("the impostor said %q, want closed", l)
			}
		}
	}},
}

// TestTCPImpostors: another local process that connects to a TCP bot's
// port first, hangs up or not, once or a hundred times, as the bot's user
// or another, is refused, and then the honest bot connects and plays.
func TestTCPImpostors(t *testing.T) {
	containments(t, func(t *testing.T, _ bool) {
		for _, imp := range impostors {
			t.Run(imp.name, func(t *testing.T) {
				var check func(*testing.T)
				listening = func(addr string) { check = imp.connect(t, addr) }
				defer func() { listening = nil }()
				start := time.Now()
				b, log := startBot(t, "echo", TCP, nil)
				if d := time.Since(start); d > 5*time.Second {
					t.Errorf("Start took %v", d)
				}
				for i := range 3 {
					send(t, b, "real "+strconv.Itoa(i))
					if got := receive(t, b); got != "real "+strconv.Itoa(i) {
						t.Fatalf("got %q from the connection taken, want the bot's echo", got)
					}
				}
				check(t)
				b.Close()
				if !strings.Contains(log.String(), "refused a connection from 127.0.0.1:") {
					t.Errorf("the log does not say a connection was refused:\n%s", log)
				}
			})
		}
	})
}

// TestTCPFastExit: a bot that connects, writes and exits at once is taken
// when the engine looked at its socket in time, and otherwise refused
// (its closed socket is no one's): Start says it exited before it
// connected. Either way nothing hangs and nothing is left.
func TestTCPFastExit(t *testing.T) {
	containments(t, func(t *testing.T, _ bool) {
		taken := 0
		for range 10 {
			b, err := Start(Options{Command: []string{faultBot, "exitfast"}, Transport: TCP})
			if err != nil {
				if !strings.Contains(err.Error(), "exited before it connected") {
					t.Fatalf("Start: %v", err)
				}
				continue
			}
			taken++
			if got := receive(t, b); got != "hello" {
				t.Fatalf("got %q", got)
			}
			receiveErr(t, b, bot.ErrClosed)
			b.Close()
		}
		t.Logf("taken %d times in 10", taken)
	})
}

// TestTCPRefusedBound: an impostor that connects without end gives up
// Start after maxRefused connections, rather than at the deadline.
func TestTCPRefusedBound(t *testing.T) {
	var dialErrs atomic.Int64
	var firstErr atomic.Value
	defer func() {
		t.Logf("%d dials failed (with those after Start closed its port), the first: %v", dialErrs.Load(), firstErr.Load())
	}()
	stop := make(chan struct{})
	done := make(chan struct{})
	listening = func(addr string) {
		go func() {
			defer close(done)
			for {
				select {
				case <-stop:
					return
				default:
				}
				c, err := net.DialTimeout("tcp", addr, time.Second)
				if err != nil {
					// A machine loaded by other tests may refuse a
					// dial now and then (its ports or backlog); the
					// impostor only pauses, as a real one would.
					if dialErrs.Add(1) == 1 {
						firstErr.Store(err.Error())
					}
					time.Sleep(10 * time.Millisecond)
					continue
				}
				c.Close()
			}
		}()
	}
	defer func() { listening = nil }()
	// The deadline is far: each refusal may read the process table, which
	// on a loaded machine under the race detector took over 50 ms, and
	// what is asserted is the reason Start gave up (the refusals, not the
	// deadline), never a time.
	b, err := Start(Options{Command: []string{faultBot, "noconnect"}, Transport: TCP, InitTimeout: 5 * time.Minute})
	close(stop)
	<-done
	if err == nil {
		b.Close()
		t.Fatal("Start succeeded")
	}
	if !strings.Contains(err.Error(), "refused "+strconv.Itoa(maxRefused)) {
		t.Fatalf("Start: %v, want it to give up after %d refusals", err, maxRefused)
	}
}

// TestNoLeaksContainment: bots whose processes escape, and TCP bots with
// impostors, leave no goroutine and no descriptor behind, nor any cgroup.
func TestNoLeaksContainment(t *testing.T) {
	containments(t, func(t *testing.T, _ bool) {
		use := func(i int) {
			token := newToken()
			o := Options{Command: []string{faultBot, []string{"setsid", "daemon", "setpgid", "termproof-daemon"}[i%4]},
				Transport: []string{Stdio, TCP}[i%2], Env: []string{"FAULTBOT_TOKEN=" + token}, Grace: 20 * time.Millisecond}
			if o.Transport == TCP {
				listening = func(addr string) {
					for range 5 {
						if c, err := net.Dial("tcp", addr); err == nil {
							c.Close()
						}
					}
				}
				defer func() { listening = nil }()
			}
			b, err := Start(o)
			if err != nil {
				t.Fatal(err)
			}
			receive(t, b)
			g := b.cgroup
			b.Close()
			if l := leftovers(token, nil, g); len(l) > 0 {
				t.Fatalf("after Close:\n%s", strings.Join(l, "\n"))
			}
		}
		use(0)
		goroutines, fds := runtime.NumGoroutine(), openFiles(t)
		for i := range 12 {
			use(i)
		}
		for i := 0; runtime.NumGoroutine() > goroutines; i++ {
			if i > 500 {
				t.Fatalf("%d goroutines, %d before", runtime.NumGoroutine(), goroutines)
			}
			time.Sleep(10 * time.Millisecond)
		}
		if n := openFiles(t); n != fds {
			t.Fatalf("%d open descriptors, %d before", n, fds)
		}
	})
}
