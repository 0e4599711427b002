package scripts_test

import (
	"fmt"
	"sort"
	"testing"

	"github.com/squarebattle/squarebattle/engine"
	"github.com/squarebattle/squarebattle/luabind"
	"github.com/squarebattle/squarebattle/scripts"
)

func catalog(t testing.TB) *luabind.Catalog {
	t.Helper()
	cat, err := luabind.LoadCatalog(luabind.CatalogOptions{FS: scripts.FS, Dir: "scripts"})
	if err != nil {
		t.Fatal(err)
	}
	return cat
}

// birth is one square created during a battle, as its team heard of it.
type birth struct {
	round int
	class string
}

// recorder is a team's controller that also notes what the round did to the
// team, for tests that look deeper than the arena.
type recorder struct {
	*luabind.Team
	births []birth
}

func (r *recorder) Settle(s *engine.Settlement) {
	for _, b := range s.Births {
		r.births = append(r.births, birth{round: s.Facts.Round, class: s.Facts.Classes[b.Class]})
	}
	r.Team.Settle(s)
}

// battle sets up a battle among the given players (class ids). Size, Seed
// and Rounds come from o; the rest is the default game.
func battle(t testing.TB, cat *luabind.Catalog, ids []string, o engine.Options) (*engine.Battle, []*recorder) {
	t.Helper()
	var players []*luabind.Class
	for _, id := range ids {
		p, err := cat.Find(id)
		if err != nil {
			t.Fatal(err)
		}
		players = append(players, p)
	}
	setups, teams := luabind.Teams(cat, players, o.Seed, o.Size)
	recs := make([]*recorder, len(teams))
	for i, tm := range teams {
		recs[i] = &recorder{Team: tm}
		setups[i].Controller = recs[i]
	}
	o.Wrap = true
	o.ReplicateRounds = 100
	o.Classes = cat.Classes()
	o.Teams = setups
	b, err := engine.NewBattle(o)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		b.Close()
		for _, tm := range teams {
			tm.Close()
		}
	})
	return b, recs
}

func startingIDs(cat *luabind.Catalog) []string {
	var ids []string
	for _, p := range cat.Players() {
		ids = append(ids, p.ID)
	}
	return ids
}

// squares lists the cells a team holds, as [row, col] pairs.
func squares(s *engine.Snapshot, team int) [][2]int {
	var out [][2]int
	for r := 0; r < s.Size; r++ {
		for c := 0; c < s.Size; c++ {
			if s.At(r, c) == team {
				out = append(out, [2]int{r, c})
			}
		}
	}
	return out
}

func TestShippedScriptsLoad(t *testing.T) {
	cat := catalog(t)
	for _, cls := range cat.All {
		if cls.Err != nil {
			t.Errorf("%s: %v", cls.ID, cls.Err)
		}
	}
	tests := []struct {
		id       string
		name     string // empty: not a starting player
		starting bool
	}{
		{"borg", "Borg", true},
		{"expand", "Expand", true},
		{"explorer", "Explorer", true},
		{"hesitantwolf", "Hesitant Wolf", true},
		{"linedancer", "Line Dancer", true},
		{"pinwheel", "Pinwheel", true},
		{"starter", "Starter", true},
		{"tweedledee", "TweedleDee", true},
		{"tweedledum", "", false},
		{"wanderer", "Wanderer", true},
	}
	byID := map[string]*luabind.Class{}
	for _, cls := range cat.All {
		byID[cls.ID] = cls
	}
	for _, tc := range tests {
		t.Run(tc.id, func(t *testing.T) {
			cls := byID[tc.id]
			if cls == nil {
				t.Fatalf("scripts/%s.lua is missing", tc.id)
			}
			if cls.Starting() != tc.starting {
				t.Errorf("starting player = %v, want %v", cls.Starting(), tc.starting)
			}
			if cls.Name != tc.name {
				t.Errorf("name = %q, want %q", cls.Name, tc.name)
			}
			if tc.starting && (cls.Victory == "" || cls.Defeat == "") {
				t.Errorf("victory %q / defeat %q: a starting player needs both speeches", cls.Victory, cls.Defeat)
			}
		})
	}
}

