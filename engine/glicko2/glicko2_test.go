package glicko2

import (
	"math"
	"testing"
)

// TestPaperExample replays the worked example of Glickman's "Example of the
// Glicko-2 system" (2013): a 1500/200/0.06 player beats a 1400/30 player
// and loses to 1550/100 and 1700/300 ones, with τ = 0.5.
func TestPaperExample(t *testing.T) {
	p := Rating{R: 1500, RD: 200, Vol: 0.06}
	got := Update(p, []Result{
		{Opponent: Rating{R: 1400, RD: 30}, Score: 1},
		{Opponent: Rating{R: 1550, RD: 100}, Score: 0},
		{Opponent: Rating{R: 1700, RD: 300}, Score: 0},
	}, 0.5)
	want := Rating{R: 1464.06, RD: 151.52, Vol: 0.05999}
	tests := []struct {
		name      string
		got, want float64
		tol       float64
	}{
		// The paper rounds μ' to -0.2069 before step 8, hence its 1464.06
		// where the unrounded value is 1464.0507; and it shows σ' to five
		// places (0.05999 for 0.059996).
		{"rating", got.R, want.R, 0.01},
		{"deviation", got.RD, want.RD, 0.005},
		{"volatility", got.Vol, want.Vol, 0.00001},
	}
	for _, tc := range tests {
		if math.Abs(tc.got-tc.want) > tc.tol {
			t.Errorf("%s = %.6f, want %.5f", tc.name, tc.got, tc.want)
		}
	}
}

func TestUpdate(t *testing.T) {
	d := Default()
	tests := []struct {
		name  string
		p     Rating
		res   []Result
		check func(Rating) bool
	}{
		{"idle: only the deviation grows", Rating{1600, 50, 0.06}, nil,
			func(r Rating) bool { return r.R == 1600 && r.Vol == 0.06 && r.RD > 51 && r.RD < 51.1 }},
		{"a win against an equal raises the rating", d, []Result{{d, 1}},
			func(r Rating) bool { return r.R > 1500 && r.RD < 350 }},
		{"a loss against an equal lowers it as much", d, []Result{{d, 0}},
			func(r Rating) bool { return math.Abs(r.R-1500+(Update(d, []Result{{d, 1}}, 0).R-1500)) < 1e-9 }},
		{"a draw against an equal keeps it", d, []Result{{d, 0.5}},
			func(r Rating) bool { return math.Abs(r.R-1500) < 1e-9 && r.RD < 350 }},
		{"a huge upset converges (the step 5 bracketing branch)", Rating{1500, 30, 0.06}, []Result{{Rating{2500, 30, 0.06}, 1}},
			func(r Rating) bool { return r.R > 1500 && !math.IsNaN(r.Vol) && r.Vol > 0.06 }},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if r := Update(tc.p, tc.res, 0); !tc.check(r) {
				t.Errorf("Update = %+v", r)
			}
		})
	}
}
