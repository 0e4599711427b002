package openskill

import (
	"errors"
	"math"
	"math/rand/v2"
	"slices"
	"testing"
)

// near reports whether got is within tol of want.
func near(got, want, tol float64) bool { return math.Abs(got-want) <= tol }

// TestReferenceVectors replays results published by the OpenSkill
// libraries (openskill.js's README example, openskill.py's generated
// Plackett–Luce test data) and expects their numbers.
func TestReferenceVectors(t *testing.T) {
	type pr = [2]float64 // μ, σ
	// openskill.py's data file rates with a random start (this μ and σ)
	// and the library's other defaults.
	pyMu, pySigma := 20.35125162611535, 8.33148112355601
	cases := []struct {
		name  string
		opts  Options
		sizes []int // players per team, all at the start rating
		place []int
		want  [][]pr
		tol   float64
	}{
		{
			// Four new players placed 4, 1, 3, 2, rated without τ (the
			// figures openskill.js prints in its README).
			name: "js README, no tau", opts: Options{NoTau: true}, sizes: []int{1, 1, 1, 1}, place: []int{4, 1, 3, 2},
			want: [][]pr{{{20.9627, 8.0837}}, {{27.7951, 8.2632}}, {{24.6894, 8.0837}}, {{26.5528, 8.1792}}}, tol: 0.00006,
		},
		{
			// The same battle with the default τ (openskill.py's ordinal
			// notebook prints these).
			name: "py notebook, default tau", sizes: []int{1, 1, 1, 1}, place: []int{4, 1, 3, 2},
			want: [][]pr{{{20.962413, 8.084128}}, {{27.795253, 8.263572}}, {{24.689416, 8.084128}}, {{26.552918, 8.179618}}}, tol: 0.0000006,
		},
		{
			name: "py normal", opts: Options{Mu: pyMu, Sigma: pySigma}, sizes: []int{1, 2}, place: []int{1, 2},
			want: [][]pr{{{23.855123082692877, 8.22447878583752}}, {{16.84738016953782, 8.179571171464575}, {16.84738016953782, 8.179571171464575}}}, tol: 1e-9,
		},
		{
			name: "py ranks", opts: Options{Mu: pyMu, Sigma: pySigma}, sizes: []int{1, 2, 1, 2}, place: []int{2, 1, 4, 3},
			want: [][]pr{
				{{22.35555943890167, 8.265434830225024}},
				{{22.373451456616035, 8.258479912445537}, {22.373451456616035, 8.258479912445537}},
				{{18.311159777900297, 8.219170401234347}},
				{{18.364835831043397, 8.112716571808326}, {18.364835831043397, 8.112716571808326}},
			}, tol: 1e-9,
		},
		{
			name: "py ties", opts: Options{Mu: pyMu, Sigma: pySigma}, sizes: []int{1, 2, 3}, place: []int{1, 2, 1},
			want: [][]pr{
				{{21.63766806988004, 8.310709773172306}},
				{{19.53956360838512, 8.268148437657915}, {19.53956360838512, 8.268148437657915}},
				{{19.87652320008089, 8.237522411103104}, {19.87652320008089, 8.237522411103104}, {19.87652320008089, 8.237522411103104}},
			}, tol: 1e-9,
		},
		{
			name: "py limit sigma", opts: Options{Mu: pyMu, Sigma: pySigma, LimitSigma: true}, sizes: []int{1, 2, 3}, place: []int{2, 1, 3},
			want: [][]pr{
				{{22.81664991565251, 8.28331609373364}},
				{{22.74645120129216, 8.268148437657915}, {22.74645120129216, 8.268148437657915}},
				{{15.49065376140138, 8.18959307104567}, {15.49065376140138, 8.18959307104567}, {15.49065376140138, 8.18959307104567}},
			}, tol: 1e-9,
		},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			m, err := New(tc.opts)
			if err != nil {
				t.Fatal(err)
			}
			teams := make([][]Rating, len(tc.sizes))
			for i, n := range tc.sizes {
				for range n {
					teams[i] = append(teams[i], m.NewRating())
				}
			}
			got, err := m.Rate(teams, tc.place)
			if err != nil {
				t.Fatal(err)
			}
			for i := range tc.want {
				for j, w := range tc.want[i] {
					g := got[i][j]
					if !near(g.Mu, w[0], tc.tol) || !near(g.Sigma, w[1], tc.tol) {
						t.Errorf("team %d player %d: μ=%.10f σ=%.10f, want %.10f %.10f", i+1, j+1, g.Mu, g.Sigma, w[0], w[1])
					}
				}
			}
		})
	}
}

