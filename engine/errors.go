package engine

import (
	"errors"
	"fmt"
)

// ErrInvalidBattle is wrapped by every error about battle options.
var ErrInvalidBattle = errors.New("invalid battle")

// ErrBadMap is wrapped by every error about a starting map.
var ErrBadMap = errors.New("bad map")

// OptionError names the battle option that is wrong.
type OptionError struct {
	Option string
	Reason string
}

func (e *OptionError) Error() string { return e.Option + ": " + e.Reason }

// Unwrap lets callers test with errors.Is(err, ErrInvalidBattle).
func (e *OptionError) Unwrap() error { return ErrInvalidBattle }

// MapError points at the line of a map file that is wrong. Line 0 means the
// map as a whole.
type MapError struct {
	File   string
	Line   int
	Reason string
}

func (e *MapError) Error() string {
	name := e.File
	if name == "" {
		name = "map"
	}
	if e.Line > 0 {
		return fmt.Sprintf("%s:%d: %s", name, e.Line, e.Reason)
	}
	return name + ": " + e.Reason
}

// Unwrap lets callers test with errors.Is(err, ErrBadMap).
func (e *MapError) Unwrap() error { return ErrBadMap }
