package luabind

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/squarebattle/squarebattle/engine"
)

// BenchmarkHostileCall times one call of every script in testdata/hostile
// (one square, a fixed view) and reports it against a full-budget call of
// honest code — a loop that spends the whole instruction budget — measured
// in the same run: the "x-full" metric is the factor the sandbox
// guarantees between the worst call a script can make and an ordinary
// full-budget one (docs/sandbox.md states the bound).
//
//	go test -run '^$' -bench HostileCall -benchtime 200x ./luabind/
func BenchmarkHostileCall(b *testing.B) {
	paths, _ := filepath.Glob("testdata/hostile/*.lua")
	lim := DefaultLimits()
	lim.MemoryBytes = 4 << 20
	full := hostileCaller(b, `return { name = "Full", run = function() local x = 0 while true do x = x + 1 end end }`, lim)
	const refCalls = 300
	start := time.Now()
	for range refCalls {
		full()
	}
	ref := float64(time.Since(start).Nanoseconds()) / refCalls
	b.Logf("a full-budget call of honest code: %.0f µs", ref/1e3)
	for _, path := range paths {
		src, err := os.ReadFile(path)
		if err != nil {
			b.Fatal(err)
		}
		b.Run(strings.TrimSuffix(filepath.Base(path), ".lua"), func(b *testing.B) {
			call := hostileCaller(b, string(src), lim)
			b.ResetTimer()
			start := time.Now()
			for range b.N {
				call()
			}
			per := float64(time.Since(start).Nanoseconds()) / float64(b.N)
			b.ReportMetric(per/ref, "x-full")
		})
	}
}

// hostileCaller loads src as the only player of a team and returns a
// function that asks its one square for an intent.
func hostileCaller(b *testing.B, src string, lim Limits) func() {
	b.Helper()
	cat := catalogOf(b, map[string]string{"hostile.lua": src}, lim)
	p, err := cat.Find("hostile")
	if err != nil {
		// Named otherwise: the first starting player, or the load error.
		if len(cat.Players()) == 0 {
			b.Fatalf("no player loads: %v", cat.All[0].Err)
		}
		p = cat.Players()[0]
	}
	tm := NewTeam(TeamOptions{Catalog: cat, Size: 8, Teams: 2, Killers: []string{"a", "b"}})
	b.Cleanup(tm.Close)
	facts := &engine.Facts{Size: 8, Wrap: true, Players: []string{"a", "b"}, Stats: make([]engine.Stats, 2), Classes: cat.Classes(), TeamCount: 2}
	id := cat.ClassID(p)
	round := 0
	return func() {
		round++
		facts.Round = round
		t := &engine.Turn{Facts: facts, Squares: []engine.Ready{{ID: 0, Class: id, Row: 3, Col: 3, View: [8]int32{-1, 1, -1, -1, 0, -1, -1, -1}}}, Intents: make([]engine.Intent, 1)}
		tm.Turn(t)
	}
}
