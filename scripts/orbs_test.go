package scripts_test

import (
	"fmt"
	"reflect"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/squarebattle/squarebattle/engine"
	"github.com/squarebattle/squarebattle/luabind"
)

// The orbs tests play the shipped rules. Tests of single rules replace the
// map generator with a fixed 30×30 map (orbsMap): a function of the same
// name inserted before the units section shadows the seeded one.
const orbsSize = 30

// orbsMap is a fixed map: every tile passable with orbs orbs, planet 0 at
// (pr, pc) in the seed's coordinates and planet 1 at its left-right mirror
// image (pr, 29-pc); extra is Lua run before the planets are placed (walls:
// passable[tile(r, c)] = false; orbs: orbs[tile(r, c)] = k).
type orbsMap struct {
	pr, pc, orbs int
	extra        string
}

func (m orbsMap) patch(src string) string {
	gen := fmt.Sprintf(`local function generate(game)
  symmetry = "vertical"
  for i = 1, n * n do passable[i] = true; orbs[i] = %d end
  %s
  for i = 1, n * n do if not passable[i] then orbs[i] = 0 end end
  return %d, %d
end

`, m.orbs, m.extra, m.pr, m.pc)
	const marker = "-- Units -----"
	if !strings.Contains(src, marker) {
		panic("rules.lua lost its units section marker")
	}
	return strings.Replace(src, marker, gen+marker, 1)
}

// orbsPlan is what a planned player answers: plan[round][role] is a Lua
// expression (a table, or a function called for the answer). Roles are "P"
// (the planet) and "V1", "V2", … (the team's voyagers in build order).
// probe is Lua run at the start of every turn, with view, me, role and log
// (a list the probe appends to) in scope; it may set signal, which is sent
// unless the answer sends its own. On round report the turn raises the log
// as an error, so the test reads it in the battle's problems.
func orbsPlayer(plan map[int]map[string]string, probe string, report int) string {
	var b strings.Builder
	b.WriteString("local plan = {\n")
	rounds := make([]int, 0, len(plan))
	for r := range plan {
		rounds = append(rounds, r)
	}
	sort.Ints(rounds)
	for _, r := range rounds {
		fmt.Fprintf(&b, "  [%d] = {", r)
		roles := make([]string, 0, len(plan[r]))
		for role := range plan[r] {
			roles = append(roles, role)
		}
		sort.Strings(roles)
		for _, role := range roles {
			fmt.Fprintf(&b, " %s = %s,", role, plan[r][role])
		}
		b.WriteString(" },\n")
	}
	b.WriteString("}\n")
	fmt.Fprintf(&b, `local log, voyagers = {}, 0
return { name = "Planned", turn = function(view, memory)
  local me = view.me
  if not memory.role then
    if me.unit == 0 then memory.role = "P" else voyagers = voyagers + 1; memory.role = "V" .. voyagers end
  end
  local role, signal = memory.role, nil
  %s
  if view.round == %d then error("log:" .. table.concat(log, " ")) end
  local a = plan[view.round] and plan[view.round][role]
  if type(a) == "function" then a = a() end
  if signal then
    a = a or {}
    if a.signal == nil then a.signal = signal end
  end
  return a
end }
`, probe, report)
	return b.String()
}

type orbsGame struct {
	m       *orbsMap // nil: the shipped generator
	plans   [2]map[int]map[string]string
	probe   string
	report  int // the round the planned players report in (0: never)
	rounds  int
	size    int // 0: the rules choose
	seed    uint64
	workers int
	players [2]string // shipped players instead of planned ones
}

func (g orbsGame) battle(t testing.TB) *luabind.ModBattle {
	t.Helper()
	extra := map[string]string{
		"p0.lua": orbsPlayer(g.plans[0], g.probe, g.report),
		"p1.lua": orbsPlayer(g.plans[1], g.probe, g.report),
	}
	folder := gameFolder(t, "orbs", extra)
	if g.m != nil {
		folder["rules.lua"].Data = []byte(g.m.patch(string(folder["rules.lua"].Data)))
	}
	game, err := luabind.LoadGame(folder, "orbs", luabind.Limits{})
	if err != nil {
		t.Fatal(err)
	}
	players := g.players
	if players[0] == "" {
		players = [2]string{"p0", "p1"}
	}
	classes := findPlayers(t, game, players[:])
	size := g.size
	if size == 0 && g.m != nil {
		size = orbsSize
	}
	rounds := g.rounds
	if rounds == 0 {
		rounds = 256
	}
	b, err := luabind.NewModBattle(game, classes, engine.ModOptions{Size: size, Rounds: rounds, Seed: max(g.seed, 1), Workers: max(g.workers, 1)}, rulesBudget)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(b.Close)
	return b
}

