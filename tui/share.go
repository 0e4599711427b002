package tui

import (
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/gdamore/tcell/v2"
	"github.com/gdamore/tcell/v2/terminfo"
)

// Viewers of one hall battle who look at it the same way (the same screen
// size, terminal, colours, glyphs and pan) share one picture of each frame
// and its encoding: the arena is sampled, the team table laid out and the
// terminal bytes made once, by whichever of them comes first, and every
// other one only writes those bytes. Each viewer still reads the frame
// from its own mailbox at its own pace and has its own status bar (its
// notes, its prompt), shared only with the viewers whose bar says the
// same (sharebar.go); covering the arena with an overlay
// (help, the errors pane, the end of the battle) takes the viewer off the
// shared picture until it closes.
//
// A viewer whose terminal shows an earlier picture of the same view gets
// only the cells that changed since (the view keeps its last few pictures
// for that); any other gets the whole picture.

// viewKey is what makes two viewers see the same picture.
type viewKey struct {
	term      string // the terminal (termKey)
	w, h      int
	ascii     bool // glyph set
	th        theme
	colours   string
	fit       bool
	left, top int
}

// termKey names what a termCodec's output depends on: the terminal's
// sequences and the colours its screen offers.
func termKey(ti *terminfo.Terminfo, colors int) string {
	return strings.Join([]string{ti.Name, strconv.Itoa(ti.Colors), strconv.Itoa(colors), ti.AttrOff, ti.SetCursor,
		ti.SetFg, ti.SetBg, ti.SetFgBg, ti.SetFgRGB, ti.SetBgRGB, ti.SetFgBgRGB, ti.ResetFgBg,
		ti.Bold, ti.Underline, ti.Reverse, ti.Blink, ti.Dim, ti.Italic, ti.StrikeThrough}, "\x00")
}

func coloursKey(c []int) string {
	b := make([]byte, 0, 3*len(c))
	for _, x := range c {
		b = strconv.AppendInt(b, int64(x), 10)
		b = append(b, ',')
	}
	return string(b)
}

const (
	// keepPictures is how many recent pictures a view keeps to send only
	// what changed: viewers at the same frame cap draw every frame or
	// every other one, never far apart.
	keepPictures = 4
	// maxViews bounds the views of one battle kept for sharing; a
	// session past it gets a view of its own. Each costs about what one
	// session's screen costs.
	maxViews = 64
)

// frameShare is a battle's shared views: those some session uses now.
//
// Concurrency: safe for concurrent use by the sessions watching the
// battle; mu guards the map and the views' users, each view's own lock
// its pictures.
type frameShare struct {
	mu    sync.Mutex
	views map[viewKey]*sharedView
}

// sharedView is one view of the battle and its recent pictures.
type sharedView struct {
	fs    *frameShare
	users int // sessions using it (fs.mu); at 0 it leaves the map

	mu    sync.Mutex
	key   viewKey
	codec *termCodec
	scr   tcell.SimulationScreen // where pictures are drawn
	view  arenaView
	pics  []*picture // newest last
	whole []byte     // the newest picture, every cell (nil: not made yet)
	diffs map[*picture][]byte
	bars  []*sharedBar // recent status bars, newest last (sharebar.go)
	at    time.Time    // when the newest picture was drawn
	made  int          // pictures drawn, for tests
}

// use returns the view for key, made with codec when no session uses one,
// for a session that used old (nil: none), which it releases unless it is
// the same view.
func (fs *frameShare) use(key viewKey, old *sharedView, codec func() *termCodec) *sharedView {
	if old != nil && old.fs == fs && old.key == key {
		return old
	}
	old.release()
	fs.mu.Lock()
	defer fs.mu.Unlock()
	if sv, ok := fs.views[key]; ok {
		sv.users++
		return sv
	}
	sv := &sharedView{fs: fs, users: 1, key: key, codec: codec(), view: arenaView{fit: key.fit, left: key.left, top: key.top}}
	if fs.views == nil {
		fs.views = map[viewKey]*sharedView{}
	}
	if len(fs.views) < maxViews {
		fs.views[key] = sv
	}
	return sv
}

