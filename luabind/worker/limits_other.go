//go:build !linux

package worker

import (
	"io"
	"os"
	"os/exec"
)

// applyLimits enforces nothing off Linux: a worker still dies alone (the
// wall-clock backstop, crash handling and the pipe watchdog work
// everywhere), but memory and CPU are bounded only by GOMEMLIMIT and the
// wall clock, and privileges are not dropped.
func applyLimits(osLimits) error { return nil }

const osLimitsEnforced = false

func cpuMillis() int64 { return 0 }

func prepare(*exec.Cmd) {}

func pipe() (r, w *os.File, err error) { return os.Pipe() }

func kill(c *exec.Cmd) {
	if c.Process != nil {
		_ = c.Process.Kill()
	}
}

// watchHangup does nothing off Linux: there a worker notices its parent
// is gone only when it next reads a request, so one stuck in a call lives
// on until its CPU or memory runs out or someone kills it.
func watchHangup(int, func()) {}

func pollable(fd int, name string) io.ReadWriter { return os.NewFile(uintptr(fd), name) }
