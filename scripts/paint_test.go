package scripts_test

import (
	"fmt"
	"io/fs"
	"reflect"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/squarebattle/squarebattle/engine"
	"github.com/squarebattle/squarebattle/luabind"
	"github.com/squarebattle/squarebattle/scripts"
)

const rulesBudget = 50_000_000

// paintFolder is the shipped paint folder plus extra test players.
func paintFolder(t *testing.T, extra map[string]string) fs.FS {
	t.Helper()
	return gameFolder(t, "paint", extra)
}

// gameFolder is a shipped game folder plus extra (or replaced) files.
func gameFolder(t testing.TB, game string, extra map[string]string) fstest.MapFS {
	t.Helper()
	m := fstest.MapFS{}
	entries, err := fs.ReadDir(scripts.FS, game)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		data, _ := fs.ReadFile(scripts.FS, game+"/"+e.Name())
		m[e.Name()] = &fstest.MapFile{Data: data}
	}
	for name, src := range extra {
		// Two players must not share a name: each planned player is named
		// after its file.
		src = strings.Replace(src, `name = "Planned"`, fmt.Sprintf("name = %q", "Planned "+strings.TrimSuffix(name, ".lua")), 1)
		m[name] = &fstest.MapFile{Data: []byte(src)}
	}
	return m
}

// planned is a paint player that gives, on tick k, the orders plan[k]
// (worker index to direction). When report is set it raises an error on
// that tick listing where its workers stand, so a test can read it in the
// battle's problems.
func planned(plan map[int]map[int]string, report int) string {
	var b strings.Builder
	b.WriteString("local plan = {\n")
	for tick, orders := range plan {
		fmt.Fprintf(&b, "  [%d] = {", tick)
		for w, d := range orders {
			fmt.Fprintf(&b, " [%d] = %q,", w, d)
		}
		b.WriteString(" },\n")
	}
	b.WriteString("}\n")
	fmt.Fprintf(&b, `return { name = "Planned", strategy = function(view, memory)
  if view.tick == %d then
    local s = "at"
    for w, k in ipairs(view.mine) do s = s .. " " .. k.x .. "," .. k.y end
    error(s)
  end
  return plan[view.tick] or {}
end }
`, report)
	return b.String()
}

// findPlayers looks the named players up in a game.
func findPlayers(t testing.TB, g *luabind.Game, names []string) []*luabind.Class {
	t.Helper()
	var classes []*luabind.Class
	for _, name := range names {
		c, err := g.Find(name)
		if err != nil {
			t.Fatal(err)
		}
		classes = append(classes, c)
	}
	return classes
}

func paintBattle(t *testing.T, folder fs.FS, players []string, rounds, workers int, seed uint64) *luabind.ModBattle {
	t.Helper()
	g, err := luabind.LoadGame(folder, "paint", luabind.Limits{})
	if err != nil {
		t.Fatal(err)
	}
	classes := findPlayers(t, g, players)
	b, err := luabind.NewModBattle(g, classes, engine.ModOptions{Size: 40, Rounds: rounds, Seed: seed, Workers: workers}, rulesBudget)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(b.Close)
	return b
}

func cellAt(s *engine.Snapshot, x, y int) (int, engine.Style) {
	i := y*s.Size + x
	return int(s.Cells[i]), s.Marks[i].Style()
}

// TestPaintStartingRing: the seed's diagram of the starting ring,
//
//	0 3 5
//	1   6
//	2 4 7
//
// around (3, 3) for team 0. Worker w (1-based here) steps outwards; it must
// leave the ring cell the diagram gives it.
func TestPaintStartingRing(t *testing.T) {
	cases := []struct {
		worker     int
		dir        string
		from, to   [2]int
		diagramPos string
	}{
		{1, "left", [2]int{2, 4}, [2]int{1, 4}, "0: top left"},
		{2, "left", [2]int{2, 3}, [2]int{1, 3}, "1: middle left"},
		{3, "left", [2]int{2, 2}, [2]int{1, 2}, "2: bottom left"},
		{4, "up", [2]int{3, 4}, [2]int{3, 5}, "3: top middle"},
		{5, "down", [2]int{3, 2}, [2]int{3, 1}, "4: bottom middle"},
		{6, "right", [2]int{4, 4}, [2]int{5, 4}, "5: top right"},
		{7, "right", [2]int{4, 3}, [2]int{5, 3}, "6: middle right"},
		{8, "right", [2]int{4, 2}, [2]int{5, 2}, "7: bottom right"},
	}
	for _, c := range cases {
		t.Run(c.diagramPos, func(t *testing.T) {
			src := planned(map[int]map[int]string{1: {c.worker: c.dir}}, -1)
			b := paintBattle(t, paintFolder(t, map[string]string{"p.lua": src}), []string{"p"}, 5, 1, 1)
			s := b.Snapshot()
			units := 0
			for i := range s.Cells {
				if s.Marks[i].Style() == engine.StyleUnit {
					units++
				}
			}
			if team, st := cellAt(s, 3, 3); units != 8 || team != -1 || st != engine.StyleEmpty {
				t.Fatalf("start: %d units, centre %d/%v; want 8 around an empty centre", units, team, st)
			}
			b.Step()
			s = b.Snapshot()
			if team, st := cellAt(s, c.to[0], c.to[1]); team != 0 || st != engine.StyleUnit {
				t.Errorf("worker %d did not reach %v: %d %v", c.worker, c.to, team, st)
			}
			if team, st := cellAt(s, c.from[0], c.from[1]); team != 0 || st != engine.StyleTrail {
				t.Errorf("worker %d left no trail at %v: %d %v", c.worker, c.from, team, st)
			}
			if v := s.Teams[0].Values; v[0] != 9 || v[1] != 9 {
				t.Errorf("area, painted = %v, want 9, 9", v)
			}
		})
	}
}