// release says a session no longer uses sv; the last one to go takes it
// (and its pictures) out of the battle's views.
func (sv *sharedView) release() {
	if sv == nil {
		return
	}
	fs := sv.fs
	fs.mu.Lock()
	defer fs.mu.Unlock()
	sv.users--
	if sv.users == 0 && fs.views[sv.key] == sv {
		delete(fs.views, sv.key)
	}
}

// frame returns the view's picture of f and the bytes that bring a
// terminal showing from to it (nil when from is that picture). A picture
// drawn less than fresh ago stands for any later frame: however many
// viewers there are and whenever each one draws, a view draws at most one
// picture per fresh (half a viewer's frame interval), and a viewer given
// an older frame than it asked for draws again at its next tick. draw
// paints the shared rows of a frame on the canvas it is given, with the
// view's arena.
//
// Drawing and encoding hold one of the gate's tokens (Hall.drawing): they
// are all the CPU the viewers spend beyond their writes, and touch
// nothing a client could hold up (the view's own screen, no terminal).
// Handing out what is made already takes none.
func (sv *sharedView) frame(f *frame, from *picture, rows int, fresh time.Duration, gate chan struct{}, draw func(c canvas, v *arenaView)) (*picture, []byte, error) {
	sv.mu.Lock()
	defer sv.mu.Unlock()
	work := slot{gate: gate}
	defer work.release()
	var newest *picture
	if n := len(sv.pics); n > 0 {
		newest = sv.pics[n-1]
	}
	now := time.Now()
	if newest == nil || newest.h != rows || (newest.f.seq < f.seq && now.Sub(sv.at) >= fresh) {
		work.take()
		if sv.scr == nil {
			sv.scr = tcell.NewSimulationScreen("UTF-8")
			if err := sv.scr.Init(); err != nil {
				return nil, nil, err
			}
			sv.scr.SetSize(sv.key.w, sv.key.h)
		}
		draw(canvas{s: sv.scr, g: sv.glyphs()}, &sv.view)
		newest = grab(sv.scr, f, sv.key.w, 0, rows)
		sv.at = now
		sv.made++
		if len(sv.pics) == keepPictures {
			copy(sv.pics, sv.pics[1:])
			sv.pics = sv.pics[:keepPictures-1]
		}
		sv.pics = append(sv.pics, newest)
		sv.whole = nil
		clear(sv.diffs)
	}
	if from == newest {
		return newest, nil, nil
	}
	for _, p := range sv.pics[:len(sv.pics)-1] {
		if p != from {
			continue
		}
		if b, ok := sv.diffs[p]; ok {
			return newest, b, nil
		}
		if sv.diffs == nil {
			sv.diffs = map[*picture][]byte{}
		}
		work.take()
		b := sv.codec.encode(p, newest)
		sv.diffs[p] = b
		return newest, b, nil
	}
	if sv.whole == nil {
		work.take()
		sv.whole = sv.codec.encode(nil, newest)
	}
	return newest, sv.whole, nil
}

// glyphs is the view's glyph set.
func (sv *sharedView) glyphs() glyphs {
	if sv.key.ascii {
		return asciiGlyphs
	}
	return unicodeGlyphs
}

// slot is one of the hall's drawing tokens (Hall.drawing), taken at the
// first work that needs it and given back by release.
type slot struct {
	gate chan struct{}
	held bool
}

func (s *slot) take() {
	if !s.held {
		s.gate <- struct{}{}
		s.held = true
	}
}

func (s *slot) release() {
	if s.held {
		<-s.gate
		s.held = false
	}
}

// shareTerminal decides whether the session may share pictures: only on a
// terminfo screen whose Terminfo the session was given (SessionOptions),
// whose charset is UTF-8 (the codec sends runes as they are) and whose
// screen lets bytes be written beside tcell's.
func (a *App) shareTerminal() {
	a.term = ""
	ti := a.so.Terminfo
	if ti == nil || a.hall == nil {
		return
	}
	cs := strings.ToLower(strings.ReplaceAll(a.s.CharacterSet(), "-", ""))
	if _, ok := a.s.Tty(); !ok || cs != "utf8" {
		return
	}
	if _, ok := a.s.(sync.Locker); !ok {
		return
	}
	a.term = termKey(ti, a.s.Colors())
}

