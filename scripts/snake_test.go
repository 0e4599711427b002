package scripts_test

import (
	"fmt"
	"io/fs"
	"reflect"
	"strings"
	"testing"
	"testing/fstest"
	"time"

	"github.com/squarebattle/squarebattle/engine"
	"github.com/squarebattle/squarebattle/luabind"
	"github.com/squarebattle/squarebattle/scripts"
)

// snakeFolder is the shipped snake folder with some of the rules' settings
// changed (consts: name to value, written into its "local NAME = ..." line
// as Lua: numbers, booleans, or a layout's Lua) plus extra players.
func snakeFolder(t testing.TB, consts map[string]any, extra map[string]string) fs.FS {
	t.Helper()
	m := fstest.MapFS{}
	entries, err := fs.ReadDir(scripts.FS, "snake")
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		data, _ := fs.ReadFile(scripts.FS, "snake/"+e.Name())
		m[e.Name()] = &fstest.MapFile{Data: data}
	}
	rules := string(m["rules.lua"].Data)
	for name, v := range consts {
		lines := strings.Split(rules, "\n")
		found := false
		for i, l := range lines {
			if strings.HasPrefix(l, "local "+name+" = ") {
				lines[i], found = fmt.Sprintf("local %s = %v", name, v), true
			}
		}
		if !found {
			t.Fatalf("rules.lua has no setting %s", name)
		}
		rules = strings.Join(lines, "\n")
	}
	m["rules.lua"] = &fstest.MapFile{Data: []byte(rules)}
	for name, src := range extra {
		// Two players must not share a name: each steer is named after its file.
		src = strings.Replace(src, `name = "Steer"`, fmt.Sprintf("name = %q", "Steer "+strings.TrimSuffix(name, ".lua")), 1)
		m[name] = &fstest.MapFile{Data: []byte(src)}
	}
	return m
}

// layout is a hand-made start for every game, set through the rules'
// LAYOUT hook: the pellet ("x,y", or "" for none), each team's body head
// first ("x,y x,y ..."), and for classic the order the teams move in
// (numbered from 0).
type layout struct {
	pellet string
	snakes []string
	order  []int
}

// lua writes the layout as the Lua table LAYOUT expects.
func (l layout) lua() string {
	cell := func(c string) string { return "{" + c + "}" }
	var b strings.Builder
	b.WriteString("{ ")
	if l.pellet != "" {
		b.WriteString("pellet = " + cell(l.pellet) + ", ")
	}
	b.WriteString("snakes = {")
	for _, body := range l.snakes {
		var cells []string
		for _, c := range strings.Fields(body) {
			cells = append(cells, cell(c))
		}
		b.WriteString(" {" + strings.Join(cells, ", ") + "},")
	}
	b.WriteString(" }")
	if len(l.order) > 0 {
		b.WriteString(", order = {")
		for _, t := range l.order {
			fmt.Fprintf(&b, " %d,", t+1)
		}
		b.WriteString(" }")
	}
	b.WriteString(" }")
	return b.String()
}

// steer is a snake player that answers plan[tick] on the ticks of every
// game, or plan[game*1000 + tick] when that is set (nothing otherwise: it
// keeps its direction). On battle round report it raises an error
// describing what it sees, for the test to read.
func steer(plan map[int]string, report int) string {
	var b strings.Builder
	b.WriteString("local plan = {")
	for tick, d := range plan {
		fmt.Fprintf(&b, " [%d] = %q,", tick, d)
	}
	b.WriteString(" }\n")
	fmt.Fprintf(&b, `return { name = "Steer", move = function(view)
  if view.round == %d then
    local me = view.snakes[view.me + 1]
    error("game " .. view.game .. " tick " .. view.tick .. " head " .. me.body[1].x .. "," .. me.body[1].y .. " length " .. #me.body .. " grow " .. me.grow)
  end
  return plan[view.game * 1000 + view.tick] or plan[view.tick]
end }
`, report)
	return b.String()
}

