package tui

import (
	"fmt"
	"io"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"unicode/utf8"

	"github.com/gdamore/tcell/v2"
	"github.com/gdamore/tcell/v2/terminfo"
	"github.com/rivo/uniseg"

	"github.com/squarebattle/squarebattle/engine"
)

// vtCell is one cell of vt's screen: its text and the SGR state it was
// written with.
type vtCell struct{ text, sgr string }

// vt is the part of a terminal tcell and the codec use: cursor moves,
// SGR attributes and colours, clearing, text (wide characters take two
// cells). What the screen shows is what a test compares; how the bytes
// got there is not.
type vt struct {
	w, h  int
	x, y  int
	cells []vtCell
	attr  map[string]string
}

func newVT(w, h int) *vt {
	v := &vt{w: w, h: h, cells: make([]vtCell, w*h), attr: map[string]string{}}
	v.clear()
	return v
}

func (v *vt) clear() {
	for i := range v.cells {
		v.cells[i] = vtCell{text: " "}
	}
}

func (v *vt) sgrState() string {
	var keys []string
	for k, val := range v.attr {
		keys = append(keys, k+"="+val)
	}
	slices.Sort(keys)
	return strings.Join(keys, ";")
}

// colour names a colour the same whichever SGR form set it.
func colour(idx int) string { return "p" + strconv.Itoa(idx) }

func (v *vt) sgr(params string) {
	ps := strings.Split(params, ";")
	for i := 0; i < len(ps); i++ {
		n, _ := strconv.Atoi(ps[i])
		switch {
		case ps[i] == "" || n == 0:
			clear(v.attr)
		case n == 1, n == 2, n == 3, n == 4, n == 5, n == 7, n == 9:
			v.attr["a"+ps[i]] = "on"
		case n >= 30 && n <= 37:
			v.attr["fg"] = colour(n - 30)
		case n >= 90 && n <= 97:
			v.attr["fg"] = colour(n - 90 + 8)
		case n >= 40 && n <= 47:
			v.attr["bg"] = colour(n - 40)
		case n >= 100 && n <= 107:
			v.attr["bg"] = colour(n - 100 + 8)
		case n == 39:
			delete(v.attr, "fg")
		case n == 49:
			delete(v.attr, "bg")
		case (n == 38 || n == 48) && i+1 < len(ps):
			which := "fg"
			if n == 48 {
				which = "bg"
			}
			if ps[i+1] == "5" && i+2 < len(ps) {
				idx, _ := strconv.Atoi(ps[i+2])
				v.attr[which] = colour(idx)
				i += 2
			} else if ps[i+1] == "2" && i+4 < len(ps) {
				v.attr[which] = "rgb" + ps[i+2] + "," + ps[i+3] + "," + ps[i+4]
				i += 4
			}
		}
	}
}

func (v *vt) put(text string, width int) {
	if v.x >= v.w || v.y >= v.h {
		return
	}
	v.cells[v.y*v.w+v.x] = vtCell{text: text, sgr: v.sgrState()}
	if width == 2 && v.x+1 < v.w {
		v.cells[v.y*v.w+v.x+1] = vtCell{sgr: v.sgrState()}
	}
	v.x += width
}

