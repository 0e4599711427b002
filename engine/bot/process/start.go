package process

import (
	"errors"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/squarebattle/squarebattle/engine/oslimit"
)

// Start starts the bot o names and connects to it: over its stdin and
// stdout, or over TCP once it has connected (Options.Transport). With
// Options.Connect it starts nothing and connects to a bot already
// listening. The bot runs in a process group of its own, dies with this
// program (Pdeathsig) and, on Linux, runs under Options.Limits from its
// first instruction (LauncherMain). It returns an error wrapping
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
	c, err := command(o)
	if err != nil {
		return nil, err
	}
	b := &Bot{o: o, cmd: c, exited: make(chan struct{}), logged: make(chan struct{})}
	var ln *net.TCPListener
	if o.Transport == TCP {
		ln, err = net.ListenTCP("tcp4", &net.TCPAddr{IP: net.IPv4(127, 0, 0, 1)})
		if err != nil {
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
	logR, logW := pipe()
	c.Stderr = logW
	if o.Transport == Stdio {
		// For stdin the child reads and the parent writes: swap roles.
		inR, inW := pipe()
		if err == nil {
			parent[1], child[1] = inW, inR
		}
		outR, outW := pipe()
		c.Stdin, c.Stdout = inR, outW
		b.in = inW
		b.lines = lineReader{r: outR, max: o.MaxLine}
		b.closers = append(b.closers, outR)
	} else {
		c.Stdout = logW // over TCP the bot's stdout is only talk: log it
		b.closers = append(b.closers, ln)
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
		return nil, fmt.Errorf("bot %s: %w", strconv.Quote(o.Command[0]), err)
	}
	b.logR = logR
	go func() {
		_ = c.Wait()
		close(b.exited)
	}()
	go func() {
		copyLog(logR, o.Log, o.LogBytes)
		close(b.logged)
	}()
	if o.Transport == TCP {
		uid := uint32(os.Getuid())
		if o.RunAs != nil {
			uid = o.RunAs.UID
		}
		conn, err := accept(ln, time.Now().Add(o.InitTimeout), uid, c.Process.Pid, b.exited)
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

// listening, when set (by tests), is told the address a TCP bot will be
// given, before the bot starts.
var listening func(addr string)

// command builds the exec.Cmd that runs the bot: through the launcher,
// which sets the limits, where limits exist (Linux), else directly.
func command(o Options) (*exec.Cmd, error) {
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
		args := append(append(append([]string(nil), launcher[1:]...), launcherArgs(o.Limits.rlimits(tasks), o.RunAs)...), "--", abs)
		c = exec.Command(launcher[0], append(args, o.Command...)...)
		c.Env = append(env, launcherEnv+"=1")
	} else {
		c = exec.Command(abs, o.Command[1:]...)
		c.Args[0] = o.Command[0]
		c.Env = env
	}
	c.Dir = o.Dir
	oslimit.Prepare(c)
	return c, nil
}
