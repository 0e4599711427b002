package tournament

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"strings"
	"testing"
	"time"
)

func params(f Format, games, players int) Params {
	p := Params{Format: f, Games: games, Seed: 42, Setup: map[string]string{"arena.size": "16"}}
	for i := range players {
		p.Players = append(p.Players, Player{ID: fmt.Sprintf("p%d", i), Name: fmt.Sprintf("P%d", i)})
	}
	return p
}

// fakePlay plays without Lua: entrant e ends with 5e to 5e+4 squares, plus
// noise from the seed, and entrant 0 is wiped out in round seed%50; it
// sleeps a little at random so battles finish out of order.
func fakePlay(g Game) (Result, error) {
	time.Sleep(time.Duration(g.Seed%3) * time.Millisecond)
	r := Result{Rounds: 50}
	for t, e := range g.Seats {
		tr := TeamResult{Squares: 5*e + int((g.Seed>>uint(8*t))%5), Survived: 50}
		if e == 0 {
			tr.Squares, tr.Survived = 0, int(g.Seed%50)
		}
		r.Teams = append(r.Teams, tr)
	}
	return r, nil
}

func TestSchedule(t *testing.T) {
	tests := []struct {
		name    string
		p       Params
		battles int
		check   func(t *testing.T, games []Game)
	}{
		{"round robin: each game twice, sides swapped, one seed", params(RoundRobin, 2, 3), 12, func(t *testing.T, games []Game) {
			for i := 0; i < len(games); i += 2 {
				a, b := games[i], games[i+1]
				if a.Seed != b.Seed || a.Seats[0] != b.Seats[1] || a.Seats[1] != b.Seats[0] || a.Round != b.Round {
					t.Errorf("games %d and %d are not mirrored: %+v %+v", i, i+1, a, b)
				}
			}
		}},
		{"koth: everyone in every battle, each seat in turn", params(KOTH, 8, 4), 8, func(t *testing.T, games []Game) {
			first := map[int]int{}
			for _, g := range games {
				if len(g.Seats) != 4 {
					t.Fatalf("seats %v", g.Seats)
				}
				first[g.Seats[0]]++
			}
			for e := range 4 {
				if first[e] != 2 {
					t.Errorf("entrant %d holds team 0 in %d of 8 battles, want 2", e, first[e])
				}
			}
		}},
		{"solo: one seed per round for every player", params(Solo, 3, 2), 6, func(t *testing.T, games []Game) {
			for i := 0; i < len(games); i += 2 {
				if games[i].Seed != games[i+1].Seed || len(games[i].Seats) != 1 {
					t.Errorf("round %d: %+v %+v", games[i].Round, games[i], games[i+1])
				}
			}
			if games[0].Seed == games[2].Seed {
				t.Error("two rounds share a seed")
			}
		}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			games := tc.p.Schedule()
			if len(games) != tc.battles || tc.p.Battles() != tc.battles {
				t.Fatalf("%d battles (Battles says %d), want %d", len(games), tc.p.Battles(), tc.battles)
			}
			for i, g := range games {
				if g.Index != i || g.Seed == 0 || g.Seed >= 1<<53 {
					t.Errorf("game %d: %+v", i, g)
				}
			}
			tc.check(t, games)
			again := tc.p.Schedule()
			other := tc.p
			other.Seed++
			if fmt.Sprint(again) != fmt.Sprint(games) {
				t.Error("the schedule is not a function of the parameters")
			}
			if fmt.Sprint(other.Schedule()) == fmt.Sprint(games) {
				t.Error("another seed gives the same schedule")
			}
		})
	}
}

func TestCheckAndParse(t *testing.T) {
	tests := []struct {
		name string
		err  error
	}{
		{"koth", func() error { _, err := ParseFormat("KOTH"); return err }()},
		{"round-robin", func() error { _, err := ParseFormat("round-robin"); return err }()},
		{"zero games", params(KOTH, 0, 2).Check()},
		{"one player round robin", params(RoundRobin, 1, 1).Check()},
		{"one player solo", params(Solo, 1, 1).Check()},
		{"swiss", func() error { _, err := ParseFormat("swiss"); return err }()},
	}
	want := map[string]bool{"zero games": true, "one player round robin": true, "swiss": true}
	for _, tc := range tests {
		if (tc.err != nil) != want[tc.name] || (tc.err != nil && !errors.Is(tc.err, ErrBadParams)) {
			t.Errorf("%s: err = %v", tc.name, tc.err)
		}
	}
}

