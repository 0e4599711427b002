package tui

import (
	"bytes"
	"compress/gzip"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gdamore/tcell/v2"
)

// unsafeRune is what a terminal would obey if tcell sent it.
func unsafeRune(r rune) bool {
	return r < 0x20 || r == 0x7f || (r >= 0x80 && r <= 0x9f) || (r >= 0x202a && r <= 0x202e) || (r >= 0x2066 && r <= 0x2069) || r == 0x200e || r == 0x200f
}

// TestCanvasTextSafe: whatever string reaches canvas.text, no cell holds a
// control character: tcell would send it to the terminal as it is.
func TestCanvasTextSafe(t *testing.T) {
	sim := tcell.NewSimulationScreen("UTF-8")
	if err := sim.Init(); err != nil {
		t.Fatal(err)
	}
	defer sim.Fini()
	sim.SetSize(120, 2)
	c := canvas{s: sim, g: glyphs{ellipsis: "…"}}
	c.text(0, 0, 120, "A\x1b[2J\x1b]0;owned\x07\r\nB\u009b31m\x9b\u202eC\x7f\t", tcell.StyleDefault)
	sim.Show()
	cells, w, _ := sim.GetContents()
	var row strings.Builder
	for _, cell := range cells[:w] {
		for _, r := range cell.Runes {
			if unsafeRune(r) {
				t.Errorf("a cell holds %U", r)
			}
		}
		row.Write(cell.Bytes)
	}
	if got := strings.TrimRight(row.String(), " "); got != `A\x1b[2J\x1b]0;owned\x07\r\nB\u009b31m\x9b\u202eC\x7f\t` {
		t.Errorf("shown as %q", got)
	}
}

// TestReplayShownSafe: a replay file edited by hand so that its names and
// speeches are escape sequences is shown with them escaped.
func TestReplayShownSafe(t *testing.T) {
	src := newScriptSource(t)
	name := recordBattle(t, src, Setup{Players: []string{"explorer", "pinwheel"}, Size: 12, Rounds: 20, Seed: 21})
	data, err := os.ReadFile(name)
	if err != nil {
		t.Fatal(err)
	}
	if zr, err := gzip.NewReader(bytes.NewReader(data)); err == nil {
		if data, err = io.ReadAll(zr); err != nil {
			t.Fatal(err)
		}
	}
	evil := `\u001b[2J\u001b]0;owned\u0007\r\nX\u009b\u202e`
	text := strings.Replace(string(data), `"name":"Explorer"`, `"name":"`+evil+`","victory":"`+evil+`"`, 1)
	if text == string(data) {
		t.Fatal("the recording does not name Explorer")
	}
	crafted := filepath.Join(t.TempDir(), "crafted.sbr")
	if err := os.WriteFile(crafted, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	s := open(t, 120, 30, "", Options{Replay: openReplay(t, crafted), ReplayFile: crafted, Paused: true})
	screen := s.waitText("Round 0/20")
	for _, r := range screen {
		if r != '\n' && unsafeRune(r) {
			t.Errorf("the screen holds %U:\n%s", r, screen)
			break
		}
	}
	if !strings.Contains(screen, `\x1b[2J`) {
		t.Errorf("the crafted name is not shown escaped:\n%s", screen)
	}
}
