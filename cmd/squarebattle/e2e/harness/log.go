package harness

import (
	"bytes"
	"sync"
)

// Log is a buffer that a process's output can be written to while a test
// reads it: safe for one writer and any number of readers at once.
type Log struct {
	mu sync.Mutex
	b  bytes.Buffer
}

// Write appends p.
func (l *Log) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

// String is everything written so far.
func (l *Log) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}
