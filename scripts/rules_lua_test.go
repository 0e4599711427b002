package scripts_test

import (
	"bytes"
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

func luaRules(t testing.TB) *luabind.Game {
	t.Helper()
	sub, err := fs.Sub(scripts.FS, "squarebattle-lua")
	if err != nil {
		t.Fatal(err)
	}
	g, err := luabind.LoadGame(sub, "scripts/squarebattle-lua", luabind.Limits{})
	if err != nil {
		t.Fatal(err)
	}
	if g.Info.Protocol != luabind.SquareBattleProtocol {
		t.Fatalf("protocol %q", g.Info.Protocol)
	}
	return g
}

// TestRulesInLuaMatchGo plays the same players and seeds under the built-in
// Go rules and under scripts/squarebattle-lua/rules.lua, in lockstep, and
// requires every round's snapshot to be identical: placement, moves,
// attacks, collisions, births, killers picked from the seeded stream,
// statistics, problems and the end.
func TestRulesInLuaMatchGo(t *testing.T) {
	cat := catalog(t)
	g := luaRules(t)
	cases := []struct {
		name    string
		players []string
		size    int
		wrap    bool
		rounds  int
		seed    uint64
		workers int
	}{
		{"every starting player", nil, 24, true, 400, 1, 1},
		{"crowded, two workers", []string{"expand", "borg", "expand", "borg", "hesitantwolf", "pinwheel"}, 12, true, 400, 2, 2},
		{"walls", []string{"explorer", "wanderer", "linedancer", "starter"}, 10, false, 300, 3, 1},
		{"one team", []string{"expand"}, 8, true, 200, 4, 1},
		{"fast replication", []string{"expand", "tweedledee", "borg"}, 16, true, 300, 5, 1},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var players []*luabind.Class
			if c.players == nil {
				players = cat.Players()
			}
			for _, p := range c.players {
				cls, err := cat.Find(p)
				if err != nil {
					t.Fatal(err)
				}
				players = append(players, cls)
			}
			o := engine.Options{Size: c.size, Wrap: c.wrap, Rounds: c.rounds, ReplicateRounds: 100, Seed: c.seed, Workers: c.workers}
			if c.name == "fast replication" {
				o.ReplicateRounds = 3
			}
			goBattle, err := luabind.NewBattle(cat, players, o)
			if err != nil {
				t.Fatal(err)
			}
			defer goBattle.Close()
			luaBattle, err := luabind.NewResolvedBattle(cat, players, o, g, 50_000_000)
			if err != nil {
				t.Fatal(err)
			}
			defer luaBattle.Close()
			deaths := 0
			for {
				a, b := goBattle.Snapshot(), luaBattle.Snapshot()
				if !reflect.DeepEqual(a, b) {
					t.Fatalf("round %d differs:\n go  %+v\n lua %+v", a.Round, a.Teams, b.Teams)
				}
				stepped := goBattle.Step()
				if luaBattle.Step() != stepped {
					t.Fatalf("round %d: one battle ended and not the other", a.Round)
				}
				if !stepped {
					break
				}
				if err := luaBattle.Err(); err != nil {
					t.Fatal(err)
				}
			}
			for _, tv := range goBattle.Snapshot().Teams {
				deaths += tv.Stats.Deaths
			}
			t.Logf("%d rounds, %d deaths", goBattle.Round(), deaths)
		})
	}
}

// chaos moves, attacks and replicates at random, so battles are full of
// shared cells and cells attacked by several teams: the killer picks.
const chaos = `return { name = "Chaos", run = function(self, team, view, row, col)
  local r = math.random(10)
  if r <= 4 then return MOVE, math.random(8) end
  if r <= 7 then return ATTACK, math.random(8) end
  if r == 8 then return REPLICATE, math.random(8), "chaos" end
  return WAIT
end }`

func chaosCatalog(t *testing.T) *luabind.Catalog {
	cat, err := luabind.LoadCatalog(luabind.CatalogOptions{FS: fstest.MapFS{"chaos.lua": {Data: []byte(chaos)}}, Dir: "test"})
	if err != nil {
		t.Fatal(err)
	}
	return cat
}

// lockstep plays both battles and returns the first round that differs,
// or -1.
func lockstep(t *testing.T, cat *luabind.Catalog, g *luabind.Game, o engine.Options, teams int) (int, int) {
	t.Helper()
	players := make([]*luabind.Class, teams)
	for i := range players {
		players[i] = cat.Players()[0]
	}
	a, err := luabind.NewBattle(cat, players, o)
	if err != nil {
		t.Fatal(err)
	}
	defer a.Close()
	b, err := luabind.NewResolvedBattle(cat, players, o, g, 50_000_000)
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	kills := 0
	for {
		if !reflect.DeepEqual(a.Snapshot(), b.Snapshot()) {
			return a.Round(), kills
		}
		if !a.Step() || !b.Step() {
			break
		}
	}
	for _, tv := range a.Snapshot().Teams {
		kills += tv.Stats.Kills + tv.Stats.Collisions
	}
	return -1, kills
}

