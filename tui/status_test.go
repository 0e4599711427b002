package tui

import (
	"strings"
	"testing"

	"github.com/gdamore/tcell/v2"
	"github.com/rivo/uniseg"

	"github.com/squarebattle/squarebattle/engine"
)

// TestStatusBarFits: at 40, 80 and 200 columns the status bar fits, cuts
// no word (every word shown is a whole word of one of its texts), and
// keeps what matters most: a note (a saved file's whole path at 80
// columns), PAUSED, the problem count and the zoom before the seed, the
// speed and the key hints.
func TestStatusBarFits(t *testing.T) {
	snap := &engine.Snapshot{Round: 1234, Rounds: 10000, Seed: 9007199254740991,
		FirstProblems: make([]engine.Problem, 3)}
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
			[]string{"Round 1234/10000", "PAUSED", "fit 1:2", "3 script problems: e", "Space pause"}, nil},
		{"paused 40", status{f: &frame{snap: snap, paused: true, target: 20, left: -1}, zoom: "fit 1:2"}, 40,
			[]string{"1234/10000", "PAUSED", "e: 3"}, []string{"seed", "rounds/s"}},
		{"running 200", status{f: &frame{snap: snap, target: 20, speed: 19.6, left: -1}, zoom: "full size 1:1"}, 200,
			[]string{"Round 1234/10000", "speed 20 rounds/s (actual 20)", "seed 9007199254740991", "running", "full size 1:1", "Space pause", "q quit"}, nil},
		{"saved 80", status{f: &frame{snap: snap, paused: true, target: 20, left: -1}, note: "saved " + path + " (unfinished, 1234 rounds)", zoom: "fit 1:1"}, 80,
			[]string{"saved " + path}, nil},
		{"rewind 80", status{f: &frame{snap: snap, past: true, live: 2000, paused: true, target: 20, left: -1}, zoom: "fit 1:1"}, 80,
			[]string{"Round 1234/10000", "REWIND (live: round 2000)", "PAUSED"}, nil},
		{"replay running 80", status{f: &frame{snap: snap, live: 2000, target: 20, speed: 20, left: -1}, replay: true, zoom: "fit 1:1"}, 80,
			[]string{"Round 1234/10000", "REPLAY of 2000 rounds", "running"}, nil},
		{"full size 80", status{f: &frame{snap: snap, paused: true, target: 20, left: -1}, zoom: "full size 1:1"}, 80,
			[]string{"Round 1234/10000", "PAUSED", "1:1", "3 script problems: e"}, nil},
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
