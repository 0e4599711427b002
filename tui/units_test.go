package tui

import (
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/gdamore/tcell/v2"

	"github.com/squarebattle/squarebattle/engine"
	"github.com/squarebattle/squarebattle/engine/bot"
)

func TestNextSpeed(t *testing.T) {
	tests := []struct{ cur, dir, want int }{
		{20, 1, 50}, {20, -1, 10}, {1, -1, 1}, {1000, 1, 0}, {0, 1, 0}, {0, -1, 1000},
		{30, 1, 50}, {30, -1, 20}, {3, 1, 5}, {100000, -1, 500},
	}
	for _, tc := range tests {
		if got := nextSpeed(tc.cur, tc.dir); got != tc.want {
			t.Errorf("nextSpeed(%d, %d) = %d, want %d", tc.cur, tc.dir, got, tc.want)
		}
	}
}

func TestCount(t *testing.T) {
	tests := []struct {
		n, w int
		want string
	}{{999999, 6, "999999"}, {1234567, 6, "1235k"}, {12, 3, "12"}, {123456789012, 6, "123G"}}
	for _, tc := range tests {
		if got := count(tc.n, tc.w); got != tc.want {
			t.Errorf("count(%d, %d) = %q, want %q", tc.n, tc.w, got, tc.want)
		}
	}
}

func TestWrapTruncate(t *testing.T) {
	if got := wrap("Everybody in line and kick", 10); !reflect.DeepEqual(got, []string{"Everybody", "in line", "and kick"}) {
		t.Errorf("wrap = %q", got)
	}
	if got := wrap("abcdefghijkl", 5); !reflect.DeepEqual(got, []string{"abcde", "fghij", "kl"}) {
		t.Errorf("wrap of a long word = %q", got)
	}
	if got := truncate("héllo wörld", 4); got != "héll" {
		t.Errorf("truncate = %q", got)
	}
}

// TestDepth: the depth is what tcell reports the terminal gets, c cycles
// up to it and no further, and the note says when it is the most.
func TestDepth(t *testing.T) {
	for _, tc := range []struct {
		colors int
		want   depth
		cycle  []depth
	}{
		{1 << 24, depthTrue, []depth{depth16, depth256, depthTrue}},
		{256, depth256, []depth{depth16, depth256, depth16}},
		{88, depth16, []depth{depth16, depth16}},
		{8, depth16, []depth{depth16}},
	} {
		d := depthOf(tc.colors)
		if d != tc.want {
			t.Errorf("depthOf(%d) = %v, want %v", tc.colors, d, tc.want)
		}
		for i, want := range tc.cycle {
			if d = nextDepth(d, tc.want); d != want {
				t.Errorf("%d colours: c pressed %d times gives %v, want %v", tc.colors, i+1, d, want)
			}
		}
	}
	if n := depthNote(depth256, depth256, false); !strings.Contains(n, "256 colours, the most") || !strings.Contains(n, "COLORTERM=truecolor") {
		t.Errorf("note at the most of a 256-colour terminal: %q", n)
	}
	if n := depthNote(depth16, depthTrue, false); n != "16 colours" {
		t.Errorf("note below the most: %q", n)
	}
}

func TestSparkline(t *testing.T) {
	if got := sparkline(unicodeGlyphs, []int32{1, 2, 4, 8, 0}, 5); got != "▁▂▄█ " {
		t.Errorf("sparkline = %q", got)
	}
	if got := sparkline(asciiGlyphs, []int32{8, 8, 8, 8}, 2); got != "##" {
		t.Errorf("ascii sparkline = %q", got)
	}
}

// TestArenaSample: in fit mode a block shows the team holding most of it.
func TestArenaSample(t *testing.T) {
	m, err := engine.ParseMap("t", []byte("0 1 1 -1\n-1 1 -1 -1\n2 2 -1 -1\n2 0 -1 -1"))
	if err != nil {
		t.Fatal(err)
	}
	s := &engine.Snapshot{Size: 4, Cells: make([]int32, 16), Teams: make([]engine.TeamView, 3)}
	for r := 0; r < 4; r++ {
		for c := 0; c < 4; c++ {
			s.Cells[r*4+c] = int32(m.Cells[r*4+c])
		}
	}
	v := &arenaView{counts: make([]int, 3)}
	tests := []struct{ row, col, want int }{{0, 0, 1}, {0, 2, 1}, {2, 0, 2}, {2, 2, -1}}
	for _, tc := range tests {
		if got := v.sample(s, tc.row, tc.col, 2); got != tc.want {
			t.Errorf("block at (%d,%d) = %d, want %d", tc.row, tc.col, got, tc.want)
		}
	}
}