// play runs the battle to its end and returns each team's reported log.
func (g orbsGame) play(t *testing.T) (*engine.Snapshot, [2]string) {
	t.Helper()
	b := g.battle(t)
	for b.Step() {
	}
	if b.Err() != nil {
		t.Fatal(b.Err())
	}
	s := b.Snapshot()
	var logs [2]string
	for _, p := range append(s.FirstProblems, s.Problems...) {
		if i := strings.Index(p.Message, "log:"); i >= 0 && p.Team >= 0 && p.Team < 2 && p.Round == g.report {
			logs[p.Team] = strings.TrimSpace(p.Message[i+4:])
		}
	}
	return s, logs
}

// orbsUnits lists the units on the board in the seed's coordinates (row 0
// at the top): "P0 10,10" is team 0's planet, "V1 3,4" a voyager of team 1.
func orbsUnits(s *engine.Snapshot) []string {
	var out []string
	for i, m := range s.Marks {
		if m.Style() != engine.StyleUnit {
			continue
		}
		kind := "V"
		if m.Value() == 1 {
			kind = "P"
		}
		r, c := s.Size-1-i/s.Size, i%s.Size
		out = append(out, fmt.Sprintf("%s%d %d,%d", kind, s.Cells[i], r, c))
	}
	sort.Strings(out)
	return out
}

func column(s *engine.Snapshot, team int, name string) int {
	for i, c := range s.Columns {
		if c == name {
			return s.Teams[team].Values[i]
		}
	}
	panic("no column " + name)
}

// TestOrbsMaps: the seed's maps: a side from 30 to 40 chosen by the seed,
// mirrored top to bottom or left to right (both kinds occur), 0 to 7 orbs a
// tile and none on impassable ones, every passable tile reachable, one
// planet a team at mirror positions; players see the same map with (0, 0)
// at the top left.
func TestOrbsMaps(t *testing.T) {
	kinds := map[string]int{}
	sizes := map[int]bool{}
	probe := `if role == "P" then
    local top = {}
    for c = 0, view.n - 1 do top[#top + 1] = view.map[c + 1] and view.orbs_map[c + 1] or "#" end
    log[1] = me.r .. "," .. me.c .. " " .. view.n .. " " .. table.concat(top, "")
  end`
	for seed := uint64(1); seed <= 12; seed++ {
		s, logs := orbsGame{seed: seed, rounds: 1, report: 1, probe: probe}.play(t)
		n := s.Size
		sizes[n] = true
		if n < 30 || n > 40 {
			t.Fatalf("seed %d: a %d×%d map", seed, n, n)
		}
		// The board as drawn: row 0 of the seed is the board's top row.
		at := func(r, c int) (string, int) {
			i := (n-1-r)*n + c
			m := s.Marks[i]
			switch m.Style() {
			case engine.StyleWall:
				return "#", 0
			case engine.StyleValue:
				if m.Value()%36 != 0 || m.Value() > 7*36 {
					t.Fatalf("seed %d: tile %d,%d shaded %d", seed, r, c, m.Value())
				}
				return ".", int(m.Value()) / 36
			case engine.StyleUnit:
				return "P" + strconv.Itoa(int(s.Cells[i])), -1
			}
			t.Fatalf("seed %d: tile %d,%d is %v before round 1", seed, r, c, m.Style())
			return "", 0
		}
		symmetric := map[string]bool{"horizontal": true, "vertical": true}
		var top strings.Builder
		for r := 0; r < n; r++ {
			for c := 0; c < n; c++ {
				kind, orbs := at(r, c)
				if r == 0 {
					switch {
					case kind == "#":
						top.WriteString("#")
					case orbs >= 0:
						top.WriteString(strconv.Itoa(orbs))
					}
				}
				for name, m := range map[string][2]int{"horizontal": {n - 1 - r, c}, "vertical": {r, n - 1 - c}} {
					mk, mo := at(m[0], m[1])
					if mk[0] != kind[0] || mo != orbs && mo >= 0 && orbs >= 0 {
						symmetric[name] = false
					}
				}
			}
		}
		kind := ""
		for name, ok := range symmetric {
			if ok {
				kind = name
			}
		}
		if kind == "" {
			t.Fatalf("seed %d: the map is not symmetric", seed)
		}
		kinds[kind]++
		units := orbsUnits(s)
		if len(units) != 2 || units[0][:2] != "P0" || units[1][:2] != "P1" {
			t.Fatalf("seed %d: units %v, want one planet a team", seed, units)
		}
		var p [2][2]int
		for k, u := range units {
			fmt.Sscanf(u[3:], "%d,%d", &p[k][0], &p[k][1])
		}
		mirror := [2]int{n - 1 - p[0][0], p[0][1]}
		if kind == "vertical" {
			mirror = [2]int{p[0][0], n - 1 - p[0][1]}
		}
		if p[1] != mirror {
			t.Errorf("seed %d: planets at %v and %v, not mirror images (%s)", seed, p[0], p[1], kind)
		}
		// Every passable tile is reachable from the planets.
		seen := map[[2]int]bool{p[0]: true}
		stack := [][2]int{p[0]}
		for len(stack) > 0 {
			q := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			for _, d := range [][2]int{{1, 0}, {-1, 0}, {0, 1}, {0, -1}} {
				r, c := q[0]+d[0], q[1]+d[1]
				if r < 0 || r >= n || c < 0 || c >= n || seen[[2]int{r, c}] {
					continue
				}
				if k, _ := at(r, c); k != "#" {
					seen[[2]int{r, c}] = true
					stack = append(stack, [2]int{r, c})
				}
			}
		}
		for r := 0; r < n; r++ {
			for c := 0; c < n; c++ {
				if k, _ := at(r, c); k != "#" && !seen[[2]int{r, c}] {
					t.Errorf("seed %d: tile %d,%d cannot be reached", seed, r, c)
				}
			}
		}
		// The planet sees itself and the map as drawn, top row first.
		want := fmt.Sprintf("%d,%d %d ", p[0][0], p[0][1], n)
		if !strings.HasPrefix(logs[0], want) || len(logs[0]) != len(want)+n {
			t.Errorf("seed %d: team 0's planet reports %q, want %q and the top row", seed, logs[0], want)
		} else if got := logs[0][len(want):]; p[0][0] != 0 && got != top.String() {
			t.Errorf("seed %d: the player's top row %s, the board's %s", seed, got, top.String())
		}
	}
	if kinds["horizontal"] == 0 || kinds["vertical"] == 0 || len(sizes) < 3 {
		t.Errorf("12 seeds gave symmetries %v and sizes %v", kinds, sizes)
	}
}

