package tui

import (
	"fmt"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/gdamore/tcell/v2"
	"github.com/rivo/uniseg"

	"github.com/squarebattle/squarebattle/engine"
)

// TestStatusBarFits: at 40, 80 and 200 columns the status bar fits, cuts
// no word (every word shown is a whole word of one of its texts), and
// keeps what matters most: a note (a saved file's whole path at 80
// columns), PAUSED, the problem count, the speed, the seed's first
// digits and the first key hints before the zoom.
func TestStatusBarFits(t *testing.T) {
	snap := &engine.Snapshot{Round: 1234, Rounds: 10000, Seed: 9007199254740991,
		FirstProblems: []engine.Problem{{Kind: engine.FaultError}, {Kind: engine.FaultError}, {Kind: engine.FaultTimeout}}}
	path := "/srv/replays/squarebattle-9007199254740991-1234.sbr"
	home := "/home/somebody"
	t.Setenv("HOME", home)
	tests := []struct {
		name string
		st   status
		w    int
		want []string // whole texts the bar shows
		gone []string // texts it dropped
	}{
		{"paused 80", status{f: &frame{snap: snap, paused: true, target: 20, left: -1}, zoom: "fit 1:2"}, 80,
			[]string{"Round 1234/10000", "20 rounds/s", "PAUSED", "2 errors, 1 timeout: e"}, []string{"fit 1:2"}},
		{"paused 40", status{f: &frame{snap: snap, paused: true, target: 20, left: -1}, zoom: "fit 1:2"}, 40,
			[]string{"1234/10000", "PAUSED", "2 Err, 1 T/O: e"}, []string{"seed", "rounds/s"}},
		{"running 200", status{f: &frame{snap: snap, target: 20, speed: 19.6, left: -1}, zoom: "full size 1:1"}, 200,
			[]string{"Round 1234/10000", "speed 20 rounds/s (actual 20)", "seed 9007199254740991", "running", "full size 1:1", "Space pause", "q quit"}, nil},
		{"saved 80", status{f: &frame{snap: snap, paused: true, target: 20, left: -1}, note: "saved " + path + " (unfinished, 1234 rounds)", zoom: "fit 1:1"}, 80,
			[]string{"saved " + path}, nil},
		{"rewind 80", status{f: &frame{snap: snap, past: true, live: 2000, paused: true, target: 20, left: -1}, zoom: "fit 1:1"}, 80,
			[]string{"Round 1234/10000", "REWIND (live 2000)", "PAUSED"}, nil},
		{"replay running 80", status{f: &frame{snap: snap, live: 2000, target: 20, speed: 20, left: -1}, replay: true, zoom: "fit 1:1"}, 80,
			[]string{"Round 1234/10000", "REPLAY", "running"}, nil},
		{"full size 120", status{f: &frame{snap: snap, paused: true, target: 20, left: -1}, zoom: "full size 1:1"}, 120,
			[]string{"Round 1234/10000", "PAUSED", "seed 9007…", "script problems (2 errors, 1 timeout): e", "Space pause"}, []string{"full size"}},
		{"saved in home 80", status{f: &frame{snap: snap, paused: true, target: 20, left: -1}, note: "saved " + home + "/.local/share/squarebattle/replays/battle-9007199254740991-10000000.sbr (unfinished, 10000000 rounds)"}, 80,
			[]string{"saved ~/.local/share/squarebattle/replays/battle-9007199254740991-10000000.sbr"}, nil},
		{"saved deep 80", status{f: &frame{snap: snap, paused: true, target: 20, left: -1}, note: "saved /a/very/deep/folder/that/the/user/chose/for/the/replays/battle-9007199254740991-1234.sbr"}, 80,
			[]string{"saved …/battle-9007199254740991-1234.sbr"}, nil},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			sim := tcell.NewSimulationScreen("UTF-8")
			if err := sim.Init(); err != nil {
				t.Fatal(err)
			}
			defer sim.Fini()
			sim.SetSize(tc.w, 1)
			c := canvas{s: sim, g: unicodeGlyphs}
			drawStatus(c, theme{depth: depth256, most: depth256}, tc.st, 0, tc.w)
			sim.Show()
			row := strings.TrimRight(screenText(sim), " \n")
			if uniseg.StringWidth(row) > tc.w {
				t.Errorf("%d columns wide, more than %d: %q", uniseg.StringWidth(row), tc.w, row)
			}
			if strings.HasSuffix(row, "…") {
				t.Errorf("cut: %q", row)
			}
			for _, s := range tc.want {
				if !strings.Contains(row, s) {
					t.Errorf("lacks %q: %q", s, row)
				}
			}
			for _, s := range tc.gone {
				if strings.Contains(row, s) {
					t.Errorf("keeps %q: %q", s, row)
				}
			}
		})
	}
}

