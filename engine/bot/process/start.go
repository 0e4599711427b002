package process

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/squarebattle/squarebattle/engine/oslimit"
)

// Start starts the bot o names and connects to it: over its stdin and
// stdout, or over TCP once it has connected (Options.Transport). With
// Options.Connect it starts nothing and connects to a bot already
// listening. On Linux the bot runs under Options.Limits from its first
// instruction, in a process group of its own, below a reaper process of
// its own (the launcher, LauncherMain) that keeps every process the bot
// starts within its reach and ends them all at Close, and in a cgroup of
// its own where this program may make one (Bot.Containment says which);
// everything dies with this program. It returns an error wrapping
// ErrOptions for options it refuses; any other error means the bot could
// not be started or did not connect, and nothing of it is left running.
func Start(o Options) (*Bot, error) {
	o, err := o.withDefaults()
	if err != nil {
		return nil, err
	}
	if o.Connect != "" {
		return connect(o)
	}
	if os.Getenv(launcherEnv) != "" {
		return nil, errors.New("bot: this process was started as the bot launcher but did not run it (LauncherMain)")
	}
	if o.Log != nil {
		// The log copier and Start's notes (refused connections) share it.
		o.Log = &lockedWriter{w: o.Log}
	}
	b := &Bot{o: o, exited: make(chan struct{}), done: make(chan struct{}), logged: make(chan struct{}), containment: "its process only"}
	var cgErr error
	if launched {
		b.cgroup, cgErr = newCgroup()
	}
	c, err := command(o, b.cgroup)
	if err != nil {
		b.dropCgroup()
		return nil, err
	}
	b.cmd = c
	var ln *net.TCPListener
	if o.Transport == TCP {
		ln, err = net.ListenTCP("tcp4", &net.TCPAddr{IP: net.IPv4(127, 0, 0, 1)})
		if err != nil {
			b.dropCgroup()
			return nil, fmt.Errorf("bot: %w", err)
		}
		port := ln.Addr().(*net.TCPAddr).Port
		c.Args = append(c.Args, "127.0.0.1", strconv.Itoa(port), strconv.Itoa(o.Team))
		if listening != nil {
			listening(ln.Addr().String())
		}
	}
	// The parent's ends of the pipes wait in the runtime's poller, which
	// gives Send and Receive their deadlines; the child's ends are
	// ordinary blocking descriptors, closed here once it has them.
	var child, parent []*os.File
	pipe := func() (r, w *os.File) {
		if err == nil {
			if r, w, err = os.Pipe(); err == nil {
				parent, child = append(parent, r), append(child, w)
			}
		}
		return r, w
	}
	// reversed: the child reads and the parent writes.
	reversed := func(r, w *os.File) {
		if err == nil {
			parent[len(parent)-1], child[len(child)-1] = w, r
		}
	}
	logR, logW := pipe()
	c.Stderr = logW
	if o.Transport == Stdio {
		inR, inW := pipe()
		reversed(inR, inW)
		outR, outW := pipe()
		c.Stdin, c.Stdout = inR, outW
		b.in = inW
		b.lines = lineReader{r: outR, max: o.MaxLine}
		b.closers = append(b.closers, outR)
	} else {
		c.Stdout = logW // over TCP the bot's stdout is only talk: log it
		b.closers = append(b.closers, ln)
	}
	var statusR *os.File
	if launched {
		var statusW, controlR *os.File
		statusR, statusW = pipe()
		controlR, b.control = pipe()
		reversed(controlR, b.control)
		c.ExtraFiles = []*os.File{statusW, controlR} // statusFD, controlFD
	}
	if err == nil {
		err = c.Start()
	}
	for _, f := range child {
		_ = f.Close()
	}
	if err != nil {
		for _, f := range parent {
			_ = f.Close()
		}
		if ln != nil {
			_ = ln.Close()
		}
		b.dropCgroup()
		return nil, fmt.Errorf("bot %s: %w", strconv.Quote(o.Command[0]), err)
	}
	b.logR = logR
	go func() {
		copyLog(logR, o.Log, o.LogBytes)
		close(b.logged)
	}()
	var br *bufio.Reader
	var ready error
	if launched {
		br = bufio.NewReader(statusR)
		ready = b.ready(br, statusR, cgErr)
	}
	go func() {
		if br != nil {
			b.status = waitExit(br)
			close(b.exited)
			_, _ = io.Copy(io.Discard, br) // until the reaper is gone
			_ = statusR.Close()
			_ = c.Wait()
		} else {
			_ = c.Wait()
			close(b.exited)
		}
		close(b.done)
	}()
	if ready != nil {
		b.Close()
		return nil, fmt.Errorf("bot %s: launcher: %w", strconv.Quote(o.Command[0]), ready)
	}
	if o.Transport == TCP {
		uid := uint32(os.Getuid())
		if o.RunAs != nil {
			uid = o.RunAs.UID
		}
		id := botID{uid: uid, root: c.Process.Pid}
		if b.cgroup != nil && b.inCgroup {
			id.cgroup = b.cgroup.id
		}
		conn, err := accept(ln, time.Now().Add(o.InitTimeout), id, b.exited, b.note)
		_ = ln.Close() // exactly one connection
		if err != nil {
			b.Close()
			return nil, fmt.Errorf("bot %s: %w", strconv.Quote(o.Command[0]), err)
		}
		b.in = conn
		b.lines = lineReader{r: conn, max: o.MaxLine}
		b.closers = append(b.closers, conn)
	}
	return b, nil
}

