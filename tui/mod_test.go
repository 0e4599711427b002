package tui

import (
	"fmt"
	"io/fs"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/gdamore/tcell/v2"

	"github.com/squarebattle/squarebattle/engine"
	"github.com/squarebattle/squarebattle/engine/replay"
	"github.com/squarebattle/squarebattle/luabind"
	"github.com/squarebattle/squarebattle/scripts"
)

// gameSource is scriptSource with the shipped rule mod paint: a
// GameSource, as the command line's is.
type gameSource struct {
	*scriptSource
	paint *luabind.Game
}

func newGameSource(t testing.TB) *gameSource {
	t.Helper()
	sub, err := fs.Sub(scripts.FS, "paint")
	if err != nil {
		t.Fatal(err)
	}
	limits := luabind.DefaultLimits()
	limits.Instructions = 1_000_000
	g, err := luabind.LoadGame(sub, "scripts/paint", limits)
	if err != nil {
		t.Fatal(err)
	}
	return &gameSource{scriptSource: newScriptSource(t), paint: g}
}

func (s *gameSource) Games() []Game {
	return []Game{{Name: "SquareBattle"}, {ID: "paint", Name: "Paint", Size: 40, Rounds: 500}}
}

func (s *gameSource) GameEntries(id string) []Entry {
	if id == "" {
		return s.Entries()
	}
	var out []Entry
	for _, c := range s.paint.Players() {
		out = append(out, Entry{ID: c.ID, Name: c.Name, File: c.File})
	}
	return out
}

func (s *gameSource) NewBattle(su Setup) (Battle, error) {
	if su.Game == "" {
		return s.scriptSource.NewBattle(su)
	}
	var players []*luabind.Class
	for _, id := range su.Players {
		c, err := s.paint.Find(id)
		if err != nil {
			return nil, err
		}
		players = append(players, c)
	}
	o := engine.ModOptions{Size: su.Size, Rounds: su.Rounds, Seed: su.Seed, Workers: 2}
	b, err := luabind.NewModBattle(s.paint, players, o, 50_000_000)
	if err != nil {
		return nil, err
	}
	return testModBattle{b}, nil
}

// testModBattle is a paint battle as the TUI drives it.
type testModBattle struct{ *luabind.ModBattle }

func (b testModBattle) Recorder() *engine.Recorder {
	return engine.NewModRecorder(b.ModBattle.ModBattle)
}

func (b testModBattle) Header() replay.Header {
	s := b.Snapshot()
	h := replay.Header{Program: "tui test", Game: "paint", Wrap: false}
	for _, id := range s.Classes {
		h.Classes = append(h.Classes, replay.Class{ID: id, File: fmt.Sprintf("paint/%s.lua", id)})
	}
	for _, t := range s.Teams {
		p := t.Player
		h.Players = append(h.Players, replay.Player{Team: t.Team, Class: int(p.Class), Name: p.Name, Victory: p.Victory, Defeat: p.Defeat})
	}
	return h
}

var paintSetup = Setup{Game: "paint", Players: []string{"greedy", "random", "greedy"}, Size: 40, Rounds: 80, Seed: 9}

// TestPaintScreens: a paused paint battle stepped five rounds shows the
// board by its marks and the game's score columns, at two sizes.
func TestPaintScreens(t *testing.T) {
	for _, size := range [][2]int{{80, 24}, {120, 40}} {
		t.Run(fmt.Sprintf("%dx%d", size[0], size[1]), func(t *testing.T) {
			su := paintSetup
			s := open(t, size[0], size[1], "", Options{Source: newGameSource(t), Paused: true, Start: &su})
			s.waitText("Round 0/80")
			s.keys(".....")
			text := s.waitText("Round 5/80")
			for _, want := range []string{"Area", "Painte", "T/O", "Greedy Painter"} {
				if !strings.Contains(text, want) {
					t.Errorf("no %q on the screen", want)
				}
			}
			if strings.Contains(text, "Births") {
				t.Error("SquareBattle's columns on a paint battle")
			}
			golden(t, fmt.Sprintf("paint-%dx%d", size[0], size[1]), text)
		})
	}
}

