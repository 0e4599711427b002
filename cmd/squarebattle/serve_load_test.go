package main

import (
	"bytes"
	"context"
	"crypto/ed25519"
	"crypto/rand"
	"log/slog"
	"net"
	"os"
	"runtime"
	"strconv"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	gossh "golang.org/x/crypto/ssh"

	"github.com/squarebattle/squarebattle/config"
	"github.com/squarebattle/squarebattle/engine"
	"github.com/squarebattle/squarebattle/tui"
)

// marchSource plays every battle of the hall on the marchers map
// (testdata/marchers-150.map): 150×150, four teams of 100 Explorers
// marching in step, so every frame shows 400 squares in new places.
type marchSource struct {
	*playSource
	m *engine.Map
}

func (s marchSource) NewBattle(su tui.Setup) (tui.Battle, error) {
	su.Map, su.MapFile, su.Size = s.m, "marchers-150.map", s.m.Size
	return s.playSource.NewBattle(su)
}

// loadArena is an arena whose featured battle marches unthrottled.
type loadArena struct {
	a    *serveArena
	addr string
	logs *syncLog
}

type syncLog struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *syncLog) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *syncLog) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

func startLoadArena(tb testing.TB, speed int) *loadArena {
	tb.Helper()
	data, err := os.ReadFile("testdata/marchers-150.map")
	if err != nil {
		tb.Fatal(err)
	}
	m, err := engine.ParseMap("marchers-150.map", data)
	if err != nil {
		tb.Fatal(err)
	}
	cfg := config.Default()
	cfg.Serve.DataDir = tb.TempDir()
	cfg.Serve.Ladder.Enabled = false // what viewers cost, alone
	cfg.Serve.Sessions, cfg.Serve.SessionsPerIP, cfg.Serve.ConnectionsPerMinute = 500, 500, 100000
	cfg.Serve.WriteTimeout = 1
	cfg.Serve.FeaturedPlayers = "explorer,explorer,explorer,explorer"
	cfg.Serve.FeaturedRounds = 10_000_000
	cfg.TUI.Speed = speed // 0 unthrottled: the rounds/s measure what viewers cost
	cfg.TUI.Rewind = 0    // memory must not grow with the rounds played
	cfg.Workers = 1
	logs := &syncLog{}
	a, err := newArena(cfg, slog.New(slog.NewTextHandler(logs, nil)), func(p *playSource) tui.Source { return marchSource{p, m} })
	if err != nil {
		tb.Fatal(err)
	}
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		tb.Fatal(err)
	}
	go a.srv.Serve(l)
	tb.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		a.srv.Shutdown(ctx)
		a.close()
	})
	la := &loadArena{a: a, addr: l.Addr().String(), logs: logs}
	for la.round() == 0 {
		time.Sleep(10 * time.Millisecond)
	}
	return la
}

// round is the featured battle's round.
func (la *loadArena) round() int {
	for _, b := range la.a.hall.Battles("") {
		if b.Featured {
			return b.Round
		}
	}
	return 0
}

// viewer is one Go SSH client watching the featured battle in a w×h
// terminal, counting the bytes and frames it receives (a frame ends with
// tcell's end of synchronised output).
type viewer struct {
	c      *gossh.Client
	s      *gossh.Session
	bytes  atomic.Int64
	frames atomic.Int64
	done   chan struct{}
}

// watch connects a viewer; stalled ones never read what arrives.
func watch(tb testing.TB, addr string, w, h int, stalled bool) *viewer {
	tb.Helper()
	_, priv, _ := ed25519.GenerateKey(rand.Reader)
	key, _ := gossh.NewSignerFromKey(priv)
	c, err := gossh.Dial("tcp", addr, &gossh.ClientConfig{User: "viewer", Auth: []gossh.AuthMethod{gossh.PublicKeys(key)},
		HostKeyCallback: gossh.InsecureIgnoreHostKey(), Timeout: 10 * time.Second})
	if err != nil {
		tb.Fatal(err)
	}
	return watchOn(tb, c, w, h, stalled)
}

