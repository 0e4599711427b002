package oslimit

import (
	"fmt"
	"os/exec"
	"syscall"

	"golang.org/x/sys/unix"
)

// Enforced says whether this platform enforces Limits, for docs and
// tests.
const Enforced = true

// Apply sets l on the calling process and forbids it to gain privileges
// by exec (PR_SET_NO_NEW_PRIVS: no set-user-ID program it runs is more
// than it is). Limits hold for the whole process and are inherited by
// what it starts.
//
// seccomp: not here. A strict filter must allow every system call the Go
// runtime, or a bot's language runtime, may make (and the list changes
// with their releases); a missed one kills an honest process at random.
func Apply(l Limits) error {
	for _, r := range []struct {
		name     string
		resource int
		value    uint64
		set      bool
	}{
		{"RLIMIT_AS", unix.RLIMIT_AS, l.AddressSpace, l.AddressSpace > 0},
		{"RLIMIT_CPU", unix.RLIMIT_CPU, l.CPUSeconds, l.CPUSeconds > 0},
		{"RLIMIT_NPROC", unix.RLIMIT_NPROC, l.Processes, l.Processes > 0},
		{"RLIMIT_NOFILE", unix.RLIMIT_NOFILE, l.OpenFiles, l.OpenFiles > 0},
		{"RLIMIT_FSIZE", unix.RLIMIT_FSIZE, l.FileSize, l.FileSize > 0},
		{"RLIMIT_CORE", unix.RLIMIT_CORE, 0, l.NoCore},
	} {
		if !r.set {
			continue
		}
		lim := &unix.Rlimit{Cur: r.value, Max: r.value}
		if err := unix.Setrlimit(r.resource, lim); err != nil {
			return fmt.Errorf("%s: %w", r.name, err)
		}
	}
	if err := unix.Prctl(unix.PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0); err != nil {
		return fmt.Errorf("PR_SET_NO_NEW_PRIVS: %w", err)
	}
	return nil
}

// Prepare sets how a child process starts: in a process group of its own
// (Kill reaches anything it starts that stays in the group) and killed by
// the kernel when the thread that started it dies. Pdeathsig is per
// thread, not per process, on Linux; it survives the child's own execve
// (unless that runs a set-user-ID program, which Apply forbids anyway).
func Prepare(c *exec.Cmd) {
	if c.SysProcAttr == nil {
		c.SysProcAttr = &syscall.SysProcAttr{}
	}
	c.SysProcAttr.Setpgid = true
	c.SysProcAttr.Pdeathsig = syscall.SIGKILL
}

// Kill sends SIGKILL to the process group a Prepare'd child leads, and to
// the child itself (in case it moved to another group). It does not wait.
func Kill(c *exec.Cmd) {
	if c.Process == nil {
		return
	}
	_ = syscall.Kill(-c.Process.Pid, syscall.SIGKILL)
	_ = c.Process.Kill()
}
