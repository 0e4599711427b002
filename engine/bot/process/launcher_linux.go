package process

import (
	"fmt"
	"os"
	"syscall"
	"unsafe"

	"golang.org/x/sys/unix"

	"github.com/squarebattle/squarebattle/engine/oslimit"
)

// become drops to user as (when not nil), applies l and executes path
// with argv and env. It returns only on failure.
//
// Everything execve needs is allocated before the limits are set and
// the call is a raw one: under RLIMIT_AS a Go allocation that needs a new
// mapping would fail (the race detector's shadow memory alone is far
// beyond any limit), so nothing may allocate between the two.
func become(as *User, l oslimit.Limits, path string, argv, env []string) error {
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
		// A change of user clears the parent-death signal: set it again,
		// and make sure the parent did not die in between.
		if err := unix.Prctl(unix.PR_SET_PDEATHSIG, uintptr(syscall.SIGKILL), 0, 0, 0); err != nil {
			return fmt.Errorf("PR_SET_PDEATHSIG: %w", err)
		}
		if os.Getppid() == 1 {
			return fmt.Errorf("the program that started the bot is gone")
		}
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