// TestPaintMoves pins the movement rules of the seed: moves off the canvas
// do nothing; workers that would share a cell all go back, repeatedly; two
// workers may swap.
func TestPaintMoves(t *testing.T) {
	cases := []struct {
		name string
		plan map[int]map[int]string
		want string // where the eight workers stand after the plan, as the player sees it
	}{
		{"off the canvas does nothing", map[int]map[int]string{1: {3: "left"}, 2: {3: "left"}, 3: {3: "left"}},
			"at 2,4 2,3 0,2 3,4 3,2 4,4 4,3 4,2"},
		{"a shared cell sends both back, and the one behind", map[int]map[int]string{1: {4: "down", 2: "right", 1: "right"}},
			"at 2,4 2,3 2,2 3,4 3,2 4,4 4,3 4,2"},
		{"into a cell another leaves at the same time", map[int]map[int]string{1: {4: "down", 1: "right"}},
			"at 3,4 2,3 2,2 3,3 3,2 4,4 4,3 4,2"},
		{"a swap", map[int]map[int]string{1: {1: "down", 2: "up"}},
			"at 2,3 2,4 2,2 3,4 3,2 4,4 4,3 4,2"},
		{"unknown orders leave a worker still", map[int]map[int]string{1: {1: "north", 2: "UP"}},
			"at 2,4 2,3 2,2 3,4 3,2 4,4 4,3 4,2"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			report := len(c.plan) + 1
			b := paintBattle(t, paintFolder(t, map[string]string{"p.lua": planned(c.plan, report)}), []string{"p"}, report, 1, 1)
			for b.Step() {
			}
			s := b.Snapshot()
			var got string
			for _, p := range s.FirstProblems {
				if i := strings.Index(p.Message, "at "); i >= 0 {
					got = p.Message[i:]
				}
			}
			if got != c.want {
				t.Errorf("workers %q, want %q", got, c.want)
			}
		})
	}
}

// TestPaintDeterministic: 500 ticks of four teams with one and with four
// workers give the same canvas and scores, and the rules end it at 500.
func TestPaintDeterministic(t *testing.T) {
	t.Parallel() // whole games: beside another when a core is free (the soaks, which count goroutines, run first)

	players := []string{"random", "greedy", "random", "greedy"}
	var snaps []*engine.Snapshot
	for _, workers := range []int{1, 4} {
		b := paintBattle(t, paintFolder(t, nil), players, 500, workers, 9)
		n := 0
		for b.Step() {
			n++
		}
		if n != 500 || b.Err() != nil {
			t.Fatalf("%d ticks, err %v", n, b.Err())
		}
		snaps = append(snaps, b.Snapshot())
	}
	if !reflect.DeepEqual(snaps[0], snaps[1]) {
		t.Error("one and four workers differ")
	}
	s := snaps[0]
	painted := 0
	for team, tv := range s.Teams {
		if tv.Values[0] < 1 || tv.Values[0] > tv.Values[1] {
			t.Errorf("team %d: area %d, painted %d", team, tv.Values[0], tv.Values[1])
		}
		if tv.Stats.Squares != 8 || tv.Stats.Errors+tv.Stats.Timeouts != 0 {
			t.Errorf("team %d: %+v", team, tv.Stats)
		}
		painted += tv.Values[1]
	}
	// The smarter strategy must earn its name.
	if g, r := s.Teams[1].Values[1]+s.Teams[3].Values[1], s.Teams[0].Values[1]+s.Teams[2].Values[1]; g <= r {
		t.Errorf("greedy painted %d cells, random %d", g, r)
	}
	if painted > 1600 {
		t.Errorf("%d cells painted on a 1600-cell canvas", painted)
	}
}

