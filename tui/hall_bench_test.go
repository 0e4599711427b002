package tui

import (
	"context"
	"fmt"
	"runtime"
	"sync/atomic"
	"testing"
	"time"

	"github.com/gdamore/tcell/v2"
	"github.com/gdamore/tcell/v2/terminfo"

	"github.com/squarebattle/squarebattle/engine"
	"github.com/squarebattle/squarebattle/luabind"
)

// marchSource builds the marching battle (marchersMap) whatever the setup
// asks: four Explorer teams of 100 squares, all moving every round.
type marchSource struct {
	*scriptSource
	m *engine.Map
}

func (s marchSource) NewBattle(su Setup) (Battle, error) {
	ps, err := s.players([]string{"explorer", "explorer", "explorer", "explorer"})
	if err != nil {
		return nil, err
	}
	b, err := luabind.NewBattle(s.cat, ps, engine.Options{Size: 150, Wrap: true, Rounds: su.Rounds, Seed: 1, Workers: 1, Map: s.m})
	if err != nil {
		return nil, err
	}
	return testBattle{b}, nil
}

// marchingHall is a hall whose featured battle is the marching one,
// unthrottled and paused: the benchmark plays it on with playTo.
func marchingHall(b *testing.B) (*Hall, *liveBattle) {
	b.Helper()
	src := marchSource{newScriptSource(b), readMarchers(b)}
	h, err := NewHall(HallOptions{Source: src, Settings: Settings{Size: 150, Rounds: 1 << 30, Speed: 0, FPS: 30, Rewind: -1},
		Featured: FeaturedOptions{Players: []string{"explorer"}, Seed: 1, Linger: time.Hour}})
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { _ = h.Close() })
	lb := h.currentFeatured()
	lb.d.send(command{kind: cmdPause})
	return h, lb
}

// playTo plays the battle unthrottled up to round n, where it pauses, and
// waits for that (on a mailbox of its own: no polling).
func playTo(lb *liveBattle, n int) {
	box := newMailbox()
	lb.d.subscribe(box)
	defer lb.d.unsubscribe(box)
	lb.d.send(command{kind: cmdSeek, n: n})
	for f := range box.ch {
		if f.paused && f.snap.Round >= n {
			return
		}
	}
}

// watchers are sessions watching the featured battle on their own screens.
type watchers struct {
	cancel context.CancelFunc
	done   chan error
	n      int
	frames atomic.Int64 // shown by all of them
}

func watch(b *testing.B, h *Hall, n int, screen func() tcell.Screen) *watchers {
	b.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	ws := &watchers{cancel: cancel, done: make(chan error, n), n: n}
	shown := func() { ws.frames.Add(1) }
	for range n {
		go func() {
			ws.done <- RunSession(ctx, screen(), SessionOptions{Hall: h, Start: StartWatch, FPS: 15, Shown: shown})
		}()
	}
	// Every session has drawn its first frame once the viewers are counted.
	for h.currentFeatured().viewers.Load() < int32(n) {
		time.Sleep(time.Millisecond)
	}
	return ws
}

func (ws *watchers) stop(b *testing.B) {
	ws.cancel()
	for range ws.n {
		if err := <-ws.done; err != nil {
			b.Error(err)
		}
	}
}

// BenchmarkSharedBattle: rounds per second of one marching battle, played
// unthrottled, with 0, 10 and 50 sessions watching it at 15 frames a
// second on 80×24 SimulationScreens (each drawing the newest frame on its
// own goroutine). One op is one round; rounds/s is the figure to compare
// (benchstat across viewers=…), B/session the heap a watching session adds (its screen aside).
//
//	go test -run '^$' -bench SharedBattle -benchtime 3000x -count 6 ./tui/
func BenchmarkSharedBattle(b *testing.B) {
	for _, n := range []int{0, 10, 50} {
		b.Run(fmt.Sprintf("viewers=%d", n), func(b *testing.B) {
			h, lb := marchingHall(b)
			before := heap()
			ws := watch(b, h, n, func() tcell.Screen { return sizedScreen{tcell.NewSimulationScreen(""), 80, 24} })
			perViewer := 0.0
			if n > 0 {
				// What the session adds, less its SimulationScreen's own
				// buffers (some 600 KB each: the server's screens differ).
				perViewer = float64(heap()-before)/float64(n) - screenHeap(n)
			}
			start := lb.d.latest().snap.Round
			b.ResetTimer()
			t0 := time.Now()
			frames := ws.frames.Load()
			playTo(lb, start+b.N)
			el := time.Since(t0).Seconds()
			b.StopTimer()
			b.ReportMetric(float64(b.N)/el, "rounds/s")
			if n > 0 {
				b.ReportMetric(float64(ws.frames.Load()-frames)/el/float64(n), "frames/s/viewer")
				b.ReportMetric(perViewer, "B/session")
			}
			ws.stop(b)
		})
	}
}

// screenHeap is the heap an initialised 80×24 SimulationScreen holds.
func screenHeap(n int) float64 {
	before := heap()
	ss := make([]tcell.Screen, n)
	for i := range ss {
		ss[i] = sizedScreen{tcell.NewSimulationScreen(""), 80, 24}
		_ = ss[i].Init()
	}
	after := heap()
	for _, s := range ss {
		s.Fini()
	}
	return float64(after-before) / float64(n)
}

// heap is the live heap after a collection.
func heap() int64 {
	runtime.GC()
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	return int64(m.HeapAlloc)
}

// BenchmarkViewer: what one viewer of the unthrottled marching battle
// draws and sends at the SSH cap of 15 frames a second, on a terminfo
// screen (xterm-256color) over a terminal that counts the bytes tcell
// writes: frames/s and bytes/s while the battle plays b.N rounds.
//
//	go test -run '^$' -bench 'Viewer/' -benchtime 3000x -count 6 ./tui/
func BenchmarkViewer(b *testing.B) {
	ti, err := terminfo.LookupTerminfo("xterm-256color")
	if err != nil {
		b.Fatal(err)
	}
	for _, sz := range []struct{ w, h int }{{80, 24}, {200, 60}} {
		b.Run(fmt.Sprintf("%dx%d", sz.w, sz.h), func(b *testing.B) {
			h, lb := marchingHall(b)
			tty := newCountingTty(sz.w, sz.h)
			ws := watch(b, h, 1, func() tcell.Screen {
				scr, err := tcell.NewTerminfoScreenFromTtyTerminfo(tty, ti)
				if err != nil {
					b.Fatal(err)
				}
				return scr
			})
			start := lb.d.latest().snap.Round
			written, frames := tty.written.Load(), ws.frames.Load()
			b.ResetTimer()
			t0 := time.Now()
			playTo(lb, start+b.N)
			el := time.Since(t0).Seconds()
			b.StopTimer()
			bytes, shown := tty.written.Load()-written, ws.frames.Load()-frames
			ws.stop(b)
			b.ReportMetric(float64(shown)/el, "frames/s")
			b.ReportMetric(float64(bytes)/el, "bytes/s")
			if shown > 0 {
				b.ReportMetric(float64(bytes)/float64(shown), "bytes/frame")
			}
			b.ReportMetric(float64(b.N)/el, "rounds/s")
		})
	}
}