// TestPaintMatchesHeadless: a paint battle watched at full speed ends as
// the same battle played headless, and its victory overlay names the
// score.
func TestPaintMatchesHeadless(t *testing.T) {
	src := newGameSource(t)
	su := paintSetup
	want := headless(t, src, su)
	s := open(t, 120, 40, "", Options{Source: src, Settings: Settings{Size: 40, Rounds: 80, Speed: 0, FPS: 60}, Start: &su})
	text := s.waitText("r replay (same seed)")
	got, end := s.lastSnap(), want[len(want)-1]
	if !reflect.DeepEqual(got, end) {
		t.Errorf("UI battle ended round %d winner %d %+v; headless round %d winner %d %+v", got.Round, got.Winner, got.Teams, end.Round, end.Winner, end.Teams)
	}
	w := end.Teams[end.Winner]
	if score := fmt.Sprintf("%s wins with area %d after 80 rounds.", w.Player.Name, w.Values[0]); !strings.Contains(text, score) {
		t.Errorf("the victory overlay does not say %q:\n%s", score, text)
	}
}

// TestPaintRewindAndSave: a paint battle rewinds to earlier rounds, each
// as it was played, and w saves it as a rule mod replay that reads back
// round for round.
func TestPaintRewindAndSave(t *testing.T) {
	dir := t.TempDir()
	src := newGameSource(t)
	su := paintSetup
	want := headless(t, src, su)
	s := open(t, 160, 40, "", Options{Source: src, Paused: true, Start: &su, Replays: dir, Settings: Settings{Size: 40, Rounds: 80, Speed: 20, FPS: 60}})
	s.waitText("Round 0/80")
	s.keys("g30")
	s.key(tcell.KeyEnter)
	s.waitText("Round 30/80")
	for _, r := range []int{29, 28, 27} {
		s.key(tcell.KeyLeft)
		s.waitText(fmt.Sprintf("Round %d/80", r))
		if got := s.lastSnap(); !reflect.DeepEqual(got, want[r]) {
			t.Fatalf("round %d rewound differs from the round played: %+v, want %+v", r, got.Teams, want[r].Teams)
		}
	}
	s.keys("w")
	name := filepath.Join(dir, "battle-9-30.sbr")
	s.waitText("saved " + name + " (unfinished, 30 rounds)")
	rep := openReplay(t, name)
	if rep.Header.Game != "paint" || rep.Damage != nil || rep.Timeline.Last() != 30 {
		t.Fatalf("saved replay: game %q, damage %v, %d rounds", rep.Header.Game, rep.Damage, rep.Timeline.Last())
	}
	for r := 0; r <= 30; r++ {
		if got := rep.Timeline.At(r); !reflect.DeepEqual(got.Marks, want[r].Marks) || !reflect.DeepEqual(got.Teams, want[r].Teams) {
			t.Fatalf("round %d of the saved replay differs", r)
		}
	}
}

// TestLobbyGames: the lobby's Game setting switches to paint: its players
// are listed, its board size and round limit apply, and a battle starts.
func TestLobbyGames(t *testing.T) {
	s := open(t, 80, 24, "", Options{Source: newGameSource(t)})
	s.waitText("Game         SquareBattle")
	s.key(tcell.KeyEnter) // a SquareBattle team, dropped by the switch
	s.key(tcell.KeyTab)
	s.key(tcell.KeyTab) // settings: the Game row
	s.key(tcell.KeyRight)
	text := s.waitText("Game         Paint")
	for _, want := range []string{"Paint", "Greedy Painter", "Random Painter", "40 × 40", "Round limit  500"} {
		if !strings.Contains(text, want) {
			t.Errorf("no %q in the lobby after switching to paint:\n%s", want, text)
		}
	}
	if strings.Contains(text, "Explorer") {
		t.Error("SquareBattle's players are still listed")
	}
	golden(t, "lobby-paint-80x24", text)
	s.key(tcell.KeyBacktab)
	s.key(tcell.KeyBacktab) // back to the players
	s.key(tcell.KeyEnter)
	s.key(tcell.KeyDown)
	s.key(tcell.KeyEnter)
	s.waitText(" 2 ")
	s.keys("s")
	s.waitText("/500")
	if snap := s.lastSnap(); snap.Marks == nil || snap.Size != 40 {
		t.Fatalf("the lobby started %+v, want a 40×40 paint battle", snap)
	}
}

