// Package openskill rates free-for-all battles of any number of teams with
// the Weng–Lin Bayesian approximation under the Plackett–Luce model.
//
// It follows Algorithm 4 ("the Plackett–Luce model, procedure 3") of Ruby
// C. Weng and Chih-Jen Lin, "A Bayesian Approximation Method for Online
// Ranking", JMLR 12 (2011), 267–300, in the form the OpenSkill libraries
// popularised: a team's strength is the sum of its players' means and
// variances, every team is compared with every team that placed at or
// below it, and teams that share a place share each comparison (the A_q of
// the paper divides it). Results agree with openskill.js and openskill.py
// to their printed digits (the package test pins their published example).
//
// Why this and not Elo or Glicko-2: a SquareBattle battle has 2 to 16 teams
// and one placing; Elo and Glicko-2 rate pairs and would have to split one
// battle into made-up duels, and Glicko-2 also needs rating periods. Weng–Lin
// updates every team from the one placing, at once, in O(k²) for k teams.
//
// Determinism: the same inputs give the same bits on every architecture.
// Exp comes from luabind/detmath (pure Go, the same on amd64, arm64 and
// amd64/v3; it imports nothing but package math), and every product that
// feeds a sum is wrapped in float64(...), which the Go specification says
// rounds, so the compiler may not fuse it into an FMA. A ladder re-rated
// from its stored results on another machine gets the same table.
package openskill

import (
	"cmp"
	"errors"
	"fmt"
	"math"
	"slices"

	"github.com/squarebattle/squarebattle/luabind/detmath"
)

// Rating is a belief about a player's strength: a normal distribution with
// mean Mu and standard deviation Sigma.
type Rating struct {
	Mu    float64
	Sigma float64
}

// Ordinal is the conservative estimate a leaderboard sorts by: μ − 3σ, a
// strength the player exceeds with about 99.7% certainty. A new player
// starts at 0 and rises as battles shrink σ.
func (r Rating) Ordinal() float64 { return r.Mu - float64(3*r.Sigma) }

// Options are the model's constants. The zero value of a field means its
// default (Default); Tau is the exception, see NoTau.
type Options struct {
	// Mu and Sigma are a new player's rating: 25 and 25/3.
	Mu, Sigma float64
	// Beta is the spread of one battle's performance around a player's
	// strength (25/6): how much luck there is in a single battle.
	Beta float64
	// Kappa is the smallest factor a variance may shrink by in one battle
	// (0.0001), so σ never reaches zero.
	Kappa float64
	// Tau is added to every σ (in quadrature) before each battle, so a
	// rating never freezes: a player who improves is seen to improve.
	// The default, DefaultTau, is 25/300 (a hundredth of the start σ).
	// Set NoTau to rate without it (the paper's plain form).
	Tau   float64
	NoTau bool
	// LimitSigma keeps a battle from raising anyone's σ (which τ alone
	// can do for a player whose result was exactly as expected).
	LimitSigma bool
}

// The defaults of the OpenSkill libraries.
const (
	DefaultMu    = 25.0
	DefaultSigma = DefaultMu / 3
	DefaultBeta  = DefaultSigma / 2
	DefaultKappa = 0.0001
	DefaultTau   = DefaultMu / 300
)

// MaxTeams bounds the teams of one battle: Rate's work is quadratic in it.
const MaxTeams = 64

// MaxPlayers bounds the players of one team.
const MaxPlayers = 64

// ErrInput is wrapped by every error Rate returns for arguments it refuses.
var ErrInput = errors.New("openskill: bad input")

// Model rates battles with fixed Options. It holds no state: one Model may
// be used from any number of goroutines.
type Model struct {
	mu, sigma, beta, kappa, tau float64
	limitSigma                  bool
}