// TestOrbsSize: --size forces a side from 30 to 40; others are refused.
func TestOrbsSize(t *testing.T) {
	if s, _ := (orbsGame{size: 35, rounds: 1}).play(t); s.Size != 35 {
		t.Errorf("size 35 gave %d", s.Size)
	}
	folder := gameFolder(t, "orbs", nil)
	game, err := luabind.LoadGame(folder, "orbs", luabind.Limits{})
	if err != nil {
		t.Fatal(err)
	}
	e, _ := game.Find("explorer")
	for _, size := range []int{29, 41} {
		_, err := luabind.NewModBattle(game, []*luabind.Class{e, e}, engine.ModOptions{Size: size, Rounds: 1, Seed: 1}, rulesBudget)
		if err == nil || !strings.Contains(err.Error(), "orbs is played on maps of 30×30 to 40×40") {
			t.Errorf("size %d: %v", size, err)
		}
	}
	if _, err := luabind.NewModBattle(game, []*luabind.Class{e}, engine.ModOptions{Rounds: 1, Seed: 1}, rulesBudget); err == nil || !strings.Contains(err.Error(), "two teams") {
		t.Errorf("one team: %v", err)
	}
}

// TestOrbsMoves: a voyager steps one tile north, south, east or west onto a
// free passable tile on the map, never next to (diagonals too) a voyager of
// its own team; enemies and planets do not block the tiles around them; a
// planet does not move.
func TestOrbsMoves(t *testing.T) {
	open := &orbsMap{pr: 10, pc: 10, orbs: 1}
	rich := &orbsMap{pr: 10, pc: 10, orbs: 1, extra: "bank[1] = 2 * 65536"} // two voyagers' worth
	cases := []struct {
		name  string
		m     *orbsMap
		plans [2]map[int]map[string]string
		want  []string // team 0's voyagers at the end
	}{
		{"a step each way", open, [2]map[int]map[string]string{{
			1: {"P": "{build = {0, 1}}", "V1": "{move = {-1, 0}}"}, 2: {"V1": "{move = {0, 1}}"},
			3: {"V1": "{move = {1, 0}}"}, 4: {"V1": "{move = {1, 0}}"}, 5: {"V1": "{move = {0, -1}}"}}},
			[]string{"V0 11,11"}},
		{"no diagonal, long or empty steps", open, [2]map[int]map[string]string{{
			1: {"P": "{build = {0, 1}}", "V1": "{move = {1, 1}}"}, 2: {"V1": "{move = {0, 2}}"},
			3: {"V1": "{move = {0, 0}}"}, 4: {"V1": `{move = {"north"}}`}, 5: {"V1": "{move = {0.5, 0.5}}"}}},
			[]string{"V0 10,11"}},
		{"not off the map", &orbsMap{pr: 0, pc: 1, orbs: 1}, [2]map[int]map[string]string{{
			1: {"P": "{build = {0, -1}}", "V1": "{move = {-1, 0}}"}, 2: {"V1": "{move = {0, -1}}"}}},
			[]string{"V0 0,0"}},
		{"not into a wall", &orbsMap{pr: 10, pc: 10, orbs: 1, extra: "passable[tile(9, 11)] = false"}, [2]map[int]map[string]string{{
			1: {"P": "{build = {0, 1}}", "V1": "{move = {-1, 0}}"}}},
			[]string{"V0 10,11"}},
		{"not onto a unit", open, [2]map[int]map[string]string{{
			1: {"P": "{build = {0, 1}}", "V1": "{move = {0, -1}}"}}},
			[]string{"V0 10,11"}},
		{"next to its own planet", open, [2]map[int]map[string]string{{
			1: {"P": "{build = {0, 1}}", "V1": "{move = {1, 0}}"}}},
			[]string{"V0 11,11"}},
		{"not diagonally next to a teammate", rich, [2]map[int]map[string]string{{
			1: {"P": "{build = {0, 1}}", "V1": "{move = {0, 1}}"}, 2: {"V1": "{move = {0, 1}}"},
			3: {"P": "{build = {1, 1}}", "V2": "{move = {0, 1}}"}}},
			[]string{"V0 10,13", "V0 11,11"}},
		{"not orthogonally next to a teammate", rich, [2]map[int]map[string]string{{
			1: {"P": "{build = {0, 1}}", "V1": "{move = {0, 1}}"}, 2: {"V1": "{move = {0, 1}}"},
			3: {"P": "{build = {1, 1}}", "V2": "{move = {1, 0}}"}, 4: {"V2": "{move = {0, 1}}"},
			5: {"V2": "{move = {0, 1}}"}, 6: {"V2": "{move = {-1, 0}}"}}},
			[]string{"V0 10,13", "V0 12,13"}},
		{"away from a teammate", rich, [2]map[int]map[string]string{{
			1: {"P": "{build = {0, 1}}", "V1": "{move = {0, 1}}"}, 2: {"V1": "{move = {0, 1}}"},
			3: {"P": "{build = {1, 1}}", "V2": "{move = {1, 0}}"}}},
			[]string{"V0 10,13", "V0 12,11"}},
		{"next to an enemy", &orbsMap{pr: 10, pc: 13, orbs: 1}, [2]map[int]map[string]string{
			{1: {"P": "{build = {0, 1}}"}, 2: {"V1": "{move = {1, 0}}"}},
			{1: {"P": "{build = {1, -1}}"}}},
			[]string{"V0 11,14"}},
		{"a planet does not move", open, [2]map[int]map[string]string{{1: {"P": "{move = {0, 1}}"}}}, nil},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			s, _ := orbsGame{m: c.m, plans: c.plans, rounds: 6}.play(t)
			var got []string
			planets := 0
			for _, u := range orbsUnits(s) {
				switch {
				case strings.HasPrefix(u, "V0"):
					got = append(got, u)
				case u == fmt.Sprintf("P0 %d,%d", c.m.pr, c.m.pc):
					planets++
				}
			}
			if !reflect.DeepEqual(got, c.want) || planets != 1 {
				t.Errorf("team 0's voyagers %v (planet in place: %v), want %v", got, planets == 1, c.want)
			}
		})
	}
}

