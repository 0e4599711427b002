package tui

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gdamore/tcell/v2"
	"github.com/gdamore/tcell/v2/terminfo"
)

// vtSession is a session of a hall on a terminfo screen whose bytes go to
// a vt, checked after every frame it shows.
type vtSession struct {
	t    *testing.T
	tty  *vtTty
	ti   *terminfo.Terminfo
	app  *App
	done chan error
	stop func() // ends the session and waits for it

	mu     sync.Mutex
	frames int      // frames shown
	shared int      // of which on a shared picture
	last   *frame   // the frame last shown
	pic    *picture // the shared picture on the terminal then (nil: none)
	bar    *picture // and the status bar under it
	bad    string   // the first mismatch
}

func joinVT(t *testing.T, h *Hall, w, hgt int, ti *terminfo.Terminfo) *vtSession {
	t.Helper()
	own := *ti // tcell writes to the Terminfo it is given: each session has its own, as over SSH
	ti = &own
	vs := &vtSession{t: t, tty: newVtTty(w, hgt), ti: ti, done: make(chan error, 1)}
	scr, err := tcell.NewTerminfoScreenFromTtyTerminfo(vs.tty, ti)
	if err != nil {
		t.Fatal(err)
	}
	o := SessionOptions{Hall: h, Start: StartWatch, FPS: 15, Terminfo: ti, Shown: vs.check}
	ctx, cancel := context.WithCancel(context.Background())
	made := make(chan struct{})
	go func() { vs.done <- runSession(ctx, scr, o, func(a *App) { vs.app = a; close(made) }) }()
	<-made
	var once sync.Once
	vs.stop = func() {
		once.Do(func() {
			cancel()
			if err := <-vs.done; err != nil {
				t.Error(err)
			}
		})
	}
	t.Cleanup(vs.stop)
	return vs
}

// check runs on the session's goroutine after each frame: the terminal
// shows exactly the picture and status bar the session believes it does
// (whole, however many pictures and skipped frames came before), and the
// status bar is the one the session drew.
func (vs *vtSession) check() {
	a := vs.app
	vs.mu.Lock()
	defer vs.mu.Unlock()
	vs.frames++
	if a.w != nil {
		vs.last = a.w.last
	}
	vs.pic, vs.bar = a.onTerm, a.onBar
	if a.onTerm == nil || vs.bad != "" {
		return
	}
	vs.shared++
	want := newVT(vs.tty.vt.w, vs.tty.vt.h)
	codec := newTermCodec(vs.ti, a.s.Colors())
	for _, p := range []*picture{a.onTerm, a.onBar} {
		if _, err := want.Write(codec.encode(nil, p)); err != nil {
			vs.bad = err.Error()
			return
		}
	}
	rows := a.onBar.top + 1
	vs.tty.mu.Lock()
	got := vs.tty.vt.rows(0, rows)
	vs.tty.mu.Unlock()
	for i, w := range want.rows(0, rows) {
		if got[i] != w {
			vs.bad = fmt.Sprintf("frame %d (seq %d): terminal %s, sent %s", vs.frames, a.onTerm.f.seq, got[i], w)
			return
		}
	}
	// The status bar, shared with the viewers who show the same, is the
	// one the session would draw itself (for what it showed then: the
	// count of viewers moves meanwhile).
	sim := tcell.NewSimulationScreen("UTF-8")
	if err := sim.Init(); err != nil {
		vs.bad = err.Error()
		return
	}
	defer sim.Fini()
	sim.SetSize(a.onBar.w, a.onBar.top+1)
	drawStatus(canvas{s: sim, g: a.c.g}, a.th, a.onStatus, a.onBar.top, a.onBar.w)
	own := grab(sim, nil, a.onBar.w, a.onBar.top, 1)
	for x := range a.onBar.w {
		if !same(own, a.onBar, x) {
			vs.bad = fmt.Sprintf("frame %d: status bar cell %d is %q, the session draws %q", vs.frames, x, a.onBar.cells[x].str, own.cells[x].str)
			return
		}
	}
}

// text is every row of the vt and of tcell's own cells, as text.
func (vs *vtSession) text() (terminal, tcellCells string) {
	var a, b strings.Builder
	vs.tty.mu.Lock()
	v := vs.tty.vt
	for y := range v.h {
		for x := range v.w {
			a.WriteString(v.cells[y*v.w+x].text)
		}
		a.WriteByte('\n')
	}
	vs.tty.mu.Unlock()
	for y := range v.h {
		for x := 0; x < v.w; x++ {
			str, _, w := vs.app.s.Get(x, y)
			if str == "" {
				str = " "
			}
			b.WriteString(str)
			x += max(w, 1) - 1
		}
		b.WriteByte('\n')
	}
	return a.String(), b.String()
}

// waitAll waits until every session's last frame passes cond.
func waitAll(t *testing.T, vs []*vtSession, what string, cond func(v *vtSession) bool) {
	t.Helper()
	waitHall(t, what, func() bool {
		for _, v := range vs {
			v.mu.Lock()
			ok := cond(v)
			v.mu.Unlock()
			if !ok {
				return false
			}
		}
		return true
	})
}