// sharedDraw is a shared picture on its way to a session's terminal.
type sharedDraw struct {
	f   *frame
	pic *picture
	out []byte // what brings the terminal from a.onTerm to pic
}

// drawShared gets the shared picture of f for the rows above the status
// bar (of f or of an earlier frame: then the session is left dirty, to
// draw again at its next tick), or nil when the session cannot share.
// tcell's cells for those rows keep what tcell last drew there.
// sendShared sends it once the status bar is drawn.
func (a *App) drawShared(f *frame, l battleLayout, w, h int) *sharedDraw {
	v := a.w
	if a.term == "" || v.b == nil || l.status < 1 {
		return nil
	}
	v.view.clamp(f.snap.Size, l.arena, a.asciiArena())
	key := viewKey{term: a.term, w: w, h: h, ascii: a.c.g.ascii, th: a.th, colours: coloursKey(v.colours),
		fit: v.view.fit, left: v.view.left, top: v.view.top}
	sv := v.b.share.use(key, a.view, func() *termCodec { return newTermCodec(a.so.Terminfo, a.s.Colors()) })
	a.view = sv
	colours := v.colours
	fresh := time.Second / time.Duration(2*max(a.fps, 1))
	pic, out, err := sv.frame(f, a.onTerm, l.status, fresh, a.hall.drawing, func(c canvas, view *arenaView) {
		drawBoard(c, key.th, colours, view, f, layoutFor(w, h, f.snap))
	})
	if err != nil {
		return nil
	}
	if pic.f != f {
		a.dirty = true
	}
	return &sharedDraw{f: pic.f, pic: pic, out: out}
}

// sendShared writes the shared picture and the session's status bar st
// (row y, shared too: sharebar.go) to the terminal in one write, framed
// as tcell frames its own (synchronised output on terminals that have
// it), instead of tcell's Show, with every cell locked in tcell. tcell's
// cells for the bar, like those for the picture, keep what tcell last
// drew there: whatever takes the screen back from the shared pictures
// draws every row again.
func (a *App) sendShared(sd *sharedDraw, st status, w, y int) {
	tty, _ := a.s.Tty()
	if !a.bypassed {
		// tcell must leave the terminal alone: it repaints every cell it
		// holds when told of a resize, even to the same size (a storm that
		// ends where it began), without a resize event. A real resize
		// gives it new, unlocked cells, and the session unshares.
		a.s.LockRegion(0, 0, w, y+1, true)
		a.bypassed = true
	}
	prev := a.onBar
	if a.onTerm == nil {
		prev = nil
	}
	bar, barOut := a.view.bar(st, y, prev, a.hall.drawing)
	b := a.sendBuf[:0]
	if a.so.Terminfo.XTermLike {
		b = append(b, "\x1b[?2026h"...)
	}
	b = append(b, a.so.Terminfo.HideCursor...)
	b = append(b, sd.out...)
	b = append(b, barOut...)
	if a.so.Terminfo.XTermLike {
		b = append(b, "\x1b[?2026l"...)
	}
	a.sendBuf = b
	locker := a.s.(sync.Locker)
	locker.Lock()
	_, err := tty.Write(b)
	locker.Unlock()
	if err != nil {
		a.onTerm = nil // the session is being dropped
		return
	}
	a.onTerm, a.onBar, a.onStatus = sd.pic, bar, st
}

// unshare gives the screen back to tcell, which draws it whole on its
// next Show (unlocking marks every cell to be drawn), and releases the
// view. It is also how a session forgets what its terminal shows (a
// resize, a redraw): the next picture goes whole.
func (a *App) unshare() {
	a.onTerm = nil
	a.view.release()
	a.view = nil
	if a.bypassed {
		w, h := a.s.Size()
		a.s.LockRegion(0, 0, w, h, false)
		a.bypassed = false
	}
}
