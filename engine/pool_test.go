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