// Write interprets p.
func (v *vt) Write(p []byte) (int, error) {
	s := string(p)
	for s != "" {
		switch {
		case strings.HasPrefix(s, "\x1b["):
			end := 2
			for end < len(s) && (s[end] < 0x40 || s[end] > 0x7e) {
				end++
			}
			if end == len(s) {
				return 0, fmt.Errorf("cut CSI %q", s)
			}
			params, final := s[2:end], s[end]
			s = s[end+1:]
			switch final {
			case 'H':
				row, col := 1, 1
				if r, c, ok := strings.Cut(params, ";"); ok {
					row, _ = strconv.Atoi(r)
					col, _ = strconv.Atoi(c)
				}
				v.x, v.y = col-1, row-1
			case 'm':
				v.sgr(params)
			case 'J':
				if params == "2" {
					v.clear()
				}
			}
		case strings.HasPrefix(s, "\x1b("), strings.HasPrefix(s, "\x1b)"):
			s = s[3:]
		case s[0] == 0x1b:
			s = s[2:]
		case s[0] == '\b':
			v.x--
			s = s[1:]
		case s[0] < 0x20:
			s = s[1:]
		default:
			cluster, rest, width, _ := uniseg.FirstGraphemeClusterInString(s, -1)
			if cluster == "" {
				_, size := utf8.DecodeRuneInString(s)
				cluster, rest = s[:size], s[size:]
			}
			v.put(cluster, width)
			s = rest
		}
	}
	return len(p), nil
}

// rows is what v shows in rows from to from+n-1, one string per cell.
func (v *vt) rows(from, n int) []string {
	var out []string
	for y := from; y < from+n; y++ {
		for x := range v.w {
			c := v.cells[y*v.w+x]
			out = append(out, fmt.Sprintf("(%d,%d) %q %s", x, y, c.text, c.sgr))
		}
	}
	return out
}

// vtTty is a tcell.Tty writing into a vt.
type vtTty struct {
	vt     *vt
	mu     sync.Mutex
	resize func() // tcell's, told of a window change
	closed chan struct{}
	once   sync.Once
}

func newVtTty(w, h int) *vtTty { return &vtTty{vt: newVT(w, h), closed: make(chan struct{})} }

func (t *vtTty) Start() error { return nil }
func (t *vtTty) Stop() error  { return nil }
func (t *vtTty) Drain() error { return t.Close() }
func (t *vtTty) NotifyResize(cb func()) {
	t.mu.Lock()
	t.resize = cb
	t.mu.Unlock()
}

// windowChanged tells tcell the window changed (to the same size).
func (t *vtTty) windowChanged() {
	t.mu.Lock()
	cb := t.resize
	t.mu.Unlock()
	if cb != nil {
		cb()
	}
}
func (t *vtTty) WindowSize() (tcell.WindowSize, error) {
	return tcell.WindowSize{Width: t.vt.w, Height: t.vt.h}, nil
}
func (t *vtTty) Read([]byte) (int, error) { <-t.closed; return 0, io.EOF }
func (t *vtTty) Write(p []byte) (int, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.vt.Write(p)
}
func (t *vtTty) Close() error { t.once.Do(func() { close(t.closed) }); return nil }

// terminals are the terminfo variants sessions get (see tui/ssh's
// terminalFor): 256 colours, 8, 24-bit, none.
func testTerminals(t *testing.T) map[string]*terminfo.Terminfo {
	t.Helper()
	look := func(name string) terminfo.Terminfo {
		ti, err := terminfo.LookupTerminfo(name)
		if err != nil {
			t.Fatal(err)
		}
		return *ti
	}
	x256, x8, truec, mono := look("xterm-256color"), look("xterm"), look("xterm-256color"), look("xterm-256color")
	truec.TrueColor = true
	truec.SetFgRGB = "\x1b[38;2;%p1%d;%p2%d;%p3%dm"
	truec.SetBgRGB = "\x1b[48;2;%p1%d;%p2%d;%p3%dm"
	truec.SetFgBgRGB = "\x1b[38;2;%p1%d;%p2%d;%p3%d;48;2;%p4%d;%p5%d;%p6%dm"
	mono.Colors = 0
	mono.SetFg, mono.SetBg, mono.SetFgBg = "", "", ""
	return map[string]*terminfo.Terminfo{"xterm-256color": &x256, "xterm": &x8, "truecolor": &truec, "mono": &mono}
}

