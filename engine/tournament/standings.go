package tournament

import (
	"math"
	"sort"
	"strconv"

	"github.com/squarebattle/squarebattle/engine/glicko2"
)

// Z95 is the standard normal quantile of a two-sided 95% interval.
const Z95 = 1.959963984540054

// Wilson returns the Wilson score interval for a proportion: score
// successes out of n trials (score may be fractional: a draw counts half),
// at the normal quantile z. With no trials it is [0, 1]. Unlike the plain
// p ± z·√(p(1-p)/n) it stays inside [0, 1] and is honest for small n and
// for rates near 0 or 1, which is what a short tournament gives.
//
// In koth and solo the results of one battle or seed are not independent,
// so there the interval is somewhat too narrow; it is still a fair guide.
func Wilson(score, n, z float64) (lo, hi float64) {
	if n <= 0 {
		return 0, 1
	}
	p := score / n
	z2 := z * z
	denom := 1 + z2/n
	center := (p + z2/(2*n)) / denom
	half := z / denom * math.Sqrt(p*(1-p)/n+z2/(4*n*n))
	return max(0, center-half), min(1, center+half)
}

// Cell is one player's record against one other.
type Cell struct {
	Wins   int `json:"wins"`
	Draws  int `json:"draws"`
	Losses int `json:"losses"`
}

// Games is the number of results in the cell.
func (c Cell) Games() int { return c.Wins + c.Draws + c.Losses }

// Rate is the win rate with draws as half a win; 0 for an empty cell.
func (c Cell) Rate() float64 {
	if c.Games() == 0 {
		return 0
	}
	return (float64(c.Wins) + float64(c.Draws)/2) / float64(c.Games())
}

func (c *Cell) add(score float64) {
	switch score {
	case 1:
		c.Wins++
	case 0:
		c.Losses++
	default:
		c.Draws++
	}
}

// Standing is one player's line of the standings.
type Standing struct {
	Rank    int    `json:"rank"`
	Entrant int    `json:"entrant"` // index into Params.Players
	Player  Player `json:"player"`
	// Label is the display name, numbered when a player entered twice
	// ("Explorer", "Explorer 2").
	Label   string `json:"label"`
	Battles int    `json:"battles"` // battles played, failed ones not counted
	Failed  int    `json:"failed"`  // battles that could not be played
	Cell
	// Score is the win rate with draws as half; Low and High its Wilson
	// 95% interval.
	Score float64 `json:"score"`
	Low   float64 `json:"low"`
	High  float64 `json:"high"`
	// MeanSquares is the mean of squares at the end; for a rule mod, of
	// the first score column (as MeanValues[0]).
	MeanSquares  float64 `json:"mean_squares"`
	MeanSurvived float64 `json:"mean_survived"` // rounds
	// MeanValues are a rule mod's score columns (Params.Columns), each
	// averaged over the player's battles.
	MeanValues []float64 `json:"mean_values,omitempty"`
	Rating     float64   `json:"rating"`
	RD         float64   `json:"rd"`
	Volatility float64   `json:"volatility"`
	Timeouts   int       `json:"timeouts"`
	Errors     int       `json:"errors"`
	// Problem is the first script problem the player's teams met, in
	// schedule order.
	Problem string `json:"problem,omitempty"`
}

// Standings rank the players of a tournament.
type Standings struct {
	Params  Params     `json:"params"`
	Battles int        `json:"battles"` // in the schedule
	Failed  int        `json:"failed"`  // of those, battles that could not be played
	Players []Standing `json:"players"` // best first
	// Matrix[i][j] is Players[i]'s record against Players[j] (rank order).
	Matrix [][]Cell `json:"matrix"`
	// Failures lists the failed battles' errors, in schedule order.
	Failures []Result `json:"failures,omitempty"`
}

// entry is one player's team in a ranking group.
type entry struct {
	entrant int
	team    TeamResult
}

// pairing is one pairwise result: a scored s against b in a round.
type pairing struct {
	round, a, b int
	s           float64
}

// compare orders two teams of SquareBattle: more squares first, then
// later wipe-out (surviving counts as lasting every round played). It
// returns 1 when a did better, 0.5 for a tie, 0 when b did.
func compare(a, b TeamResult) float64 {
	switch {
	case a.Squares != b.Squares:
		return b2f(a.Squares > b.Squares)
	case a.Survived != b.Survived:
		return b2f(a.Survived > b.Survived)
	}
	return 0.5
}

// compareValues orders two teams of a rule mod: the winner the rules
// declared first (not in solo, where every team plays alone), then the
// score columns in order, higher first.
func compareValues(a, b TeamResult, solo bool) float64 {
	if !solo && a.Won != b.Won {
		return b2f(a.Won)
	}
	for i := 0; i < len(a.Values) && i < len(b.Values); i++ {
		if a.Values[i] != b.Values[i] {
			return b2f(a.Values[i] > b.Values[i])
		}
	}
	return 0.5
}

// Compare orders two teams of one ranking group (one battle, or in solo
// one seed): 1 when a did better, 0.5 for a tie, 0 when b did. Every
// pairwise result, and so the win rates and ratings, comes from it: a game
// that ranks its teams some other way plugs in here (and, for a final
// ranking other than by rating, at the end of Compute).
func (p Params) Compare(a, b TeamResult) float64 {
	if len(p.Columns) > 0 {
		return compareValues(a, b, p.Format == Solo)
	}
	return compare(a, b)
}

