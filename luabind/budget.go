package luabind

import (
	"context"
	"errors"
	"time"
)

// errBudget is the error a script sees when its instruction budget is spent.
// Whether a call ran out of budget is decided from the counter, never from
// this text: a script can raise the same words itself.
var errBudget = errors.New("instruction budget exceeded")

var closedChan = func() chan struct{} { c := make(chan struct{}); close(c); return c }()

// budget is a context.Context that gopher-lua consults before every VM
// instruction (LState.SetContext selects the main loop that calls Done once
// per instruction). Done counts down; once the count is spent it returns a
// closed channel, and keeps returning it, so every further instruction raises
// again and no pcall can swallow the stop for long.
//
// A budget belongs to one team's Lua state and is used by one goroutine.
type budget struct {
	left  int64 // instructions left in the current call
	spent bool
	// probe, when positive, counts down to the next process-memory check.
	probe int64
	team  *Team
}

func (b *budget) reset(n int) {
	b.left = int64(n)
	b.spent = false
}

// charge takes n instructions' worth of work done by a Go builtin.
func (b *budget) charge(n int64) bool {
	b.left -= n
	if b.left < 0 {
		b.spent = true
		return false
	}
	return true
}

func (b *budget) Done() <-chan struct{} {
	b.left--
	if b.left < 0 {
		b.spent = true
		return closedChan
	}
	b.probe--
	if b.probe <= 0 {
		b.probe = probeEvery
		if b.team != nil && b.team.memoryBackstop() {
			return closedChan
		}
	}
	return nil
}

func (b *budget) Err() error {
	if b.team != nil && b.team.memTripped {
		return errMemory
	}
	if b.spent {
		return errBudget
	}
	return nil
}

func (b *budget) Deadline() (time.Time, bool) { return time.Time{}, false }
func (b *budget) Value(any) any               { return nil }

var _ context.Context = (*budget)(nil)