// TestOrbsBuild: a planet builds a voyager on a free passable tile next to
// it (diagonals too) for 65536 orbs; each team starts with 65536.
func TestOrbsBuild(t *testing.T) {
	near := &orbsMap{pr: 10, pc: 14} // planets side by side: 10,14 and 10,15
	cases := []struct {
		name  string
		m     *orbsMap
		plans [2]map[int]map[string]string
		want  []string // team 0's voyagers
		orbs  int      // team 0's orbs
	}{
		{"east", &orbsMap{pr: 10, pc: 10}, [2]map[int]map[string]string{{1: {"P": "{build = {0, 1}}"}}}, []string{"V0 10,11"}, 0},
		{"diagonally", &orbsMap{pr: 10, pc: 10}, [2]map[int]map[string]string{{1: {"P": "{build = {-1, -1}}"}}}, []string{"V0 9,9"}, 0},
		{"not two tiles away", &orbsMap{pr: 10, pc: 10}, [2]map[int]map[string]string{{1: {"P": "{build = {0, 2}}"}}}, nil, 65536},
		{"not on itself", &orbsMap{pr: 10, pc: 10}, [2]map[int]map[string]string{{1: {"P": "{build = {0, 0}}"}}}, nil, 65536},
		{"not into a wall", &orbsMap{pr: 10, pc: 10, extra: "passable[tile(10, 11)] = false"},
			[2]map[int]map[string]string{{1: {"P": "{build = {0, 1}}"}}}, nil, 65536},
		{"not off the map", &orbsMap{pr: 0, pc: 5}, [2]map[int]map[string]string{{1: {"P": "{build = {-1, 0}}"}}}, nil, 65536},
		{"not onto a planet", near, [2]map[int]map[string]string{{1: {"P": "{build = {0, 1}}"}}}, nil, 65536},
		{"not onto a voyager", near, [2]map[int]map[string]string{{2: {"P": "{build = {1, 0}}"}}, {1: {"P": "{build = {1, -1}}"}}}, nil, 65536},
		{"not without the orbs", &orbsMap{pr: 10, pc: 10}, [2]map[int]map[string]string{{1: {"P": "{build = {0, 1}}"}, 2: {"P": "{build = {1, 0}}"}}},
			[]string{"V0 10,11"}, 0},
		{"not by a voyager", &orbsMap{pr: 10, pc: 10}, [2]map[int]map[string]string{{1: {"P": "{build = {0, 1}}"}, 2: {"V1": "{build = {0, 1}}"}}},
			[]string{"V0 10,11"}, 0},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			s, _ := orbsGame{m: c.m, plans: c.plans, rounds: 3}.play(t)
			var got []string
			for _, u := range orbsUnits(s) {
				if strings.HasPrefix(u, "V0") {
					got = append(got, u)
				}
			}
			if !reflect.DeepEqual(got, c.want) || column(s, 0, "orbs") != c.orbs || column(s, 0, "voyagers") != len(c.want) {
				t.Errorf("voyagers %v, orbs %d, want %v, %d", got, column(s, 0, "orbs"), c.want, c.orbs)
			}
		})
	}
}