// New returns a Model for opts, with defaults where a field is zero. It
// refuses constants that are not finite and positive.
func New(opts Options) (*Model, error) {
	m := &Model{mu: DefaultMu, sigma: DefaultSigma, beta: DefaultBeta, kappa: DefaultKappa, tau: DefaultTau, limitSigma: opts.LimitSigma}
	set := func(dst *float64, v float64, name string, allowZero bool) error {
		if v == 0 && !allowZero {
			return nil
		}
		if math.IsNaN(v) || math.IsInf(v, 0) || v < 0 || (v == 0 && !allowZero) {
			return fmt.Errorf("%w: %s = %v, want a finite positive number", ErrInput, name, v)
		}
		*dst = v
		return nil
	}
	if math.IsNaN(opts.Mu) || math.IsInf(opts.Mu, 0) {
		return nil, fmt.Errorf("%w: mu = %v, want a finite number", ErrInput, opts.Mu)
	}
	if opts.Mu != 0 {
		m.mu = opts.Mu
	}
	for _, f := range []struct {
		dst  *float64
		v    float64
		name string
	}{{&m.sigma, opts.Sigma, "sigma"}, {&m.beta, opts.Beta, "beta"}, {&m.kappa, opts.Kappa, "kappa"}, {&m.tau, opts.Tau, "tau"}} {
		if err := set(f.dst, f.v, f.name, false); err != nil {
			return nil, err
		}
	}
	if opts.NoTau {
		m.tau = 0
	}
	return m, nil
}

// Default is a Model with the OpenSkill libraries' constants.
func Default() *Model {
	m, _ := New(Options{})
	return m
}

// NewRating is a new player's rating.
func (m *Model) NewRating() Rating { return Rating{Mu: m.mu, Sigma: m.sigma} }

// Tau is the drift added to every σ before a battle.
func (m *Model) Tau() float64 { return m.tau }

