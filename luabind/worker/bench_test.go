package worker

import (
	"fmt"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/squarebattle/squarebattle/engine"
	"github.com/squarebattle/squarebattle/luabind"
	"github.com/squarebattle/squarebattle/luabind/internal/barelua"
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
	cat := catalogOf(b, map[string]string{"bench.lua": benchPlayer(b)})
	p := testPool(b, Options{Size: 8})
	for _, mode := range []string{"none", "process"} {
		for _, workers := range []int{1, 2} {
			b.Run(fmt.Sprintf("%s/workers%d", mode, workers), func(b *testing.B) {
				bt := benchBattle(b, cat, p, mode, workers)
				defer bt.Close()
				b.ResetTimer()
				for b.Loop() {
					bt.Step()
				}
				b.ReportMetric(float64(b.N*benchSquares)/b.Elapsed().Seconds(), "square-steps/s")
				checkFull(b, bt)
			})
		}
	}
	b.Run("bare", func(b *testing.B) {
		call := bareCaller(b, benchPlayer(b))
		for b.Loop() {
			for k := range benchSquares {
				call(k)
			}
		}
		b.ReportMetric(float64(b.N*benchSquares)/b.Elapsed().Seconds(), "square-steps/s")
	})
}

// BenchmarkWorkersPaired plays BenchmarkWorkers's cases in turns inside
// one benchmark, a round of each after the other, with 4,096 calls of bare
// gopher-lua (the same run function in a loop, prepared arguments) as one
// more case, each case's time summed apart. Load that comes and goes on a
// shared machine then falls on every case alike. It reports the speed of
// each case against bare (bare time / case time: issue 13 asks 0.8 or
// more of process/workers1) and the speed-up from one engine worker to
// two, in process and behind the wall (issue 13: 1.8 or more):
//
//	go test -run '^$' -bench WorkersPaired -benchtime 200x -count 6 ./luabind/worker | benchstat -
func BenchmarkWorkersPaired(b *testing.B) {
	cat := catalogOf(b, map[string]string{"bench.lua": benchPlayer(b)})
	p := testPool(b, Options{Size: 8})
	type arm struct {
		name string
		step func()
		time time.Duration
	}
	var arms []*arm
	for _, mode := range []string{"none", "process"} {
		for _, workers := range []int{1, 2} {
			bt := benchBattle(b, cat, p, mode, workers)
			defer checkFull(b, bt)
			defer bt.Close()
			arms = append(arms, &arm{name: fmt.Sprintf("%s-w%d", mode, workers), step: func() { bt.Step() }})
		}
	}
	call := bareCaller(b, benchPlayer(b))
	bare := &arm{name: "bare", step: func() {
		for k := range benchSquares {
			call(k)
		}
	}}
	arms = append(arms, bare)
	for _, a := range arms { // warm up
		a.step()
	}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		for j := range arms { // each round starts with the next case: no case always follows the same one
			a := arms[(i+j)%len(arms)]
			t := time.Now()
			a.step()
			a.time += time.Since(t)
		}
	}
	b.StopTimer()
	byName := map[string]time.Duration{}
	for _, a := range arms {
		byName[a.name] = a.time
		if a != bare {
			b.ReportMetric(float64(bare.time)/float64(a.time), a.name+"/bare")
		}
	}
	b.ReportMetric(float64(byName["none-w1"])/float64(byName["none-w2"]), "none-speedup")
	b.ReportMetric(float64(byName["process-w1"])/float64(byName["process-w2"]), "process-speedup")
	b.ReportMetric(float64(bare.time.Nanoseconds())/float64(b.N*benchSquares), "bare-ns/step")
}

// benchSquares is every cell of the 64×64 board.
const benchSize, benchSquares = 64, 64 * 64

// benchBattle is BenchmarkWorkers's battle, warmed up: a full board of four
// teams of the bench player, in this process or behind the wall.
func benchBattle(b *testing.B, cat *luabind.Catalog, p *Pool, mode string, workers int) *luabind.Battle {
	var sb strings.Builder
	for r := range benchSize {
		for c := range benchSize {
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
	var seat luabind.Seater
	if mode == "process" {
		seat = p.Seat
	}
	o := engine.Options{Size: benchSize, Wrap: true, Rounds: 1 << 30, Seed: 1, Workers: workers, Map: m}
	bt := battle(b, cat, []string{"bench", "bench", "bench", "bench"}, o, seat)
	for range 3 {
		bt.Step()
	}
	return bt
}

// checkFull fails the benchmark unless the board stayed full and clean, so
// that every round measured cost the same.
func checkFull(b *testing.B, bt *luabind.Battle) {
	if s := bt.Snapshot(); s.Teams[0].Stats.Squares != benchSquares/4 || s.Teams[0].Stats.Errors+s.Teams[0].Stats.Timeouts != 0 {
		b.Fatalf("the board did not stay full and clean: %+v", s.Teams[0].Stats)
	}
}

// bareCaller is barelua.Caller for the bench player on the full board of
// four teams: the floor BenchmarkWorkers's cases are measured against.
func bareCaller(b *testing.B, src string) func(k int) {
	call, done, err := barelua.Caller(src, benchSize, 4, nil, nil)
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(done)
	return func(k int) {
		if err := call(k); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkStart starts a worker and stops it: a worker's start-up cost.
func BenchmarkStart(b *testing.B) {
	p := testPool(b, Options{Size: 1})
	for b.Loop() {
		w, err := p.start(p.o.MemoryMiB, 0)
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