// TestOrbsTurnQueue: the queue starts with the planets, team 0 first; a
// voyager joins its end when its planet's turn ends and acts in the same
// round. Every unit signals the round, so a unit counts the units that had
// their turn before it this round.
func TestOrbsTurnQueue(t *testing.T) {
	probe := `signal = view.round
  local before = 0
  for _, o in ipairs(view.robots) do if o.id ~= me.id and o.signal == view.round then before = before + 1 end end
  log[#log + 1] = view.round .. role .. ":" .. before`
	_, logs := orbsGame{m: &orbsMap{pr: 10, pc: 10, extra: "bank[2] = 3 * 65536"}, probe: probe, report: 3, rounds: 3, plans: [2]map[int]map[string]string{
		{1: {"P": "{build = {0, 1}}"}},
		{1: {"P": "{build = {0, -1}}"}, 2: {"P": "{build = {1, 0}}"}},
	}}.play(t)
	// In round 3 team 0's planet reports instead of signalling, so team
	// 1's planet counts nobody before it.
	want := [2]string{"1P:0 1V1:2 2P:0 2V1:2 3P:0", "1P:1 1V1:3 2P:1 2V1:3 2V2:4 3P:0"}
	if logs != want {
		t.Errorf("turns %q, want %q", logs, want)
	}
}