// Rate returns the teams' ratings after one battle. teams[i] holds the
// ratings of team i's players; place[i] is its placing, lower is better
// (1 for the winner); equal places are ties. The result has the shape of
// teams, and neither argument is modified.
//
// It refuses fewer than 2 or more than MaxTeams teams, an empty team or one
// of more than MaxPlayers players, a place slice of another length, a
// rating that is not finite or has σ ≤ 0, and ratings so far out of range
// that the update itself is not finite (σ² overflowing, σ² underflowing to
// 0 without τ, a team's μ summing past the largest float64): it never
// returns a rating that is NaN, infinite or has σ ≤ 0.
func (m *Model) Rate(teams [][]Rating, place []int) ([][]Rating, error) {
	k := len(teams)
	if k < 2 || k > MaxTeams {
		return nil, fmt.Errorf("%w: %d teams, want 2 to %d", ErrInput, k, MaxTeams)
	}
	if len(place) != k {
		return nil, fmt.Errorf("%w: %d places for %d teams", ErrInput, len(place), k)
	}
	tau2 := float64(m.tau * m.tau)
	beta2 := float64(m.beta * m.beta)

	// Each player's σ² after τ, and each team's sums.
	type team struct {
		mu, sigma2 float64
		players    []Rating // σ already widened by τ
	}
	ts := make([]team, k)
	for i, players := range teams {
		if len(players) == 0 || len(players) > MaxPlayers {
			return nil, fmt.Errorf("%w: team %d has %d players, want 1 to %d", ErrInput, i+1, len(players), MaxPlayers)
		}
		ts[i].players = make([]Rating, len(players))
		for j, p := range players {
			if math.IsNaN(p.Mu) || math.IsInf(p.Mu, 0) || math.IsNaN(p.Sigma) || math.IsInf(p.Sigma, 0) || p.Sigma <= 0 {
				return nil, fmt.Errorf("%w: team %d player %d has μ=%v σ=%v", ErrInput, i+1, j+1, p.Mu, p.Sigma)
			}
			s2 := float64(p.Sigma*p.Sigma) + tau2
			ts[i].players[j] = Rating{Mu: p.Mu, Sigma: math.Sqrt(s2)}
			ts[i].mu += p.Mu
			ts[i].sigma2 += s2
		}
	}

	// Every sum below runs over the teams in one canonical order (by
	// place, then strength), so permuting the teams permutes the results
	// bit for bit: floating-point sums depend on their order.
	order := make([]int, k)
	for i := range order {
		order[i] = i
	}
	slices.SortFunc(order, func(a, b int) int {
		if c := cmp.Compare(place[a], place[b]); c != 0 {
			return c
		}
		if c := cmp.Compare(ts[a].mu, ts[b].mu); c != 0 {
			return c
		}
		return cmp.Compare(ts[a].sigma2, ts[b].sigma2)
	})

	// c: the spread of the whole battle (procedure 3's c).
	var c2 float64
	for _, i := range order {
		c2 += ts[i].sigma2 + beta2
	}
	c := math.Sqrt(c2)

	// The paper's exp(μ_i/c) / Σ_{s placed at or below q} exp(μ_s/c),
	// computed as exp(x_i − lse[q]) with lse[q] the log of that sum taken
	// around its largest term: exp(μ/c) overflows for a strong player
	// with a small σ, and the plain quotient would be Inf/Inf.
	x := make([]float64, k)
	for i := range ts {
		x[i] = ts[i].mu / c
	}
	lse := make([]float64, k)
	ties := make([]float64, k)
	for q := range ts {
		top := math.Inf(-1)
		for _, i := range order {
			if place[i] >= place[q] {
				top = math.Max(top, x[i])
			}
		}
		var sum float64
		for _, i := range order {
			if place[i] >= place[q] {
				sum += detmath.Exp(x[i] - top)
			}
			if place[i] == place[q] {
				ties[q]++
			}
		}
		lse[q] = top + detmath.Log(sum)
	}

	out := make([][]Rating, k)
	for i := range ts {
		var omega, delta float64
		for _, q := range order {
			if place[q] > place[i] {
				continue
			}
			p := detmath.Exp(x[i] - lse[q])
			delta += float64(p*(1-p)) / ties[q]
			if q == i {
				omega += (1 - p) / ties[q]
			} else {
				omega -= p / ties[q]
			}
		}
		s2 := ts[i].sigma2
		omega = float64(omega*s2) / c
		gamma := math.Sqrt(s2) / c
		delta = float64(float64(delta*s2)/c2) * gamma

		out[i] = make([]Rating, len(ts[i].players))
		for j, p := range ts[i].players {
			share := float64(p.Sigma*p.Sigma) / s2
			mu := p.Mu + float64(share*omega)
			shrink := math.Max(1-float64(share*delta), m.kappa)
			sigma := float64(p.Sigma * math.Sqrt(shrink))
			if m.limitSigma {
				sigma = math.Min(sigma, teams[i][j].Sigma)
			}
			if math.IsNaN(mu) || math.IsInf(mu, 0) || math.IsNaN(sigma) || math.IsInf(sigma, 0) || sigma <= 0 {
				return nil, fmt.Errorf("%w: team %d player %d: μ=%v σ=%v is out of the range the update can take", ErrInput, i+1, j+1, teams[i][j].Mu, teams[i][j].Sigma)
			}
			out[i][j] = Rating{Mu: mu, Sigma: sigma}
		}
	}
	return out, nil
}

// RateSolo rates a battle in which every team is one player: ratings[i]
// is team i's player. It is Rate for the common case of a free-for-all.
func (m *Model) RateSolo(ratings []Rating, place []int) ([]Rating, error) {
	teams := make([][]Rating, len(ratings))
	for i, r := range ratings {
		teams[i] = []Rating{r}
	}
	rated, err := m.Rate(teams, place)
	if err != nil {
		return nil, err
	}
	out := make([]Rating, len(rated))
	for i, t := range rated {
		out[i] = t[0]
	}
	return out, nil
}
