package scripts_test

import (
	"fmt"
	"reflect"
	"sort"
	"testing"

	"github.com/squarebattle/squarebattle/engine"
	"github.com/squarebattle/squarebattle/luabind"
)

// The cases below pin, one by one, the points where the snake mod was
// compared against the original program (docs/modding.md, "Snake:
// differences from the original"), in the default mode and in classic.

// far is a second snake out of everyone's way: top left, heading right.
const far = "0,6 0,5"

// TestSnakeOriginal: one hand-made situation per point.
func TestSnakeOriginal(t *testing.T) {
	one := map[string]any{"GAMES": 1}
	runSnakeCases(t, []snakeCase{
		{name: "entering its own tail cell kills", consts: one,
			layout: layout{snakes: []string{"3,3 2,3 2,2 3,2", far}}, plans: []map[int]string{{1: "down"}, {}}, steps: 1,
			want: snakeWant{snakes: []string{"gone", "head 1,6 length 2"}, over: true, winner: 1,
				values: [][]int{{1, 0, 0, 1, 0}, {1 + 1000 + 2500, 1, 0, 1, 2}}}},
		{name: "growth starts on the tick the pellet is eaten", consts: map[string]any{"GROWTH": 1},
			layout: layout{pellet: "4,3", snakes: []string{row3}}, plans: []map[int]string{{}}, steps: 1, report: 2,
			want: snakeWant{snakes: []string{"head 4,3 length 4"}, values: [][]int{{51, 0, 1, 1, 4}}, eaten: true,
				report: "team 0: game 1 tick 2 head 4,3 length 4 grow 0"}},
		{name: "an invalid answer: the snake stays and dies", consts: one,
			layout: layout{snakes: []string{row3, far}}, plans: []map[int]string{{1: "north"}, {}}, steps: 1,
			want: snakeWant{snakes: []string{"gone", "head 1,6 length 2"}, over: true, winner: 1,
				values: [][]int{{1, 0, 0, 1, 0}, {1 + 1000 + 2500, 1, 0, 1, 2}}}},
		{name: "a dead snake scores the tick it dies on", consts: one,
			layout: layout{snakes: []string{row3, far}}, plans: []map[int]string{{}, {}}, steps: 4,
			want: snakeWant{snakes: []string{"gone", "head 4,6 length 2"}, over: true, winner: 1,
				values: [][]int{{4, 0, 0, 4, 0}, {4 + 1000 + 2500, 1, 0, 4, 2}}}},
		{name: "the last snakes die together: the pellet leader is the last man", consts: one,
			layout: layout{pellet: "3,3", snakes: []string{"2,3 1,3 0,3", "6,3 6,2"}}, plans: []map[int]string{{}, {1: "left", 2: "left"}}, steps: 2,
			want: snakeWant{snakes: []string{"gone", "gone"}, over: true, winner: 0,
				values: [][]int{{50 + 2 + 1000 + 2500, 1, 1, 2, 0}, {2, 0, 0, 2, 0}}}},
		{name: "two die on the last tick and one survives", consts: one,
			layout: layout{pellet: "3,3", snakes: []string{"2,3 1,3 0,3", "6,3 6,2", far}}, plans: []map[int]string{{}, {1: "left", 2: "left"}, {}}, steps: 2,
			want: snakeWant{snakes: []string{"gone", "gone", "head 2,6 length 2"}, over: true, winner: 2,
				values: [][]int{{52, 0, 1, 2, 0}, {2, 0, 0, 2, 0}, {2 + 1000 + 2500, 1, 0, 2, 2}}},
			// The original gives the bonus to the pellet leader of the two.
			classic: &snakeWant{snakes: []string{"gone", "gone", "head 2,6 length 2"}, over: true, winner: 0,
				values: [][]int{{52 + 1000 + 2500, 1, 1, 2, 0}, {2, 0, 0, 2, 0}, {2, 0, 0, 2, 2}}}},
		{name: "the highest game score wins the game, not the survivor", consts: map[string]any{"GAMES": 1, "SURVIVOR": 10},
			layout: layout{pellet: "3,3", snakes: []string{"2,3 1,3 0,3", far}}, plans: []map[int]string{{2: "left"}, {}}, steps: 2,
			want: snakeWant{snakes: []string{"gone", "head 2,6 length 2"}, over: true, winner: 0,
				values: [][]int{{52 + 2500, 1, 1, 2, 0}, {2 + 10, 0, 0, 2, 2}}}},
		{name: "a tie for the highest game score", consts: map[string]any{"GAMES": 1, "SURVIVOR": 0},
			layout: layout{snakes: []string{row3, far}}, plans: []map[int]string{{1: "left"}, {}}, steps: 1,
			// A wash (the seed: a tie is a wash): the next game starts.
			want: snakeWant{snakes: []string{"head 3,3 length 3", "head 0,6 length 2"},
				values: [][]int{{0, 0, 0, 0, 3}, {0, 0, 0, 0, 2}}},
			// The original: the lowest team wins it.
			classic: &snakeWant{snakes: []string{"gone", "head 1,6 length 2"}, over: true, winner: 0,
				values: [][]int{{1 + 2500, 1, 0, 1, 0}, {1, 0, 0, 1, 2}}}},
		{name: "best of an even 4: two wins take the match", consts: map[string]any{"GAMES": 4},
			layout: layout{snakes: []string{row3, "3,5 2,5 1,5"}}, plans: []map[int]string{{}, {1: "left"}}, steps: 2,
			want: snakeWant{over: true, winner: 0, values: [][]int{{2*1001 + 2500, 2, 0, 2, 3}, {2, 0, 0, 2, 0}}}},
		{name: "best of 3 with the wins split three ways", consts: map[string]any{"GAMES": 3},
			layout: layout{snakes: []string{"3,1 2,1 1,1", row3, "3,5 2,5 1,5"}},
			plans:  []map[int]string{{2001: "left", 3001: "left"}, {1001: "left", 3002: "left"}, {1002: "left", 2002: "left"}}, steps: 6,
			// Three games counted, one won each: the most points (the
			// snake that lived longest when it lost) takes the match.
			want: snakeWant{over: true, winner: 2,
				values: [][]int{{1002 + 1 + 1, 1, 0, 4, 0}, {1 + 1002 + 2, 1, 0, 5, 0}, {2 + 2 + 1002 + 2500, 1, 0, 6, 3}}},
			// The original plays on until a snake has won ceil(3/2) games.
			classic: &snakeWant{values: [][]int{{1004, 1, 0, 4, 3}, {1005, 1, 0, 5, 3}, {1006, 1, 0, 6, 3}}}},
		{name: "a solo match", consts: map[string]any{"GAMES": 5, "SOLO_GAMES": 2},
			layout: layout{snakes: []string{row3}}, plans: []map[int]string{{1: "left"}}, steps: 10,
			want: snakeWant{over: true, winner: 0, values: [][]int{{2, 2, 0, 2, 0}}},
			// The original: ceil(GAMES/2) games, and the match bonus.
			classic: &snakeWant{over: true, winner: 0, values: [][]int{{3 + 2500, 3, 0, 3, 0}}}},
	})
}