// ready reads the reaper's first line (see reap): the bot has started,
// and whether it is in its cgroup.
func (b *Bot) ready(br *bufio.Reader, status *os.File, cgErr error) error {
	_ = status.SetReadDeadline(time.Now().Add(b.o.InitTimeout))
	defer status.SetReadDeadline(time.Time{})
	line, err := br.ReadString('\n')
	if err != nil {
		return fmt.Errorf("did not start (%v)", err)
	}
	f := strings.SplitN(strings.TrimSuffix(line, "\n"), " ", 3)
	if len(f) < 3 || f[0] != "ready" {
		return errors.New(strings.TrimSpace(line))
	}
	b.containment = "subreaper (no cgroup: " + f[2] + ")"
	switch {
	case f[2] == "cgroup":
		b.inCgroup = true
		b.containment = "subreaper and cgroup " + b.cgroup.dir
	case f[2] == "none" && cgErr != nil:
		b.containment = "subreaper (no cgroup: " + cgErr.Error() + ")"
	}
	return nil
}

// note writes a line of the engine's own to the bot's log.
func (b *Bot) note(s string) {
	if b.o.Log != nil {
		_, _ = io.WriteString(b.o.Log, s+"\n")
	}
}

// lockedWriter serialises the writes of the log copier and of Start.
type lockedWriter struct {
	mu sync.Mutex
	w  io.Writer
}

func (l *lockedWriter) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.w.Write(p)
}

// listening, when set (by tests), is told the address a TCP bot will be
// given, before the bot starts.
var listening func(addr string)

// command builds the exec.Cmd that runs the bot: through the launcher,
// which sets the limits, where limits exist (Linux), else directly.
func command(o Options, cg *cgroup) (*exec.Cmd, error) {
	path := o.Command[0]
	switch {
	case !strings.Contains(path, "/"):
		p, err := exec.LookPath(path)
		if err != nil {
			return nil, fmt.Errorf("bot: %w", err)
		}
		path = p
	case !filepath.IsAbs(path) && o.Dir != "":
		path = filepath.Join(o.Dir, path)
	}
	abs, err := filepath.Abs(path)
	if err != nil {
		return nil, fmt.Errorf("bot: %w", err)
	}
	if st, err := os.Stat(abs); err != nil {
		return nil, fmt.Errorf("bot: %w", err)
	} else if st.IsDir() || st.Mode()&0o111 == 0 {
		return nil, fmt.Errorf("bot: %s is not an executable file", strconv.Quote(abs))
	}
	env := []string{"PATH=" + os.Getenv("PATH"), "LANG=C.UTF-8"}
	if os.Getenv("PATH") == "" {
		env[0] = "PATH=/usr/local/bin:/usr/bin:/bin"
	}
	env = append(env, o.Env...)
	var c *exec.Cmd
	if launched {
		launcher := o.Launcher
		if len(launcher) == 0 {
			exe, err := os.Executable()
			if err != nil {
				return nil, fmt.Errorf("bot: launcher: %w", err)
			}
			launcher = []string{exe, LauncherCommand}
		}
		tasks := 0
		uid := uint32(os.Getuid())
		if o.RunAs != nil {
			uid = o.RunAs.UID
		}
		if o.Limits.Processes != Unlimited {
			if tasks, err = userTasks(uid); err != nil {
				return nil, fmt.Errorf("bot: counting the tasks of user %d: %w", uid, err)
			}
		}
		args := append(append([]string(nil), launcher[1:]...), launcherArgs(o.Limits.rlimits(tasks), o.RunAs)...)
		if cg != nil {
			args = append(args, "-cgroup", cg.dir)
		}
		args = append(args, "--", abs)
		c = exec.Command(launcher[0], append(args, o.Command...)...)
		c.Env = append(env, launcherEnv+"=1")
	} else {
		c = exec.Command(abs, o.Command[1:]...)
		c.Args[0] = o.Command[0]
		c.Env = env
	}
	c.Dir = o.Dir
	oslimit.Prepare(c)
	if launched {
		reaperDeathSignal(c)
	}
	return c, nil
}
