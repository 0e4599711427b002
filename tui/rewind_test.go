package tui

import (
	"fmt"
	"reflect"
	"strings"
	"testing"

	"github.com/gdamore/tcell/v2"

	"github.com/squarebattle/squarebattle/engine"
)

func (s *session) lastFrame() (*frame, rect) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.frame, s.arena
}

// waitFrame polls the shown frames until cond holds and returns that frame.
func (s *session) waitFrame(what string, cond func(f *frame) bool) *frame {
	s.t.Helper()
	var got *frame
	s.waitFor(what, func(string) bool {
		f, _ := s.lastFrame()
		if f != nil && cond(f) {
			got = f
			return true
		}
		return false
	})
	return got
}

// headless plays a setup without the UI and returns the snapshot after
// every round, from round 0 to the end.
func headless(t *testing.T, src Source, su Setup) []*engine.Snapshot {
	t.Helper()
	b, err := src.NewBattle(su)
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	snaps := []*engine.Snapshot{b.Snapshot()}
	for b.Step() {
		snaps = append(snaps, b.Snapshot())
	}
	return snaps
}

// sameRound compares what a frame shows with a snapshot of the same round
// played headless: the arena, every team's figures, the ending.
func sameRound(t *testing.T, got, want *engine.Snapshot) {
	t.Helper()
	if got.Round != want.Round || got.Over != want.Over || got.Winner != want.Winner ||
		!reflect.DeepEqual(got.Cells, want.Cells) || !reflect.DeepEqual(got.Teams, want.Teams) {
		t.Fatalf("round %d (over %v, winner %d) %+v\ndiffers from headless round %d (over %v, winner %d) %+v",
			got.Round, got.Over, got.Winner, got.Teams, want.Round, want.Over, want.Winner, want.Teams)
	}
}

// arenaText draws a snapshot's arena as an ASCII screen of the given size
// would and returns the text inside r, to compare with what a session shows.
func arenaText(t *testing.T, s *engine.Snapshot, w, h int, r rect) string {
	t.Helper()
	sim := tcell.NewSimulationScreen("US-ASCII")
	if err := sim.Init(); err != nil {
		t.Fatal(err)
	}
	defer sim.Fini()
	sim.SetSize(w, h)
	c := canvas{s: sim, g: asciiGlyphs}
	v := arenaView{fit: true}
	v.draw(c, theme{}, nil, s, r)
	sim.Show()
	return crop(screenText(sim), r)
}

// crop cuts the rectangle r out of screen text.
func crop(text string, r rect) string {
	lines := strings.Split(text, "\n")
	var b strings.Builder
	for y := r.y; y < r.y+r.h && y < len(lines); y++ {
		l := lines[y] + strings.Repeat(" ", r.x+r.w)
		b.WriteString(l[r.x:r.x+r.w] + "\n")
	}
	return b.String()
}