// testFrame is a battle frame with random squares on a size×size arena,
// four teams, one with a wide name (which team, the seed decides).
func testFrame(seed uint64, size int, seq uint64) *frame {
	r := rand.New(rand.NewPCG(seed, 1))
	s := &engine.Snapshot{Round: int(seq), Rounds: 1000, Size: size, Seed: 7, Winner: -1, Cells: make([]int32, size*size)}
	for i := range s.Cells {
		s.Cells[i] = engine.Empty
		if r.IntN(5) == 0 {
			s.Cells[i] = int32(r.IntN(4))
		}
	}
	names := []string{"Explorer", "漢字の名前", "Spreader", "Hunter"}
	squares := make([][]int32, 4)
	for i := range names {
		n := names[(i+int(seed))%len(names)] // wide text moves from frame to frame
		s.Teams = append(s.Teams, engine.TeamView{Team: i, Player: engine.Player{Name: n}, Stats: engine.Stats{Squares: r.IntN(200), Kills: r.IntN(50)}})
		for range int(seq) + 1 {
			squares[i] = append(squares[i], int32(r.IntN(100)))
		}
	}
	return &frame{snap: s, squares: squares, seq: seq}
}

// TestCodecShowsWhatTcellShows: for every kind of terminal, colour depth
// and glyph set, a terminal that receives the codec's bytes (a whole
// picture, then only what changed) shows the same cells in the same
// colours and attributes as one that tcell drew the same frames on.
func TestCodecShowsWhatTcellShows(t *testing.T) {
	t.Parallel() // a session of its own, mostly waiting on the battle's pace and frames

	for name, ti := range testTerminals(t) {
		for _, d := range []depth{depth16, depth256, depthTrue} {
			for _, ascii := range []bool{false, true} {
				for _, sz := range []struct{ w, h int }{{80, 24}, {160, 40}} {
					t.Run(fmt.Sprintf("%s/%s/ascii=%v/%dx%d", name, d, ascii, sz.w, sz.h), func(t *testing.T) {
						checkCodec(t, ti, d, ascii, sz.w, sz.h)
					})
				}
			}
		}
	}
}

func checkCodec(t *testing.T, ti *terminfo.Terminfo, d depth, ascii bool, w, h int) {
	tty := newVtTty(w, h)
	scr, err := tcell.NewTerminfoScreenFromTtyTerminfo(tty, ti)
	if err != nil {
		t.Fatal(err)
	}
	if err := scr.Init(); err != nil {
		t.Fatal(err)
	}
	defer scr.Fini()
	th := theme{depth: d, mono: scr.Colors() < 8}
	g := unicodeGlyphs
	if ascii {
		g = asciiGlyphs
	}
	sim := tcell.NewSimulationScreen("UTF-8")
	if err := sim.Init(); err != nil {
		t.Fatal(err)
	}
	defer sim.Fini()
	sim.SetSize(w, h)
	codec := newTermCodec(ti, scr.Colors())
	mine := newVT(w, h)
	colours := []int{0, 1, 2, 3}
	var last *picture
	for i, seed := range []uint64{1, 2, 3, 3, 4} {
		f := testFrame(seed, 60, uint64(i+1))
		l := layoutFor(w, h, f.snap)
		view := arenaView{fit: true}
		drawBoard(canvas{s: scr, g: g}, th, colours, &view, f, l)
		scr.Show()
		view2 := arenaView{fit: true}
		drawBoard(canvas{s: sim, g: g}, th, colours, &view2, f, l)
		pic := grab(sim, f, w, 0, l.status)
		if _, err := mine.Write(codec.encode(last, pic)); err != nil {
			t.Fatal(err)
		}
		last = pic
		tty.mu.Lock()
		want := tty.vt.rows(0, l.status)
		tty.mu.Unlock()
		got := mine.rows(0, l.status)
		bad := 0
		for j := range want {
			if got[j] != want[j] && bad < 5 {
				t.Errorf("frame %d: codec %s, tcell %s", i, got[j], want[j])
				bad++
			}
		}
	}
}
