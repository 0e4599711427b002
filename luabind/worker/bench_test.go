package worker

import (
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/squarebattle/squarebattle/engine"
	"github.com/squarebattle/squarebattle/luabind"
)

// benchPlayer is luabind's BenchmarkSquareStep player: it reads its view
// and waits, so the board stays full. Read when a benchmark asks, not at
// start-up: the test binary also runs as the workers, in an empty folder.
func benchPlayer(b *testing.B) string {
	src, err := os.ReadFile("../testdata/bench.lua")
	if err != nil {
		b.Fatal(err)
	}
	return string(src)
}

// BenchmarkWorkers steps a full 64×64 board of four teams (every cell a
// square: 4,096 calls a round), in this process ("none") and behind the
// wall ("process"), with one and two engine workers:
//
//	go test -run '^$' -bench Workers -count 6 ./luabind/worker
func BenchmarkWorkers(b *testing.B) {
	const size = 64
	var sb strings.Builder
	for r := range size {
		for c := range size {
			if c > 0 {
				sb.WriteByte(' ')
			}
			fmt.Fprint(&sb, (r%2)*2+c%2)
		}
		sb.WriteByte('\n')
	}
	m, err := engine.ParseMap("bench", []byte(sb.String()))
	if err != nil {
		b.Fatal(err)
	}
	cat := catalogOf(b, map[string]string{"bench.lua": benchPlayer(b)})
	p := testPool(b, Options{Size: 8})
	for _, mode := range []string{"none", "process"} {
		for _, workers := range []int{1, 2} {
			b.Run(fmt.Sprintf("%s/workers%d", mode, workers), func(b *testing.B) {
				var seat luabind.Seater
				if mode == "process" {
					seat = p.Seat
				}
				o := engine.Options{Size: size, Wrap: true, Rounds: 1 << 30, Seed: 1, Workers: workers, Map: m}
				bt := battle(b, cat, []string{"bench", "bench", "bench", "bench"}, o, seat)
				for range 3 {
					bt.Step()
				}
				b.ResetTimer()
				for b.Loop() {
					bt.Step()
				}
				b.ReportMetric(float64(b.N*size*size)/b.Elapsed().Seconds(), "square-steps/s")
				if s := bt.Snapshot(); s.Teams[0].Stats.Squares != size*size/4 || s.Teams[0].Stats.Errors+s.Teams[0].Stats.Timeouts != 0 {
					b.Fatalf("the board did not stay full and clean: %+v", s.Teams[0].Stats)
				}
				bt.Close()
			})
		}
	}
}

// BenchmarkStart starts a worker and stops it: a worker's start-up cost.
func BenchmarkStart(b *testing.B) {
	p := testPool(b, Options{Size: 1})
	for b.Loop() {
		w, err := p.start()
		if err != nil {
			b.Fatal(err)
		}
		var e enc
		e.start(kindEnd)
		if _, _, err := w.call(e.finish(), replyBase, p.o.CallTimeout); err != nil {
			b.Fatal(err)
		}
		w.stop()
	}
}

// TestIdleWorkerMemory reports the resident memory of an idle pooled
// worker that has played a battle (it holds a compiled catalog).
func TestIdleWorkerMemory(t *testing.T) {
	cat := shipped(t)
	p := testPool(t, Options{Size: 1})
	var players []string
	for _, c := range cat.Players()[:2] {
		players = append(players, c.ID)
	}
	bt := battle(t, cat, players, engine.Options{Size: 16, Wrap: true, Rounds: 20, Seed: 1, Workers: 1}, p.Seat)
	bt.Run()
	bt.Close()
	for _, pid := range p.Pids() {
		data, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
		if err != nil {
			t.Skip("no /proc")
		}
		for _, line := range strings.Split(string(data), "\n") {
			if strings.HasPrefix(line, "VmRSS") || strings.HasPrefix(line, "VmPeak") {
				t.Logf("idle worker %d: %s", pid, strings.Join(strings.Fields(line), " "))
			}
		}
	}
}

// BenchmarkRoundTrip is one request and its answer with nothing to do (a
// settle with no births or deaths): the price of crossing the pipe and
// waking each side, paid per team per phase.
func BenchmarkRoundTrip(b *testing.B) {
	cat := catalogOf(b, map[string]string{"bench.lua": benchPlayer(b)})
	p := testPool(b, Options{Size: 1})
	s, err := p.Seat(luabind.TeamOptions{Catalog: cat, Seed: 1, Size: 8, Teams: 1})
	if err != nil {
		b.Fatal(err)
	}
	defer s.Close()
	facts := &engine.Facts{Round: 1, Size: 8, Players: []string{"bench"}, Classes: cat.Classes(), TeamCount: 1, Stats: make([]engine.Stats, 1)}
	st := &engine.Settlement{Facts: facts}
	for b.Loop() {
		s.Settle(st)
	}
	if st.Report.Errors != 0 {
		b.Fatalf("the worker failed: %+v", st.Report.Problems)
	}
}