// TestCutWords: a text too wide is cut between words, never inside one.
func TestCutWords(t *testing.T) {
	for _, tc := range []struct {
		text  string
		width int
		want  string
	}{
		{"leave without saving? Esc again leaves", 80, "leave without saving? Esc again leaves"},
		{"leave without saving? Esc again leaves", 24, "leave without saving?…"},
		{"leave without saving? Esc again leaves", 23, "leave without saving?…"},
		{"leave without saving? Esc again leaves", 21, "leave without…"},
		{"supercalifragilistic", 8, "superca…"},
	} {
		if got := cutWords(tc.text, tc.width, "…"); got != tc.want {
			t.Errorf("cutWords(%q, %d) = %q, want %q", tc.text, tc.width, got, tc.want)
		}
	}
}

// maxSeed is the widest seed there is: 20 digits.
const maxSeed = 18446744073709551615

// statusCases are the status bar's situations, with a 20-digit seed: the
// bar of every one must degrade by priority at every width.
func statusCases() []struct {
	name string
	st   status
} {
	teams := func(errs, touts int) []engine.TeamView {
		return []engine.TeamView{{Stats: engine.Stats{Squares: 40, Errors: errs, Timeouts: touts}}, {Stats: engine.Stats{Squares: 38}}}
	}
	snap := func(errs, touts int) *engine.Snapshot {
		return &engine.Snapshot{Round: 655, Rounds: 1500, Seed: maxSeed, Winner: -1, Teams: teams(errs, touts)}
	}
	over := snap(0, 0)
	over.Round, over.Over, over.Winner = 1321, true, 0
	mod := snap(0, 0)
	mod.Marks, mod.Columns = make([]engine.Mark, 4), []string{"area", "painted"}
	running := func(s *engine.Snapshot) *frame {
		return &frame{snap: s, live: s.Round, target: 20, speed: 19.6, left: -1}
	}
	paused := func(s *engine.Snapshot) *frame {
		return &frame{snap: s, live: s.Round, target: 20, paused: true, left: -1}
	}
	return []struct {
		name string
		st   status
	}{
		{"running", status{f: running(snap(0, 0)), zoom: "fit 1:2"}},
		{"paused", status{f: paused(snap(0, 0)), zoom: "fit 1:2"}},
		{"over", status{f: &frame{snap: over, live: over.Round, end: true, target: 20, paused: true, left: -1}, zoom: "fit 1:2"}},
		{"speed changed", status{f: &frame{snap: snap(0, 0), live: 655, target: 50, speed: 48.7, left: -1}, touched: itemSpeed, zoom: "fit 1:2"}},
		{"speed changed, problems", status{f: &frame{snap: snap(12, 3400), live: 655, target: 1000, speed: 987, left: 83 * time.Second}, touched: itemSpeed, zoom: "full size 1:1"}},
		{"quit prompt", status{f: running(snap(0, 0)), prompt: confirmPrompt(actQuit), zoom: "fit 1:2"}},
		{"leave prompt", status{f: paused(snap(3, 7)), prompt: confirmPrompt(actBack2Lobby), zoom: "fit 1:2"}},
		{"go to prompt", status{f: paused(snap(0, 0)), prompt: gotoPrompt("123456789"), zoom: "fit 1:2"}},
		{"errors", status{f: running(snap(3, 0)), zoom: "fit 1:2"}},
		{"timeouts", status{f: running(snap(0, 1)), zoom: "fit 1:2"}},
		{"errors and timeouts", status{f: running(snap(1, 120)), zoom: "fit 1:2"}},
		{"time left", status{f: &frame{snap: snap(0, 0), live: 655, target: 0, speed: 4210, left: 61 * time.Minute}, zoom: "fit 1:1"}},
		{"rewind", status{f: &frame{snap: snap(2, 2), live: 1400, past: true, paused: true, target: 20, left: -1}, zoom: "fit 1:2"}},
		{"replay", status{f: &frame{snap: snap(0, 5), live: 1500, target: 20, speed: 20, left: -1}, replay: true, zoom: "fit 1:2"}},
		{"replay end", status{f: &frame{snap: snap(0, 0), live: 655, end: true, paused: true, target: 20, left: -1}, replay: true, zoom: "fit 1:2"}},
		{"damaged replay", status{f: paused(snap(0, 0)), replay: true, damaged: true, zoom: "fit 1:2"}},
		{"rule mod", status{f: running(mod), zoom: "fit 1:1"}},
		{"hall owner", status{f: running(snap(4, 0)), label: "battle 7 (yours, private: s shares), 3 viewers", zoom: "fit 1:2"}},
		{"hall spectator", status{f: running(snap(0, 0)), label: "battle 12 (watching)", spectator: true, zoom: "fit 1:2"}},
		{"flash", status{f: paused(snap(0, 0)), note: "fit: whole arena", zoom: "fit 1:2"}},
	}
}

