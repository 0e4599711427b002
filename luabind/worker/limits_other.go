//go:build !linux

package worker

import (
	"io"
	"os"
)

// Off Linux (engine/oslimit enforces nothing there) a worker still dies
// alone (the wall-clock backstop, crash handling and the pipe watchdog
// work everywhere), but memory and CPU are bounded only by GOMEMLIMIT and
// the wall clock, and privileges are not dropped.

func cpuMillis() int64 { return 0 }

func pipe() (r, w *os.File, err error) { return os.Pipe() }

// watchHangup does nothing off Linux: there a worker notices its parent
// is gone only when it next reads a request, so one stuck in a call lives
// on until its CPU or memory runs out or someone kills it.
func watchHangup(int, func()) {}

func pollable(fd int, name string) io.ReadWriter { return os.NewFile(uintptr(fd), name) }

// setNice does nothing here: workers keep the server's priority.
func setNice(int, int) error { return nil }
