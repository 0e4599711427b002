// Command snake is a snake bot in Go: go for the pellet, but never into a
// dead end.
//
// Build and run it (docs/bots/go/README.md has more):
//
//	cd docs/bots/go && go build -o snake-bot ./snake
//	squarebattle run --game snake --bot docs/bots/go/snake-bot hungry
//
// Snake is a rule mod (scripts/snake, docs/modding.md "Snake"). Every tick
// the engine sends one round message with a call for each of the team's
// units that must decide: in snake that is the team's one snake, while it
// is alive. A call's view is exactly what a Lua snake player gets. The
// answer holds one value per call, in the calls' order: "up", "down",
// "left" or "right". (x is the column, y the row, (0, 0) the bottom left;
// up is y + 1.)
//
// For each move that does not kill at once (a wall, a body that stays, the
// snake's own neck) the bot counts the free cells it could still reach
// from there, keeps the moves that leave it room to live, avoids cells
// another head can reach this tick, and of what is left takes the one
// nearest the pellet.
package main

import (
	"encoding/json"
	"fmt"
	"log"

	"example.com/bots/botio"
)

const name = "Go Snake"

// cell is a board cell; x is the column, y the row.
type cell struct {
	X int `json:"x"`
	Y int `json:"y"`
}

// view is the part of a snake player's view this bot reads.
type view struct {
	Me     int     `json:"me"` // our team: snakes[me] is us
	Size   int     `json:"size"`
	Pellet *cell   `json:"pellet"` // nil when the board is full
	Snakes []snake `json:"snakes"` // every team's snake, in team order
}

type snake struct {
	Team int              `json:"team"`
	Dir  string           `json:"dir"`
	Grow int              `json:"grow"` // growth still pending
	Body botio.List[cell] `json:"body"` // head first; empty when dead
}

// moves in the order the bot tries them (the first wins a tie).
var moves = []struct {
	name   string
	dx, dy int
}{{"up", 0, 1}, {"right", 1, 0}, {"down", 0, -1}, {"left", -1, 0}}

// room counts the free cells reachable from start, itself included, up to cap.
func room(size int, blocked map[cell]bool, start cell, cap int) int {
	seen, todo := map[cell]bool{start: true}, []cell{start}
	for len(todo) > 0 && len(seen) < cap {
		c := todo[len(todo)-1]
		todo = todo[:len(todo)-1]
		for _, m := range moves {
			n := cell{c.X + m.dx, c.Y + m.dy}
			if n.X >= 0 && n.X < size && n.Y >= 0 && n.Y < size && !blocked[n] && !seen[n] {
				seen[n] = true
				todo = append(todo, n)
			}
		}
	}
	return min(len(seen), cap)
}

// steer picks the move for one snake.
func steer(v view) string {
	if v.Me < 0 || v.Me >= len(v.Snakes) || len(v.Snakes[v.Me].Body) == 0 {
		return "" // not a view of a living snake: no answer keeps its direction
	}
	me := v.Snakes[v.Me]
	head := me.Body[0]

	blocked := map[cell]bool{} // cells that will still hold a body after this tick
	danger := map[cell]bool{}  // cells another snake's head can reach this tick
	for _, s := range v.Snakes {
		stays := s.Body
		if s.Grow == 0 && len(stays) > 0 {
			stays = stays[:len(stays)-1] // the tail moves away unless growing
		}
		for _, c := range stays {
			blocked[c] = true
		}
		if s.Team != v.Me && len(s.Body) > 0 {
			for _, m := range moves {
				danger[cell{s.Body[0].X + m.dx, s.Body[0].Y + m.dy}] = true
			}
		}
	}

	type option struct {
		name string
		at   cell
		room int
	}
	want := 2*len(me.Body) + 4
	var options []option
	most := 0
	for _, m := range moves {
		at := cell{head.X + m.dx, head.Y + m.dy}
		if at.X < 0 || at.X >= v.Size || at.Y < 0 || at.Y >= v.Size || blocked[at] {
			continue
		}
		blocked[at] = true
		r := room(v.Size, blocked, at, want)
		delete(blocked, at)
		options = append(options, option{m.name, at, r})
		most = max(most, r)
	}

	cost := func(o option) int {
		c := 0
		if v.Pellet != nil {
			c = abs(v.Pellet.X-o.at.X) + abs(v.Pellet.Y-o.at.Y)
		}
		if danger[o.at] {
			c += 4 * v.Size
		}
		return c
	}
	best, bestCost := me.Dir, -1 // no option: every move kills; keep going and hope
	for _, o := range options {
		if o.room < min(want, most) {
			continue // too little room: a dead end
		}
		if c := cost(o); bestCost < 0 || c < bestCost {
			best, bestCost = o.name, c
		}
	}
	return best
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}

func main() {
	err := botio.Play(name, "calls", func(h botio.Hello) (func(botio.CallRound) any, error) {
		if h.Game != "snake" {
			return nil, fmt.Errorf("this bot plays snake, not %s", h.Game)
		}
		// Snake needs no memory between ticks: every view has the whole board.
		return func(r botio.CallRound) any {
			answers := make([]any, len(r.Calls))
			for i, call := range r.Calls {
				var v view
				if err := json.Unmarshal(call.View, &v); err != nil {
					log.Printf("round %d: view: %v", r.Round, err)
					continue // no answer: the snake keeps its direction
				}
				if move := steer(v); move != "" {
					answers[i] = move
				}
			}
			// Echo the round and batch we answer.
			return botio.Answers{Type: "actions", Round: r.Round, Batch: r.Batch, Answers: answers}
		}, nil
	})
	if err != nil {
		log.Fatal(err)
	}
}