// TestRewindLive: in a running battle, Left pauses and shows the rounds
// already played, each exactly as the same battle headless had it (status,
// arena as drawn, team table figures); the battle waits meanwhile. End
// goes back to live, the battle resumes where it was and ends exactly as
// headless. Home, Shift-Left, PgUp and g reach the older rounds.
func TestRewindLive(t *testing.T) {
	t.Parallel() // a session of its own, mostly waiting on the battle's pace and frames

	const w, h = 120, 40
	su := Setup{Players: []string{"wanderer", "hesitantwolf", "expand"}, Size: 24, Rounds: 400, Seed: 3}
	src := newScriptSource(t)
	want := headless(t, src, su)
	if len(want) < 170 {
		t.Fatalf("the battle ends in round %d: the test needs one that runs well past round 120", len(want)-1)
	}
	s := open(t, w, h, "US-ASCII", Options{Source: src, Paused: true, Start: &su,
		Settings: Settings{Size: su.Size, Rounds: su.Rounds, Speed: 50, FPS: 60}})
	s.waitText("Round 0/400")
	s.keys("g120")
	s.key(tcell.KeyEnter)
	s.waitFrame("the fast-forward to stop at round 120", func(f *frame) bool {
		return f.paused && f.snap.Round == 120 && f.live == 120 && !f.past
	})
	s.keys(" ")
	s.waitFrame("the battle running past round 122", func(f *frame) bool { return !f.paused && f.snap.Round > 122 })
	s.key(tcell.KeyLeft)
	f := s.waitFrame("a paused rewind", func(f *frame) bool { return f.past && f.paused })
	live := f.live
	if f.snap.Round != live-1 {
		t.Fatalf("Left shows round %d, want %d (live %d)", f.snap.Round, live-1, live)
	}
	steps := []struct {
		press func()
		round int
	}{
		{func() { s.key(tcell.KeyLeft) }, live - 2},
		{func() { s.key(tcell.KeyLeft); s.key(tcell.KeyLeft) }, live - 4},
		{func() { s.shiftKey(tcell.KeyLeft) }, live - 14},
		{func() { s.key(tcell.KeyPgUp) }, live - 114},
		{func() { s.key(tcell.KeyRight) }, live - 113},
		{func() { s.keys("."); s.shiftKey(tcell.KeyRight) }, live - 102},
		{func() { s.key(tcell.KeyPgDn) }, live - 2},
		{func() { s.key(tcell.KeyHome) }, 0},
		{func() { s.key(tcell.KeyPgDn) }, 100},
		{func() { s.keys("g7"); s.key(tcell.KeyEnter) }, 7},
	}
	for _, st := range steps {
		st.press()
		f := s.waitFrame(fmt.Sprintf("round %d", st.round), func(f *frame) bool { return f.snap.Round == st.round })
		if !f.past || !f.paused || f.live != live {
			t.Fatalf("round %d: past %v paused %v live %d; want a paused rewind with live still %d", st.round, f.past, f.paused, f.live, live)
		}
		sameRound(t, f.snap, want[st.round])
		text := s.waitText(fmt.Sprintf("Round %d/400 | REWIND (live: round %d)", st.round, live))
		_, r := s.lastFrame()
		if got, exp := crop(text, r), arenaText(t, want[st.round], w, h, r); got != exp {
			t.Fatalf("round %d: the arena shows\n%s\nheadless has\n%s", st.round, got, exp)
		}
		if n := len(f.squares[0]); n != st.round+1 {
			t.Fatalf("round %d: the trend has %d rounds", st.round, n)
		}
	}
	s.key(tcell.KeyEnd)
	f = s.waitFrame("the battle running again", func(f *frame) bool { return !f.past && !f.paused })
	if f.snap.Round < live {
		t.Fatalf("back to live at round %d, before the live round %d", f.snap.Round, live)
	}
	s.waitFrame("the end", func(f *frame) bool { return f.end })
	sameRound(t, s.lastSnap(), want[len(want)-1])
	// After the end, Left rewinds too, and Right comes back to the result.
	s.key(tcell.KeyLeft)
	f = s.waitFrame("a rewind after the end", func(f *frame) bool { return f.past })
	sameRound(t, f.snap, want[len(want)-2])
	s.key(tcell.KeyRight)
	s.waitText("r replay (same seed)")
}

// TestRewindStepsIntoLive: Right from the past steps back into the live
// round; a battle that was running runs on, one that was paused (by Space
// or by a step) stays paused and the next Right plays a new round.
func TestRewindStepsIntoLive(t *testing.T) {
	for _, c := range []struct {
		name    string
		before  string // keys pressed at round 30
		running bool   // running when Left is pressed
	}{{"running", " ", true}, {"paused", "", false}, {"paused by a step", " .", false}} {
		t.Run(c.name, func(t *testing.T) {
			su := Setup{Players: []string{"explorer", "pinwheel"}, Size: 24, Rounds: 2000, Seed: 2}
			s := open(t, 100, 30, "", Options{Paused: true, Start: &su, Settings: Settings{Size: 24, Rounds: 2000, Speed: 20, FPS: 60}})
			s.waitText("Round 0/2000")
			s.keys("g30")
			s.key(tcell.KeyEnter)
			s.waitFrame("round 30", func(f *frame) bool { return f.snap.Round == 30 && f.paused })
			s.keys(c.before)
			s.waitFrame("the state before Left", func(f *frame) bool { return f.paused != c.running && f.snap.Round >= 30 })
			s.key(tcell.KeyLeft)
			s.key(tcell.KeyLeft)
			f := s.waitFrame("two rounds back", func(f *frame) bool { return f.past && f.snap.Round == f.live-2 })
			live := f.live
			s.key(tcell.KeyRight)
			s.key(tcell.KeyRight)
			if c.running {
				s.waitFrame("running on from the live round", func(f *frame) bool { return !f.past && !f.paused && f.snap.Round >= live })
				return
			}
			s.waitFrame("the live round, paused", func(f *frame) bool { return !f.past && f.paused && f.snap.Round == live })
			s.key(tcell.KeyRight)
			s.waitFrame("one new round", func(f *frame) bool { return f.paused && f.snap.Round == live+1 && f.live == live+1 })
		})
	}
}

