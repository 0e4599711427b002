package process

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"strconv"
	"sync"
	"syscall"
	"time"

	"golang.org/x/sys/unix"
)

// reap is the launcher's first stage (see LauncherMain). It returns only
// when it fails before the bot starts; after, it ends the process itself. prefix runs the
// launcher again, flags are its own flags and argv the bot's program and
// arguments; parent is this program's pid and cgroup the directory of the
// bot's cgroup ("" for none).
//
// It tells Start on statusFD, one line each: "ready PID CGROUP" once the
// exec stage runs as PID (CGROUP, the rest of the line, is "cgroup" when
// the reaper, and so the whole tree, is in the bot's cgroup, "none" when
// there is none, else why not), or "fail ERROR"; and "exit STATUS"
// (a wait status) when that process ends. It ends the tree when
// controlFD reaches its end or a SIGTERM, SIGHUP or SIGINT comes, and
// exits when it has no descendant left after the bot's own process
// ended: with its exit code, or killed by SIGKILL when the bot was killed
// (other signals give 128 plus the signal's number).
//
// It does not drop privileges itself: as root, with Options.RunAs, only
// the exec stage becomes the bot's user, so the bot cannot signal its
// reaper. A bot of the same user as the program can (kill -9 its
// parent): its descendants then go to the next subreaper up, or init,
// and only the cgroup still holds them.
func reap(prefix, flags, argv []string, parent int, cgroup string, stderr io.Writer) int {
	fail := func(format string, a ...any) int {
		fmt.Fprintf(stderr, "bot launcher: "+format+"\n", a...)
		return 127
	}
	ends := make(chan os.Signal, 1)
	signal.Notify(ends, syscall.SIGTERM, syscall.SIGHUP, syscall.SIGINT)
	if parent > 0 && os.Getppid() != parent {
		return fail("the program that started the bot is gone")
	}
	status := os.NewFile(statusFD, "status")
	control := os.NewFile(controlFD, "control")
	if status == nil || control == nil {
		return fail("started without its status and control descriptors")
	}
	// Neither may reach the bot: a descendant holding the status pipe
	// would keep Start from seeing the reaper's end.
	syscall.CloseOnExec(statusFD)
	syscall.CloseOnExec(controlFD)
	if err := unix.Prctl(unix.PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0); err != nil {
		return fail("PR_SET_CHILD_SUBREAPER: %v", err)
	}
	inCgroup := "none"
	if cgroup != "" {
		if err := os.WriteFile(cgroup+"/cgroup.procs", []byte(strconv.Itoa(os.Getpid())), 0); err != nil {
			inCgroup = "refused: " + err.Error()
		} else {
			inCgroup = "cgroup"
		}
	}
	self, err := os.Executable()
	if err != nil {
		self = "/proc/self/exe"
	}
	args := append(append([]string(nil), prefix...), "-exec")
	args = append(append(args, flags...), "-parent", strconv.Itoa(os.Getpid()), "--")
	args = append(args, argv...)
	pid, err := syscall.ForkExec("/proc/self/exe", args, &syscall.ProcAttr{
		Env:   os.Environ(),
		Files: []uintptr{0, 1, 2},
		// The bot leads a process group of its own, as it did before
		// the reaper stood between: a group kill reaches it and what
		// stays with it; the reaper reaches the rest.
		Sys: &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGKILL},
	})
	if err != nil {
		fmt.Fprintf(status, "fail %v\n", err)
		return fail("%s: %v", self, err)
	}
	// Only the bot may hold its input and output: the engine must see
	// the end of the bot's output when the bot closes it, and a write to
	// a dead bot must fail.
	if null, err := os.OpenFile(os.DevNull, os.O_RDWR, 0); err == nil {
		_ = unix.Dup3(int(null.Fd()), 0, 0)
		_ = unix.Dup3(int(null.Fd()), 1, 0)
		null.Close()
	}
	fmt.Fprintf(status, "ready %d %s\n", pid, inCgroup)

	var mu sync.Mutex
	var botStatus *syscall.WaitStatus
	empty := make(chan struct{})
	go func() { // reaps every descendant that ends, the bot's own process among them
		for {
			var ws syscall.WaitStatus
			wpid, err := syscall.Wait4(-1, &ws, 0, nil)
			switch {
			case errors.Is(err, syscall.EINTR):
				continue
			case err != nil: // ECHILD: no descendant left, and none can come
				close(empty)
				return
			case wpid == pid:
				mu.Lock()
				botStatus = &ws
				mu.Unlock()
				fmt.Fprintf(status, "exit %d\n", uint32(ws))
			}
		}
	}()
	end := make(chan struct{})
	go func() {
		_, _ = io.Copy(io.Discard, bufio.NewReader(control))
		close(end)
	}()
	select {
	case <-empty:
	case <-end:
	case <-ends:
	}
	for wait := time.Millisecond; ; wait = min(2*wait, 50*time.Millisecond) {
		select {
		case <-empty:
			mu.Lock()
			ws := botStatus
			mu.Unlock()
			// Straight out, as the bot went: the tree is gone, there is
			// nothing to flush, and os.Exit's hooks would only delay the
			// engine (the race detector's sleeps a second at exit).
			switch {
			case ws == nil:
				syscall.Exit(127)
			case ws.Exited():
				syscall.Exit(ws.ExitStatus())
			case ws.Signaled() && ws.Signal() == syscall.SIGKILL:
				_ = syscall.Kill(os.Getpid(), syscall.SIGKILL)
				time.Sleep(time.Second)
			case ws.Signaled():
				syscall.Exit(128 + int(ws.Signal()))
			}
			syscall.Exit(127)
		default:
		}
		killTree(os.Getpid())
		select {
		case <-empty:
		case <-time.After(wait):
		}
	}
}

// killTree sends SIGKILL to every descendant of root, as /proc shows
// them now. A process the tree starts meanwhile is found by the next
// call; the caller repeats until nothing is left. Each process is
// signalled through a pidfd opened on it and checked against the start
// time seen in the walk, so a pid that was reaped and reused in between
// is not hit.
func killTree(root int) {
	table := procTable()
	for _, pid := range descendants(table, root) {
		fd, err := unix.PidfdOpen(pid, 0)
		if errors.Is(err, syscall.ENOSYS) {
			_ = syscall.Kill(pid, syscall.SIGKILL) // before Linux 5.3
			continue
		}
		if err != nil {
			continue // gone
		}
		if p, ok := procStat(strconv.Itoa(pid)); ok && p.start == table[pid].start {
			_ = unix.PidfdSendSignal(fd, unix.SIGKILL, nil, 0)
		}
		_ = unix.Close(fd)
	}
}