// TestOrbsVisionAndSignals: a unit sees the team and position of units
// within squared distance 4 only; ids, unit kinds and signals of all. A
// signal lasts until the sender's next turn and is 0 when that turn sends
// none.
func TestOrbsVisionAndSignals(t *testing.T) {
	probe := `if role == "P" then
    for _, o in ipairs(view.robots) do
      if o.unit == 1 then
        log[#log + 1] = view.round .. ":" .. tostring(o.visible) .. "," .. tostring(o.team) .. "," .. tostring(o.r) .. "," .. tostring(o.c) .. "," .. o.signal .. "," .. type(o.id)
      end
    end
  end`
	_, logs := orbsGame{m: &orbsMap{pr: 10, pc: 10, orbs: 1}, probe: probe, report: 8, rounds: 8, plans: [2]map[int]map[string]string{{
		1: {"P": "{build = {0, 1}}", "V1": "{signal = 11}"}, // at 10,11: d² 1
		2: {"V1": "{move = {0, 1}, signal = 12}"},           // 10,12: d² 4
		3: {"V1": "{move = {0, 1}, signal = 13}"},           // 10,13: d² 9
		4: {"V1": "{move = {1, 0}}"},                        // 11,13: d² 10, no signal
		5: {"V1": "{move = {0, -1}, signal = 15}"},          // 11,12: d² 5
		6: {"V1": "{move = {0, -1}, signal = 70000}"},       // 11,11: d² 2, a signal out of range
		7: {"V1": "{signal = 65535}"},
	}}}.play(t)
	want := "2:true,0,10,11,11,number 3:true,0,10,12,12,number 4:false,nil,nil,nil,13,number " +
		"5:false,nil,nil,nil,0,number 6:false,nil,nil,nil,15,number 7:true,0,11,11,0,number 8:true,0,11,11,65535,number"
	if logs[0] != want {
		t.Errorf("the planet saw\n%s\nwant\n%s", logs[0], want)
	}
}

// TestOrbsCollect: after each round a team collects the orbs of every tile
// strictly closer (Manhattan) to one of its voyagers than to any enemy
// voyager; ties collect nothing and planets collect nothing.
func TestOrbsCollect(t *testing.T) {
	// Planets at 10,13 and 10,16; voyagers at 10,14 and 11,15.
	spots := `orbs[tile(11, 14)] = 5 -- 1 from both: a tie
  orbs[tile(10, 12)] = 7 -- 2 from team 0's, 4 from team 1's
  orbs[tile(12, 16)] = 3 -- 2 from team 1's, 4 from team 0's
  orbs[tile(10, 13)] = 2 -- under team 0's planet: 1 from its voyager, 3 from the enemy
  orbs[tile(10, 16)] = 4 -- under team 1's planet: 2 from either voyager, a tie`
	cases := []struct {
		name  string
		m     *orbsMap
		plans [2]map[int]map[string]string
		want  [2]int // collected in round 1
	}{
		{"planets collect nothing", &orbsMap{pr: 10, pc: 10, orbs: 7}, [2]map[int]map[string]string{}, [2]int{0, 0}},
		{"a lone team collects every tile", &orbsMap{pr: 10, pc: 10, orbs: 7, extra: "passable[tile(0, 0)] = false"},
			[2]map[int]map[string]string{{1: {"P": "{build = {0, 1}}"}}}, [2]int{7 * (30*30 - 1), 0}},
		{"closest, ties to nobody", &orbsMap{pr: 10, pc: 13, extra: spots},
			[2]map[int]map[string]string{{1: {"P": "{build = {0, 1}}"}}, {1: {"P": "{build = {1, -1}}"}}}, [2]int{9, 3}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			s, _ := orbsGame{m: c.m, plans: c.plans, rounds: 1}.play(t)
			if got := [2]int{column(s, 0, "collected"), column(s, 1, "collected")}; got != c.want {
				t.Errorf("collected %v, want %v", got, c.want)
			}
		})
	}
}

