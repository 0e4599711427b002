package ladder

import (
	"context"
	crand "crypto/rand"
	"encoding/binary"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"time"
)

// DefaultAhead is how many battles Settle keeps planned when
// Options.Ahead is 0: enough for a few hosts' workers to find one waiting
// while the oldest is still being played.
const DefaultAhead = 8

// The store's small settings (Meta) the ladder's schedule keeps.
const (
	metaSeed    = "seed"    // the ladder's seed, when Options.Seed is 0
	metaPlanned = "planned" // how many battles were planned: the next plan's number
	metaSettled = "settled" // the last battle settled, in plan order
)

// The order battles are rated in.
//
// Battles may be played anywhere and finish in any order: several workers
// in one process, or worker processes on several hosts. So that the table
// does not depend on who finished first, a played battle is first only
// Recorded; Settle then rates battles strictly in the order they were
// planned (by ID), and plans the next battle each time one leaves the
// window of Ahead battles planned and not settled:
//
//   - battles 1 … Ahead are planned from the table as it first stands;
//   - battle n + Ahead is planned from the table right after battle n is
//     settled (rated, or given up), and nothing else.
//
// A plan draws from (seed, its number) only, so the whole sequence — who
// meets whom on which seed, every result, every rating — is a function of
// the players' sources, the seed and Ahead, whatever the number of
// workers, their speed or the hosts they run on. The in-process ladder
// (luabind/battle/ranked) and the PostgreSQL one with worker hosts
// therefore produce the same table. What breaks the chain is what should:
// a new version, the host pausing the ladder, fewer than two players able
// to play, a remote bot away, a battle given up for the server's faults.

// Record keeps how a played battle ended, without rating it: the seats'
// results, its rounds and its replay; the battle becomes Played and
// Settle rates it in its turn. Recording a battle that is already Played,
// Done or Failed changes nothing and returns it as it is (a battle played
// twice counts once). then, when not nil, runs in the same transaction
// with the battle as recorded (a worker host uploads the replay there);
// its error undoes the record.
func (l *Ladder) Record(ctx context.Context, id BattleID, o Outcome, then func(Tx, Battle) error) (Battle, error) {
	var out Battle
	err := l.store.Update(ctx, func(tx Tx) error {
		b, err := tx.Battle(id)
		if err != nil {
			return err
		}
		out = b
		if b.State == Played || b.State == Done || b.State == Failed {
			return nil
		}
		if len(o.Results) != len(b.Seats) {
			return fmt.Errorf("ladder: battle %d has %d seats and %d results", id, len(b.Seats), len(o.Results))
		}
		for i := range b.Seats {
			b.Seats[i].Result = o.Results[i]
			b.Seats[i].Result.Problem = cleanText(o.Results[i].Problem)
		}
		b.State, b.Rounds, b.Replay = Played, o.Rounds, o.Replay
		if err := tx.SaveBattle(&b); err != nil {
			return err
		}
		out = b
		if then != nil {
			return then(tx, b)
		}
		return nil
	})
	return out, err
}

// Settled is what one Settle did.
type Settled struct {
	Done    []Battle // rated or given up, in plan order
	Planned []Battle // planned, in plan order
}