// randomBattle is k teams of 1 to 3 players with spread-out ratings and a
// placing with some ties.
func randomBattle(r *rand.Rand, k int) ([][]Rating, []int) {
	teams := make([][]Rating, k)
	place := make([]int, k)
	for i := range teams {
		for range 1 + r.IntN(3) {
			teams[i] = append(teams[i], Rating{Mu: 10 + 30*r.Float64(), Sigma: 0.5 + 8*r.Float64()})
		}
		place[i] = 1 + r.IntN(k)
	}
	return teams, place
}

// TestSymmetry: permuting the teams of a battle permutes its results, bit
// for bit, for 2 to 16 teams.
func TestSymmetry(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	m := Default()
	for k := 2; k <= 16; k++ {
		for trial := range 20 {
			teams, place := randomBattle(r, k)
			want, err := m.Rate(teams, place)
			if err != nil {
				t.Fatal(err)
			}
			perm := r.Perm(k)
			pTeams := make([][]Rating, k)
			pPlace := make([]int, k)
			for i, p := range perm {
				pTeams[i], pPlace[i] = teams[p], place[p]
			}
			got, err := m.Rate(pTeams, pPlace)
			if err != nil {
				t.Fatal(err)
			}
			for i, p := range perm {
				if !slices.Equal(got[i], want[p]) {
					t.Fatalf("k=%d trial %d: team %d after permuting is %v, was %v", k, trial, p, got[i], want[p])
				}
			}
		}
	}
}

// TestTies: teams that share a place and a rating come out equal; equal
// teams that all tie keep their μ; a tie for first is worth less than
// winning alone and more than coming last. (Among three equal players the
// Plackett–Luce model values a tie for first exactly like second place.)
func TestTies(t *testing.T) {
	m := Default()
	r := m.NewRating()
	for k := 2; k <= 16; k++ {
		place := make([]int, k)
		ratings := make([]Rating, k)
		for i := range place {
			place[i] = 1 // everyone ties
			ratings[i] = r
		}
		got, err := m.RateSolo(ratings, place)
		if err != nil {
			t.Fatal(err)
		}
		for i := range got {
			if got[i] != got[0] {
				t.Errorf("%d teams all tied: team %d is %v, team 1 %v", k, i+1, got[i], got[0])
			}
			if !near(got[i].Mu, r.Mu, 1e-9) {
				t.Errorf("%d teams all tied: μ moved from %v to %v", k, r.Mu, got[i].Mu)
			}
			if got[i].Sigma >= math.Sqrt(r.Sigma*r.Sigma+m.Tau()*m.Tau()) {
				t.Errorf("%d teams all tied: σ did not shrink: %v", k, got[i].Sigma)
			}
		}
	}
	// Three equal players: 1st alone, tied 1st, 2nd alone.
	win, _ := m.RateSolo([]Rating{r, r, r}, []int{1, 2, 3})
	tie, _ := m.RateSolo([]Rating{r, r, r}, []int{1, 1, 3})
	if !(win[0].Mu > tie[0].Mu && tie[0].Mu > win[2].Mu && near(tie[0].Mu, win[1].Mu, 1e-12)) {
		t.Errorf("winning %v, tying for first %v, second %v, last %v", win[0].Mu, tie[0].Mu, win[1].Mu, win[2].Mu)
	}
	if tie[0] != tie[1] {
		t.Errorf("tied for first, equal ratings: %v and %v", tie[0], tie[1])
	}
}

// TestOrder: among equal new players, a better place never gives a lower
// μ, and the winner gains and the last loses, for 2 to 16 teams.
func TestOrder(t *testing.T) {
	m := Default()
	for k := 2; k <= 16; k++ {
		ratings := make([]Rating, k)
		place := make([]int, k)
		for i := range ratings {
			ratings[i] = m.NewRating()
			place[i] = i + 1
		}
		got, err := m.RateSolo(ratings, place)
		if err != nil {
			t.Fatal(err)
		}
		for i := 1; i < k; i++ {
			if got[i].Mu >= got[i-1].Mu {
				t.Errorf("%d teams: place %d has μ %v, place %d %v", k, i+1, got[i].Mu, i, got[i-1].Mu)
			}
		}
		if got[0].Mu <= DefaultMu || got[k-1].Mu >= DefaultMu {
			t.Errorf("%d teams: winner %v, last %v, start %v", k, got[0].Mu, got[k-1].Mu, DefaultMu)
		}
	}
}