// statusBar draws st alone on a w-column simulated terminal and returns
// the row it shows, trailing blanks trimmed.
func statusBar(t *testing.T, st status, w int) string {
	t.Helper()
	sim := tcell.NewSimulationScreen("UTF-8")
	if err := sim.Init(); err != nil {
		t.Fatal(err)
	}
	defer sim.Fini()
	sim.SetSize(w, 1)
	drawStatus(canvas{s: sim, g: unicodeGlyphs}, theme{depth: depth256, most: depth256}, st, 0, w)
	sim.Show()
	return strings.TrimRight(screenText(sim), " \n")
}

// TestStatusGolden: every situation's bar at 80 columns (and, to show how
// they degrade, at 40 and 120) is testdata/status-bars.txt.
func TestStatusGolden(t *testing.T) {
	var b strings.Builder
	for _, tc := range statusCases() {
		fmt.Fprintf(&b, "%s:\n", tc.name)
		for _, w := range []int{80, 40, 120} {
			fmt.Fprintf(&b, "%3d|%s\n", w, statusBar(t, tc.st, w))
		}
	}
	golden(t, "status-bars", b.String())
}

// TestStatusWidths: at every width from the minimum, 40, to 200 the bar
// fits; every item shows whole, in one of its forms (nothing is cut
// inside a word); a prompt shows whole, and the round with it when there
// is room; the speed a key just changed stays; a long seed is abbreviated
// to its first digits before the speed leaves, and leaves first; the
// problems are counted by kind; and an item shown at a width is shown at
// every wider one.
func TestStatusWidths(t *testing.T) {
	t.Parallel() // a session of its own, mostly waiting on the battle's pace and frames

	sep, dot := " "+unicodeGlyphs.bar+" ", " "+unicodeGlyphs.dot+" "
	for _, tc := range statusCases() {
		t.Run(tc.name, func(t *testing.T) {
			cues := statusCues(tc.st, unicodeGlyphs)
			var prev map[int]bool // the cues shown one column narrower
			for w := minW; w <= 200; w++ {
				row := strings.TrimPrefix(statusBar(t, tc.st, w), " ")
				if n := uniseg.StringWidth(row) + 1; n > w {
					t.Fatalf("%d: %d columns: %q", w, n, row)
				}
				// Each part between separators is a whole form of the
				// next cue shown, in order.
				shown := map[int]bool{}
				next := 0
				for _, part := range strings.Split(strings.ReplaceAll(row, dot, sep), sep) {
					found := false
					for ; next < len(cues) && !found; next++ {
						for _, f := range cues[next].forms {
							if f != "" && f == part {
								found, shown[next] = true, true
								break
							}
						}
					}
					if !found {
						t.Fatalf("%d: %q is not a whole form of an item, in order: %q", w, part, row)
					}
				}
				has := func(what string) bool {
					for i, c := range cues {
						if shown[i] && strings.Contains(c.forms[0], what) {
							return true
						}
					}
					return false
				}
				if len(tc.st.prompt) > 0 {
					// the longest form that fits, whole, and the round
					// beside it when there is room
					form := promptForm(tc.st.prompt, w-1)[0]
					if !slices.Contains(strings.Split(row, sep), form) {
						t.Fatalf("%d: the prompt is not %q: %q", w, form, row)
					}
					if round := "655/1500"; uniseg.StringWidth(round+sep+form) <= w-1 && !strings.Contains(row, round) {
						t.Errorf("%d: no round beside the prompt: %q", w, row)
					}
				} else if !strings.Contains(row, fmt.Sprintf("%d/%d", tc.st.f.snap.Round, tc.st.f.snap.Rounds)) {
					t.Errorf("%d: no round: %q", w, row)
				}
				speed, seed := has("speed "), has("seed ")
				if tc.st.touched == itemSpeed && !speed {
					t.Errorf("%d: the speed just changed is gone: %q", w, row)
				}
				if seed && !speed {
					t.Errorf("%d: the seed outlasts the speed: %q", w, row)
				}
				if seed && !strings.Contains(row, "seed 18446744073709551615") && !strings.Contains(row, "seed 1844…") {
					t.Errorf("%d: the seed is neither whole nor its first digits: %q", w, row)
				}
				if errs, touts := problemCounts(tc.st.f.snap); errs+touts > 0 && len(tc.st.prompt) == 0 && tc.st.touched == itemNone && !has(": e") {
					t.Errorf("%d: %d errors and %d timeouts not counted: %q", w, errs, touts, row)
				}
				for i := range prev {
					// (a prompt takes a longer form where it can: what
					// was beside it may go)
					if !shown[i] && len(tc.st.prompt) == 0 {
						t.Errorf("%d: %q shows one column narrower, not here: %q", w, cues[i].forms[0], row)
					}
				}
				prev = shown
			}
		})
	}
}

// TestProblemForms: the problem count names errors and timeouts, singular
// or plural, and only those there are.
func TestProblemForms(t *testing.T) {
	for _, tc := range []struct {
		errs, touts int
		want        []string
	}{
		{1, 0, []string{"script problem (1 error): e", "1 error: e", "1 Err: e", "e: 1", ""}},
		{3, 0, []string{"script problems (3 errors): e", "3 errors: e", "3 Err: e", "e: 3", ""}},
		{0, 1, []string{"script problem (1 timeout): e", "1 timeout: e", "1 T/O: e", "e: 1", ""}},
		{1, 120, []string{"script problems (1 error, 120 timeouts): e", "1 error, 120 timeouts: e", "1 Err, 120 T/O: e", "e: 121", ""}},
	} {
		if got := problemForms(tc.errs, tc.touts); !reflect.DeepEqual(got, tc.want) {
			t.Errorf("problemForms(%d, %d) = %q, want %q", tc.errs, tc.touts, got, tc.want)
		}
	}
}