// TestRulesInLuaChaos: crowded chaotic battles, and a deliberately wrong
// rule (the killer is always the lowest candidate team) that must be
// caught, so the comparison is known to bite.
func TestRulesInLuaChaos(t *testing.T) {
	cat := chaosCatalog(t)
	g := luaRules(t)
	for seed := uint64(1); seed <= 4; seed++ {
		o := engine.Options{Size: 10, Wrap: seed%2 == 1, Rounds: 200, ReplicateRounds: 2, Seed: seed, Workers: int(seed % 3)}
		if r, kills := lockstep(t, cat, g, o, 6); r >= 0 {
			t.Fatalf("seed %d: round %d differs", seed, r)
		} else if kills < 20 {
			t.Errorf("seed %d: only %d kills and collisions; the test needs a crowded arena", seed, kills)
		}
	}
	src, _ := fs.ReadFile(scripts.FS, "squarebattle-lua/rules.lua")
	wrong := bytes.Replace(src, []byte("d.killer = candidates[cur_game.pick(count) + 1]"), []byte("cur_game.pick(count); d.killer = candidates[1]"), 1)
	if bytes.Equal(wrong, src) {
		t.Fatal("could not plant the wrong rule")
	}
	bad, err := luabind.LoadGame(fstest.MapFS{"rules.lua": {Data: wrong}}, "wrong", luabind.Limits{})
	if err != nil {
		t.Fatal(err)
	}
	caught := 0
	for seed := uint64(1); seed <= 4; seed++ {
		o := engine.Options{Size: 10, Wrap: seed%2 == 1, Rounds: 200, ReplicateRounds: 2, Seed: seed}
		if r, _ := lockstep(t, cat, bad, o, 6); r >= 0 {
			caught++
		}
	}
	if caught == 0 {
		t.Error("a wrong killer rule went unnoticed")
	}
}

// BenchmarkRules compares a round under the built-in Go rules with the
// same round under rules.lua, on a crowded 32×32 arena of chaotic teams
// (the players' own cost is in both):
//
//	go test -run '^$' -bench Rules -count 6 ./scripts/ | benchstat -
func BenchmarkRules(b *testing.B) {
	t := &testing.T{}
	cat := chaosCatalog(t)
	g := luaRules(b)
	players := []*luabind.Class{cat.Players()[0], cat.Players()[0], cat.Players()[0], cat.Players()[0]}
	for _, rules := range []string{"go", "lua"} {
		b.Run(rules, func(b *testing.B) {
			rounds := 0
			for rounds < b.N {
				o := engine.Options{Size: 32, Wrap: true, Rounds: 300, ReplicateRounds: 2, Seed: uint64(rounds + 1), Workers: 1}
				var bt *luabind.Battle
				var err error
				if rules == "go" {
					bt, err = luabind.NewBattle(cat, players, o)
				} else {
					bt, err = luabind.NewResolvedBattle(cat, players, o, g, 50_000_000)
				}
				if err != nil {
					b.Fatal(err)
				}
				for rounds < b.N && bt.Step() {
					rounds++
				}
				bt.Close()
			}
			b.ReportMetric(float64(rounds)/b.Elapsed().Seconds(), "rounds/s")
		})
	}
}

// TestRulesInLuaLongLists: a full 48×48 arena where every square
// replicates in the first round, so resolve hands back more than 2,000
// births and deaths at once: lists that run past gopher-lua's array part
// (lua.MaxArrayIndex) must come through whole.
func TestRulesInLuaLongLists(t *testing.T) {
	const n = 48
	var text strings.Builder
	for r := 0; r < n; r++ {
		for c := 0; c < n; c++ {
			if c > 0 {
				text.WriteByte(' ')
			}
			fmt.Fprint(&text, (r+c)%2)
		}
		text.WriteByte('\n')
	}
	m, err := engine.ParseMap("full.map", []byte(text.String()))
	if err != nil {
		t.Fatal(err)
	}
	src := strings.Replace(chaos, "local r = math.random(10)", "if round() == 1 then return REPLICATE, math.random(8), \"chaos\" end\n  local r = math.random(10)", 1)
	cat, err := luabind.LoadCatalog(luabind.CatalogOptions{FS: fstest.MapFS{"chaos.lua": {Data: []byte(src)}}, Dir: "test"})
	if err != nil {
		t.Fatal(err)
	}
	o := engine.Options{Size: n, Wrap: true, Rounds: 8, ReplicateRounds: 2, Seed: 5, Workers: 2, Map: m}
	if r, _ := lockstep(t, cat, luaRules(t), o, 2); r >= 0 {
		t.Fatalf("round %d differs", r)
	}
	b, err := luabind.NewBattle(cat, []*luabind.Class{cat.Players()[0], cat.Players()[0]}, o)
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	b.Step()
	births, deaths := 0, 0
	for _, tv := range b.Snapshot().Teams {
		births, deaths = births+tv.Stats.Births, deaths+tv.Stats.Deaths
	}
	if births < 2000 || deaths < 2000 {
		t.Errorf("round 1 had %d births and %d deaths; the test needs lists past 1,023", births, deaths)
	}
}
