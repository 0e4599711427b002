//go:build unix && !aix

package flock

import (
	"errors"
	"fmt"
	"os"

	"golang.org/x/sys/unix"
)

// Supported says whether TryLock locks on this platform.
const Supported = true

// TryLock opens file (creating it, mode 0600; never through a symbolic
// link), takes an exclusive flock(2) on it without waiting and writes the
// caller's pid in it. When another open file holds the lock the error is
// a *HeldError (wrapping ErrHeld) and the file is left as it was.
func TryLock(file string) (*Lock, error) {
	f, err := os.OpenFile(file, os.O_RDWR|os.O_CREATE|unix.O_NOFOLLOW, 0o600)
	if err != nil {
		return nil, err
	}
	for {
		err = unix.Flock(int(f.Fd()), unix.LOCK_EX|unix.LOCK_NB)
		if !errors.Is(err, unix.EINTR) {
			break
		}
	}
	if errors.Is(err, unix.EWOULDBLOCK) {
		held := &HeldError{File: file, PID: readPID(f)}
		f.Close()
		return nil, held
	}
	if err != nil {
		f.Close()
		return nil, fmt.Errorf("%s: flock: %w", file, err)
	}
	if err := writePID(f); err != nil {
		f.Close()
		return nil, fmt.Errorf("%s: %w", file, err)
	}
	return &Lock{f: f, file: file}, nil
}