func TestParseShard(t *testing.T) {
	env := func(kv ...string) func(string) string {
		return func(k string) string {
			for i := 0; i < len(kv); i += 2 {
				if kv[i] == k {
					return kv[i+1]
				}
			}
			return ""
		}
	}
	tests := []struct {
		in   string
		env  func(string) string
		want Shard
		err  string
	}{
		{"0/4", env(), Shard{0, 4}, ""},
		{"3/4", env(), Shard{3, 4}, ""},
		{"4/4", env(), Shard{}, "from 0 to 3"},
		{"-1/4", env(), Shard{}, "from 0 to 3"},
		{"1", env(), Shard{}, "want I/N"},
		{"0/0", env(), Shard{}, "at least 1"},
		{"auto/3", env(EnvKubernetesIndex, "2"), Shard{2, 3}, ""},
		{"auto/3", env(EnvSlurmIndex, "1"), Shard{1, 3}, ""},
		{"auto/3", env(EnvSlurmIndex, "3", EnvSlurmMin, "1"), Shard{2, 3}, ""},
		{"auto/3", env(EnvSlurmIndex, "x"), Shard{}, "not numbers"},
		{"auto/3", env(), Shard{}, EnvKubernetesIndex},
	}
	for _, tc := range tests {
		got, err := ParseShard(tc.in, tc.env)
		if tc.err != "" {
			if err == nil || !strings.Contains(err.Error(), tc.err) || !errors.Is(err, ErrBadParams) {
				t.Errorf("%s: err = %v, want one containing %q", tc.in, err, tc.err)
			}
			continue
		}
		if err != nil || got != tc.want {
			t.Errorf("%s = %v, %v; want %v", tc.in, got, err, tc.want)
		}
	}
}

func TestWilson(t *testing.T) {
	tests := []struct {
		score, n float64
		lo, hi   float64
	}{
		{8, 10, 0.4902, 0.9433},
		{0, 10, 0, 0.2775},
		{10, 10, 0.7225, 1},
		{50, 100, 0.4038, 0.5962},
		{0, 0, 0, 1},
	}
	for _, tc := range tests {
		lo, hi := Wilson(tc.score, tc.n, Z95)
		if math.Abs(lo-tc.lo) > 5e-5 || math.Abs(hi-tc.hi) > 5e-5 {
			t.Errorf("Wilson(%v, %v) = [%.4f, %.4f], want [%.4f, %.4f]", tc.score, tc.n, lo, hi, tc.lo, tc.hi)
		}
	}
}

func standingsJSON(t *testing.T, p Params, results []Result) string {
	t.Helper()
	data, err := json.Marshal(Compute(p, results))
	if err != nil {
		t.Fatal(err)
	}
	return string(data)
}

// TestRunDeterministic: whatever the number of workers, results come back
// in schedule order and the standings are the same bytes.
func TestRunDeterministic(t *testing.T) {
	for _, f := range Formats {
		t.Run(string(f), func(t *testing.T) {
			p := params(f, 4, 4)
			games := p.Schedule()
			var want string
			for _, w := range []int{1, 2, 7} {
				calls := 0
				results := Run(games, fakePlay, RunOptions{Workers: w, Progress: func(done, total int) {
					calls++
					if done != calls || total != len(games) {
						t.Errorf("progress %d/%d on call %d", done, total, calls)
					}
				}})
				for i, r := range results {
					if r.Game != i || r.Seed != games[i].Seed {
						t.Fatalf("result %d is game %d", i, r.Game)
					}
				}
				got := standingsJSON(t, p, results)
				if want == "" {
					want = got
				} else if got != want {
					t.Errorf("workers %d: standings differ:\n%s\n%s", w, got, want)
				}
			}
		})
	}
}

