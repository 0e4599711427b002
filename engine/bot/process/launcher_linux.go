package process

import (
	"bufio"
	"fmt"
	"os"
	"os/exec"
	"runtime"
	"strconv"
	"strings"
	"syscall"
	"unsafe"

	"golang.org/x/sys/unix"

	"github.com/squarebattle/squarebattle/engine/oslimit"
)

// become drops to user as (when not nil), applies l and executes path
// with argv and env. It returns only on failure. parent is the pid of the
// process that started it: the reaper.
//
// The parent-death signal and no-new-privileges are attributes of a
// thread, not of the process, and the process that execve makes keeps
// those of the thread that called it: a thread the Go runtime started
// has no parent-death signal (only the thread the parent forked had
// one), and a change of user clears it. So the goroutine is locked to
// one thread, which sets both itself and then calls execve; and since
// the parent may have died before the signal was set, the parent is
// checked after.
//
// Everything execve needs is allocated before the limits are set and
// the call is a raw one: under RLIMIT_AS a Go allocation that needs a new
// mapping would fail (the race detector's shadow memory alone is far
// beyond any limit), so nothing may allocate between the two.
func become(as *User, l oslimit.Limits, parent int, path string, argv, env []string) error {
	runtime.LockOSThread() // for good: this thread becomes the bot or exits
	pathp, err := syscall.BytePtrFromString(path)
	if err != nil {
		return err
	}
	argvp, err := syscall.SlicePtrFromStrings(argv)
	if err != nil {
		return err
	}
	envp, err := syscall.SlicePtrFromStrings(env)
	if err != nil {
		return err
	}
	if as != nil {
		// Groups first, then the group, then the user: after Setuid
		// there is no privilege left to change the others. Go applies
		// each to every thread of the process.
		if err := syscall.Setgroups(nil); err != nil {
			return fmt.Errorf("setgroups: %w", err)
		}
		if err := syscall.Setgid(int(as.GID)); err != nil {
			return fmt.Errorf("setgid %d: %w", as.GID, err)
		}
		if err := syscall.Setuid(int(as.UID)); err != nil {
			return fmt.Errorf("setuid %d: %w", as.UID, err)
		}
	}
	if err := unix.Prctl(unix.PR_SET_PDEATHSIG, uintptr(syscall.SIGKILL), 0, 0, 0); err != nil {
		return fmt.Errorf("PR_SET_PDEATHSIG: %w", err)
	}
	if parent > 0 && os.Getppid() != parent {
		return fmt.Errorf("the bot's reaper is gone")
	}
	if err := oslimit.Apply(l); err != nil {
		return err
	}
	_, _, e := unix.RawSyscall(unix.SYS_EXECVE, uintptr(unsafe.Pointer(pathp)),
		uintptr(unsafe.Pointer(&argvp[0])), uintptr(unsafe.Pointer(&envp[0])))
	return e
}

// launched says whether this platform starts bots through the launcher.
const launched = true

// reaperDeathSignal: the reaper must outlive this program by the moment
// it takes to kill the bot's tree, so its parent-death signal is
// SIGTERM, which it catches, not SIGKILL.
func reaperDeathSignal(c *exec.Cmd) { c.SysProcAttr.Pdeathsig = syscall.SIGTERM }

// wake continues the reaper in case it was stopped (a bot of the same
// user may SIGSTOP it), so that it can end the tree.
func wake(p *os.Process) { _ = p.Signal(syscall.SIGCONT) }

// waitExit reads the reaper's lines until the one saying how the bot's
// own process ended, and says it as os.ProcessState does; "" when the
// reaper ended first.
func waitExit(br *bufio.Reader) string {
	for {
		line, err := br.ReadString('\n')
		if v, ok := strings.CutPrefix(strings.TrimSpace(line), "exit "); ok {
			if n, err := strconv.ParseUint(v, 10, 32); err == nil {
				return waitString(syscall.WaitStatus(n))
			}
		}
		if err != nil {
			return ""
		}
	}
}

// waitString says how a process ended as os.ProcessState.String does.
func waitString(ws syscall.WaitStatus) string {
	switch {
	case ws.Exited():
		return "exit status " + strconv.Itoa(ws.ExitStatus())
	case ws.Signaled():
		s := "signal: " + ws.Signal().String()
		if ws.CoreDump() {
			s += " (core dumped)"
		}
		return s
	}
	return fmt.Sprintf("wait status %#x", uint32(ws))
}