// TestArenaPan: keys and mouse drags pan within the arena; fit mode and
// small arenas do not pan.
func TestArenaPan(t *testing.T) {
	r := rect{0, 0, 50, 20} // shows 50 columns and 40 rows of a 100×100 arena
	v := &arenaView{}
	v.pan(100, 100, 100, r, false)
	if v.left != 50 || v.top != 60 {
		t.Errorf("pan past the corner: left %d top %d, want 50 60", v.left, v.top)
	}
	v.mouse(tcell.NewEventMouse(10, 10, tcell.Button1, 0), 100, r, false)
	v.mouse(tcell.NewEventMouse(20, 15, tcell.Button1, 0), 100, r, false) // drag right and down: view moves left and up
	v.mouse(tcell.NewEventMouse(20, 15, tcell.ButtonNone, 0), 100, r, false)
	if v.left != 40 || v.top != 50 {
		t.Errorf("after a drag: left %d top %d, want 40 50", v.left, v.top)
	}
	v.mouse(tcell.NewEventMouse(5, 5, tcell.WheelDown, 0), 100, r, false)
	if v.top != 56 {
		t.Errorf("wheel down: top %d, want 56", v.top)
	}
	small := &arenaView{}
	small.pan(5, 5, 10, r, false)
	if small.left != 0 || small.top != 0 {
		t.Errorf("a small arena panned to %d %d", small.left, small.top)
	}
	if g := (&arenaView{fit: true}).geometry(150, rect{0, 0, 80, 20}, false); g.k != 4 || g.vs != 38 {
		t.Errorf("fit geometry for 150 in 80×20: k %d vs %d, want 4 38", g.k, g.vs)
	}
}

// TestDefeatSpeech: an eliminated team shows its defeat speech in the team
// table, on its own line when there is room and in the trend column when not.
func TestDefeatSpeech(t *testing.T) {
	s := &engine.Snapshot{Teams: []engine.TeamView{
		{Team: 0, Player: engine.Player{Name: "Winner"}, Stats: engine.Stats{Squares: 3}},
		{Team: 1, Player: engine.Player{Name: "Loser", Defeat: "I will be back"}, Eliminated: 40},
	}}
	for _, rows := range []int{4, 3} {
		sim := tcell.NewSimulationScreen("")
		if err := sim.Init(); err != nil {
			t.Fatal(err)
		}
		sim.SetSize(100, rows)
		drawTeams(canvas{s: sim, g: unicodeGlyphs}, theme{depth: depth256}, nil, s, [][]int32{{3}, {0}}, nil, rect{0, 0, 100, rows})
		sim.Show()
		if text := screenText(sim); !strings.Contains(text, "I will be back") {
			t.Errorf("%d rows: no defeat speech:\n%s", rows, text)
		}
		sim.Fini()
	}
}

// TestRoundTripColumn: a battle with bots shows each bot's last round trip
// in a Reply column (late ones so called, none yet a dash); Lua teams have
// none, and a battle without bots no column.
func TestRoundTripColumn(t *testing.T) {
	s := &engine.Snapshot{Teams: []engine.TeamView{
		{Team: 0, Player: engine.Player{Name: "Lua"}, Stats: engine.Stats{Squares: 3}},
		{Team: 1, Player: engine.Player{Name: "Quick"}, Stats: engine.Stats{Squares: 3}},
		{Team: 2, Player: engine.Player{Name: "Slow"}, Stats: engine.Stats{Squares: 3}},
		{Team: 3, Player: engine.Player{Name: "Fresh"}, Stats: engine.Stats{Squares: 3}},
	}}
	squares := [][]int32{{3}, {3}, {3}, {3}}
	draw := func(trips []*bot.RoundTrip) []string {
		sim := tcell.NewSimulationScreen("")
		if err := sim.Init(); err != nil {
			t.Fatal(err)
		}
		defer sim.Fini()
		sim.SetSize(110, 5)
		drawTeams(canvas{s: sim, g: unicodeGlyphs}, theme{depth: depth256}, nil, s, squares, trips, rect{0, 0, 110, 5})
		sim.Show()
		return strings.Split(screenText(sim), "\n")
	}
	lines := draw([]*bot.RoundTrip{nil, {D: 12 * time.Millisecond}, {D: 500 * time.Millisecond, Late: true}, {}})
	for i, want := range []string{"Reply", "", "12ms", "late", "-"} {
		f := strings.Fields(lines[i])
		switch {
		case i == 1 && slices.Contains(f, "-"):
			t.Errorf("a Lua team shows a round trip: %q", lines[i])
		case i != 1 && !slices.Contains(f, want):
			t.Errorf("row %d lacks %q: %q", i, want, lines[i])
		}
	}
	if lines := draw(nil); strings.Contains(lines[0], "Reply") {
		t.Errorf("a battle without bots has a Reply column: %q", lines[0])
	}
	for _, c := range []struct {
		in   bot.RoundTrip
		want string
	}{
		{bot.RoundTrip{}, "-"}, {bot.RoundTrip{D: 300 * time.Microsecond}, "<1ms"}, {bot.RoundTrip{D: 9999 * time.Millisecond}, "9999ms"},
		{bot.RoundTrip{D: 12 * time.Second}, "12s"}, {bot.RoundTrip{D: time.Hour}, ">999s"}, {bot.RoundTrip{D: time.Second, Late: true}, "late"},
	} {
		if got := tripText(c.in); got != c.want || len(got) > numWidth-1 {
			t.Errorf("tripText(%+v) = %q, want %q in %d columns", c.in, got, c.want, numWidth-1)
		}
	}
}
