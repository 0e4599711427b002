package worker

import (
	"fmt"
	"io"
	"os"
	"unsafe"

	"golang.org/x/sys/unix"
)

// cpuMillis is the CPU time the worker has used, user and system.
func cpuMillis() int64 {
	var ru unix.Rusage
	if unix.Getrusage(unix.RUSAGE_SELF, &ru) != nil {
		return 0
	}
	return ru.Utime.Sec*1000 + ru.Utime.Usec/1000 + ru.Stime.Sec*1000 + ru.Stime.Usec/1000
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
//
// A raw read has a price of its own while nothing comes: the runtime
// takes the goroutine blocked in it for one that runs on and on, so its
// monitor wakes every 10 ms and signals the thread to give way (about
// 90 wake-ups a second, 0.9% of a CPU for each idle worker on the
// paravirtualised machine of docs/performance.md). So while the worker
// holds no team (Serve says so through setIdle) it reads through the
// runtime instead: after 10 ms the runtime sees that nothing runs and
// its monitor sleeps until a request comes.
type rawFile struct {
	fd   int
	idle bool // read through the runtime: no team is in hand
}

// setIdle says whether the worker holds no team (see rawFile). Only the
// goroutine that reads calls it.
func (f *rawFile) setIdle(idle bool) { f.idle = idle }

func (f *rawFile) Read(p []byte) (int, error) {
	for {
		var n uintptr
		var e unix.Errno
		if f.idle {
			n, _, e = unix.Syscall(unix.SYS_READ, uintptr(f.fd), uintptr(unsafe.Pointer(unsafe.SliceData(p))), uintptr(len(p)))
		} else {
			n, _, e = unix.RawSyscall(unix.SYS_READ, uintptr(f.fd), uintptr(unsafe.Pointer(unsafe.SliceData(p))), uintptr(len(p)))
		}
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
func (f *rawFile) Fd() uintptr { return uintptr(f.fd) }

func (f *rawFile) Write(p []byte) (int, error) {
	done := 0
	for done < len(p) {
		n, _, e := unix.RawSyscall(unix.SYS_WRITE, uintptr(f.fd), uintptr(unsafe.Pointer(&p[done])), uintptr(len(p)-done))
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
func pollable(fd int, name string) io.ReadWriter { return &rawFile{fd: fd} }

// setNice sets the nice value of process pid.
func setNice(pid, nice int) error {
	return unix.Setpriority(unix.PRIO_PROCESS, pid, nice)
}