func TestExplorerMovesSouthEast(t *testing.T) {
	cat := catalog(t)
	const n = 12
	b, _ := battle(t, cat, []string{"explorer"}, engine.Options{Size: n, Rounds: 100, Seed: 5})
	prev := squares(b.Snapshot(), 0)
	for i := 0; i < 3*n; i++ {
		b.Step()
		cur := squares(b.Snapshot(), 0)
		if len(prev) != 1 || len(cur) != 1 {
			t.Fatalf("round %d: explorer holds %v, want exactly one cell", b.Round(), cur)
		}
		want := [2]int{(prev[0][0] - 1 + n) % n, (prev[0][1] + 1) % n}
		if cur[0] != want {
			t.Fatalf("round %d: explorer went from %v to %v, want %v (one step SE)", b.Round(), prev[0], cur[0], want)
		}
		prev = cur
	}
}

func TestLineDancerFormsTwoRows(t *testing.T) {
	cat := catalog(t)
	for _, seed := range []uint64{1, 2, 3} {
		t.Run(fmt.Sprint("seed ", seed), func(t *testing.T) {
			const n = 48
			b, _ := battle(t, cat, []string{"linedancer"}, engine.Options{Size: n, Rounds: 2000, Seed: seed})
			for b.Round() < 420 {
				b.Step()
			}
			cells := squares(b.Snapshot(), 0)
			cols := map[int][]int{} // row -> columns
			for _, c := range cells {
				cols[c[0]] = append(cols[c[0]], c[1])
			}
			if len(cols) != 2 {
				t.Fatalf("squares on %d rows, want 2: %v", len(cols), cells)
			}
			var rows []int
			for r := range cols {
				rows = append(rows, r)
			}
			sort.Ints(rows)
			if rows[1]-rows[0] != 1 && rows[1]-rows[0] != n-1 {
				t.Fatalf("rows %v are not adjacent", rows)
			}
			if fmt.Sprint(cols[rows[0]]) != fmt.Sprint(cols[rows[1]]) {
				t.Fatalf("rows cover different columns: %v and %v", cols[rows[0]], cols[rows[1]])
			}
			line := cols[rows[0]]
			if len(line) < 5 {
				t.Fatalf("line is %d long after %d rounds, want at least 5", len(line), b.Round())
			}
			// The columns form one unbroken run (wrapping around the arena).
			gaps := 0
			for i := range line {
				next := line[(i+1)%len(line)]
				if (next-line[i]+n)%n != 1 {
					gaps++
				}
			}
			if gaps != 1 {
				t.Fatalf("line has holes: columns %v", line)
			}
		})
	}
}

func TestWandererReplicatesInStep(t *testing.T) {
	cat := catalog(t)
	for _, seed := range []uint64{1, 7} {
		t.Run(fmt.Sprint("seed ", seed), func(t *testing.T) {
			b, recs := battle(t, cat, []string{"wanderer"}, engine.Options{Size: 48, Rounds: 2000, Seed: seed})
			before := map[int]int{} // round -> squares at its start
			for b.Round() < 620 {
				before[b.Round()+1] = b.Snapshot().Teams[0].Stats.Squares
				b.Step()
			}
			perRound := map[int]int{}
			for _, br := range recs[0].births {
				perRound[br.round]++
			}
			if len(perRound) < 3 {
				t.Fatalf("births in rounds %v, want at least three rounds of births", perRound)
			}
			for r, got := range perRound {
				if got != before[r] {
					t.Errorf("round %d: %d births from %d squares; all Wanderers should replicate together", r, got, before[r])
				}
			}
			if last := maxKey(perRound); perRound[last] < 4 {
				t.Errorf("last birth round %d had %d births, want the team to have grown", last, perRound[last])
			}
		})
	}
}

func maxKey(m map[int]int) int {
	best := -1
	for k := range m {
		if k > best {
			best = k
		}
	}
	return best
}

