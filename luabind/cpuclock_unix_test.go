//go:build unix

package luabind

import (
	"time"

	"golang.org/x/sys/unix"
)

// cpuNow is the CPU time the test process has used so far, all its threads
// (the garbage collector's included). Unlike the wall clock it stands still
// while the process waits for a core, so on a machine shared with other
// work a benchmark that compares two sides of one process measures their
// work, not who was preempted.
func cpuNow() time.Duration {
	var ts unix.Timespec
	if err := unix.ClockGettime(unix.CLOCK_PROCESS_CPUTIME_ID, &ts); err != nil {
		return time.Duration(time.Now().UnixNano())
	}
	return time.Duration(ts.Nano())
}
