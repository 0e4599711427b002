// Command squares is a SquareBattle bot in Go: attack, grow, spread out.
//
// Build and run it (docs/bots/go/README.md has more):
//
//	cd docs/bots/go && go build -o squares-bot ./squares
//	squarebattle run --bot docs/bots/go/squares-bot explorer
//
// Every round the engine sends one message with all the team's squares
// that may act, and the bot answers with one line of actions for all of
// them. So unlike a Lua player, which is asked square by square, the bot
// sees the whole team at once and can keep its squares out of each other's
// way directly.
//
// Each square, in order:
//  1. attacks an enemy next to it;
//  2. replicates into the most open free cell when its time has come and
//     the team is not too big;
//  3. otherwise walks on, into the free cell with the fewest squares around
//     it, keeping its heading when that is as good as any.
package main

import (
	"log"
	"math/rand/v2"

	"example.com/bots/botio"
)

const name = "Go Squares"

const (
	birthGap  = 150 // rounds a square waits between births, on top of the still time
	teamLimit = 60  // stop replicating at this many squares
)

// steps[d] is the (row, col) step of direction d, in view order: index 0
// is north-west, clockwise. Row 0 is the bottom row, so north is row + 1.
var steps = [8][2]int{{1, -1}, {1, 0}, {1, 1}, {0, 1}, {-1, 1}, {-1, 0}, {-1, -1}, {0, -1}}

type cell struct{ row, col int }

// memory is what the bot keeps for one square between rounds.
type memory struct {
	heading   int
	nextBirth int
}

// team is the bot's memory of one battle.
type team struct {
	me, size int
	wrap     bool
	still    int // rounds parent and child sit still after a birth
	rnd      *rand.Rand
	memory   map[int]*memory // by square id
}

func newTeam(h botio.Hello) *team {
	return &team{
		me: h.Team, size: h.Size, wrap: h.Wrap,
		still: int(h.Constant("replicate_rounds", 100)),
		// Seeded from the battle's seed, so the same battle plays the same way.
		rnd:    rand.New(rand.NewPCG(h.Seed, uint64(h.Team))),
		memory: map[int]*memory{},
	}
}

// next is the cell one step from c in direction d.
func (t *team) next(c cell, d int) cell {
	c = cell{c.row + steps[d][0], c.col + steps[d][1]}
	if t.wrap {
		c = cell{(c.row + t.size) % t.size, (c.col + t.size) % t.size}
	}
	return c
}

// round answers one round message.
func (t *team) round(r botio.SquareRound) any {
	teamSize := r.Stats[t.me].Squares
	for _, gone := range r.Died {
		delete(t.memory, gone.ID)
	}

	// What the team knows of the arena this round: every cell some square
	// of ours can see, and the cells our squares stand on.
	seen := map[cell]int{}
	for _, sq := range r.Squares {
		at := cell{sq.Row, sq.Col}
		seen[at] = t.me
		for d, v := range sq.View {
			seen[t.next(at, d)] = v
		}
	}
	// crowd counts the squares next to a cell, as far as we know.
	crowd := func(c cell) int {
		n := 0
		for d := range 8 {
			if v, ok := seen[t.next(c, d)]; ok && v >= 0 {
				n++
			}
		}
		return n
	}

	claimed := map[cell]string{} // "move", "birth" or "attack": the team's plans
	answer := botio.Actions{Type: "actions", Round: r.Round, Actions: []botio.Action{}}
	order := func(sq botio.Square, do string, d int) {
		claimed[t.next(cell{sq.Row, sq.Col}, d)] = do
		answer.Actions = append(answer.Actions, botio.Action{ID: sq.ID, Do: do, Dir: botio.Dirs[d]})
	}
	for _, sq := range r.Squares {
		mem := t.memory[sq.ID]
		if mem == nil {
			mem = &memory{heading: t.rnd.IntN(8), nextBirth: r.Round + 20 + t.rnd.IntN(41)}
			t.memory[sq.ID] = mem
		}
		at := cell{sq.Row, sq.Col}
		// A cell is free when it was empty at the start of the round and no
		// teammate claimed it: moving or giving birth only there keeps two
		// of our squares from ever landing on one cell.
		var free []int
		for d, v := range sq.View {
			if _, taken := claimed[t.next(at, d)]; v == botio.Empty && !taken {
				free = append(free, d)
			}
		}

		// 1. Attack: the first enemy around, looking from a random side.
		start, attacked := t.rnd.IntN(8), false
		for i := range 8 {
			d := (start + i) % 8
			if v := sq.View[d]; v >= 0 && v != t.me {
				order(sq, "attack", d)
				attacked = true
				break
			}
		}
		if attacked || len(free) == 0 {
			continue // no free cell: left out of the answer, the square waits
		}

		// 2. Replicate into the most open free cell when it is time.
		if r.Round >= mem.nextBirth && teamSize < teamLimit {
			best := free[0]
			for _, d := range free[1:] {
				if crowd(t.next(at, d)) < crowd(t.next(at, best)) {
					best = d
				}
			}
			mem.nextBirth = r.Round + t.still + birthGap
			teamSize++
			order(sq, "replicate", best)
			continue
		}

		// 3. Move toward open space; the heading wins ties.
		least, best := 9, []int(nil)
		for _, d := range free {
			switch c := crowd(t.next(at, d)); {
			case c < least:
				least, best = c, []int{d}
			case c == least:
				best = append(best, d)
			}
		}
		d := best[t.rnd.IntN(len(best))]
		for _, b := range best {
			if b == mem.heading {
				d = b
			}
		}
		mem.heading = d
		order(sq, "move", d)
	}
	return answer
}

func main() {
	err := botio.Play(name, "squares", func(h botio.Hello) (func(botio.SquareRound) any, error) {
		return newTeam(h).round, nil
	})
	if err != nil {
		log.Fatal(err)
	}
}