func TestFailedBattles(t *testing.T) {
	p := params(RoundRobin, 1, 3)
	play := func(g Game) (Result, error) {
		switch g.Index {
		case 0:
			return Result{}, errors.New("boom")
		case 1:
			panic("bang")
		}
		return fakePlay(g)
	}
	results := Run(p.Schedule(), play, RunOptions{Workers: 2})
	s := Compute(p, results)
	if s.Failed != 2 || len(s.Failures) != 2 || s.Failures[0].Error != "boom" || s.Failures[1].Error != "panic: bang" {
		t.Fatalf("failures = %+v", s.Failures)
	}
	for _, st := range s.Players {
		want := map[int]int{0: 2, 1: 2, 2: 0}[st.Entrant]
		if st.Failed != want || st.Battles != 4-want {
			t.Errorf("%s: %d battles, %d failed", st.Label, st.Battles, st.Failed)
		}
	}
}

func TestCompute(t *testing.T) {
	p := params(RoundRobin, 3, 3)
	s := Compute(p, Run(p.Schedule(), fakePlay, RunOptions{Workers: 3}))
	// Entrant 2 always has the most squares, entrant 0 never survives.
	if s.Players[0].Entrant != 2 || s.Players[2].Entrant != 0 {
		t.Fatalf("order: %+v", s.Players)
	}
	top, last := s.Players[0], s.Players[2]
	if top.Wins != 12 || top.Losses != 0 || top.Score != 1 || top.Rating <= 1500 || top.RD >= 350 {
		t.Errorf("top = %+v", top)
	}
	if last.Wins != 0 || last.Score != 0 || last.Rating >= 1500 || last.MeanSquares != 0 {
		t.Errorf("last = %+v", last)
	}
	if top.Low <= 0.5 || top.High < 0.9999 {
		t.Errorf("top interval [%v, %v]", top.Low, top.High)
	}
	for i := range s.Matrix {
		for j := range s.Matrix {
			a, b := s.Matrix[i][j], s.Matrix[j][i]
			if a.Wins != b.Losses || a.Draws != b.Draws || (i != j && a.Games() != 6) {
				t.Errorf("matrix[%d][%d] = %+v, [%d][%d] = %+v", i, j, a, j, i, b)
			}
		}
	}
	if labels := Labels([]Player{{Name: "A"}, {Name: "B"}, {Name: "A"}}); strings.Join(labels, ",") != "A,B,A 2" {
		t.Errorf("labels %v", labels)
	}
}

// TestKOTHPairwise: a battle of four counts as three results for each.
func TestKOTHPairwise(t *testing.T) {
	p := params(KOTH, 2, 4)
	s := Compute(p, Run(p.Schedule(), fakePlay, RunOptions{Workers: 1}))
	for _, st := range s.Players {
		if st.Games() != 6 || st.Battles != 2 {
			t.Errorf("%s: %d results in %d battles", st.Label, st.Games(), st.Battles)
		}
	}
}

// shardFiles plays a tournament as n shards and returns their files,
// encoded and decoded again.
func shardFiles(t *testing.T, p Params, n int) ([]string, []*File) {
	t.Helper()
	var names []string
	var files []*File
	for i := range n {
		sh := Shard{i, n}
		f := &File{Version: FileVersion, Params: p, Shard: sh, Results: Run(sh.Games(p.Schedule()), fakePlay, RunOptions{Workers: 2})}
		var buf bytes.Buffer
		if err := f.Encode(&buf); err != nil {
			t.Fatal(err)
		}
		name := fmt.Sprintf("shard%d.json", i)
		back, err := Decode(name, &buf)
		if err != nil {
			t.Fatal(err)
		}
		names, files = append(names, name), append(files, back)
	}
	return names, files
}

