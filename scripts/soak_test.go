package scripts_test

import (
	"fmt"
	"os"
	"runtime"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/squarebattle/squarebattle/engine"
	"github.com/squarebattle/squarebattle/luabind"
)

// TestSoak plays the shipped players on a 100×100 arena for 100,000 rounds
// and checks that nothing leaks. The shipped players' battles end (one team
// left) after one to three thousand rounds, having grown to thousands of
// squares, so battles that end are followed by new ones with the next seed,
// and the live heap while a battle runs follows its size rather than any
// leak. The check is therefore on what stays behind: the live heap once the
// last battle is closed is within 10% (or 256 KB) of the live heap once
// the battle holding round 1,000 was closed, and the goroutines are those
// before the first battle. Without SOAK_ROUNDS it plays 3,000 rounds, so
// that `go test ./...` stays quick; .ci/run sets SOAK_ROUNDS=100000 for the
// real soak. -short skips it. Run with -v for the figures.
func TestSoak(t *testing.T) {
	total := soakRounds(t)
	cat := catalog(t)
	players := cat.Players()
	goroutines := runtime.NumGoroutine()
	before := heap()
	start := time.Now()
	var base, end, baseClosed uint64
	played, battles := 0, 0
	for seed := uint64(1); played < total; seed++ {
		b, err := luabind.NewBattle(cat, players, engine.Options{Size: 100, Wrap: true, Rounds: total - played, ReplicateRounds: 100, Seed: seed, Workers: 2})
		if err != nil {
			t.Fatal(err)
		}
		battles++
		for played < total && b.Step() {
			played++
			if played == 1000 {
				base = heap()
			}
			if played == total {
				end = heap()
			}
		}
		b.Close()
		if baseClosed == 0 && played >= 1000 {
			baseClosed = heap()
		}
	}
	elapsed := time.Since(start)
	closed := heap()
	time.Sleep(50 * time.Millisecond) // let the closed battles' workers return
	after := runtime.NumGoroutine()
	t.Logf("%d rounds in %d battles, %v (%.0f rounds/s). Live heap: %.2f MB before the first battle; while battles run, %.2f MB at round 1000 and %.2f MB at the last round; once closed, %.3f MB after the battle holding round 1000 and %.3f MB after the last. Goroutines: %d before, %d after.",
		played, battles, elapsed.Round(time.Millisecond), float64(played)/elapsed.Seconds(), float64(before)/1e6, float64(base)/1e6, float64(end)/1e6,
		float64(baseClosed)/1e6, float64(closed)/1e6, goroutines, after)
	if after > goroutines {
		t.Errorf("%d goroutines left over", after-goroutines)
	}
	if limit := max(baseClosed+baseClosed/10, baseClosed+256<<10); closed > limit {
		t.Errorf("closed battles keep more alive as the run goes on: %d bytes after the battle holding round 1000, %d after the last", baseClosed, closed)
	}
}

// soakRounds is the length of a soak run: SOAK_ROUNDS, or 3,000 rounds
// when it is not set; -short skips it.
func soakRounds(t *testing.T) int {
	if testing.Short() {
		t.Skip("a long run")
	}
	total := 3_000
	if s := os.Getenv("SOAK_ROUNDS"); s != "" {
		n, err := strconv.Atoi(s)
		if err != nil || n < 2000 {
			t.Fatalf("SOAK_ROUNDS=%q: want a number of at least 2000", s)
		}
		total = n
	}
	return total
}

// heap is the live heap after two full collections.
func heap() uint64 {
	runtime.GC()
	runtime.GC()
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	return m.HeapAlloc
}

// TestSoakSteady is the soak taken literally: one battle of
// 100,000 rounds (or SOAK_ROUNDS) on a 100×100 arena whose population
// never changes, so any growth is a leak. Four teams of the shipped Explorer,
// 100 squares each on a lattice, all march south-east in step and never
// meet. The live heap after the last round must be within 10% of the live
// heap after round 1,000, and once the battle is closed the goroutines are
// those before it.
func TestSoakSteady(t *testing.T) {
	total := soakRounds(t)
	var text strings.Builder
	for r := 0; r < 100; r++ {
		for c := 0; c < 100; c++ {
			v := -1
			if r%5 == 0 && c%5 == 0 {
				v = (r/5 + c/5) % 4
			}
			fmt.Fprintf(&text, "%d ", v)
		}
		text.WriteByte('\n')
	}
	m, err := engine.ParseMap("lattice.map", []byte(text.String()))
	if err != nil {
		t.Fatal(err)
	}
	cat := catalog(t)
	explorer, err := cat.Find("explorer")
	if err != nil {
		t.Fatal(err)
	}
	goroutines := runtime.NumGoroutine()
	b, err := luabind.NewBattle(cat, []*luabind.Class{explorer, explorer, explorer, explorer},
		engine.Options{Size: 100, Wrap: true, Rounds: total, ReplicateRounds: 100, Seed: 1, Workers: 2, Map: m})
	if err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	var base, end uint64
	for b.Step() {
		switch b.Round() {
		case 1000:
			base = heap()
		case total:
			end = heap()
		}
	}
	elapsed := time.Since(start)
	s := b.Snapshot()
	b.Close()
	time.Sleep(50 * time.Millisecond) // let the workers return
	after := runtime.NumGoroutine()
	squares := 0
	for _, tv := range s.Teams {
		squares += tv.Stats.Squares
	}
	t.Logf("%d rounds, %d squares, %v (%.0f rounds/s). Live heap %.3f MB after round 1000, %.3f MB after the last (%+.1f%%). Goroutines: %d before, %d after.",
		s.Round, squares, elapsed.Round(time.Millisecond), float64(s.Round)/elapsed.Seconds(), float64(base)/1e6, float64(end)/1e6,
		100*(float64(end)/float64(base)-1), goroutines, after)
	if s.Round != total || squares != 400 {
		t.Fatalf("%d rounds and %d squares; the march must last the whole run with all 400", s.Round, squares)
	}
	if end > base+base/10 {
		t.Errorf("the heap grew from %d to %d bytes in a battle whose population never changed", base, end)
	}
	if after > goroutines {
		t.Errorf("%d goroutines left over", after-goroutines)
	}
}