// watchOn watches the featured battle over client c.
func watchOn(tb testing.TB, c *gossh.Client, w, h int, stalled bool) *viewer {
	tb.Helper()
	s, err := c.NewSession()
	if err != nil {
		tb.Fatal(err)
	}
	if err := s.RequestPty("xterm-256color", h, w, nil); err != nil {
		tb.Fatal(err)
	}
	out, _ := s.StdoutPipe()
	in, _ := s.StdinPipe()
	v := &viewer{c: c, s: s, done: make(chan struct{})}
	if err := s.Start("watch"); err != nil {
		tb.Fatal(err)
	}
	go func() {
		defer close(v.done)
		if stalled {
			// It reads nothing, so its SSH window (2 MB) shuts once that
			// much is sent. Ctrl-L (redraw) several times a second makes
			// every frame a full repaint of the large window, which gets
			// there in a few frames even on a loaded machine.
			ended := make(chan struct{})
			go func() {
				tick := time.NewTicker(50 * time.Millisecond)
				defer tick.Stop()
				for {
					select {
					case <-ended:
						return
					case <-tick.C:
						in.Write([]byte{0x0c})
					}
				}
			}()
			s.Wait()
			close(ended)
			return
		}
		// The bytes read go after the last few of the previous read, so
		// that a frame's end split between two reads is counted once;
		// nothing is allocated per read (the clients share the process
		// with the server they measure).
		keep := len(frameEnd) - 1
		buf := make([]byte, keep+64<<10)
		tail := 0
		for {
			n, err := out.Read(buf[tail:])
			v.bytes.Add(int64(n))
			chunk := buf[:tail+n]
			v.frames.Add(int64(bytes.Count(chunk, []byte(frameEnd))))
			tail = min(len(chunk), keep)
			copy(buf, chunk[len(chunk)-tail:])
			if err != nil {
				return
			}
		}
	}()
	return v
}

func (v *viewer) close() {
	v.s.Close()
	v.c.Close()
	<-v.done
}

func heapNow() uint64 {
	runtime.GC()
	runtime.GC()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	return ms.HeapAlloc
}

// TestServeLoad: 50 viewers (10 under the race detector) on one battle, one of which stops reading. The
// stalled one is dropped (the write timeout), the others keep getting
// frames, the battle keeps playing, and once everybody has left the
// goroutines and the heap are back where they were. How fast the battle
// plays with viewers is BenchmarkServeViewers's business.
func TestServeLoad(t *testing.T) {
	if testing.Short() {
		t.Skip("50 SSH viewers; skipped under -short")
	}
	la := startLoadArena(t, 0)
	time.Sleep(200 * time.Millisecond)
	baseG, baseHeap := runtime.NumGoroutine(), heapNow()

	viewers := 50
	if raceOn {
		viewers = 10
	}
	stalled := watch(t, la.addr, 512, 256, true)
	var vs []*viewer
	for range viewers - 1 {
		vs = append(vs, watch(t, la.addr, 80, 24, false))
	}
	select {
	case <-stalled.done:
	case <-time.After(120 * time.Second):
		logs := la.logs.String()
		t.Fatalf("the stalled viewer was not dropped; log:\n%s", logs[max(0, len(logs)-3000):])
	}
	// After the drop, every other viewer still gets frames and the battle
	// goes on.
	r0 := la.round()
	before := make([]int64, len(vs))
	for i, v := range vs {
		before[i] = v.frames.Load()
	}
	deadline := time.Now().Add(60 * time.Second)
	for i := 0; i < len(vs); {
		if vs[i].frames.Load() > before[i] {
			i++
			continue
		}
		if time.Now().After(deadline) {
			t.Fatalf("viewer %d got no frame after the stalled one was dropped", i)
		}
		time.Sleep(10 * time.Millisecond)
	}
	// The battle goes on: its round moves (on to the next featured battle,
	// when this one reached its last round meanwhile). Polled: on a loaded
	// machine every viewer may have had its frame before the next round.
	for la.round() == r0 {
		if time.Now().After(deadline) {
			t.Errorf("the battle stood still at round %d", r0)
			break
		}
		time.Sleep(10 * time.Millisecond)
	}
	if !bytes.Contains([]byte(la.logs.String()), []byte("client dropped")) {
		t.Error("no log line for the dropped viewer")
	}
	for _, v := range vs {
		v.close()
	}
	stalled.close()
	deadline = time.Now().Add(30 * time.Second)
	for {
		_, sessions := la.a.srv.Counts()
		g := runtime.NumGoroutine()
		if sessions == 0 && g <= baseG+2 {
			break
		}
		if time.Now().After(deadline) {
			if dump := os.Getenv("SERVE_LOAD_STACKS"); dump != "" {
				buf := make([]byte, 8<<20)
				os.WriteFile(dump, buf[:runtime.Stack(buf, true)], 0o644)
			}
			t.Fatalf("after all left: %d sessions, %d goroutines (baseline %d)", sessions, g, baseG)
		}
		time.Sleep(20 * time.Millisecond)
	}
	if h := heapNow(); h > baseHeap+8<<20 {
		t.Errorf("heap %d MB after all left, baseline %d MB", h>>20, baseHeap>>20)
	}
	t.Logf("baseline %d goroutines, heap %.1f MB; after: %d goroutines, heap %.1f MB",
		baseG, float64(baseHeap)/(1<<20), runtime.NumGoroutine(), float64(heapNow())/(1<<20))
}

