package worker

import (
	"fmt"
	"io"
	"os"
	"os/exec"
	"syscall"
	"unsafe"

	"golang.org/x/sys/unix"
)

// applyLimits is the first thing a worker does, before it reads a request:
// it sets its own limits rather than have the parent set them with prlimit
// after the start, so there is no moment in which a request could run
// unlimited, and the limits hold whoever started the binary.
//
// RLIMIT_AS bounds the address space: past it the Go runtime's mmap fails
// and the worker dies with "out of memory", which the parent counts as a
// crash of that team only. RLIMIT_CPU (soft = hard) gets the kernel to
// SIGKILL a worker past its CPU seconds; the pool retires workers well
// before that on their own (see Pool.put). PR_SET_NO_NEW_PRIVS means no
// exec the worker could be tricked into gains privileges.
//
// seccomp: not now. A strict filter must allow every system call the Go
// runtime may make (futex, mmap, madvise, clone for new threads, signals,
// rseq, getrandom... and the list changes with Go releases); a missed one
// kills the worker at random and costs an honest team. The sandbox leaves
// scripts no call that reaches the system (docs/sandbox.md), and the
// address-space, CPU and privilege limits bound what a hole could do.
func applyLimits(l osLimits) error {
	if l.addressSpace > 0 && !raceEnabled {
		lim := &unix.Rlimit{Cur: l.addressSpace, Max: l.addressSpace}
		if err := unix.Setrlimit(unix.RLIMIT_AS, lim); err != nil {
			return fmt.Errorf("RLIMIT_AS: %w", err)
		}
	}
	if l.cpuSeconds > 0 {
		lim := &unix.Rlimit{Cur: l.cpuSeconds, Max: l.cpuSeconds}
		if err := unix.Setrlimit(unix.RLIMIT_CPU, lim); err != nil {
			return fmt.Errorf("RLIMIT_CPU: %w", err)
		}
	}
	if err := unix.Prctl(unix.PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0); err != nil {
		return fmt.Errorf("PR_SET_NO_NEW_PRIVS: %w", err)
	}
	return nil
}

// osLimitsEnforced says which limits this platform enforces, for docs and
// tests.
const osLimitsEnforced = true

// cpuMillis is the CPU time the worker has used, user and system.
func cpuMillis() int64 {
	var ru unix.Rusage
	if unix.Getrusage(unix.RUSAGE_SELF, &ru) != nil {
		return 0
	}
	return ru.Utime.Sec*1000 + ru.Utime.Usec/1000 + ru.Stime.Sec*1000 + ru.Stime.Usec/1000
}

// prepare sets how a worker process starts: in a process group of its own
// (a kill reaches anything it could start) and killed by the kernel when
// the thread that started it dies. Pdeathsig is per thread, not per
// process, on Linux, so the worker also exits when its request pipe closes
// (Serve's watchdog).
func prepare(c *exec.Cmd) {
	c.SysProcAttr = &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGKILL}
}

// pipe makes a pipe whose ends block: the parent waits for an answer in a
// read(2) the kernel wakes when the worker writes, rather than through the
// runtime's poller (a read that fails with EAGAIN, a poll, a thread woken
// to read again). Both ends close on exec; exec.Cmd passes the worker its
// ends as stdin and stdout.
func pipe() (r, w *os.File, err error) {
	var p [2]int
	if err := unix.Pipe2(p[:], unix.O_CLOEXEC); err != nil {
		return nil, nil, fmt.Errorf("pipe: %w", err)
	}
	return os.NewFile(uintptr(p[0]), "|0"), os.NewFile(uintptr(p[1]), "|1"), nil
}

// kill ends a worker and its process group.
func kill(c *exec.Cmd) {
	if c.Process == nil {
		return
	}
	_ = syscall.Kill(-c.Process.Pid, syscall.SIGKILL)
	_ = c.Process.Kill()
}

// watchHangup calls gone when the write end of the pipe f reads from
// closes. It polls for no event at all, to which Linux still reports
// POLLHUP (and POLLERR), so it never consumes or waits on the requests
// themselves.
func watchHangup(fd int, gone func()) {
	go func() {
		fds := []unix.PollFd{{Fd: int32(fd)}}
		for {
			n, err := unix.Poll(fds, -1)
			if err == unix.EINTR {
				continue
			}
			if err != nil || (n > 0 && fds[0].Revents&(unix.POLLHUP|unix.POLLERR|unix.POLLNVAL) != 0) {
				gone()
				return
			}
		}
	}()
}

// rawFile reads and writes descriptor fd (blocking) with raw system
// calls, which the Go runtime does not see. A worker waits for its next
// request most of its life; a read(2) through the runtime wakes its
// monitor thread (sysmon) at every request, which then polls every 20 µs
// for a millisecond: on a virtual machine, where each wake-up is a costly
// exit to the hypervisor, that cost more CPU than the requests. The
// worker's one goroutine that serves requests is the only one that reads
// or writes, and a raw call that blocks only holds up that goroutine's
// own work (the hang-up watchdog and the runtime's timers run on threads
// of their own).
type rawFile int

func (f rawFile) Read(p []byte) (int, error) {
	for {
		n, _, e := unix.RawSyscall(unix.SYS_READ, uintptr(f), uintptr(unsafe.Pointer(unsafe.SliceData(p))), uintptr(len(p)))
		switch {
		case e == unix.EINTR:
			continue
		case e != 0:
			return 0, e
		case n == 0 && len(p) > 0:
			return 0, io.EOF
		}
		return int(n), nil
	}
}

// Fd is the descriptor, for the hang-up watchdog.
func (f rawFile) Fd() uintptr { return uintptr(f) }

func (f rawFile) Write(p []byte) (int, error) {
	done := 0
	for done < len(p) {
		n, _, e := unix.RawSyscall(unix.SYS_WRITE, uintptr(f), uintptr(unsafe.Pointer(&p[done])), uintptr(len(p)-done))
		if e == unix.EINTR {
			continue
		}
		if e != 0 {
			return done, e
		}
		done += int(n)
	}
	return done, nil
}

// pollable returns descriptor fd as what Serve reads or writes.
func pollable(fd int, name string) io.ReadWriter { return rawFile(fd) }
