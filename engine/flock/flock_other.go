//go:build !unix || aix

package flock

// Supported: off the Unix systems with flock(2) nothing is locked.
const Supported = false

// TryLock locks nothing here: it returns a Lock whose Release does
// nothing, and never a *HeldError.
func TryLock(file string) (*Lock, error) { return &Lock{file: file}, nil }