func TestBorgAssimilatesOtherClasses(t *testing.T) {
	cat := catalog(t)
	ids := []string{"borg", "borg", "borg", "borg", "borg", "borg"}
	b, recs := battle(t, cat, ids, engine.Options{Size: 48, Rounds: 700, Seed: 11})
	b.Run()
	known := map[string]bool{}
	for _, id := range cat.Classes() {
		known[id] = true
	}
	seen := map[string]int{}
	for _, r := range recs {
		for _, br := range r.births {
			if !known[br.class] {
				t.Errorf("born into unknown class %q", br.class)
			}
			seen[br.class]++
		}
	}
	if len(seen) < 4 {
		t.Errorf("Borg children belong to %d classes (%v), want several", len(seen), seen)
	}
}

func TestTweedleDeeRaisesDums(t *testing.T) {
	cat := catalog(t)
	b, recs := battle(t, cat, []string{"tweedledee", "tweedledee"}, engine.Options{Size: 48, Rounds: 900, Seed: 4})
	b.Run()
	for i, r := range recs {
		if len(r.births) < 3 {
			t.Errorf("team %d: only %d births", i, len(r.births))
		}
		for _, br := range r.births {
			if br.class != "tweedledum" {
				t.Errorf("team %d, round %d: TweedleDee's team made a %q, want tweedledum", i, br.round, br.class)
			}
		}
	}
}

// Every shipped player keeps well within its budget and never errs, in long
// battles where everybody meets everybody (Borg brings in every class). The
// budget here is a fifth of the default, so a script that gets slower shows
// up long before it would time out in a real battle.
func TestNoErrorsOrTimeouts(t *testing.T) {
	lim := luabind.DefaultLimits()
	lim.Instructions = 2000
	cat, err := luabind.LoadCatalog(luabind.CatalogOptions{FS: scripts.FS, Dir: "scripts", Limits: lim})
	if err != nil {
		t.Fatal(err)
	}
	all := startingIDs(cat)
	tests := []struct {
		name  string
		ids   []string
		seeds []uint64
	}{
		{"all", all, []uint64{1, 2, 3}},
		{"borg", []string{"borg", "borg", "borg", "borg", "expand", "wanderer"}, []uint64{1, 2}},
	}
	for _, tc := range tests {
		for _, seed := range tc.seeds {
			t.Run(fmt.Sprint(tc.name, " seed ", seed), func(t *testing.T) {
				t.Parallel()
				b, _ := battle(t, cat, tc.ids, engine.Options{Size: 48, Rounds: 1500, Seed: seed, Workers: 4})
				s := b.Run()
				t.Logf("over after round %d, winner %d", s.Round, s.Winner)
				for _, tv := range s.Teams {
					st := tv.Stats
					if st.Errors != 0 || st.Timeouts != 0 {
						t.Errorf("%s: %d errors, %d timeouts", tv.Player.Name, st.Errors, st.Timeouts)
					}
					// Everybody but the Borg (whose Explorers ignore the
					// team's plans) avoids stepping on its own squares.
					if tv.Player.Name != "Borg" && st.Collisions != 0 {
						t.Errorf("%s: %d own-team collisions", tv.Player.Name, st.Collisions)
					}
				}
				for _, p := range s.FirstProblems {
					t.Errorf("team %d round %d: %s", p.Team, p.Round, p.Message)
				}
			})
		}
	}
}

func TestBattleNotOverEarly(t *testing.T) {
	cat := catalog(t)
	all := startingIDs(cat)
	for seed := uint64(1); seed <= 8; seed++ {
		t.Run(fmt.Sprint("seed ", seed), func(t *testing.T) {
			b, _ := battle(t, cat, all, engine.Options{Size: 48, Rounds: 1500, Seed: seed})
			for b.Round() < 20 {
				b.Step()
			}
			s := b.Snapshot()
			alive := 0
			for _, tv := range s.Teams {
				if tv.Stats.Squares > 0 {
					alive++
				}
			}
			if s.Over || alive < 3 {
				t.Errorf("round %d: over=%v with %d teams alive; a battle of %d players should still be open", s.Round, s.Over, alive, len(all))
			}
		})
	}
}