func TestMerge(t *testing.T) {
	p := params(KOTH, 7, 3)
	whole := standingsJSON(t, p, Run(p.Schedule(), fakePlay, RunOptions{Workers: 1}))
	for _, n := range []int{1, 2, 3} {
		names, files := shardFiles(t, p, n)
		// Shards may come in any order.
		names[0], names[n-1] = names[n-1], names[0]
		files[0], files[n-1] = files[n-1], files[0]
		m, err := Merge(names, files)
		if err != nil {
			t.Fatalf("%d shards: %v", n, err)
		}
		if got := standingsJSON(t, m.Params, m.Results); got != whole {
			t.Errorf("%d shards merged differ from one run:\n%s\n%s", n, got, whole)
		}
	}

	names, files := shardFiles(t, p, 3)
	other := *files[1]
	other.Params.Setup = map[string]string{"arena.size": "32"}
	reseeded := *files[1]
	reseeded.Params.Seed = 7
	tests := []struct {
		name  string
		names []string
		files []*File
		want  string
		err   error
	}{
		{"another arena", names, []*File{files[0], &other, files[2]}, "shard1.json: not the same tournament as shard0.json: arena.size is 16 there, 32 here", ErrMerge},
		{"another seed", names, []*File{files[0], &reseeded, files[2]}, "seed is 42 there, 7 here", ErrMerge},
		{"a shard twice", []string{"a.json", "b.json", "c.json"}, []*File{files[0], files[1], files[1]}, "c.json: game 1 is also in b.json", ErrMerge},
		{"a shard missing", names[:2], files[:2], "games 2 and 5 of 7 are in no file; missing shard 2/3", ErrMerge},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Merge(tc.names, tc.files)
			if err == nil || !strings.Contains(err.Error(), tc.want) || !errors.Is(err, tc.err) || strings.Contains(err.Error(), "\n") {
				t.Errorf("err = %v, want one line containing %q", err, tc.want)
			}
		})
	}
}

func TestDecode(t *testing.T) {
	p := params(RoundRobin, 1, 2)
	games := p.Schedule()
	good := func() *File {
		return &File{Version: FileVersion, Params: p, Shard: Shard{0, 2}, Results: Run(Shard{0, 2}.Games(games), fakePlay, RunOptions{})}
	}
	tests := []struct {
		name   string
		change func(f *File)
		want   string
	}{
		{"good", func(f *File) {}, ""},
		{"version", func(f *File) { f.Version = 9 }, "version 9"},
		{"game of another shard", func(f *File) { f.Results[0].Game, f.Results[0].Seed = 1, games[1].Seed }, "game 1 is not in shard 0/2"},
		{"wrong seed", func(f *File) { f.Results[0].Seed++ }, "but the schedule says"},
		{"a team lost", func(f *File) { f.Results[0].Teams = f.Results[0].Teams[:1] }, "has 1 teams"},
		{"truncated", func(f *File) { f.Results = nil }, "shard 0/2 lacks game 0 of 2"},
		{"bad params", func(f *File) { f.Params.Games = 0 }, "games: must be at least 1"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			f := good()
			tc.change(f)
			var buf bytes.Buffer
			if err := f.Encode(&buf); err != nil {
				t.Fatal(err)
			}
			_, err := Decode("x.json", &buf)
			if tc.want == "" {
				if err != nil {
					t.Fatal(err)
				}
				return
			}
			if err == nil || !strings.HasPrefix(err.Error(), "x.json: ") || !strings.Contains(err.Error(), tc.want) || !errors.Is(err, ErrBadFile) {
				t.Errorf("err = %v, want one containing %q", err, tc.want)
			}
		})
	}
	// A results file states the schedule's size: one past the bounds is
	// refused before the schedule is made, whatever its numbers.
	huge := []struct {
		name        string
		format      Format
		games       int
		players     int
		wantRefused bool
	}{
		{"koth of 10^12 games", KOTH, 1_000_000_000_000, 2, true},
		{"roundrobin of 2^62 games", RoundRobin, 1 << 62, 2, true},
		{"roundrobin whose battles overflow", RoundRobin, 1 << 40, 1 << 13, true},
		{"solo of MaxInt games", Solo, int(^uint(0) >> 1), 3, true},
		{"koth past MaxBattles", KOTH, MaxBattles + 1, 2, true},
		{"koth past MaxSeats", KOTH, MaxBattles, 17, true},
		{"koth at MaxBattles", KOTH, MaxBattles, 2, false},
		{"roundrobin at the battles' bound", RoundRobin, MaxBattles / (16 * 15), 16, false},
	}
	for _, tc := range huge {
		t.Run(tc.name, func(t *testing.T) {
			f := &File{Version: FileVersion, Params: params(tc.format, tc.games, tc.players), Shard: Whole}
			var buf bytes.Buffer
			if err := f.Encode(&buf); err != nil {
				t.Fatal(err)
			}
			err := f.Params.Check()
			if !tc.wantRefused {
				if err != nil {
					t.Fatalf("refused at the bound: %v", err)
				}
				return
			}
			if err == nil || !errors.Is(err, ErrBadParams) || !strings.HasPrefix(err.Error(), "games: ") {
				t.Fatalf("Check: %v, want a games error", err)
			}
			_, err = Decode("x.json", &buf)
			if err == nil || !errors.Is(err, ErrBadFile) || !strings.HasPrefix(err.Error(), "x.json: games: ") || strings.Contains(err.Error(), "\n") {
				t.Errorf("Decode: %v, want one line naming x.json and games", err)
			}
		})
	}
	if _, err := Decode("junk.json", strings.NewReader("{")); err == nil || !strings.HasPrefix(err.Error(), "junk.json: not a results file") {
		t.Errorf("junk: %v", err)
	}
}