// TestSnakeClassicOrder: classic moves the snakes one after another, each
// seeing the board as the ones before it left it; the default mode judges
// every snake on the board as the tick began.
func TestSnakeClassicOrder(t *testing.T) {
	one := map[string]any{"GAMES": 1}
	tail := []string{row3, "5,4 5,3 4,3"} // team 0 heads into team 1's tail, which leaves
	swap := []string{row3, "4,3 5,3 6,3"} // the heads trade cells
	bothLive := snakeWant{snakes: []string{"head 4,3 length 3", "head 6,4 length 3"}, values: [][]int{{1, 0, 0, 1, 3}, {1, 0, 0, 1, 3}}}
	oneWins := func(w int) *snakeWant {
		v := [][]int{{1, 0, 0, 1, 0}, {1, 0, 0, 1, 0}}
		v[w] = []int{1 + 1000 + 2500, 1, 0, 1, 3}
		return &snakeWant{over: true, winner: w, values: v}
	}
	runSnakeCases(t, []snakeCase{
		{name: "into a leaving tail", mode: "default", consts: one, layout: layout{snakes: tail},
			plans: []map[int]string{{}, {}}, steps: 1, want: *oneWins(1)},
		{name: "into a leaving tail, its snake first", mode: "classic", consts: one, layout: layout{snakes: tail, order: []int{1, 0}},
			plans: []map[int]string{{}, {}}, steps: 1, want: bothLive},
		{name: "into a leaving tail, its snake last", mode: "classic", consts: one, layout: layout{snakes: tail, order: []int{0, 1}},
			plans: []map[int]string{{}, {}}, steps: 1, want: *oneWins(1)},
		{name: "heads trading cells: both die, a wash", mode: "default", consts: one, layout: layout{snakes: swap},
			plans: []map[int]string{{}, {1: "left"}}, steps: 1,
			want: snakeWant{snakes: []string{"head 3,3 length 3", "head 4,3 length 3"}, values: [][]int{{0, 0, 0, 0, 3}, {0, 0, 0, 0, 3}}}},
		{name: "heads trading cells: the first dies and frees its head", mode: "classic", consts: one, layout: layout{snakes: swap, order: []int{0, 1}},
			plans: []map[int]string{{}, {1: "left"}}, steps: 1, want: *oneWins(1)},
		{name: "heads trading cells, the other first", mode: "classic", consts: one, layout: layout{snakes: swap, order: []int{1, 0}},
			plans: []map[int]string{{}, {1: "left"}}, steps: 1, want: *oneWins(0)},
	})
}