// TestUpset: beating a stronger player moves both more than beating a
// weaker one, as a Bayesian update should.
func TestUpset(t *testing.T) {
	m := Default()
	strong := Rating{Mu: 35, Sigma: 4}
	weak := Rating{Mu: 15, Sigma: 4}
	upset, _ := m.RateSolo([]Rating{weak, strong}, []int{1, 2})
	expected, _ := m.RateSolo([]Rating{weak, strong}, []int{2, 1})
	if gain, loss := upset[0].Mu-weak.Mu, expected[0].Mu-weak.Mu; gain <= -loss {
		t.Errorf("the weak player gains %v for an upset and loses %v for the expected loss", gain, -loss)
	}
}

// TestRefuses: bad arguments are errors wrapping ErrInput, never NaNs.
func TestRefuses(t *testing.T) {
	m := Default()
	r := m.NewRating()
	many := make([][]Rating, MaxTeams+1)
	for i := range many {
		many[i] = []Rating{r}
	}
	big := make([]Rating, MaxPlayers+1)
	for i := range big {
		big[i] = r
	}
	cases := []struct {
		name  string
		teams [][]Rating
		place []int
	}{
		{"no teams", nil, nil},
		{"one team", [][]Rating{{r}}, []int{1}},
		{"too many teams", many, make([]int, len(many))},
		{"places short", [][]Rating{{r}, {r}}, []int{1}},
		{"empty team", [][]Rating{{r}, {}}, []int{1, 2}},
		{"team too big", [][]Rating{{r}, big}, []int{1, 2}},
		{"NaN mu", [][]Rating{{r}, {{Mu: math.NaN(), Sigma: 1}}}, []int{1, 2}},
		{"infinite sigma", [][]Rating{{r}, {{Mu: 1, Sigma: math.Inf(1)}}}, []int{1, 2}},
		{"zero sigma", [][]Rating{{r}, {{Mu: 1, Sigma: 0}}}, []int{1, 2}},
		{"negative sigma", [][]Rating{{r}, {{Mu: 1, Sigma: -2}}}, []int{1, 2}},
	}
	for _, tc := range cases {
		if _, err := m.Rate(tc.teams, tc.place); !errors.Is(err, ErrInput) {
			t.Errorf("%s: err = %v, want ErrInput", tc.name, err)
		}
	}
	for _, o := range []Options{{Sigma: -1}, {Beta: math.NaN()}, {Tau: math.Inf(1)}, {Mu: math.Inf(-1)}, {Kappa: -0.1}} {
		if _, err := New(o); !errors.Is(err, ErrInput) {
			t.Errorf("New(%+v): err = %v, want ErrInput", o, err)
		}
	}
}

// TestNotModified: Rate leaves its arguments as they were.
func TestNotModified(t *testing.T) {
	teams := [][]Rating{{{Mu: 30, Sigma: 2}}, {{Mu: 20, Sigma: 5}, {Mu: 22, Sigma: 6}}}
	place := []int{2, 1}
	keep := [][]Rating{slices.Clone(teams[0]), slices.Clone(teams[1])}
	if _, err := Default().Rate(teams, place); err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(teams[0], keep[0]) || !slices.Equal(teams[1], keep[1]) || !slices.Equal(place, []int{2, 1}) {
		t.Errorf("arguments changed: %v %v", teams, place)
	}
}

