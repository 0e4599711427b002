package tui

import (
	"bytes"
	"strings"
	"sync"
	"testing"

	"github.com/gdamore/tcell/v2"
	"github.com/gdamore/tcell/v2/terminfo"

	"github.com/squarebattle/squarebattle/engine"
	"github.com/squarebattle/squarebattle/luabind"
)

// recordingTty keeps what tcell writes to it.
type recordingTty struct {
	*countingTty
	mu  sync.Mutex
	out bytes.Buffer
}

func (t *recordingTty) Write(p []byte) (int, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.out.Write(p)
}

// take returns what was written since the last take.
func (t *recordingTty) take() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	s := t.out.String()
	t.out.Reset()
	return s
}

// TestDepthSent: on a real terminfo screen the colour depth the UI names
// is the one tcell sends. xterm-256color without 24-bit sequences (no
// COLORTERM=truecolor) starts at 256 colours, sends 256-colour codes and
// never offers 24-bit: c goes to 16 colours and back, saying 256 is the
// most; with the sequences (what COLORTERM=truecolor adds) it starts at
// 24-bit and sends RGB codes.
func TestDepthSent(t *testing.T) {
	base, err := terminfo.LookupTerminfo("xterm-256color")
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name      string
		truecolor bool
		want      depth
		code      string // an SGR the first frame sends
		notes     []string
	}{
		{"256", false, depth256, "38;5;", []string{"16 colours", "256 colours, the most this terminal takes (24-bit: COLORTERM=truecolor)", "16 colours"}},
		{"truecolor", true, depthTrue, "38;2;", []string{"16 colours", "256 colours", "24-bit colour, the most this terminal takes"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ti := *base // tcell's entries are shared: change a copy
			ti.SetFgRGB, ti.SetBgRGB, ti.SetFgBgRGB = "", "", ""
			if tc.truecolor {
				ti.SetFgRGB = "\x1b[38;2;%p1%d;%p2%d;%p3%dm"
				ti.SetBgRGB = "\x1b[48;2;%p1%d;%p2%d;%p3%dm"
				ti.SetFgBgRGB = "\x1b[38;2;%p1%d;%p2%d;%p3%d;48;2;%p4%d;%p5%d;%p6%dm"
			}
			tty := &recordingTty{countingTty: newCountingTty(80, 24)}
			scr, err := tcell.NewTerminfoScreenFromTtyTerminfo(tty, &ti)
			if err != nil {
				t.Fatal(err)
			}
			if err := scr.Init(); err != nil {
				t.Fatal(err)
			}
			t.Cleanup(scr.Fini)
			src := newScriptSource(t)
			players, err := src.players([]string{"explorer", "pinwheel"})
			if err != nil {
				t.Fatal(err)
			}
			b, err := luabind.NewBattle(src.cat, players, engine.Options{Size: 16, Wrap: true, Rounds: 10, Seed: 1, Workers: 1})
			if err != nil {
				t.Fatal(err)
			}
			a := New(Options{Screen: scr, Source: src, Settings: Settings{Size: 16, Rounds: 10, FPS: 30}})
			a.setTheme()
			dr, err := startLive(testBattle{b}, pace{fps: 30, paused: true}, DefaultRewind, "", "")
			if err != nil {
				t.Fatal(err)
			}
			v := newViewer(dr, []int{0, 1})
			v.control, v.own = true, true
			a.attach(v)
			t.Cleanup(a.leave)
			if a.th.depth != tc.want {
				t.Fatalf("the UI starts at %v, want %v", a.th.depth, tc.want)
			}
			a.draw()
			out := tty.take()
			if !strings.Contains(out, tc.code) || (!tc.truecolor && strings.Contains(out, "38;2;")) {
				t.Errorf("at %v the terminal got no %q (or got 24-bit codes): %q", a.th.depth, tc.code, out)
			}
			for _, want := range tc.notes {
				if err := a.battleKey(tcell.NewEventKey(tcell.KeyRune, 'c', tcell.ModNone)); err != nil {
					t.Fatal(err)
				}
				if a.note != want {
					t.Errorf("c says %q, want %q", a.note, want)
				}
				a.draw()
				if out := tty.take(); !tc.truecolor && strings.Contains(out, "38;2;") {
					t.Errorf("at %v the terminal got 24-bit codes", a.th.depth)
				}
			}
		})
	}
}
