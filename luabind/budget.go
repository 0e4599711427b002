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

// budget counts a team's VM instructions: once before every instruction,
// either from the VM core (fastLoop in vmfast.go; countedLoop in vmloop.go
// for the differential tests), which decrements n directly, or, when
// that loop is unavailable, through gopher-lua's context loop, which calls
// Done (budget is the state's context either way, see install). Once the
// count is spent every further instruction raises again, so no pcall can
// swallow the stop for long.
//
// The count is kept in chunks of at most probeEvery instructions so that the
// hot path is one decrement and one comparison. Nothing here looks at the
// process heap: a team's memory is judged by its own census only (see
// memory.go).
//
// A budget belongs to one team's Lua state and is used by one goroutine.
type budget struct {
	n     int64 // instructions left in the current chunk
	rest  int64 // instructions left in the call beyond the current chunk
	spent bool
	team  *Team
	// returned is the line of the instruction (a return) by which the
	// counted loop last handed control back to Go: after a top-level
	// call, the line of the return that gave its results (0 when
	// unknown). The loop notes it on its way out, never per instruction.
	returned int
	// nest is the number of main loops running, one inside the other on
	// the Go stack (cstack.go).
	nest int
}

func (b *budget) reset(limit int) {
	b.rest = int64(limit)
	b.n = 0
	b.spent = false
	b.returned = 0
	if b.team != nil {
		b.team.graves.forget() // kept for one call only (nextkeys.go)
	}
	b.refill()
}

// refill moves up to probeEvery instructions from rest into the chunk.
func (b *budget) refill() {
	chunk := min(b.rest, probeEvery)
	b.n += chunk
	b.rest -= chunk
}

// remaining is the number of instructions the call may still run.
func (b *budget) remaining() int64 { return max(b.n, 0) + b.rest }

// charge takes n instructions' worth of work done by a Go builtin.
func (b *budget) charge(n int64) bool {
	b.n -= n
	for b.n < 0 && b.rest > 0 {
		b.refill()
	}
	if b.n < 0 {
		b.spent = true
		return false
	}
	return true
}

func (b *budget) Done() <-chan struct{} {
	b.n--
	if b.n >= 0 {
		return nil
	}
	return b.slow()
}

// slow runs once per chunk: it refills the chunk, or declares the budget
// spent. A call that tripped the memory bound (memTripped) is stopped too,
// so that no pcall can swallow that stop for long either.
func (b *budget) slow() <-chan struct{} {
	if b.team != nil && b.team.memTripped {
		b.n = -1
		return closedChan
	}
	if b.rest > 0 {
		b.refill()
		return nil
	}
	b.n = -1
	b.spent = true
	return closedChan
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