func b2f(b bool) float64 {
	if b {
		return 1
	}
	return 0
}

// Compute ranks the players from a whole tournament's results (results[i]
// is game i). Everything is accumulated in schedule order, so equal
// results give bit-identical standings.
func Compute(p Params, results []Result) *Standings {
	schedule := p.Schedule()
	n := len(p.Players)
	st := make([]Standing, n)
	labels := Labels(p.Players)
	for e := range st {
		st[e] = Standing{Entrant: e, Player: p.Players[e], Label: labels[e]}
		if len(p.Columns) > 0 {
			st[e].MeanValues = make([]float64, len(p.Columns))
		}
	}
	out := &Standings{Params: p, Battles: len(schedule)}
	matrix := make([][]Cell, n)
	for i := range matrix {
		matrix[i] = make([]Cell, n)
	}

	var pairs []pairing
	var group []entry
	flush := func(round int) {
		for i := range group {
			for j := i + 1; j < len(group); j++ {
				a, b := group[i], group[j]
				s := p.Compare(a.team, b.team)
				pairs = append(pairs, pairing{round, a.entrant, b.entrant, s}, pairing{round, b.entrant, a.entrant, 1 - s})
			}
		}
		group = group[:0]
	}
	for i, g := range schedule {
		r := results[i]
		if r.Error != "" {
			out.Failed++
			out.Failures = append(out.Failures, r)
			for _, e := range g.Seats {
				st[e].Failed++
			}
		} else {
			for t, e := range g.Seats {
				tr := r.Teams[t]
				s := &st[e]
				s.Battles++
				s.MeanSquares += float64(tr.Squares)
				s.MeanSurvived += float64(tr.Survived)
				for c := range s.MeanValues {
					if c < len(tr.Values) {
						s.MeanValues[c] += float64(tr.Values[c])
					}
				}
				s.Timeouts += tr.Timeouts
				s.Errors += tr.Errors
				if s.Problem == "" {
					s.Problem = tr.Problem
				}
				group = append(group, entry{e, tr})
			}
		}
		if i+1 == len(schedule) || p.group(schedule[i+1]) != p.group(g) {
			flush(g.Round)
		}
	}

	ratings := make([]glicko2.Rating, n)
	for e := range ratings {
		ratings[e] = glicko2.Default()
	}
	for start := 0; start < len(pairs); {
		end := start
		for end < len(pairs) && pairs[end].round == pairs[start].round {
			end++
		}
		ratings = ratePeriod(ratings, pairs[start:end])
		start = end
	}
	for _, pr := range pairs {
		st[pr.a].Cell.add(pr.s)
		matrix[pr.a][pr.b].add(pr.s)
	}

	for e := range st {
		s := &st[e]
		if s.Battles > 0 {
			s.MeanSquares /= float64(s.Battles)
			s.MeanSurvived /= float64(s.Battles)
			for c := range s.MeanValues {
				s.MeanValues[c] /= float64(s.Battles)
			}
		}
		if len(s.MeanValues) > 0 {
			s.MeanSquares = s.MeanValues[0]
		}
		s.Score = s.Cell.Rate()
		s.Low, s.High = Wilson(s.Score*float64(s.Games()), float64(s.Games()), Z95)
		s.Rating, s.RD, s.Volatility = ratings[e].R, ratings[e].RD, ratings[e].Vol
	}
	order := make([]int, n)
	for i := range order {
		order[i] = i
	}
	sort.SliceStable(order, func(i, j int) bool {
		a, b := &st[order[i]], &st[order[j]]
		if a.Rating != b.Rating {
			return a.Rating > b.Rating
		}
		if a.Score != b.Score {
			return a.Score > b.Score
		}
		return a.MeanSquares > b.MeanSquares
	})
	out.Players = make([]Standing, n)
	out.Matrix = make([][]Cell, n)
	for i, e := range order {
		out.Players[i] = st[e]
		out.Players[i].Rank = i + 1
		out.Matrix[i] = make([]Cell, n)
		for j, f := range order {
			out.Matrix[i][j] = matrix[e][f]
		}
	}
	return out
}

// ratePeriod applies one Glicko-2 rating period: every player's results of
// the period against the others' ratings from before it.
func ratePeriod(before []glicko2.Rating, pairs []pairing) []glicko2.Rating {
	games := make([][]glicko2.Result, len(before))
	for _, pr := range pairs {
		games[pr.a] = append(games[pr.a], glicko2.Result{Opponent: before[pr.b], Score: pr.s})
	}
	after := make([]glicko2.Rating, len(before))
	for e := range before {
		after[e] = glicko2.Update(before[e], games[e], glicko2.DefaultTau)
	}
	return after
}

// Labels returns the players' display names, numbering repeats: the
// second "Explorer" is "Explorer 2".
func Labels(players []Player) []string {
	seen := map[string]int{}
	out := make([]string, len(players))
	for i, p := range players {
		seen[p.Name]++
		out[i] = p.Name
		if k := seen[p.Name]; k > 1 {
			out[i] = p.Name + " " + strconv.Itoa(k)
		}
	}
	return out
}