func snakeBattle(t testing.TB, folder fs.FS, players []string, size, rounds, workers int, seed uint64) *luabind.ModBattle {
	t.Helper()
	b := newSnakeBattle(t, folder, players, size, rounds, workers, seed)
	t.Cleanup(b.Close)
	return b
}

// newSnakeBattle is snakeBattle for a battle the caller closes.
func newSnakeBattle(t testing.TB, folder fs.FS, players []string, size, rounds, workers int, seed uint64) *luabind.ModBattle {
	t.Helper()
	limits := luabind.DefaultLimits()
	limits.Instructions = 1_000_000 // game.yaml's limits.instructions
	g, err := luabind.LoadGame(folder, "snake", limits)
	if err != nil {
		t.Fatal(err)
	}
	classes := findPlayers(t, g, players)
	b, err := luabind.NewModBattle(g, classes, engine.ModOptions{Size: size, Rounds: rounds, Seed: seed, Workers: workers}, rulesBudget)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// pelletAt finds the cell holding the pellet, or -1, -1.
func pelletAt(s *engine.Snapshot) (x, y int) {
	for i, m := range s.Marks {
		if m.Style() == engine.StyleItem {
			return i % s.Size, i / s.Size
		}
	}
	return -1, -1
}

// snakeOn describes team's snake on the board: "head X,Y length N", or
// "gone".
func snakeOn(s *engine.Snapshot, team int) string {
	hx, hy, n := -1, -1, 0
	for i, c := range s.Cells {
		if int(c) != team {
			continue
		}
		n++
		if m := s.Marks[i]; m.Style() == engine.StyleUnit && m.Value() == 1 {
			hx, hy = i%s.Size, i/s.Size
		}
	}
	if n == 0 {
		return "gone"
	}
	return fmt.Sprintf("head %d,%d length %d", hx, hy, n)
}

func reported(s *engine.Snapshot) string {
	var out []string
	for _, p := range s.FirstProblems {
		if i := strings.Index(p.Message, "game "); i >= 0 {
			out = append(out, fmt.Sprintf("team %d: %s", p.Team, p.Message[i:]))
		}
	}
	return strings.Join(out, "; ")
}

// snakeCase is a hand-made situation on a 7×7 board: a layout, the
// teams' plans (see steer), and what the board and the score columns are
// after steps rounds (and, when report is set, what a player saw on that
// round).
type snakeCase struct {
	name   string
	mode   string // "" both modes, "default" or "classic" only
	consts map[string]any
	layout layout
	plans  []map[int]string
	steps  int
	report int
	want   snakeWant
	// classic, when set, is what classic mode shows instead of want.
	classic *snakeWant
}

type snakeWant struct {
	snakes []string // snakeOn per team
	values [][]int  // score columns per team, when set
	report string
	over   bool
	winner int  // the battle's winner when over (-1: none)
	eaten  bool // the first pellet is gone and another is on the board
}

// runSnakeCases plays each case in each of its modes.
func runSnakeCases(t *testing.T, cases []snakeCase) {
	for _, c := range cases {
		for _, mode := range []string{"default", "classic"} {
			if c.mode != "" && c.mode != mode {
				continue
			}
			c := c
			if mode == "classic" && c.classic != nil {
				c.want = *c.classic
			}
			t.Run(c.name+"/"+mode, func(t *testing.T) { runSnakeCase(t, c, mode == "classic") })
		}
	}
}

func runSnakeCase(t *testing.T, c snakeCase, classic bool) {
	extra := map[string]string{}
	var players []string
	for i, plan := range c.plans {
		name := fmt.Sprintf("p%d", i)
		report := -1
		if c.report > 0 {
			report = c.report
		}
		extra[name+".lua"] = steer(plan, report)
		players = append(players, name)
	}
	consts := map[string]any{"LAYOUT": c.layout.lua(), "CLASSIC": classic}
	for k, v := range c.consts {
		consts[k] = v
	}
	b := snakeBattle(t, snakeFolder(t, consts, extra), players, 7, 100, 1, 1)
	rounds := max(c.steps, c.report)
	var s *engine.Snapshot
	for i := 0; i < rounds && b.Step(); i++ {
		if i+1 == c.steps {
			s = b.Snapshot()
		}
	}
	if s == nil {
		s = b.Snapshot()
	}
	if b.Err() != nil {
		t.Fatal(b.Err())
	}
	for team, w := range c.want.snakes {
		if got := snakeOn(s, team); got != w {
			t.Errorf("team %d: %s, want %s", team, got, w)
		}
	}
	for team, w := range c.want.values {
		if got := s.Teams[team].Values; !reflect.DeepEqual(got, w) {
			t.Errorf("team %d: columns %v, want %v", team, got, w)
		}
	}
	if c.want.eaten {
		want := strings.ReplaceAll(c.layout.pellet, " ", "")
		if x, y := pelletAt(s); x < 0 || fmt.Sprintf("%d,%d", x, y) == want {
			t.Errorf("the pellet at %s was not eaten and put back (now at %d,%d)", want, x, y)
		}
	}
	if c.want.over != b.Over() {
		t.Errorf("over %v after round %d, want %v", b.Over(), b.Round(), c.want.over)
	}
	if c.want.over && s.Winner != c.want.winner {
		t.Errorf("winner %d, want %d", s.Winner, c.want.winner)
	}
	if got := reported(b.Snapshot()); got != c.want.report {
		t.Errorf("reported %q, want %q", got, c.want.report)
	}
}

// row3 is a snake of three cells in row 3, head at column 3, heading
// right.
const row3 = "3,3 2,3 1,3"

// TestSnakeMoves pins the movement rules clause by clause, in both modes
// unless a case says otherwise; snake_original_test.go has the cases where
// the modes, or these rules and the original, part.
func TestSnakeMoves(t *testing.T) {
	// One game: classic ends a solo match after ceil(GAMES/2) games.
	solo := map[string]any{"SOLO_GAMES": 1, "GAMES": 1}
	runSnakeCases(t, []snakeCase{
		{name: "no answer keeps the direction", layout: layout{snakes: []string{row3}},
			plans: []map[int]string{{}}, steps: 2, want: snakeWant{snakes: []string{"head 5,3 length 3"}}},
		{name: "the seed's letters", layout: layout{snakes: []string{row3}},
			plans: []map[int]string{{1: "u", 2: "l"}}, steps: 2, want: snakeWant{snakes: []string{"head 2,4 length 3"}}},
		{name: "walls kill; a solo game ends at 0 snakes", consts: solo, layout: layout{snakes: []string{row3}},
			plans: []map[int]string{{}}, steps: 10,
			want:    snakeWant{snakes: []string{"gone"}, values: [][]int{{4, 1, 0, 4, 0}}, over: true},
			classic: &snakeWant{snakes: []string{"gone"}, values: [][]int{{4 + 2500, 1, 0, 4, 0}}, over: true}},
		{name: "reversing into the neck kills", consts: solo, layout: layout{snakes: []string{row3}},
			plans: []map[int]string{{1: "left"}}, steps: 10,
			want:    snakeWant{snakes: []string{"gone"}, values: [][]int{{1, 1, 0, 1, 0}}, over: true},
			classic: &snakeWant{snakes: []string{"gone"}, values: [][]int{{1 + 2500, 1, 0, 1, 0}}, over: true}},
		{name: "a snake of length 1 has no neck", layout: layout{snakes: []string{"3,3"}},
			plans: []map[int]string{{1: "left"}}, steps: 1, want: snakeWant{snakes: []string{"head 2,3 length 1"}}},
		{name: "into its own body", consts: solo, layout: layout{snakes: []string{"4,3 3,3 2,3 1,3 0,3"}},
			plans: []map[int]string{{1: "up", 2: "left", 3: "down"}}, steps: 10,
			want:    snakeWant{values: [][]int{{3, 1, 0, 3, 0}}, over: true},
			classic: &snakeWant{values: [][]int{{3 + 2500, 1, 0, 3, 0}}, over: true}},
		{name: "three cells circle a 2×2 block: the fourth is free", layout: layout{snakes: []string{"3,3 2,3 2,2"}},
			plans: []map[int]string{{1: "down", 2: "left", 3: "up", 4: "right"}}, steps: 4,
			want: snakeWant{snakes: []string{"head 3,3 length 3"}, values: [][]int{{4, 0, 0, 4, 3}}}},
		{name: "into another snake's body", consts: map[string]any{"GAMES": 1},
			layout: layout{snakes: []string{row3, "4,4 4,3 4,2"}}, plans: []map[int]string{{}, {1: "up"}}, steps: 1,
			want: snakeWant{values: [][]int{{1, 0, 0, 1, 0}, {1 + 1000 + 2500, 1, 0, 1, 3}}, over: true, winner: 1}},
		{name: "heads meeting all die; equal pellets: a wash",
			layout: layout{snakes: []string{row3, "5,3 6,3"}}, plans: []map[int]string{{}, {1: "left"}}, steps: 1, report: 2,
			want: snakeWant{values: [][]int{{0, 0, 0, 0, 3}, {0, 0, 0, 0, 2}},
				report: "team 0: game 2 tick 1 head 3,3 length 3 grow 0; team 1: game 2 tick 1 head 5,3 length 2 grow 0"}},
		{name: "heads meeting on the pellet eat it without points", consts: map[string]any{"GAMES": 1},
			layout: layout{pellet: "4,3", snakes: []string{row3, "5,3 6,3", "0,6 0,5"}}, plans: []map[int]string{{}, {1: "left"}, {}}, steps: 1,
			want: snakeWant{snakes: []string{"gone", "gone", "head 1,6 length 2"}, over: true, winner: 2, eaten: true,
				values: [][]int{{1, 0, 0, 1, 0}, {1, 0, 0, 1, 0}, {1 + 1000 + 2500, 1, 0, 1, 2}}},
			// The original: two snakes died on the last tick with a pellet
			// each (none), so its pellet-leader rule finds a tie: a wash,
			// and the next game starts as the first did.
			classic: &snakeWant{snakes: []string{"head 3,3 length 3", "head 5,3 length 2", "head 0,6 length 2"},
				values: [][]int{{0, 0, 0, 0, 3}, {0, 0, 0, 0, 2}, {0, 0, 0, 0, 2}}}},
		{name: "growth is per pellet", consts: map[string]any{"GROWTH": 3}, layout: layout{pellet: "4,3", snakes: []string{row3}},
			plans: []map[int]string{{2: "up", 3: "up", 4: "left"}}, steps: 4, report: 5,
			want: snakeWant{snakes: []string{"head 3,5 length 6"}, report: "team 0: game 1 tick 5 head 3,5 length 6 grow 0"}},
		{name: "no pellet for PATIENCE ticks: the game counts for nothing", consts: map[string]any{"PATIENCE": 5},
			layout: layout{pellet: "6,6", snakes: []string{"3,3 2,3 2,2"}},
			plans:  []map[int]string{{1: "down", 2: "left", 3: "up", 4: "right", 5: "down"}}, steps: 6, report: 6,
			want: snakeWant{values: [][]int{{1, 0, 0, 1, 3}}, report: "team 0: game 2 tick 1 head 3,3 length 3 grow 0"}},
	})
}

// TestSnakeRoundLimit: at the round limit the game being played counts for
// nothing and the match is decided as it stands.
func TestSnakeRoundLimit(t *testing.T) {
	folder := snakeFolder(t, map[string]any{"GAMES": 5, "LAYOUT": layout{snakes: []string{row3, "3,5 2,5 1,5"}}.lua()}, map[string]string{
		"p0.lua": steer(nil, -1), "p1.lua": steer(map[int]string{2: "left"}, -1)})
	b := snakeBattle(t, folder, []string{"p0", "p1"}, 7, 3, 1, 1)
	for b.Step() {
	}
	s := b.Snapshot()
	// Game 1 (two ticks) won by team 0; game 2, one tick in, dropped.
	if s.Round != 3 || s.Winner != 0 || !reflect.DeepEqual(s.Teams[0].Values[:4], []int{2 + 1000 + 2500, 1, 0, 2}) || !reflect.DeepEqual(s.Teams[1].Values[:4], []int{2, 0, 0, 2}) {
		t.Errorf("round %d, winner %d, columns %v %v", s.Round, s.Winner, s.Teams[0].Values, s.Teams[1].Values)
	}
}

// snakeInvariants: one pellet, on a cell no snake holds; every living
// snake's cells on the board match its length column.
func snakeInvariants(t *testing.T, s *engine.Snapshot) {
	t.Helper()
	items, cells := 0, make([]int, len(s.Teams))
	for i, m := range s.Marks {
		if m.Style() == engine.StyleItem {
			items++
			if s.Cells[i] != engine.Empty {
				t.Fatalf("round %d: the pellet is on team %d", s.Round, s.Cells[i])
			}
		}
		if c := s.Cells[i]; c >= 0 {
			cells[c]++
		}
	}
	if items != 1 {
		t.Fatalf("round %d: %d pellets", s.Round, items)
	}
	for team, tv := range s.Teams {
		if tv.Values[4] != cells[team] {
			t.Fatalf("round %d: team %d has %d cells, length %d", s.Round, team, cells[team], tv.Values[4])
		}
	}
}

// TestSnakeDeterministic: four snakes on a 16×16 board (so games end) with
// one and with four workers play the same battle, in each mode; the
// invariants hold every round.
func TestSnakeDeterministic(t *testing.T) {
	t.Parallel() // whole games: beside another when a core is free (the soaks, which count goroutines, run first)

	for _, classic := range []bool{false, true} {
		t.Run(fmt.Sprintf("classic=%v", classic), func(t *testing.T) { snakeDeterministic(t, classic) })
	}
}

func snakeDeterministic(t *testing.T, classic bool) {
	players := []string{"hungry", "cautious", "hungry", "cautious"}
	var snaps []*engine.Snapshot
	for _, workers := range []int{1, 4} {
		b := snakeBattle(t, snakeFolder(t, map[string]any{"CLASSIC": classic}, nil), players, 16, 1500, workers, 11)
		for b.Step() {
			snakeInvariants(t, b.Snapshot())
		}
		if b.Err() != nil {
			t.Fatal(b.Err())
		}
		snaps = append(snaps, b.Snapshot())
	}
	if !reflect.DeepEqual(snaps[0], snaps[1]) {
		t.Error("one and four workers differ")
	}
	s := snaps[0]
	games, pellets := 0, 0
	for team, tv := range s.Teams {
		if tv.Stats.Errors+tv.Stats.Timeouts != 0 {
			t.Errorf("team %d: %+v", team, tv.Stats)
		}
		games += tv.Values[1]
		pellets += tv.Values[2]
	}
	if games == 0 || pellets == 0 {
		t.Errorf("%d games won, %d pellets eaten in %d rounds", games, pellets, s.Round)
	}
}

// TestSnakeBots: Cautious, which looks for room, wins a short match
// against Hungry, which only looks for food.
func TestSnakeBots(t *testing.T) {
	t.Parallel() // whole games: beside another when a core is free (the soaks, which count goroutines, run first)

	b := snakeBattle(t, snakeFolder(t, map[string]any{"GAMES": 5}, nil), []string{"hungry", "cautious"}, 30, 20000, 2, 5)
	for b.Step() {
	}
	s := b.Snapshot()
	if s.Winner != 1 || b.Err() != nil {
		t.Errorf("winner %d after %d rounds (%v): %v %v", s.Winner, s.Round, b.Err(), s.Teams[0].Values, s.Teams[1].Values)
	}
}

// BenchmarkSnake: Hungry against Cautious on the 30×30 board; reports ticks
// per second (rounds of the battle, one call per living snake each).
func BenchmarkSnake(b *testing.B) {
	folder := snakeFolder(b, nil, nil)
	ticks := 0
	start := time.Now()
	for i := 0; i < b.N; i++ {
		bt := newSnakeBattle(b, folder, []string{"hungry", "cautious"}, 30, 2000, 2, uint64(i+1))
		for bt.Step() {
			ticks++
		}
		bt.Close()
	}
	b.ReportMetric(float64(ticks)/time.Since(start).Seconds(), "ticks/s")
}