// snakeCells lists each team's cells (x, y) on the board.
func snakeCells(s *engine.Snapshot) map[int][][2]int {
	cells := map[int][][2]int{}
	for i, c := range s.Cells {
		if c >= 0 {
			cells[int(c)] = append(cells[int(c)], [2]int{i % s.Size, i / s.Size})
		}
	}
	return cells
}

// TestSnakeStart: every game starts with the pellet on a free cell and
// each snake hanging straight down from its head, all on the board, at
// places the seed draws (classic: one cell longer, as the original builds
// them); the same seed lays out the same start.
func TestSnakeStart(t *testing.T) {
	players := []string{"hungry", "cautious", "hungry"}
	for _, c := range []struct {
		classic bool
		length  int
	}{{false, 5}, {true, 6}} {
		t.Run(fmt.Sprintf("classic=%v", c.classic), func(t *testing.T) {
			folder := snakeFolder(t, map[string]any{"CLASSIC": c.classic}, nil)
			var starts []map[int][][2]int
			for _, seed := range []uint64{3, 3, 4} {
				s := snakeBattle(t, folder, players, 30, 10, 1, seed).Snapshot()
				cells := snakeCells(s)
				for team := range players {
					body := cells[team]
					sort.Slice(body, func(i, j int) bool { return body[i][1] > body[j][1] })
					if len(body) != c.length {
						t.Fatalf("seed %d team %d: %d cells, want %d", seed, team, len(body), c.length)
					}
					for i, p := range body {
						if p[0] != body[0][0] || p[1] != body[0][1]-i {
							t.Errorf("seed %d team %d: not a straight line down from its head: %v", seed, team, body)
						}
					}
					if want, got := fmt.Sprintf("head %d,%d length %d", body[0][0], body[0][1], c.length), snakeOn(s, team); got != want {
						t.Errorf("seed %d team %d: %s, want %s", seed, team, got, want)
					}
					if got := s.Teams[team].Values; !reflect.DeepEqual(got, []int{0, 0, 0, 0, c.length}) {
						t.Errorf("seed %d team %d: columns %v", seed, team, got)
					}
				}
				if x, y := pelletAt(s); x < 0 || s.Cells[y*30+x] != engine.Empty {
					t.Errorf("seed %d: pellet at %d,%d", seed, x, y)
				}
				starts = append(starts, cells)
			}
			if !reflect.DeepEqual(starts[0], starts[1]) {
				t.Error("one seed laid out two starts")
			}
			if reflect.DeepEqual(starts[0], starts[2]) {
				t.Error("two seeds laid out the same start")
			}
		})
	}
}

// TestSnakeDefaults: the options' defaults are the original's config.lua
// (length 5, growth 3, 5000 ticks without a pellet) but for the match
// lengths, which are the seed's (best of 39, 10 solo games); classic is
// off. (The 60×60 board is game.yaml's: cmd/squarebattle's TestRunSnake.)
func TestSnakeDefaults(t *testing.T) {
	g, err := luabind.LoadGame(snakeFolder(t, nil, nil), "snake", luabind.DefaultLimits())
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]any{"start_length": 5.0, "growth": 3.0, "patience": 5000.0, "games": 39.0, "solo_games": 10.0, "classic": false}
	if !reflect.DeepEqual(g.Info.Options, want) {
		t.Errorf("options %v, want %v", g.Info.Options, want)
	}
}
