package ladder

import (
	"cmp"
	"context"
	"fmt"
	"math"
	"math/bits"
	"math/rand/v2"
	"slices"
	"strconv"
)

// Plan chooses the next battle of a game and stores it as Queued.
//
// Matchmaking, after Halite's: first the player that most needs a battle —
// one whose last stallAfter battles did not all fail, then the fewest
// battles since its current version (a new version is rated first), then
// the longest idle; a player on probation counts its battles
// ProbationSlowdown times over. Then its opponents, drawn near it in the
// rating order: each is the k-th nearest remaining player, k drawn from a
// half-normal of standard deviation Spread, so most battles are between
// neighbours but a player meets the whole table in time. Players on
// probation are not drawn as opponents while enough others can play.
// Battle n (the n-th planned) draws its seed and its opponents from a
// generator seeded with the ladder's seed and n, both kept in the store, so
// that a plan is a function of the stored ladder alone.
//
// available, when not nil, says which players can play now (a bot that is
// connected); retired players and players without a version never play.
// It returns ErrTooFew when fewer than two can, ErrPaused when the host
// paused the ladder.
func (l *Ladder) Plan(ctx context.Context, game string, available func(Player) bool) (Battle, error) {
	g, err := l.game(game)
	if err != nil {
		return Battle{}, err
	}
	var out Battle
	err = l.store.Update(ctx, func(tx Tx) error {
		var err error
		out, err = l.planTx(tx, g, available)
		return err
	})
	return out, err
}

// planTx is Plan inside a write transaction.
func (l *Ladder) planTx(tx Tx, g Game, available func(Player) bool) (Battle, error) {
	if v, err := tx.Meta("paused"); err != nil {
		return Battle{}, err
	} else if v == "1" {
		return Battle{}, ErrPaused
	}
	all, err := tx.Players(g.Name)
	if err != nil {
		return Battle{}, err
	}
	var pool []Player
	for _, p := range all {
		if !p.Retired && p.Version != 0 && (available == nil || available(p)) {
			pool = append(pool, p)
		}
	}
	if len(pool) < 2 {
		return Battle{}, fmt.Errorf("%w: game %q has %d", ErrTooFew, g.Name, len(pool))
	}
	seed, err := l.seedTx(tx)
	if err != nil {
		return Battle{}, err
	}
	n, err := metaInt(tx, metaPlanned)
	if err != nil {
		return Battle{}, err
	}
	r := rand.New(rand.NewPCG(seed, uint64(n)))
	if l.rand != nil {
		l.mu.Lock()
		defer l.mu.Unlock()
		r = l.rand
	}
	picked := l.pick(r, pool, min(g.Teams, len(pool)))
	b := Battle{Game: g.Name, Seed: r.Uint64(), Config: g.Config, State: Queued, Created: l.now()}
	for _, p := range picked {
		v, err := l.version(tx, p)
		if err != nil {
			return Battle{}, err
		}
		b.Seats = append(b.Seats, Seat{Player: p.ID, Version: v.ID, Hash: v.Hash})
	}
	if err := tx.SaveBattle(&b); err != nil {
		return Battle{}, err
	}
	return b, tx.SetMeta(metaPlanned, strconv.FormatInt(n+1, 10))
}

// stallAfter is how many battles in a row a version may fail (Failed)
// before it gives the first seat up to every player whose battles did
// not: a version whose battles can never be played would otherwise keep
// the fewest battles and take the first seat of every battle planned.
const stallAfter = 2

// stalled reports whether p gives the first seat up: its battles failed
// stallAfter times in a row, or once for its own inputs (Blamed: its
// version cannot be set up, and a stored version never changes, so the
// next battle would fail the same way).
func stalled(p Player) bool { return p.Failed >= stallAfter || p.Blamed > 0 }

// need orders players by how much they need a battle: lower first.
func (l *Ladder) need(a, b Player) int {
	if c := cmp.Compare(b2i(stalled(a)), b2i(stalled(b))); c != 0 {
		return c
	}
	na, nb := a.SinceVersion, b.SinceVersion
	if l.onProbation(a) {
		na = na*l.slowdown + l.slowdown
	}
	if l.onProbation(b) {
		nb = nb*l.slowdown + l.slowdown
	}
	if c := cmp.Compare(na, nb); c != 0 {
		return c
	}
	if c := a.LastBattle.Compare(b.LastBattle); c != 0 {
		return c
	}
	return cmp.Compare(a.ID, b.ID)
}

// pick chooses n players of pool (len(pool) ≥ n ≥ 2), drawing from r.
func (l *Ladder) pick(r *rand.Rand, pool []Player, n int) []Player {
	first := slices.MinFunc(pool, l.need)
	var others, benched []Player
	for _, p := range pool {
		switch {
		case p.ID == first.ID:
		case l.onProbation(p) || p.Blamed > 0:
			benched = append(benched, p)
		default:
			others = append(others, p)
		}
	}
	byNearness := func(list []Player) {
		slices.SortFunc(list, func(a, b Player) int {
			da, db := math.Abs(a.Ordinal()-first.Ordinal()), math.Abs(b.Ordinal()-first.Ordinal())
			if c := cmp.Compare(da, db); c != 0 {
				return c
			}
			return cmp.Compare(a.ID, b.ID)
		})
	}
	byNearness(others)
	if short := n - 1 - len(others); short > 0 { // on probation: only when needed
		byNearness(benched)
		others = append(others, benched[:short]...)
	}
	picked := []Player{first}
	for len(picked) < n {
		// Compared as floats: a wide Spread (or an unlucky draw times
		// it) past the range of int would convert to a negative index.
		k := len(others) - 1
		if f := math.Abs(r.NormFloat64()) * l.spread; f < float64(k) {
			k = int(f)
		}
		picked = append(picked, others[k])
		others = slices.Delete(others, k, k+1)
	}
	return picked
}

// onProbation reports whether most of a version's recent battles were
// spoiled by its own errors or timeouts.
func (l *Ladder) onProbation(p Player) bool {
	if p.RecentN < l.probMin {
		return false
	}
	n := min(p.RecentN, l.window)
	bad := bits.OnesCount32(p.Recent & (1<<n - 1))
	return 2*bad > n
}

// OnProbation is onProbation for callers (a player's page says so).
func (l *Ladder) OnProbation(p Player) bool { return l.onProbation(p) }

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}
