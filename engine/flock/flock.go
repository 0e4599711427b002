// Package flock wraps flock(2): an exclusive lock on a file, taken
// without waiting and held until Release or the end of the process. The
// kernel drops it with the last descriptor of the open file, so a process
// killed in any way (kill -9, the OOM killer, a power cut) never leaves
// it held. Descriptors are close-on-exec: children the holder starts do
// not keep it.
//
// serve takes one on its data dir (cmd/squarebattle) so that two
// processes never share the dir.
package flock

import (
	"errors"
	"fmt"
	"os"
	"strconv"
	"strings"
)

// ErrHeld is wrapped by the error of TryLock when another open file, in
// this process or another, holds the lock.
var ErrHeld = errors.New("held by another process")

// HeldError says who holds a lock file.
type HeldError struct {
	File string
	// PID is the process id the holder wrote in the file, 0 when the
	// file holds none (yet).
	PID int
}

func (e *HeldError) Error() string {
	if e.PID > 0 {
		return fmt.Sprintf("%s: held by process %d", e.File, e.PID)
	}
	return e.File + ": " + ErrHeld.Error()
}

func (e *HeldError) Unwrap() error { return ErrHeld }

// Lock is a lock TryLock took.
type Lock struct {
	f    *os.File
	file string
}

// File is the lock file's name.
func (l *Lock) File() string { return l.file }

// Release drops the lock. The file stays (removing it would let a
// process that opened it meanwhile lock a name no longer there); what it
// says matters only while it is held. Releasing again, or a nil Lock,
// does nothing.
func (l *Lock) Release() error {
	if l == nil || l.f == nil {
		return nil
	}
	err := l.f.Close() // closing the last descriptor unlocks
	l.f = nil
	return err
}

// maxPIDText bounds what is read of a lock file for the holder's pid.
const maxPIDText = 32

// readPID is the pid a holder wrote in f, or 0.
func readPID(f *os.File) int {
	buf := make([]byte, maxPIDText)
	n, _ := f.ReadAt(buf, 0)
	pid, err := strconv.Atoi(strings.TrimSpace(string(buf[:n])))
	if err != nil || pid <= 0 {
		return 0
	}
	return pid
}

// writePID puts the caller's pid in f, the whole of it.
func writePID(f *os.File) error {
	if err := f.Truncate(0); err != nil {
		return err
	}
	_, err := f.WriteAt([]byte(strconv.Itoa(os.Getpid())+"\n"), 0)
	return err
}
