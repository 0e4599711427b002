package worker

import (
	"fmt"
	"os"
	"strconv"
	"strings"
	"syscall"
	"time"

	"testing"

	"github.com/squarebattle/squarebattle/engine"
	"github.com/squarebattle/squarebattle/luabind"
)

// BenchmarkRulesWall plays whole rule mod battles, one per iteration, with
// rules.lua in this process ("none"), in a worker process ("process"), and
// with every team in a worker as well ("all", what --isolation process does),
// the way a tournament plays them (one engine worker; the pool's worker
// reused from battle to battle). Compare the pairs with benchstat:
//
//	go test -c -o /tmp/w.test ./luabind/worker && cd luabind/worker &&
//	for i in 1 2 3 4 5 6 7 8; do /tmp/w.test -test.run "^$" -test.bench RulesWall -test.benchtime 3x; done | benchstat -col /rules -
//
// (a loop rather than -count, so that the two modes alternate and share
// whatever else loads the machine)
func BenchmarkRulesWall(b *testing.B) {
	p := testPool(b, Options{Size: 6})
	games := []struct {
		name    string
		players []string
		size    int
		rounds  int
	}{
		{"paint", []string{"random", "random", "greedy", "greedy"}, 40, 100},
		{"snake", []string{"hungry", "cautious"}, 30, 300},
		// orbs asks one unit at a time: a round trip per unit
		{"orbs", []string{"explorer", "spreader"}, 36, 40},
		// rules and players that do next to nothing: the cost of the
		// round trips alone (two a round)
		{"bare", []string{"p", "p"}, 4, 2000},
	}
	for _, gm := range games {
		var g *luabind.Game
		if gm.name == "bare" {
			g = hostileRules(b, "")
		} else {
			g = loadGame(b, gm.name)
		}
		var players []*luabind.Class
		for _, name := range gm.players {
			c, err := g.Find(name)
			if err != nil {
				b.Fatal(err)
			}
			players = append(players, c)
		}
		for _, mode := range []string{"none", "process", "all"} {
			b.Run(gm.name+"/rules="+mode, func(b *testing.B) {
				var rs luabind.RulesSeater
				var seat luabind.Seater
				if mode != "none" {
					rs = p
				}
				if mode == "all" { // the teams in workers too
					seat = p.Seat
				}
				ticks := 0
				seed := uint64(0)
				cpu0, wcpu0 := cpuTime(p), workerCPU(p)
				for b.Loop() {
					seed++
					m, err := luabind.NewWalledModBattle(g, players, engine.ModOptions{Size: gm.size, Rounds: gm.rounds, Seed: seed, Workers: 1}, rulesBudget, seat, rs)
					if err != nil {
						b.Fatal(err)
					}
					for m.Step() {
					}
					if m.Err() != nil {
						b.Fatal(m.Err())
					}
					ticks += m.Round()
					m.Close()
				}
				b.ReportMetric(float64(ticks)/b.Elapsed().Seconds(), "ticks/s")
				b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(ticks), "ns/tick")
				b.ReportMetric(float64(cpuTime(p)-cpu0)/float64(ticks), "cpu-ns/tick")
				b.ReportMetric(float64(workerCPU(p)-wcpu0)/float64(ticks), "wcpu-ns/tick")
			})
		}
	}
}

// BenchmarkEmptyRoundTrip is the floor of any request: an empty one (kindEnd
// with nothing to end) and its answer, over the pipe to an idle worker.
func BenchmarkEmptyRoundTrip(b *testing.B) {
	p := testPool(b, Options{Size: 1})
	w, err := p.get()
	if err != nil {
		b.Fatal(err)
	}
	defer p.discard(w)
	var e enc
	for b.Loop() {
		e.start(kindEnd)
		if kind, _, err := w.call(e.finish(), replyBase, time.Minute); err != nil || kind != kindOK {
			b.Fatal(kind, err)
		}
	}
}

// cpuTime is the CPU time (user and system) this process and the pool's
// live workers have used so far. Unlike wall-clock time it does not grow
// while a busy machine makes the battle wait for a core, so it compares
// the two modes more steadily when other work shares the machine.
func cpuTime(p *Pool) time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano()+ru.Stime.Nano()) + workerCPU(p)
}

// workerCPU is the CPU time the pool's live workers have used so far.
func workerCPU(p *Pool) time.Duration {
	var total time.Duration
	for _, pid := range p.Pids() {
		data, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
		if err != nil {
			continue
		}
		s := string(data)
		fields := strings.Fields(s[strings.LastIndexByte(s, ')')+1:])
		if len(fields) > 12 {
			ut, _ := strconv.ParseInt(fields[11], 10, 64)
			st, _ := strconv.ParseInt(fields[12], 10, 64)
			total += time.Duration(ut+st) * (time.Second / 100) // clock ticks (USER_HZ)
		}
	}
	return total
}
