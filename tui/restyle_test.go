package tui

import (
	"testing"

	"github.com/gdamore/tcell/v2"
)

// TestRestyle: a style that differs from the one in force only in its
// colours is sent as those colours alone (in the form tcell sends them);
// anything else, as tcell sends a style from scratch. (That a terminal
// then shows what tcell would have drawn, TestCodecShowsWhatTcellShows
// checks on whole pictures.)
func TestRestyle(t *testing.T) {
	terms := testTerminals(t)
	p := tcell.PaletteColor
	rgb := tcell.NewRGBColor
	on := func(fg, bg tcell.Color) tcell.Style { return tcell.StyleDefault.Foreground(fg).Background(bg) }
	tests := []struct {
		name, term string
		colors     int
		from, to   tcell.Style
		want       string // "" : the full style
	}{
		{"fg alone", "xterm-256color", 256, on(p(33), p(235)), on(p(196), p(235)), "\x1b[38;5;196m"},
		{"bg alone", "xterm-256color", 256, on(p(33), p(235)), on(p(33), p(46)), "\x1b[48;5;46m"},
		{"both", "xterm-256color", 256, on(p(33), p(235)), on(p(21), p(22)), "\x1b[38;5;21;48;5;22m"},
		{"from the default fg", "xterm-256color", 256, tcell.StyleDefault.Background(p(235)), on(p(21), p(235)), "\x1b[38;5;21m"},
		{"to the default fg", "xterm-256color", 256, on(p(1), p(235)), tcell.StyleDefault.Background(p(235)), ""},
		{"attributes differ", "xterm-256color", 256, on(p(1), p(2)), on(p(3), p(2)).Bold(true), ""},
		{"same attributes", "xterm-256color", 256, on(p(1), p(2)).Bold(true), on(p(3), p(2)).Bold(true), "\x1b[33m"},
		{"eight colours: the nearest", "xterm", 8, on(p(9), p(0)), on(p(10), p(0)), "\x1b[32m"},
		{"no colours", "mono", 0, on(p(1), p(2)), on(p(3), p(2)), ""},
		{"24-bit fg alone", "truecolor", 1 << 24, on(rgb(1, 2, 3), rgb(4, 5, 6)), on(rgb(7, 8, 9), rgb(4, 5, 6)), "\x1b[38;2;7;8;9m"},
		{"24-bit both", "truecolor", 1 << 24, on(rgb(1, 2, 3), rgb(4, 5, 6)), on(rgb(7, 8, 9), rgb(1, 1, 1)), "\x1b[38;2;7;8;9;48;2;1;1;1m"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := newTermCodec(terms[tt.term], tt.colors)
			want := tt.want
			if want == "" {
				want = c.style(tt.to)
			}
			if got := c.restyle(tt.from, tt.to); got != want {
				t.Errorf("restyle = %q, want %q", got, want)
			}
		})
	}
}
