package tui

import (
	"strings"
	"testing"

	"github.com/squarebattle/squarebattle/engine/ladder"
	"github.com/squarebattle/squarebattle/engine/openskill"
)

// TestPlotDots: values land on the dot grid from the left edge to the
// right, lo at the bottom and hi at the top, joined without gaps; equal
// values lie on the middle row.
func TestPlotDots(t *testing.T) {
	for _, c := range []struct {
		name   string
		values []float64
		w, h   int
		want   []string // rows from the top; # a dot
	}{
		{"rising", []float64{0, 1, 2, 3}, 4, 4, []string{"...#", "..#.", ".#..", "#..."}},
		{"steep", []float64{0, 3}, 2, 4, []string{".#", ".#", "#.", "#."}},
		{"flat", []float64{5, 5, 5}, 3, 3, []string{"...", "###", "..."}},
		{"one", []float64{7}, 3, 3, []string{"...", ".#.", "..."}},
		{"more values than columns", []float64{0, 2, 0, 2, 0}, 2, 3, []string{"##", "##", "##"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			lo, hi := c.values[0], c.values[0]
			for _, v := range c.values {
				lo, hi = min(lo, v), max(hi, v)
			}
			on, _ := plotDots(c.values, lo, hi, c.w, c.h)
			var got []string
			for y := c.h - 1; y >= 0; y-- {
				var row strings.Builder
				for x := 0; x < c.w; x++ {
					if on[x][y] {
						row.WriteByte('#')
					} else {
						row.WriteByte('.')
					}
				}
				got = append(got, row.String())
			}
			if strings.Join(got, "\n") != strings.Join(c.want, "\n") {
				t.Errorf("got\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(c.want, "\n"))
			}
		})
	}
}

// TestCellGlyph: a cell's dots as braille (bits per the Unicode chart),
// half blocks and ASCII.
func TestCellGlyph(t *testing.T) {
	dots := func(set ...[2]int) func(i, j int) bool {
		return func(i, j int) bool {
			for _, d := range set {
				if d == [2]int{i, j} {
					return true
				}
			}
			return false
		}
	}
	for _, c := range []struct {
		kind plotKind
		on   func(i, j int) bool
		want string
	}{
		{plotBraille, dots(), " "},
		{plotBraille, dots([2]int{0, 0}), "⠁"},
		{plotBraille, dots([2]int{1, 3}), "⢀"},
		{plotBraille, dots([2]int{0, 3}, [2]int{1, 3}), "⣀"},
		{plotBraille, dots([2]int{0, 0}, [2]int{0, 1}, [2]int{0, 2}, [2]int{0, 3}, [2]int{1, 0}, [2]int{1, 1}, [2]int{1, 2}, [2]int{1, 3}), "⣿"},
		{plotBlocks, dots([2]int{0, 0}), "▀"},
		{plotBlocks, dots([2]int{0, 1}), "▄"},
		{plotBlocks, dots([2]int{0, 0}, [2]int{0, 1}), "█"},
		{plotBlocks, dots(), " "},
		{plotASCII, dots([2]int{0, 0}), "'"},
		{plotASCII, dots([2]int{0, 1}), "-"},
		{plotASCII, dots([2]int{0, 2}), "_"},
		{plotASCII, dots([2]int{0, 0}, [2]int{0, 2}), "|"},
	} {
		if got := cellGlyph(c.kind, c.on); got != c.want {
			t.Errorf("kind %d: %q, want %q", c.kind, got, c.want)
		}
	}
}

// TestLadderLayout: a ladder table keeps its numbers whole and gives the
// names the room left; on a narrow screen the least needed columns go
// first (since, trend, ±, owner), never the rank, player or rating.
func TestLadderLayout(t *testing.T) {
	for _, c := range []struct {
		w       int
		dropped []string
	}{
		{200, nil}, {80, nil}, {60, []string{"since"}}, {40, []string{"owner", "±3σ", "trend", "since"}},
	} {
		cols := boardCols(unicodeGlyphs, 1000)
		xs, widths := layoutLadder(cols, c.w)
		var dropped []string
		end := 0
		for i, col := range cols {
			if widths[i] == 0 {
				dropped = append(dropped, col.head)
				continue
			}
			if col.flex == 0 && widths[i] < len([]rune(col.head)) {
				t.Errorf("w %d: %q is %d wide, narrower than its heading", c.w, col.head, widths[i])
			}
			end = xs[i] + widths[i]
		}
		if strings.Join(dropped, " ") != strings.Join(c.dropped, " ") {
			t.Errorf("w %d: dropped %q, want %q", c.w, dropped, c.dropped)
		}
		if end > c.w {
			t.Errorf("w %d: the table ends at %d", c.w, end)
		}
	}
}

// TestRatingLine: a page's changes (newest first) become the ordinals
// from before the oldest to now, new versions marked.
func TestRatingLine(t *testing.T) {
	r := func(mu float64) openskill.Rating { return openskill.Rating{Mu: mu, Sigma: 1} }
	changes := []ladder.RatingChange{
		{Kind: ladder.ByBattle, Before: r(12), After: r(14)},
		{Kind: ladder.ByVersion, Before: r(13), After: r(12)},
		{Kind: ladder.ByBattle, Before: r(10), After: r(13)},
	}
	values, marks := ratingLine(changes)
	if want := []float64{7, 10, 9, 11}; !equalFloats(values, want) || len(marks) != 1 || marks[0] != 2 {
		t.Errorf("values %v marks %v; want %v and [2]", values, marks, want)
	}
	if v, m := ratingLine(nil); v != nil || m != nil {
		t.Errorf("no changes: %v %v", v, m)
	}
}

func equalFloats(a, b []float64) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// TestRatingSpark: a trend in eight levels from its lowest to its highest,
// the newest n kept; flat in the middle.
func TestRatingSpark(t *testing.T) {
	for _, c := range []struct {
		g      glyphs
		values []float64
		n      int
		want   string
	}{
		{unicodeGlyphs, []float64{0, 1, 2, 3, 4, 5, 6, 7}, 8, "▁▂▃▄▅▆▇█"},
		{asciiGlyphs, []float64{0, 1, 2, 3, 4, 5, 6, 7}, 8, "_.-~=+*#"},
		{unicodeGlyphs, []float64{9, 0, 7}, 2, "▁█"},
		{unicodeGlyphs, []float64{3, 3}, 8, "▄▄"},
		{unicodeGlyphs, nil, 8, ""},
	} {
		if got := ratingSpark(c.g, c.values, c.n); got != c.want {
			t.Errorf("%v: %q, want %q", c.values, got, c.want)
		}
	}
}