// TestOrbsCollectIsVoronoi replays a game round by round and checks every
// round's haul against the Manhattan Voronoi diagram of the board.
func TestOrbsCollectIsVoronoi(t *testing.T) {
	b := orbsGame{seed: 5, rounds: 60, players: [2]string{"explorer", "spreader"}}.battle(t)
	prev := [2]int{}
	for b.Step() {
		s := b.Snapshot()
		n := s.Size
		var voyagers [2][][2]int
		for i, m := range s.Marks {
			if m.Style() == engine.StyleUnit && m.Value() == 0 {
				voyagers[s.Cells[i]] = append(voyagers[s.Cells[i]], [2]int{i / n, i % n})
			}
		}
		// The orbs of a tile: its shade; under a unit, the tile as drawn
		// when the game began is lost, so such tiles are checked apart.
		var want [2]int
		for i, m := range s.Marks {
			if m.Style() != engine.StyleValue && m.Style() != engine.StyleTrail && m.Style() != engine.StyleUnit {
				continue
			}
			d := [2]int{1 << 30, 1 << 30}
			for team := range voyagers {
				for _, v := range voyagers[team] {
					d[team] = min(d[team], abs(v[0]-i/n)+abs(v[1]-i%n))
				}
			}
			owner := -1
			switch {
			case d[0] < d[1]:
				owner = 0
			case d[1] < d[0]:
				owner = 1
			}
			if m.Style() == engine.StyleUnit {
				continue
			}
			if (m.Style() == engine.StyleTrail) != (owner >= 0) || owner >= 0 && int(s.Cells[i]) != owner {
				t.Fatalf("round %d: tile %d drawn %v/%d, closest team %d", s.Round, i, m.Style(), s.Cells[i], owner)
			}
			if owner >= 0 {
				want[owner] += int(m.Value()) / 36
			}
		}
		got := [2]int{column(s, 0, "collected") - prev[0], column(s, 1, "collected") - prev[1]}
		prev = [2]int{column(s, 0, "collected"), column(s, 1, "collected")}
		// Tiles under units are not in want; they can only add.
		if got[0] < want[0] || got[1] < want[1] || got[0]-want[0] > 7*(len(voyagers[0])+2) || got[1]-want[1] > 7*(len(voyagers[1])+2) {
			t.Fatalf("round %d: collected %v, the diagram gives %v (plus the tiles under units)", s.Round, got, want)
		}
	}
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}

// TestOrbsClock: the chess clock in instructions: 1,000,000 to start,
// 200,000 more each round after the one a unit was built in, a turn stopped
// at 2,000,000; a clock that is not above zero means no turn, until the
// gains make it positive; an endless loop costs only its own unit's turn.
func TestOrbsClock(t *testing.T) {
	probe := `log[#log + 1] = view.round .. role .. ":" .. me.time .. "/" .. me.budget`
	loop := "function() while true do end end"
	s, logs := orbsGame{m: &orbsMap{pr: 10, pc: 10}, probe: probe, report: 10, rounds: 10, plans: [2]map[int]map[string]string{
		{1: {"P": "{build = {0, 1}}"}, 2: {"P": loop}},
		{8: {"P": loop}},
	}}.play(t)
	entries := func(team int, role string) map[int]int {
		out := map[int]int{}
		for _, e := range strings.Fields(logs[team]) {
			var round, clock, budget int
			var r string
			if _, err := fmt.Sscanf(strings.NewReplacer(":", " ", "/", " ").Replace(e), "%d%s %d %d", &round, &r, &clock, &budget); err != nil {
				t.Fatalf("log entry %q: %v", e, err)
			}
			r = strings.TrimLeft(r, "0123456789")
			if budget != 2_000_000 {
				t.Errorf("%s: budget %d", e, budget)
			}
			if r == role {
				out[round] = clock
			}
		}
		return out
	}
	p0, v0, p1 := entries(0, "P"), entries(0, "V1"), entries(1, "P")
	// Team 0's planet: 1.2M in round 1, loops in round 2 (2M off), then no
	// turn until round 6, which finds the clock 2M - 4×200k lower.
	if len(p0) != 7 || p0[1] != 1_200_000 || p0[2] <= 1_300_000 || p0[2] > 1_400_000 || p0[6] != p0[2]-1_200_000 {
		t.Errorf("team 0's planet had turns %v", p0)
	}
	for r := 3; r <= 5; r++ {
		if _, ok := p0[r]; ok {
			t.Errorf("team 0's planet had a turn in round %d on an empty clock", r)
		}
	}
	// Its voyager starts at 1M in the round it is built and never misses a
	// turn (its round 10 comes after the planet's report).
	if len(v0) != 9 || v0[1] != 1_000_000 || v0[2] <= 1_100_000 || v0[2] > 1_200_000 {
		t.Errorf("team 0's voyager had turns %v", v0)
	}
	// Team 1's planet loops with 2.6M on its clock: stopped at 2M.
	if len(p1) != 10 || p1[8] <= 2_500_000 || p1[9] != p1[8]-1_800_000 {
		t.Errorf("team 1's planet had turns %v", p1)
	}
	if s.Teams[0].Stats.Timeouts != 1 || s.Teams[1].Stats.Timeouts != 1 {
		t.Errorf("timeouts %d, %d, want 1, 1", s.Teams[0].Stats.Timeouts, s.Teams[1].Stats.Timeouts)
	}
}