// FuzzRate: whatever finite ratings and places come in, what comes out is
// finite, σ stays positive and, with LimitSigma, never grows; ratings too
// far out for the update are refused with ErrInput.
func FuzzRate(f *testing.F) {
	f.Add(uint64(1), 4, 25.0, 8.0, 3.0)
	f.Add(uint64(2), 16, 1e6, 1e-6, 1e3)
	f.Add(uint64(3), 2, -1e9, 1e9, 0.0)
	f.Fuzz(func(t *testing.T, seed uint64, k int, mu, sigma, spread float64) {
		if k < 2 || k > MaxTeams {
			return
		}
		for _, v := range []float64{mu, sigma, spread} {
			if math.IsNaN(v) || math.IsInf(v, 0) {
				return
			}
		}
		if sigma <= 0 || sigma < 1e-9 {
			return
		}
		r := rand.New(rand.NewPCG(seed, 7))
		teams := make([][]Rating, k)
		place := make([]int, k)
		for i := range teams {
			for range 1 + r.IntN(3) {
				teams[i] = append(teams[i], Rating{Mu: mu + spread*(r.Float64()-0.5), Sigma: sigma * (0.5 + r.Float64())})
			}
			place[i] = 1 + r.IntN(k)
		}
		for _, m := range []*Model{Default(), must(New(Options{LimitSigma: true}))} {
			got, err := m.Rate(teams, place)
			if errors.Is(err, ErrInput) && (math.Abs(mu)+math.Abs(spread) > 1e300 || sigma > 1e150) {
				continue // too far out for the update: refused, never NaN
			}
			if err != nil {
				t.Fatal(err)
			}
			for i := range got {
				for j, g := range got[i] {
					if math.IsNaN(g.Mu) || math.IsInf(g.Mu, 0) || math.IsNaN(g.Sigma) || math.IsInf(g.Sigma, 0) || g.Sigma <= 0 {
						t.Fatalf("team %d player %d: %v from %v", i, j, g, teams[i][j])
					}
					if m.limitSigma && g.Sigma > teams[i][j].Sigma {
						t.Fatalf("σ grew from %v to %v with LimitSigma", teams[i][j].Sigma, g.Sigma)
					}
				}
			}
		}
	})
}

func must(m *Model, err error) *Model {
	if err != nil {
		panic(err)
	}
	return m
}

// BenchmarkRate16 rates a 16-player free-for-all.
func BenchmarkRate16(b *testing.B) {
	m := Default()
	ratings := make([]Rating, 16)
	place := make([]int, 16)
	for i := range ratings {
		ratings[i] = Rating{Mu: 20 + float64(i), Sigma: 3 + float64(i%5)}
		place[i] = 16 - i
	}
	for b.Loop() {
		if _, err := m.RateSolo(ratings, place); err != nil {
			b.Fatal(err)
		}
	}
}

// TestExtremes: ratings far out of the usual range either rate to finite
// ratings with σ > 0 or are refused with ErrInput, never NaN. Before, the
// refused ones came back as {NaN NaN} with no error.
func TestExtremes(t *testing.T) {
	noTau := must(New(Options{NoTau: true}))
	wide := func(n int, r Rating) []Rating {
		out := make([]Rating, n)
		for i := range out {
			out[i] = r
		}
		return out
	}
	cases := []struct {
		name   string
		m      *Model
		teams  [][]Rating
		refuse bool
	}{
		{"σ² overflows", Default(), [][]Rating{{{Mu: 25, Sigma: 1e200}}, {{Mu: 25, Sigma: 1}}}, true},
		{"σ² underflows, no τ", noTau, [][]Rating{{{Mu: 25, Sigma: 1e-170}}, {{Mu: 25, Sigma: 1e-170}}}, true},
		{"one σ² underflows, no τ", noTau, [][]Rating{{{Mu: 25, Sigma: 1e-300}}, {{Mu: 25, Sigma: 8}}}, true},
		{"team μ overflows", Default(), [][]Rating{wide(MaxPlayers, Rating{Mu: 1e307, Sigma: 1}), wide(MaxPlayers, Rating{Mu: 1e307, Sigma: 1})}, true},
		{"μ ±1e300", Default(), [][]Rating{{{Mu: 1e300, Sigma: 1}}, {{Mu: -1e300, Sigma: 1}}}, false},
		{"μ near the largest float64", Default(), [][]Rating{{{Mu: 1.7e308, Sigma: 1}}, {{Mu: 1.7e308, Sigma: 1}}}, false},
		{"σ tiny, with τ", Default(), [][]Rating{{{Mu: 25, Sigma: 1e-300}}, {{Mu: 25, Sigma: 8}}}, false},
		{"64 teams of 64 at the start", Default(), func() [][]Rating {
			out := make([][]Rating, MaxTeams)
			for i := range out {
				out[i] = wide(MaxPlayers, Default().NewRating())
			}
			return out
		}(), false},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			place := make([]int, len(tc.teams))
			for i := range place {
				place[i] = len(place) - i
			}
			got, err := tc.m.Rate(tc.teams, place)
			if tc.refuse {
				if !errors.Is(err, ErrInput) {
					t.Fatalf("err = %v, ratings %v; want ErrInput", err, got)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			for i := range got {
				for j, g := range got[i] {
					if math.IsNaN(g.Mu) || math.IsInf(g.Mu, 0) || math.IsNaN(g.Sigma) || math.IsInf(g.Sigma, 0) || g.Sigma <= 0 {
						t.Fatalf("team %d player %d: %v", i+1, j+1, g)
					}
				}
			}
		})
	}
}