// BenchmarkServeViewers measures, with n viewers of the featured battle
// (the marchers map, frame cap 15 fps), the battle's rounds/s and each
// viewer's frames/s, bytes/s and heap. The battle runs unthrottled
// (speed=max: the rounds/s it loses is the CPU the viewers take) or at
// 100 rounds/s (speed=100: whether it keeps its pace). The viewers are Go
// clients in this process, so their decryption is counted too. Compare
// the rounds/s of n viewers with those of 0 in the same run (benchstat).
func BenchmarkServeViewers(b *testing.B) {
	type run struct {
		speed, w, h int
		viewers     []int
	}
	for _, r := range []run{
		{0, 80, 24, []int{0, 10, 50, 100, 200}},
		{100, 80, 24, []int{0, 10, 25, 50, 100, 150}},
		{100, 200, 60, []int{0, 10, 25, 50}},
	} {
		for _, n := range r.viewers {
			name := "speed=max"
			if r.speed > 0 {
				name = "speed=" + strconv.Itoa(r.speed)
			}
			name += "/" + strconv.Itoa(r.w) + "x" + strconv.Itoa(r.h) + "/viewers=" + strconv.Itoa(n)
			b.Run(name, func(b *testing.B) { benchViewers(b, r.speed, r.w, r.h, n) })
		}
	}
}

func benchViewers(b *testing.B, speed, w, h, n int) {
	la := startLoadArena(b, speed)
	heap0 := heapNow()
	var vs []*viewer
	for range n {
		vs = append(vs, watch(b, la.addr, w, h, false))
	}
	time.Sleep(500 * time.Millisecond) // every viewer drawing
	heap1 := heapNow()
	const window = 2 * time.Second
	for b.Loop() {
		r0, f0, by0 := la.round(), sum(vs, true), sum(vs, false)
		time.Sleep(window)
		r1, f1, by1 := la.round(), sum(vs, true), sum(vs, false)
		b.ReportMetric(float64(r1-r0)/window.Seconds(), "rounds/s")
		if n > 0 {
			b.ReportMetric(float64(f1-f0)/window.Seconds()/float64(n), "frames/s/viewer")
			b.ReportMetric(float64(by1-by0)/window.Seconds()/float64(n), "B/s/viewer")
			b.ReportMetric(float64(int64(heap1)-int64(heap0))/float64(n), "heapB/viewer")
		}
	}
	for _, v := range vs {
		v.close()
	}
}

func sum(vs []*viewer, frames bool) int64 {
	var t int64
	for _, v := range vs {
		if frames {
			t += v.frames.Load()
		} else {
			t += v.bytes.Load()
		}
	}
	return t
}

// frameEnd is what tcell writes at the end of every frame (its
// synchronized-output mark on xterm-like terminals).
const frameEnd = "\x1b[?2026l"