// Settle rates the recorded battles whose turn it is and keeps Ahead
// battles planned, in one transaction (the rule above): the oldest
// unsettled battle, when Played, is rated (Done) and the next battle is
// planned; a Failed one is passed over the same way; a Queued or Playing
// one stops it. Games take turns to be planned, in name order, a game
// whose players cannot play (ErrTooFew) giving its turn to the next.
// available is Plan's. then, when not nil, runs in the transaction for
// every battle planned (a server hands it to the worker hosts there); its
// error undoes everything.
func (l *Ladder) Settle(ctx context.Context, available func(Player) bool, then func(Tx, Battle) error) (Settled, error) {
	var out Settled
	err := l.store.Update(ctx, func(tx Tx) error {
		out = Settled{}
		settled, err := metaInt(tx, metaSettled)
		if err != nil {
			return err
		}
		window, err := tx.Battles(BattleQuery{After: BattleID(settled)})
		if err != nil {
			return err
		}
		slices.Reverse(window) // oldest first
		var last time.Time
		for {
			for len(window) < l.ahead {
				b, err := l.planNext(tx, available)
				if errors.Is(err, ErrTooFew) || errors.Is(err, ErrPaused) {
					break
				}
				if err != nil {
					return err
				}
				if then != nil {
					if err := then(tx, b); err != nil {
						return err
					}
				}
				window = append(window, b)
				out.Planned = append(out.Planned, b)
			}
			if len(window) == 0 {
				return nil
			}
			b := window[0]
			switch b.State {
			case Queued, Playing:
				return nil
			case Played:
				if _, err := l.game(b.Game); err != nil {
					// Its game left the ladder since it was planned.
					b.State, b.Error, b.Finished = Failed, err.Error(), l.now()
					if err := tx.SaveBattle(&b); err != nil {
						return err
					}
					out.Done = append(out.Done, b)
					break
				}
				// Strictly after the battle settled before it, so that
				// matchmaking's "longest idle" follows the plan order
				// even when two are rated within one clock tick.
				finished := l.now()
				if !finished.After(last) {
					finished = last.Add(time.Nanosecond)
				}
				last = finished
				if err := l.rateTx(tx, &b, finished); err != nil {
					return err
				}
				out.Done = append(out.Done, b)
			case Failed:
				if err := l.failedTx(tx, b); err != nil {
					return err
				}
				out.Done = append(out.Done, b)
			}
			window = window[1:]
			if err := tx.SetMeta(metaSettled, strconv.FormatInt(int64(b.ID), 10)); err != nil {
				return err
			}
		}
	})
	return out, err
}

// failedTx counts a failed battle, as Settle passes it, for each player
// whose current version sat in it (Player.Failed), or only for the seats
// it was blamed on when it names them (Player.Blamed too).
func (l *Ladder) failedTx(tx Tx, b Battle) error {
	seen := map[PlayerID]bool{}
	blamed := slices.ContainsFunc(b.Seats, func(s Seat) bool { return s.Blamed })
	for _, s := range b.Seats {
		if seen[s.Player] || blamed && !s.Blamed {
			continue
		}
		seen[s.Player] = true
		p, err := tx.Player(s.Player)
		if err != nil {
			return err
		}
		if p.Version != s.Version {
			continue
		}
		p.Failed++
		if blamed {
			p.Blamed++
		}
		if err := tx.SavePlayer(&p); err != nil {
			return err
		}
	}
	return nil
}

// planNext plans a battle of the game whose turn it is, or of the next
// that can play one.
func (l *Ladder) planNext(tx Tx, available func(Player) bool) (Battle, error) {
	games := l.Games()
	if len(games) == 0 {
		return Battle{}, fmt.Errorf("%w: no games", ErrTooFew)
	}
	n, err := metaInt(tx, metaPlanned)
	if err != nil {
		return Battle{}, err
	}
	var tooFew error
	for i := range games {
		b, err := l.planTx(tx, games[(int(n%int64(len(games)))+i)%len(games)], available)
		if !errors.Is(err, ErrTooFew) {
			return b, err
		}
		tooFew = err
	}
	return Battle{}, tooFew
}

// seedTx is the ladder's seed: Options.Seed, or the one the store keeps
// (drawn and kept the first time).
func (l *Ladder) seedTx(tx Tx) (uint64, error) {
	if l.seed != 0 {
		return l.seed, nil
	}
	v, err := tx.Meta(metaSeed)
	if err != nil {
		return 0, err
	}
	if v != "" {
		return strconv.ParseUint(v, 10, 64)
	}
	var buf [8]byte
	crand.Read(buf[:])
	seed := binary.LittleEndian.Uint64(buf[:]) | 1
	return seed, tx.SetMeta(metaSeed, strconv.FormatUint(seed, 10))
}

// metaInt reads a number kept in Meta; 0 when it is not there.
func metaInt(tx Tx, key string) (int64, error) {
	v, err := tx.Meta(key)
	if err != nil || v == "" {
		return 0, err
	}
	n, err := strconv.ParseInt(v, 10, 64)
	if err != nil {
		return 0, fmt.Errorf("ladder: setting %s: %w", key, err)
	}
	return n, nil
}