// TestPaintBrokenRules: rules that fail or loop stop the battle with their
// file and line, never a hang.
func TestPaintBrokenRules(t *testing.T) {
	cases := []struct {
		name, rules, want string
	}{
		{"error in resolve", `return { turns = function(g) if g.round() > 0 then return {{team = 0}} end end,
resolve = function(g) local x = nil; return x.y end }`, "rules.lua:2:"},
		{"endless loop", `return { turns = function(g) while true do end end, resolve = function() end }`, "rules_instructions"},
		{"bad call", `return { turns = function(g) return {{team = 7}} end, resolve = function() end }`, "team must be a team number"},
		{"bad style", `return { turns = function(g) g.set(0, 0, 0, "neon") end, resolve = function() end }`, "style must be one of"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			folder := fstest.MapFS{
				"rules.lua": {Data: []byte(c.rules)},
				"p.lua":     {Data: []byte(`return { name = "P", run = function() return 1 end }`)},
			}
			g, err := luabind.LoadGame(folder, "test", luabind.Limits{})
			if err != nil {
				t.Fatal(err)
			}
			cls, _ := g.Find("p")
			b, err := luabind.NewModBattle(g, []*luabind.Class{cls}, engine.ModOptions{Size: 4, Rounds: 10, Seed: 1}, 100_000)
			if err != nil {
				t.Fatal(err)
			}
			defer b.Close()
			for b.Step() {
			}
			if b.Err() == nil || !strings.Contains(b.Err().Error(), c.want) || b.Round() != 1 {
				t.Errorf("after round %d: err %v, want %q", b.Round(), b.Err(), c.want)
			}
		})
	}
}

// TestModClock: a call may carry its own instruction budget (games with a
// chess clock); the rules learn how many instructions each call ran.
func TestModClock(t *testing.T) {
	folder := fstest.MapFS{
		"rules.lua": {Data: []byte(`local asked = 0
return { columns = {"used", "lost"}, entry = "think",
  turns = function(g)
    if asked == g.round() then return nil end
    asked = g.round()
    return {{team = 0, budget = g.round() == 1 and 5000 or 300, view = {n = 200}}}
  end,
  resolve = function(g, calls, answers, used)
    g.score(0, "used", used[1])
    if answers[1] == nil then g.score(0, "lost", g.score(0, "lost") + 1) end
  end }`)},
		"p.lua": {Data: []byte(`return { name = "P", think = function(view) local x = 0; for i = 1, view.n do x = x + i end; return x end }`)},
	}
	g, err := luabind.LoadGame(folder, "clock", luabind.Limits{})
	if err != nil {
		t.Fatal(err)
	}
	cls, _ := g.Find("p")
	b, err := luabind.NewModBattle(g, []*luabind.Class{cls}, engine.ModOptions{Size: 2, Rounds: 2, Seed: 1}, 100_000)
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	b.Step()
	if v := b.Snapshot().Teams[0].Values; v[0] < 400 || v[0] > 5000 || v[1] != 0 {
		t.Errorf("round 1 with 5000 instructions: used, lost = %v", v)
	}
	b.Step()
	s := b.Snapshot()
	if v := s.Teams[0].Values; v[0] < 299 || v[0] > 301 || v[1] != 1 || s.Teams[0].Stats.Timeouts != 1 {
		t.Errorf("round 2 with 300 instructions: used, lost = %v, stats %+v", v, s.Teams[0].Stats)
	}
}

// TestModConstant: a table the rules declare constant is copied into each
// team's VM once; a player changing its copy changes only its own team's
// later views, never another team's or the rules' table.
func TestModConstant(t *testing.T) {
	folder := fstest.MapFS{
		"rules.lua": {Data: []byte(`local map, asked = {1, 2, 3}, 0
return { columns = {"seen", "rules"},
  setup = function(g) g.constant(map) end,
  turns = function(g)
    if asked == g.round() then return nil end
    asked = g.round()
    return {{team = 0, view = {m = map}}, {team = 1, view = {m = map}}}
  end,
  resolve = function(g, calls, answers)
    for i = 1, 2 do g.score(i - 1, "seen", answers[i]) end
    g.score(0, "rules", map[1])
  end }`)},
		"p.lua": {Data: []byte(`return { name = "P", run = function(view)
  local v = view.m[1]
  view.m[1] = v + 10
  return v
end }`)},
		"q.lua": {Data: []byte(`return { name = "Q", run = function(view) return view.m[1] end }`)},
	}
	g, err := luabind.LoadGame(folder, "constant", luabind.Limits{})
	if err != nil {
		t.Fatal(err)
	}
	p, _ := g.Find("p")
	q, _ := g.Find("q")
	b, err := luabind.NewModBattle(g, []*luabind.Class{p, q}, engine.ModOptions{Size: 2, Rounds: 3, Seed: 1, Workers: 2}, 100_000)
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	var seen [][2]int
	for b.Step() {
		s := b.Snapshot()
		seen = append(seen, [2]int{s.Teams[0].Values[0], s.Teams[1].Values[0]})
		if s.Teams[0].Values[1] != 1 {
			t.Errorf("the rules' own table changed: %d", s.Teams[0].Values[1])
		}
	}
	if want := [][2]int{{1, 1}, {11, 1}, {21, 1}}; !reflect.DeepEqual(seen, want) {
		t.Errorf("seen %v, want %v", seen, want)
	}
}
