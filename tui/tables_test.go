package tui

import (
	"fmt"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/gdamore/tcell/v2"
	"github.com/rivo/uniseg"
)

// wideNames are players whose names are long, or wide on a terminal.
var wideNames = fstest.MapFS{
	"ninja.lua":   {Data: []byte(`return { name = "忍者忍者 Shadow Ninja", run = function() return WAIT end }`)},
	"serpent.lua": {Data: []byte(`return { name = "🐍🐍 The Serpent Of Many Coils", run = function() return WAIT end }`)},
	"hesitantwolf_with_a_very_long_file_name.lua": {Data: []byte(`return { name = "Hesitant Wolf", run = function() return WAIT end }`)},
	"explorer.lua": {Data: []byte(`return { name = "Explorer", run = function() return WAIT end }`)},
}

// cellText reads the text of screen row y from column x to the first two
// blank columns (a wide character's second column is not blank).
func cellText(sim tcell.SimulationScreen, x, y int) string {
	cells, w, _ := sim.GetContents()
	var b strings.Builder
	blanks := 0
	for x < w {
		c := cells[y*w+x]
		s := string(c.Runes)
		if s == "" || s == " " {
			if blanks++; blanks == 2 {
				break
			}
			b.WriteByte(' ')
			x++
			continue
		}
		blanks = 0
		b.WriteString(s)
		x += max(1, uniseg.StringWidth(s))
	}
	return strings.TrimRight(b.String(), " ")
}

// column0 is the screen column where want starts on row y (-1 none).
func column0(sim tcell.SimulationScreen, y int, want string) int {
	_, w, _ := sim.GetContents()
	for x := 0; x < w; x++ {
		if strings.HasPrefix(cellText(sim, x, y), want) {
			return x
		}
	}
	return -1
}

