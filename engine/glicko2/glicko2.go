// Package glicko2 rates players with Mark Glickman's Glicko-2 system.
//
// It follows "Example of the Glicko-2 system" (Glickman, 2013,
// http://www.glicko.net/glicko/glicko2.pdf) step by step; the step numbers
// in the comments are the paper's. No maintained Go implementation was
// available from the module proxy, hence this small one; its test replays
// the paper's worked example.
//
// A rating is updated once per rating period from all the games of that
// period, each played against the opponent's rating as it was at the start
// of the period. Callers that rate a tournament decide what a period is.
package glicko2

import "math"

// Rating is a player's strength on the Glicko scale (the familiar
// 1500-centred one): R the rating, RD its deviation (uncertainty), Vol the
// volatility (how erratic the player's results are).
type Rating struct {
	R   float64
	RD  float64
	Vol float64
}

// Default is the rating of an unrated player, as the paper recommends.
func Default() Rating { return Rating{R: 1500, RD: 350, Vol: 0.06} }

// DefaultTau is the system constant τ. It bounds how fast volatility may
// change; the paper suggests 0.3 to 1.2 and uses 0.5 in its example.
const DefaultTau = 0.5

// Result is one game of a rating period: the opponent's rating at the start
// of the period and the score, 1 for a win, 0.5 for a draw, 0 for a loss.
type Result struct {
	Opponent Rating
	Score    float64
}

// scale converts between the Glicko scale and the Glicko-2 scale (step 2).
const scale = 173.7178

// convergence is ε of step 5, the paper's value.
const convergence = 1e-6

func g(phi float64) float64 { return 1 / math.Sqrt(1+3*phi*phi/(math.Pi*math.Pi)) }

func expect(mu, muj, phij float64) float64 { return 1 / (1 + math.Exp(-g(phij)*(mu-muj))) }

// Update returns p's rating after a rating period with the given results.
// With no results only the deviation grows (the paper's note under step 2:
// a player who does not compete becomes less certain). tau <= 0 means
// DefaultTau. The result depends on the order of results only through
// floating-point summation, so callers wanting bit-identical ratings pass
// them in a fixed order.
func Update(p Rating, results []Result, tau float64) Rating {
	if tau <= 0 {
		tau = DefaultTau
	}
	// Step 2: to the Glicko-2 scale.
	mu := (p.R - 1500) / scale
	phi := p.RD / scale
	sigma := p.Vol
	if len(results) == 0 {
		return Rating{R: p.R, RD: math.Sqrt(phi*phi+sigma*sigma) * scale, Vol: sigma}
	}
	// Steps 3 and 4: the estimated variance v and improvement Δ.
	var vInv, sum float64
	for _, res := range results {
		muj := (res.Opponent.R - 1500) / scale
		phij := res.Opponent.RD / scale
		gj := g(phij)
		e := expect(mu, muj, phij)
		vInv += gj * gj * e * (1 - e)
		sum += gj * (res.Score - e)
	}
	v := 1 / vInv
	delta := v * sum
	// Step 5: the new volatility, by the Illinois algorithm.
	sigma = newVolatility(phi, sigma, v, delta, tau)
	// Step 6: the pre-period deviation.
	phiStar := math.Sqrt(phi*phi + sigma*sigma)
	// Step 7: new deviation and rating.
	phi = 1 / math.Sqrt(1/(phiStar*phiStar)+1/v)
	mu += phi * phi * sum
	// Step 8: back to the Glicko scale.
	return Rating{R: scale*mu + 1500, RD: scale * phi, Vol: sigma}
}

// newVolatility is step 5: it solves f(x) = 0 for x = ln σ'².
func newVolatility(phi, sigma, v, delta, tau float64) float64 {
	a := math.Log(sigma * sigma)
	f := func(x float64) float64 {
		ex := math.Exp(x)
		d := phi*phi + v + ex
		return ex*(delta*delta-phi*phi-v-ex)/(2*d*d) - (x-a)/(tau*tau)
	}
	A := a
	var B float64
	if delta*delta > phi*phi+v {
		B = math.Log(delta*delta - phi*phi - v)
	} else {
		k := 1.0
		for f(a-k*tau) < 0 {
			k++
		}
		B = a - k*tau
	}
	fA, fB := f(A), f(B)
	for math.Abs(B-A) > convergence {
		C := A + (A-B)*fA/(fB-fA)
		fC := f(C)
		if fC*fB <= 0 {
			A, fA = B, fB
		} else {
			fA /= 2
		}
		B, fB = C, fC
	}
	return math.Exp(A / 2)
}