// TestMarkLooks: a rule mod's marks are drawn as the issue asks: a unit in
// its team's colour, a trail softer, walls grey, items bright, shaded
// ground darker to lighter by value; in ASCII by character, and without
// colours still told apart.
func TestMarkLooks(t *testing.T) {
	unit, trail := markLook(1, engine.NewMark(engine.StyleUnit, 0)), markLook(1, engine.NewMark(engine.StyleTrail, 0))
	wall, item := markLook(engine.Empty, engine.NewMark(engine.StyleWall, 0)), markLook(0, engine.NewMark(engine.StyleItem, 0))
	if markLook(engine.Empty, engine.NewMark(engine.StyleUnit, 0)) != (look{team: engine.Empty}) || !markLook(2, 0).blank() {
		t.Error("a unit without a team, or a team without a mark, is not empty")
	}
	colours := []int{3, 5}
	for d := depth16; d < depthCount; d++ {
		th := theme{depth: d}
		if unit.colour(th, colours) != th.team(5) {
			t.Errorf("%v: a unit is not its team's colour", d)
		}
		got := map[tcell.Color]string{}
		for name, l := range map[string]look{"unit": unit, "trail": trail, "wall": wall, "item": item, "empty": {team: engine.Empty}} {
			c := l.colour(th, colours)
			if other, ok := got[c]; ok {
				t.Errorf("%v: %s and %s have the same colour", d, name, other)
			}
			got[c] = name
		}
		if d != depth16 {
			dark, light := markLook(-1, engine.NewMark(engine.StyleValue, 10)).colour(th, nil), markLook(-1, engine.NewMark(engine.StyleValue, 250)).colour(th, nil)
			if dark == light {
				t.Errorf("%v: shaded ground has one colour", d)
			}
		}
	}
	for _, mono := range []bool{false, true} {
		th := theme{depth: depth256, mono: mono}
		ug, ust := unit.ascii(th, colours)
		tg, tst := trail.ascii(th, colours)
		wg, _ := wall.ascii(th, colours)
		ig, _ := item.ascii(th, colours)
		if ug != "1" || tg != "1" || wg != "#" || ig != "*" || ust == tst {
			t.Errorf("mono %v: ASCII unit %q, trail %q, wall %q, item %q; unit and trail styles equal: %v", mono, ug, tg, wg, ig, ust == tst)
		}
	}
	if g, _ := markLook(-1, engine.NewMark(engine.StyleValue, 255)).ascii(theme{}, nil); g != "@" {
		t.Errorf("the densest ground is %q", g)
	}
}

// TestPaintReplay: a recorded paint battle plays in the replay viewer with
// the game's columns, and ends as the battle did, named winner included.
func TestPaintReplay(t *testing.T) {
	src := newGameSource(t)
	want := headless(t, src, paintSetup)
	name := recordBattle(t, src, paintSetup)
	rep := openReplay(t, name)
	s := open(t, 120, 40, "", Options{Replay: rep, ReplayFile: name, Paused: true})
	s.waitText("Round 0/80")
	s.keys("g80")
	s.key(tcell.KeyEnter)
	text := s.waitText("r watch again")
	if got, end := s.lastSnap(), want[len(want)-1]; !reflect.DeepEqual(got, end) {
		t.Errorf("the replay ends round %d winner %d %+v; the battle round %d winner %d %+v", got.Round, got.Winner, got.Teams, end.Round, end.Winner, end.Teams)
	}
	if !strings.Contains(text, "wins with area") || !strings.Contains(text, "Painted") {
		t.Errorf("the end of a paint replay:\n%s", text)
	}
}