// TestRewindBound: a live battle keeps about tui.rewind rounds; older ones
// are gone, and the keys that reach for them say so.
func TestRewindBound(t *testing.T) {
	su := Setup{Players: []string{"explorer", "pinwheel"}, Size: 24, Rounds: 2000, Seed: 2}
	s := open(t, 100, 30, "", Options{Paused: true, Start: &su, Settings: Settings{Size: 24, Rounds: 2000, Speed: 20, FPS: 60, Rewind: 50}})
	s.waitText("Round 0/2000")
	s.keys("g200")
	s.key(tcell.KeyEnter)
	s.waitFrame("round 200", func(f *frame) bool { return f.snap.Round == 200 && f.paused })
	s.key(tcell.KeyHome)
	f := s.waitFrame("the oldest round kept", func(f *frame) bool { return f.past })
	if f.first > 150 || f.first < 150-engine.DefaultKeyframeEvery || f.snap.Round != f.first {
		t.Fatalf("Home shows round %d of %d kept from %d; want about the last 50", f.snap.Round, f.live, f.first)
	}
	s.key(tcell.KeyLeft)
	s.waitText(fmt.Sprintf("round %d is the oldest kept", f.first))
	s.keys("g5")
	s.key(tcell.KeyEnter)
	s.waitText(fmt.Sprintf("round %d is the oldest kept", f.first))
	if f, _ := s.lastFrame(); f.snap.Round != f.first {
		t.Errorf("g5 shows round %d, want the oldest kept, %d", f.snap.Round, f.first)
	}
}

// TestGotoPrompt: g opens a prompt on the status bar; digits and Backspace
// edit it, Enter goes, Esc cancels, another key closes it and acts.
func TestGotoPrompt(t *testing.T) {
	t.Parallel() // a session of its own, mostly waiting on the battle's pace and frames

	su := Setup{Players: []string{"explorer", "pinwheel"}, Size: 24, Rounds: 300, Seed: 2}
	s := open(t, 100, 30, "", Options{Paused: true, Start: &su})
	s.waitText("Round 0/300")
	tests := []struct {
		name  string
		keys  func()
		shown string // on the status bar afterwards
		round int
	}{
		{"typing shows", func() { s.keys("g12") }, "go to round: 12_", 0},
		{"backspace", func() { s.key(tcell.KeyBackspace2); s.keys("5") }, "go to round: 15_", 0},
		{"enter goes forward", func() { s.key(tcell.KeyEnter) }, "Round 15/300", 15},
		{"esc cancels", func() { s.keys("g9"); s.key(tcell.KeyEscape) }, "Round 15/300 │ speed", 15},
		{"back", func() { s.keys("g9"); s.key(tcell.KeyEnter) }, "Round 9/300 │ REWIND (live: round 15)", 9},
		{"another key acts", func() { s.keys("g3.") }, "Round 10/300", 10},
		{"past the limit plays to the end", func() { s.keys("g999"); s.key(tcell.KeyEnter) }, "the battle ends by round 300", -1},
	}
	for _, tc := range tests {
		tc.keys()
		s.waitText(tc.shown)
		if f := s.waitFrame(tc.name, func(f *frame) bool { return f.snap.Round == tc.round || (tc.round < 0 && f.end) }); tc.name == "esc cancels" && f.past {
			t.Errorf("%s: the view moved", tc.name)
		}
	}
}