// TestModRanking: with score columns, teams rank by the rules' winner, then
// by the columns in order (higher first); solo leaves the winner out and
// compares the columns seed by seed. The mean of the first column stands
// in for squares.
func TestModRanking(t *testing.T) {
	p := params(KOTH, 1, 3)
	p.Game, p.Columns = "paint", []string{"area", "painted"}
	tr := func(won bool, v ...int) TeamResult { return TeamResult{Values: v, Won: won, Squares: 8} }
	cmp := []struct {
		name string
		a, b TeamResult
		want float64
	}{
		{"first column decides", tr(false, 10, 1), tr(false, 9, 50), 1},
		{"then the second", tr(false, 10, 1), tr(false, 10, 2), 0},
		{"all equal is a draw", tr(false, 10, 2), tr(false, 10, 2), 0.5},
		{"the declared winner first", tr(true, 1, 1), tr(false, 10, 10), 1},
	}
	for _, c := range cmp {
		if got := p.Compare(c.a, c.b); got != c.want {
			t.Errorf("%s: %v, want %v", c.name, got, c.want)
		}
	}
	if solo := (Params{Format: Solo, Columns: p.Columns}); solo.Compare(tr(true, 1), tr(false, 2)) != 0 {
		t.Errorf("solo ranks by the declared winner")
	}
	if (Params{}).Compare(tr(false, 100), TeamResult{Squares: 9}) != 0 {
		t.Errorf("SquareBattle ranks by score columns")
	}

	// Entrant e scores (e, 100-e) each battle: the first column ranks them.
	play := func(g Game) (Result, error) {
		r := Result{Rounds: 10}
		for _, e := range g.Seats {
			r.Teams = append(r.Teams, TeamResult{Values: []int{e, 100 - e}, Won: e == 2, Survived: 10, Squares: 8})
		}
		return r, nil
	}
	p = params(KOTH, 3, 3)
	p.Game, p.Columns = "paint", []string{"area", "painted"}
	s := Compute(p, Run(p.Schedule(), play, RunOptions{Workers: 2}))
	for i, want := range []int{2, 1, 0} {
		st := s.Players[i]
		if st.Entrant != want || st.MeanSquares != float64(want) || len(st.MeanValues) != 2 || st.MeanValues[1] != float64(100-want) {
			t.Errorf("rank %d: %+v, want entrant %d", i+1, st, want)
		}
	}
	if s.Players[0].Wins != 6 || s.Players[2].Losses != 6 {
		t.Errorf("wins %d, losses %d", s.Players[0].Wins, s.Players[2].Losses)
	}

	// A results file whose teams lack the columns is refused.
	f := &File{Version: FileVersion, Params: p, Shard: Whole, Results: Run(p.Schedule(), fakePlay, RunOptions{})}
	var buf bytes.Buffer
	if err := f.Encode(&buf); err != nil {
		t.Fatal(err)
	}
	if _, err := Decode("x.json", &buf); err == nil || !strings.Contains(err.Error(), "score values") {
		t.Errorf("decoded results without score values: %v", err)
	}
	// Nor do two games merge.
	other := *f
	other.Params.Game = "snake"
	if _, _, _, ok := diff(other.Params, f.Params); !ok {
		t.Errorf("two games do not differ")
	}
}
