package engine

import (
	"sync/atomic"
	"testing"
	"time"
)

// TestPool runs many phases of every size on pools of 1 to 4 workers, with
// pauses long enough for the helpers to park and short enough to catch them
// spinning: every job runs exactly once per phase, and stop ends the pool.
func TestPool(t *testing.T) {
	for workers := 1; workers <= 4; workers++ {
		p := newPool(workers)
		for phase := 0; phase < 2000; phase++ {
			jobs := phase % 7
			var ran [7]atomic.Int32
			p.run(jobs, func(i int) { ran[i].Add(1) })
			for i := range jobs {
				if n := ran[i].Load(); n != 1 {
					t.Fatalf("workers %d, phase %d: job %d ran %d times", workers, phase, i, n)
				}
			}
			if phase%97 == 0 {
				time.Sleep(spinWait + 50*time.Microsecond)
			}
		}
		p.stop()
	}
}

// TestPoolStopsPollingLongGaps: a helper whose gaps between phases are
// longer than spinWait (a rule mod's Lua rules, a paced battle) blocks at
// once instead of polling through every gap in vain; the work is the
// same either way.
func TestPoolStopsPollingLongGaps(t *testing.T) {
	p := newPool(2)
	defer p.stop()
	var ran atomic.Int32
	phase := func() {
		p.run(2, func(int) { ran.Add(1) })
	}
	phase()
	time.Sleep(2 * spinWait) // the first long gap: polled through, then blocked
	phase()
	before := p.polls.Load()
	for range 10 {
		time.Sleep(2 * spinWait)
		phase()
	}
	if n := p.polls.Load() - before; n != 0 {
		t.Errorf("the helper polled %d times through gaps of %v, longer than spinWait (%v)", n, 2*spinWait, spinWait)
	}
	if n := ran.Load(); n != 24 {
		t.Errorf("%d jobs ran, want 24", n)
	}
}