// TestTablesUseTheRoom: the menu's battle list lays its columns out by
// what they hold and the room the screen has, by display width: at 80,
// 120 and 200 columns every row's owner starts under the owner heading
// and its players under theirs; long owners (a key's provisional name)
// and wide players are whole where the screen has room (cut with an
// ellipsis, never shifting a column, where it has not). The battle
// screen's team table shows a name whole beside the arena at 200×60
// (Hesitant Wolf was "Hesitant Wo…"), and wide names keep its number
// columns in line.
func TestTablesUseTheRoom(t *testing.T) {
	src := newSourceFS(t, wideNames)
	h := newHall(t, HallOptions{Source: src, MaxPrivate: 4, Featured: FeaturedOptions{Players: []string{"explorer", "ninja"}},
		Settings: Settings{Size: 16, Rounds: 100_000, Speed: 1, FPS: 30}})
	owners := []string{"averyveryverylongloginname~AbCdEfGh", "bo"}
	for i, players := range [][]string{{"ninja", "serpent", "hesitantwolf_with_a_very_long_file_name"}, {"explorer", "serpent"}} {
		tk, err := h.request(owners[i], Setup{Players: players, Size: 16, Rounds: 100_000, Seed: 3}, pace{speed: 1})
		if err != nil {
			t.Fatal(err)
		}
		waitHall(t, "the battle", func() bool { b, _ := h.ticketState(tk); return b != nil })
		b, _ := h.ticketState(tk)
		b.shared.Store(true)
	}
	for _, w := range []int{80, 120, 200} {
		t.Run(fmt.Sprint(w), func(t *testing.T) {
			s := join(t, h, w, 30, SessionOptions{User: "viewer"}, nil)
			s.waitText("Watch the featured battle")
			s.keys("j")
			s.key(tcell.KeyEnter)
			s.waitText("viewers")
			s.waitFor("three battles", func(text string) bool {
				return strings.Count(text, "shared") == 2 && strings.Contains(text, "featured")
			})
			head := 2
			ownerX, playersX := column0(s.sim, head, "owner"), column0(s.sim, head, "players")
			if ownerX < 0 || playersX < 0 {
				t.Fatalf("no headings:\n%s", s.screen())
			}
			for i, b := range h.Battles("viewer") {
				y := head + 1 + i
				owner := b.Owner
				if owner == "" {
					owner = "-"
				}
				got := cellText(s.sim, ownerX, y)
				whole := w >= 120 || len(owner) <= 20
				if whole && !strings.HasPrefix(got, owner) || !whole && !strings.HasSuffix(strings.Fields(got)[0], "…") {
					t.Errorf("row %d: owner column reads %q, want %q (whole %v):\n%s", i, got, owner, whole, s.screen())
				}
				got = cellText(s.sim, playersX, y)
				fits := playersX+uniseg.StringWidth(b.Title) <= w
				if fits && got != b.Title || !strings.HasPrefix(b.Title, strings.TrimSuffix(got, "…")) {
					t.Errorf("row %d: players column reads %q, want %q:\n%s", i, got, b.Title, s.screen())
				}
			}
		})
	}

	// The team table beside the arena: whole names at 200×60.
	for _, tt := range []struct{ w, h int }{{200, 60}, {120, 40}, {80, 24}} {
		t.Run(fmt.Sprintf("teams %dx%d", tt.w, tt.h), func(t *testing.T) {
			id := ""
			for _, b := range h.Battles("viewer") {
				if b.Owner == owners[0] {
					id = b.ID
				}
			}
			s := join(t, h, tt.w, tt.h, SessionOptions{User: "viewer", Start: StartWatch, WatchID: id}, nil)
			text := s.waitText("Squares")
			lines := strings.Split(text, "\n")
			var y, squaresX int
			for i, l := range lines {
				if strings.Contains(l, "Squares") {
					y = i
				}
			}
			squaresX = column0(s.sim, y, "Squares")
			for k, name := range []string{"忍者忍者 Shadow Ninja", "🐍🐍 The Serpent Of Many Coils", "Hesitant Wolf"} {
				nameX := column0(s.sim, y+1+k, strings.Fields(name)[0][:3])
				got := cellText(s.sim, nameX, y+1+k)
				if tt.w >= 200 && !strings.HasPrefix(got, name) {
					t.Errorf("%dx%d: team %d reads %q, want %q whole:\n%s", tt.w, tt.h, k, got, name, text)
				}
				// The squares count ends where the heading does, whatever the name's width.
				_, sw, _ := s.sim.GetContents()
				end := squaresX + len("Squares") - 1
				if end >= sw || cellText(s.sim, end, y+1+k) == "" {
					t.Errorf("%dx%d: team %d's squares are not under the heading:\n%s", tt.w, tt.h, k, text)
				}
			}
		})
	}
}

// TestTableLayout: columns are as wide as their widest cell (display
// width) when the screen has room; when not, the last gives up room first
// down to its min, then the widest of the others; a table never runs past
// the screen while the mins fit.
func TestTableLayout(t *testing.T) {
	cols := []column{{head: "ID", min: 2}, {head: "owner", min: 8}, {head: "round", right: true, min: 5}, {head: "players", min: 20}}
	rows := safeRows([][]string{
		{"1", "averyveryverylongloginname~AbCdEfGh", "10/100", "忍者忍者 Shadow Ninja vs 🐍🐍 The Serpent Of Many Coils"},
		{"12", "bo", "7/100000", "explorer vs pinwheel"},
	})
	full := []int{2, 35, 8, uniseg.StringWidth(rows[0][3])}
	for _, tt := range []struct {
		w      int
		widths []int
	}{
		{200, full},
		{120, full},
		{80, []int{2, 35, 8, 80 - 2 - 6 - 2 - 35 - 8}},
		{60, []int{2, 60 - 2 - 6 - 2 - 8 - 20, 8, 20}},
		{40, []int{2, 8, 5, 20}}, // narrower than the mins: cut at the screen's edge
	} {
		t.Run(fmt.Sprint(tt.w), func(t *testing.T) {
			xs, widths := tableLayout(cols, rows, tt.w)
			if fmt.Sprint(widths) != fmt.Sprint(tt.widths) {
				t.Errorf("widths %v, want %v", widths, tt.widths)
			}
			for i := 1; i < len(xs); i++ {
				if xs[i] != xs[i-1]+widths[i-1]+tableGap {
					t.Errorf("column %d starts at %d after %d+%d", i, xs[i], xs[i-1], widths[i-1])
				}
			}
		})
	}
}
