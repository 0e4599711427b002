package luabind

import (
	"strings"
	"testing"

	"github.com/squarebattle/squarebattle/engine"
)

// TestLuaAPI checks the player API contract through print output: each
// script prints what it observed and the test compares the team log.
func TestLuaAPI(t *testing.T) {
	tests := []struct {
		name    string
		files   map[string]string
		board   string
		rounds  int
		players []string // default: every starting player, sorted by id
		want    []string // lines the first team printed, in order
	}{
		{
			name: "eliminated gets the killer's player name and team",
			files: map[string]string{
				"victim.lua": `return { name = "Victim", run = function() return MOVE, "e" end,
					eliminated = function(self, team, killer, row, col, kteam) print(team, killer, row, col, kteam) end }`,
				"guard.lua": `return { name = "Guard", run = function() return ATTACK, W end }`,
			},
			board: "0 -1 1\n-1 -1 -1\n-1 -1 -1", rounds: 1, players: []string{"victim", "guard"},
			want: []string{"0\tGuard\t2\t1\t1"},
		},
		{
			name: "self persists, view and constants, string directions",
			files: map[string]string{
				"a.lua": `return { name = "A", run = function(self, team, view, row, col)
					self.n = (self.n or 0) + 1
					print(self.n, team, view[E], view[W], row, col, N, WAIT, tostring({}), round(), board_size(), team_count())
					return "wait" end }`,
				"b.lua": `return { name = "B", run = function() end }`,
			},
			board: "0 1 -1\n-1 -1 -1\n-1 -1 -1", rounds: 2,
			want: []string{"1\t0\t1\t-1\t2\t0\t2\twait\ttable\t1\t3\t2", "2\t0\t1\t-1\t2\t0\t2\twait\ttable\t2\t3\t2"},
		},
		{
			name: "replicate copies data into the child's self; become switches class",
			files: map[string]string{
				"dee.lua": `return { name = "Dee", run = function(self)
					if not self.done then self.done = true local d = {hp = 3} return REPLICATE, E, "dum", d end
					print("dee again") become("dum") end }`,
				"dum.lua": `return { run = function(self) print("dum", self.hp) self.hp = (self.hp or 0) + 1 end }`,
				"z.lua":   `return { name = "Z", run = function() end }`,
			},
			board: "0 -1 -1 -1\n-1 -1 -1 -1\n-1 -1 -1 -1\n-1 -1 -1 1", rounds: 4,
			// replicate_rounds is 1: round 1 replicate, round 2 both sit, round 3 both run.
			want: []string{"dee again", "dum\t3", "dum\tnil", "dum\t4"},
		},
		{
			name: "stats by team index and sorted classes",
			files: map[string]string{
				"s.lua": `return { name = "S", run = function(self, team)
					local s = stats() print(s[0].player, s[1].player, s[team].squares, s[1].squares, #classes(), classes()[1]) end }`,
				"t.lua": `return { name = "T", run = function() end }`,
			},
			board: "0 1\n1 -1", rounds: 1,
			want: []string{"S\tT\t1\t2\t2\ts"},
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			cat := catalogOf(t, tc.files, DefaultLimits())
			m, err := engine.ParseMap("t", []byte(tc.board))
			if err != nil {
				t.Fatal(err)
			}
			names := tc.players
			if names == nil {
				for _, p := range cat.Players() {
					names = append(names, p.ID)
				}
			}
			b, teams := battle(t, cat, names, engine.Options{Size: m.Size, Wrap: true, Rounds: tc.rounds, ReplicateRounds: 1, Seed: 1, Map: m})
			s := b.Run()
			if len(s.FirstProblems) > 0 {
				t.Fatalf("problems: %+v", s.FirstProblems)
			}
			if got := teams[0].Log(); strings.Join(got, "\n") != strings.Join(tc.want, "\n") {
				t.Errorf("printed:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(tc.want, "\n"))
			}
		})
	}
}

// TestHelpers: turn, opposite, neighbour and the team's plans.
func TestHelpers(t *testing.T) {
	cat := catalogOf(t, map[string]string{
		"h.lua": `return { name = "H", run = function(self, team, view, row, col)
			print(turn(N), turn(NW, -1), turn("w", 2), opposite(NE), neighbour(0, 0, SW))
			print(free(E), planned(E)) plan(E) print(free(E), planned(E)) plan(E, "attack") print(planned(E), free(W))
		end }`,
		"z.lua": `return { name = "Z", run = function() end }`,
	}, DefaultLimits())
	m, _ := engine.ParseMap("t", []byte("-1 -1 -1\n-1 -1 -1\n0 -1 1"))
	b, teams := battle(t, cat, []string{"h", "z"}, engine.Options{Size: 3, Wrap: true, Rounds: 1, Seed: 1, Map: m})
	b.Run()
	want := "3\t8\t2\t7\t2\t2\ntrue\tnil\nfalse\tmove\nattack\tfalse"
	if got := strings.Join(teams[0].Log(), "\n"); got != want {
		t.Errorf("printed:\n%s\nwant:\n%s", got, want)
	}
}
