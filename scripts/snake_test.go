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

// snakeFolder is the shipped snake folder with some of the rules' constants
// changed (consts: name to value, e.g. "GROWTH": 2) plus extra players.
func snakeFolder(t testing.TB, consts map[string]int, extra map[string]string) fs.FS {
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
				lines[i], found = fmt.Sprintf("local %s = %d", name, v), true
			}
		}
		if !found {
			t.Fatalf("rules.lua has no constant %s", name)
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

// steer is a snake player that answers plan[tick] on the ticks of every
// game (nothing otherwise: it keeps its direction). On battle round report
// it raises an error describing what it sees, for the test to read.
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
  return plan[view.tick]
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

// snakeSeed finds a seed whose first pellet lies at (x, y).
func snakeSeed(t *testing.T, folder fs.FS, players []string, size, x, y int) uint64 {
	t.Helper()
	for seed := uint64(1); seed < 5000; seed++ {
		b := newSnakeBattle(t, folder, players, size, 10, 1, seed)
		px, py := pelletAt(b.Snapshot())
		b.Close()
		if px == x && py == y {
			return seed
		}
	}
	t.Fatalf("no seed puts the first pellet at %d,%d", x, y)
	return 0
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

// TestSnakeStart: snake t lies in row (t+1)·size/(teams+1), head at column
// START_LENGTH, heading right; the pellet is on a free cell.
func TestSnakeStart(t *testing.T) {
	b := snakeBattle(t, snakeFolder(t, nil, nil), []string{"hungry", "cautious", "hungry"}, 30, 10, 1, 3)
	s := b.Snapshot()
	for team, want := range []string{"head 3,7 length 3", "head 3,15 length 3", "head 3,22 length 3"} {
		if got := snakeOn(s, team); got != want {
			t.Errorf("team %d: %s, want %s", team, got, want)
		}
		if got := s.Teams[team].Values; !reflect.DeepEqual(got, []int{0, 0, 0, 0, 3}) {
			t.Errorf("team %d: columns %v", team, got)
		}
	}
	if x, y := pelletAt(s); x < 0 || s.Cells[y*30+x] != engine.Empty {
		t.Errorf("pellet at %d,%d", x, y)
	}
	if want := []string{"score", "games", "pellets", "ticks", "length"}; !reflect.DeepEqual(s.Columns, want) {
		t.Errorf("columns %v", s.Columns)
	}
}

// TestSnakeMoves pins the movement rule clause by clause on a 7×7 board:
// two snakes start in rows 2 and 4 (three in rows 1, 3, 5; one in row 3),
// heads at column START_LENGTH. Each case steps the battle and reads the
// board (and, when report is set, what a player saw on that round).
func TestSnakeMoves(t *testing.T) {
	type want struct {
		snakes []string // snakeOn per team
		values [][]int  // score columns per team, when set
		report string
		over   bool
		eaten  bool // the first pellet is gone and another is on the board
	}
	cases := []struct {
		name   string
		consts map[string]int
		plans  []map[int]string
		pellet [2]int // the first pellet, when set (found by seed)
		steps  int
		report int
		want   want
	}{
		{name: "no valid answer keeps the direction", plans: []map[int]string{{1: "north", 2: "UP"}},
			steps: 2, want: want{snakes: []string{"head 5,3 length 3"}}},
		{name: "the seed's letters", plans: []map[int]string{{1: "u", 2: "l"}},
			steps: 2, want: want{snakes: []string{"head 2,4 length 3"}}},
		{name: "walls kill; a solo game ends at 0 snakes", consts: map[string]int{"SOLO_GAMES": 1},
			plans: []map[int]string{{}}, steps: 10,
			want: want{snakes: []string{"gone"}, values: [][]int{{3, 0, 0, 3, 0}}, over: true}},
		{name: "reversing into the neck kills", consts: map[string]int{"SOLO_GAMES": 1},
			plans: []map[int]string{{1: "left"}}, steps: 10,
			want: want{snakes: []string{"gone"}, values: [][]int{{0, 0, 0, 0, 0}}, over: true}},
		{name: "a snake of length 1 has no neck", consts: map[string]int{"START_LENGTH": 1},
			plans: []map[int]string{{1: "left"}}, steps: 1, want: want{snakes: []string{"head 0,3 length 1"}}},
		{name: "into its own body", consts: map[string]int{"START_LENGTH": 5, "SOLO_GAMES": 1},
			plans: []map[int]string{{1: "up", 2: "left", 3: "down"}}, steps: 10,
			want: want{values: [][]int{{2, 0, 0, 2, 0}}, over: true}},
		{name: "chasing its own tail", consts: map[string]int{"START_LENGTH": 4},
			plans: []map[int]string{{1: "up", 2: "left", 3: "down", 4: "right", 5: "up", 6: "left", 7: "down", 8: "right"}}, steps: 8,
			want: want{snakes: []string{"head 4,3 length 4"}, values: [][]int{{8, 0, 0, 8, 4}}}},
		{name: "into another snake's tail as it leaves", consts: map[string]int{"START_LENGTH": 4},
			plans: []map[int]string{{1: "up", 2: "left", 3: "up"}, {1: "right", 2: "right", 3: "up"}}, steps: 3,
			want: want{snakes: []string{"head 3,4 length 4", "head 6,5 length 4"}}},
		{name: "into another snake's body", consts: map[string]int{"START_LENGTH": 4, "GAMES": 1},
			plans: []map[int]string{{1: "up", 2: "up"}, {1: "right", 2: "right"}}, steps: 2,
			want: want{values: [][]int{{1, 0, 0, 1, 0}, {1002 + 2500, 1, 0, 2, 4}}, over: true}},
		{name: "heads meeting all die: a wash", plans: []map[int]string{{1: "up"}, {1: "down"}}, steps: 2, report: 2,
			want: want{values: [][]int{{1, 0, 0, 1, 3}, {1, 0, 0, 1, 3}}, report: "team 0: game 2 tick 1 head 3,2 length 3 grow 0; team 1: game 2 tick 1 head 3,4 length 3 grow 0"}},
		{name: "heads meeting on the pellet eat it without points", consts: map[string]int{"GAMES": 1},
			plans: []map[int]string{{1: "up"}, {1: "down"}, {}}, pellet: [2]int{3, 2}, steps: 1,
			want: want{snakes: []string{"gone", "gone", "head 4,5 length 3"}, over: true, eaten: true,
				values: [][]int{{0, 0, 0, 0, 0}, {0, 0, 0, 0, 0}, {1 + 1000 + 2500, 1, 0, 1, 3}}}},
		{name: "a pellet grows the snake from the next tick", pellet: [2]int{4, 3},
			plans: []map[int]string{{}}, steps: 1, report: 3,
			want: want{snakes: []string{"head 4,3 length 3"}, values: [][]int{{51, 0, 1, 1, 3}}, eaten: true, report: "team 0: game 1 tick 3 head 5,3 length 4 grow 0"}},
		{name: "growth is per pellet", consts: map[string]int{"GROWTH": 3}, pellet: [2]int{4, 3},
			plans: []map[int]string{{2: "up", 3: "up", 4: "left"}}, steps: 4, report: 5,
			want: want{snakes: []string{"head 3,5 length 6"}, report: "team 0: game 1 tick 5 head 3,5 length 6 grow 0"}},
		{name: "a growing snake's tail stays", consts: map[string]int{"GROWTH": 2, "SOLO_GAMES": 1}, pellet: [2]int{3, 4},
			plans: []map[int]string{{1: "up", 2: "left", 3: "down"}}, steps: 3,
			want: want{snakes: []string{"gone"}, values: [][]int{{52, 0, 1, 2, 0}}, over: true}},
		{name: "a tail that is done growing moves", consts: map[string]int{"GROWTH": 1}, pellet: [2]int{3, 4},
			plans: []map[int]string{{1: "up", 2: "left", 3: "down"}}, steps: 3,
			want: want{snakes: []string{"head 2,3 length 4"}, values: [][]int{{53, 0, 1, 3, 4}}}},
		{name: "the last snake alive wins the game", consts: map[string]int{"GAMES": 5},
			plans: []map[int]string{{1: "up", 2: "left", 3: "down", 4: "left"}, {}}, steps: 4,
			want: want{values: [][]int{{1004, 1, 0, 4, 3}, {3, 0, 0, 3, 3}}}},
		{name: "best of 3: two games won end the match, +2500", consts: map[string]int{"GAMES": 3},
			plans: []map[int]string{{1: "up", 2: "left", 3: "down", 4: "left"}, {}}, steps: 20,
			want: want{values: [][]int{{2*1004 + 2500, 2, 0, 8, 3}, {6, 0, 0, 6, 0}}, over: true}},
		{name: "no pellet for PATIENCE ticks: the game counts for nothing", consts: map[string]int{"START_LENGTH": 4, "PATIENCE": 5},
			plans: []map[int]string{{1: "up", 2: "left", 3: "down", 4: "right", 5: "up"}}, steps: 6, report: 6,
			want: want{values: [][]int{{1, 0, 0, 1, 4}}, report: "team 0: game 2 tick 1 head 4,3 length 4 grow 0"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
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
			folder := snakeFolder(t, c.consts, extra)
			seed := uint64(1)
			if c.pellet != [2]int{} {
				seed = snakeSeed(t, folder, players, 7, c.pellet[0], c.pellet[1])
			}
			rounds := max(c.steps, c.report)
			b := snakeBattle(t, folder, players, 7, 100, 1, seed)
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
			if x, y := pelletAt(s); c.want.eaten && (x < 0 || [2]int{x, y} == c.pellet) {
				t.Errorf("the pellet at %v was not eaten and put back (now at %d,%d)", c.pellet, x, y)
			}
			if c.want.over != b.Over() {
				t.Errorf("over %v after round %d, want %v", b.Over(), b.Round(), c.want.over)
			}
			if got := reported(b.Snapshot()); got != c.want.report {
				t.Errorf("reported %q, want %q", got, c.want.report)
			}
		})
	}
}

// TestSnakeMatchWinner: the battle's winner is the match winner; solo the
// snake itself, without a match bonus.
func TestSnakeMatchWinner(t *testing.T) {
	b := snakeBattle(t, snakeFolder(t, map[string]int{"GAMES": 3}, map[string]string{
		"p0.lua": steer(map[int]string{1: "up", 2: "left", 3: "down", 4: "left"}, -1), "p1.lua": steer(nil, -1)}),
		[]string{"p1", "p0"}, 7, 100, 1, 1)
	for b.Step() {
	}
	// Team 1 (p0) survives; team 0 hits the wall.
	if s := b.Snapshot(); s.Winner != 1 || s.Teams[1].Values[0] != 2*1004+2500 {
		t.Errorf("winner %d, columns %v", s.Winner, s.Teams[1].Values)
	}
	b = snakeBattle(t, snakeFolder(t, map[string]int{"SOLO_GAMES": 2}, map[string]string{"p1.lua": steer(nil, -1)}), []string{"p1"}, 7, 100, 1, 1)
	for b.Step() {
	}
	if s := b.Snapshot(); s.Winner != 0 || s.Round != 8 || !reflect.DeepEqual(s.Teams[0].Values, []int{6, 0, 0, 6, 0}) {
		t.Errorf("solo: winner %d after %d rounds, columns %v", s.Winner, s.Round, s.Teams[0].Values)
	}
}

// TestSnakeRoundLimit: at the round limit the game being played counts for
// nothing and the match is decided as it stands.
func TestSnakeRoundLimit(t *testing.T) {
	folder := snakeFolder(t, map[string]int{"GAMES": 5}, map[string]string{
		"p0.lua": steer(map[int]string{1: "up", 2: "left", 3: "down", 4: "left"}, -1), "p1.lua": steer(nil, -1)})
	b := snakeBattle(t, folder, []string{"p0", "p1"}, 7, 6, 1, 1)
	for b.Step() {
	}
	s := b.Snapshot()
	if s.Round != 6 || s.Winner != 0 || !reflect.DeepEqual(s.Teams[0].Values[:4], []int{1004 + 2500, 1, 0, 4}) || !reflect.DeepEqual(s.Teams[1].Values[:4], []int{3, 0, 0, 3}) {
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
// one and with four workers play the same battle; the invariants hold every
// round.
func TestSnakeDeterministic(t *testing.T) {
	players := []string{"hungry", "cautious", "hungry", "cautious"}
	var snaps []*engine.Snapshot
	for _, workers := range []int{1, 4} {
		b := snakeBattle(t, snakeFolder(t, nil, nil), players, 16, 1500, workers, 11)
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
	b := snakeBattle(t, snakeFolder(t, map[string]int{"GAMES": 5}, nil), []string{"hungry", "cautious"}, 30, 20000, 2, 5)
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
