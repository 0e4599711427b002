package engine

import (
	"runtime"
	"sync"
	"sync/atomic"
	"time"
)

// pool runs the jobs of one phase (a job is a team) on a fixed set of
// goroutines. The goroutine that calls run is one of the workers and n-1
// helpers join it; each takes the next job from a shared counter until
// none is left, so a worker that finishes early takes more, and nobody
// waits for a dispatcher to be scheduled.
//
// Each phase sends every helper one token on its own channel, and a helper
// does one round of work and one wg.Done per token, so the count always
// matches. Between phases a helper polls its channel for a short while
// before it blocks on it. Waking a blocked goroutine costs the operating
// system's wake-up latency, which on a small virtual machine was about
// 100 µs: as long as an eighth of a team's turn on a full 64×64 arena, and
// most of what kept two workers from a 2× speed-up. A round's serial part
// (resolution) is shorter than the polling, so in a busy battle helpers
// never block. Where the gap between phases is longer than the polling (a
// paced battle in the UI, a rule mod whose rules run in Lua between the
// players' phases) a helper that found its last gap too long blocks at
// once instead of polling in vain: the polling would cost a core's
// spinWait every round and buy nothing. It polls again after a short gap.
//
// run and stop are called from one goroutine (the battle's). The job
// function and count are written before the tokens are sent, which orders
// them before the helpers' reads; wg orders the helpers' work before run
// returns.
type pool struct {
	do      func(int)
	jobs    int32
	next    atomic.Int32
	helpers []chan struct{}
	wg      sync.WaitGroup
	polls   atomic.Int64 // polls that found no token yet, for tests
}

// spinWait is how long an idle helper polls for the next phase before it
// blocks.
const spinWait = 200 * time.Microsecond

func newPool(workers int) *pool {
	p := &pool{}
	for i := 1; i < workers; i++ {
		start := make(chan struct{}, 1)
		p.helpers = append(p.helpers, start)
		go p.help(start)
	}
	return p
}

// run calls do(i) for every i in [0, jobs) across the workers and returns
// when all are done.
func (p *pool) run(jobs int, do func(int)) {
	p.do, p.jobs = do, int32(jobs)
	p.next.Store(0)
	p.wg.Add(len(p.helpers))
	for _, start := range p.helpers {
		start <- struct{}{}
	}
	p.work()
	p.wg.Wait()
	p.do = nil // an idle pool keeps nothing of its battle alive
}

// work runs jobs until the counter passes the last one.
func (p *pool) work() {
	for {
		i := p.next.Add(1) - 1
		if i >= p.jobs {
			return
		}
		p.do(int(i))
	}
}

// help is a helper's life: one round of work per token, until stop closes
// its channel.
func (p *pool) help(start chan struct{}) {
	spin := true
	for {
		ok, waited := p.awaitToken(start, spin)
		if !ok {
			return
		}
		// Spin before the next phase only if this gap was short enough
		// for spinning to have caught it: a battle's gaps repeat round
		// after round, and one whose serial part is long (a rule mod's
		// rules in Lua, a paced battle) would otherwise have a helper
		// burn spinWait of a core every round for nothing.
		spin = waited <= spinWait
		p.work()
		p.wg.Done()
	}
}

// awaitToken takes the next token from start, polling for up to spinWait
// before it blocks when spin is set (blocking at once when not); it
// reports false once start is closed, and how long it waited.
func (p *pool) awaitToken(start chan struct{}, spin bool) (ok bool, waited time.Duration) {
	began := time.Now()
	if spin {
		deadline := began.Add(spinWait)
		for i := 0; ; i++ {
			select {
			case _, ok := <-start:
				return ok, time.Since(began)
			default:
			}
			p.polls.Add(1)
			runtime.Gosched()
			if i%64 == 63 && time.Now().After(deadline) {
				break
			}
		}
	}
	_, ok = <-start
	return ok, time.Since(began)
}

// stop ends the helpers. The pool must be idle.
func (p *pool) stop() {
	for _, start := range p.helpers {
		close(start)
	}
}