// TestViewersSharePictures: viewers of the featured battle on terminfo
// screens, at two sizes, share the pictures of its frames and their
// status bars: once the battle pauses, the viewers of each size show the
// very same picture and bar, each drawn once. Throughout, every terminal shows exactly the picture its
// session sent last (whole or as the cells that changed, however many
// frames it skipped), and when the end of the battle covers the arena
// with its box (drawn by each session through tcell) the whole terminal
// shows what tcell holds. Once they leave, the battle keeps no view.
func TestViewersSharePictures(t *testing.T) {
	t.Parallel() // a session of its own, mostly waiting on the battle's pace and frames

	ti, err := terminfo.LookupTerminfo("xterm-256color")
	if err != nil {
		t.Fatal(err)
	}
	h := newHall(t, HallOptions{Settings: Settings{Size: 40, Rounds: 300, Speed: 150, FPS: 30},
		Featured: FeaturedOptions{Linger: time.Hour}})
	lb := h.currentFeatured()
	var vs []*vtSession
	for i := range 8 {
		w, hgt := 80, 24
		if i%4 == 3 {
			w, hgt = 120, 40
		}
		vs = append(vs, joinVT(t, h, w, hgt, ti))
	}
	waitAll(t, vs, "pictures of round 60", func(v *vtSession) bool {
		return v.shared > 2 && v.last != nil && v.last.snap.Round >= 60
	})
	// Another is told of window changes that end at the same size: tcell
	// repaints what it holds, which must not cover the shared picture.
	for range 5 {
		vs[1].tty.windowChanged()
		time.Sleep(50 * time.Millisecond)
	}
	// One viewer opens help over the arena and closes it, twice: tcell
	// draws those frames, and the next shared picture goes whole.
	for _, k := range []rune{'?', 0, '?', 0} {
		ev := tcell.NewEventKey(tcell.KeyEscape, 0, tcell.ModNone)
		if k != 0 {
			ev = tcell.NewEventKey(tcell.KeyRune, k, tcell.ModNone)
		}
		if err := vs[0].app.s.PostEvent(ev); err != nil {
			t.Fatal(err)
		}
		time.Sleep(150 * time.Millisecond)
	}
	lb.d.send(command{kind: cmdPause})
	waitHall(t, "the pause", func() bool { return lb.d.latest().paused })
	paused := lb.d.latest()
	// Each viewer's picture and bar are taken in the same look that finds
	// it on the paused frame: a session may still repaint after that (a
	// late window change, a message that goes), which forgets its picture
	// until the next one comes.
	pics, bars := make([]*picture, len(vs)), make([]*picture, len(vs))
	waitHall(t, "every viewer on the paused frame", func() bool {
		for i, v := range vs {
			v.mu.Lock()
			ok := v.last == paused && v.pic != nil && v.pic.f == paused
			pics[i], bars[i] = v.pic, v.bar
			v.mu.Unlock()
			if !ok {
				return false
			}
		}
		return true
	})
	bySize, barBySize := map[int]*picture{}, map[int]*picture{}
	for i := range vs {
		pic, bar := pics[i], bars[i]
		if first, ok := bySize[pic.w]; ok && first != pic {
			t.Errorf("viewer %d shows a picture of its own, not the one its size shares", i)
		}
		if first, ok := barBySize[pic.w]; ok && first != bar {
			t.Errorf("viewer %d shows a status bar of its own, not the one its size shares", i)
		}
		bySize[pic.w], barBySize[pic.w] = pic, bar
	}
	lb.share.mu.Lock()
	views, made := len(lb.share.views), 0
	for _, sv := range lb.share.views {
		sv.mu.Lock()
		made += sv.made
		sv.mu.Unlock()
	}
	lb.share.mu.Unlock()
	if views != 2 {
		t.Errorf("%d shared views, want 2 (two sizes)", views)
	}
	lb.d.send(command{kind: cmdPause})
	end := endFrame(t, h)
	waitAll(t, vs, "every viewer showing the end", func(v *vtSession) bool { return v.last == end })
	shared := 0
	for i, v := range vs {
		v.mu.Lock()
		if v.bad != "" {
			t.Errorf("viewer %d: %s", i, v.bad)
		}
		shared += v.shared
		v.mu.Unlock()
	}
	t.Logf("%d pictures drawn for %d frames shown on them (by the pause)", made, shared)
	// The end: each session draws the victory box itself, over the arena.
	for i, v := range vs {
		term, cells := "", ""
		ok := false
		for range 200 {
			term, cells = v.text()
			if ok = term == cells && strings.Contains(term, "wins"); ok {
				break
			}
			time.Sleep(10 * time.Millisecond)
		}
		if !ok {
			t.Errorf("viewer %d: the terminal shows\n%s\ntcell holds\n%s", i, term, cells)
		}
	}
	// Views live as long as a session uses them.
	for _, v := range vs {
		v.stop()
	}
	lb.share.mu.Lock()
	defer lb.share.mu.Unlock()
	if n := len(lb.share.views); n != 0 {
		t.Errorf("%d views kept after every viewer left", n)
	}
}