// TestOrbsWinner: the most orbs after the last round wins, then the most
// units, then a coin toss drawn from the seed.
func TestOrbsWinner(t *testing.T) {
	// 585 tiles of 7 orbs and one of 1: 4096 a round to a lone voyager,
	// 65536 (the voyager's price back) after 16 rounds.
	exact := "for i = 1, n * n do orbs[i] = 0 end; for i = 1, 585 do orbs[i] = 7 end; orbs[586] = 1"
	build := [2]map[int]map[string]string{{1: {"P": "{build = {0, 1}}"}}}
	cases := []struct {
		name   string
		m      *orbsMap
		plans  [2]map[int]map[string]string
		rounds int
		want   int
	}{
		{"most orbs, fewer units", &orbsMap{pr: 10, pc: 10, orbs: 1}, build, 3, 1},
		{"equal orbs, more units", &orbsMap{pr: 10, pc: 10, extra: exact}, build, 16, 0},
		{"one round short", &orbsMap{pr: 10, pc: 10, extra: exact}, build, 15, 1},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			s, _ := orbsGame{m: c.m, plans: c.plans, rounds: c.rounds}.play(t)
			if !s.Over || s.Winner != c.want {
				t.Errorf("over %v, winner %d (orbs %d, %d), want %d", s.Over, s.Winner, column(s, 0, "orbs"), column(s, 1, "orbs"), c.want)
			}
		})
	}
	t.Run("a coin toss", func(t *testing.T) {
		wins := map[int]int{}
		for seed := uint64(1); seed <= 8; seed++ {
			var winners []int
			for range 2 {
				s, _ := orbsGame{m: &orbsMap{pr: 10, pc: 10}, rounds: 2, seed: seed}.play(t)
				winners = append(winners, s.Winner)
			}
			if winners[0] != winners[1] || winners[0] < 0 {
				t.Fatalf("seed %d: winners %v", seed, winners)
			}
			wins[winners[0]]++
		}
		if wins[0] == 0 || wins[1] == 0 {
			t.Errorf("eight seeds: wins %v", wins)
		}
	})
}

// TestOrbsDeterministic: a whole game of the two shipped bots, 256 rounds,
// is the same with one worker and with four; the rules end it at 256.
func TestOrbsDeterministic(t *testing.T) {
	t.Parallel() // whole games: beside another when a core is free (the soaks, which count goroutines, run first)

	var snaps []*engine.Snapshot
	for _, workers := range []int{1, 4} {
		b := orbsGame{seed: 11, workers: workers, players: [2]string{"explorer", "spreader"}}.battle(t)
		n := 0
		for b.Step() {
			n++
		}
		if n != 256 || b.Err() != nil {
			t.Fatalf("%d rounds, err %v", n, b.Err())
		}
		snaps = append(snaps, b.Snapshot())
	}
	if !reflect.DeepEqual(snaps[0], snaps[1]) {
		t.Error("one and four workers differ")
	}
	s := snaps[0]
	for team, tv := range s.Teams {
		if tv.Stats.Errors+tv.Stats.Timeouts != 0 {
			t.Errorf("team %d: %+v %v", team, tv.Stats, s.FirstProblems)
		}
		if column(s, team, "voyagers") < 2 {
			t.Errorf("team %d built %d voyagers", team, column(s, team, "voyagers"))
		}
	}
	if s.Winner != 1 {
		t.Errorf("the spreader lost to the explorer: %v, %v", s.Teams[0].Values, s.Teams[1].Values)
	}
}

// BenchmarkOrbs plays whole games of Explorer against Spreader and reports
// rounds (ticks) per second.
func BenchmarkOrbs(b *testing.B) {
	rounds := 0
	start := time.Now()
	for i := 0; i < b.N; i++ {
		bt := orbsGame{seed: uint64(i + 1), players: [2]string{"explorer", "spreader"}}.battle(b)
		for bt.Step() {
			rounds++
		}
	}
	b.ReportMetric(float64(rounds)/time.Since(start).Seconds(), "ticks/s")
}
