package botio

import (
	"encoding/json"
	"fmt"
	"sort"
)

// Protocol 2 (docs/bots.md, "Protocol 2"): when hello offers it, a
// SquareBattle bot of this kit chooses it, and Play turns each of its
// round messages, which say only what changed, back into the SquareRound
// your code reads, and your Actions into protocol 2's orders. Your code
// sees no difference; the engine and the pipe carry a fraction of the
// bytes.

// round2 is a protocol-2 round message. Lists of several numbers an entry
// are flat: born is child, parent, row, col, child, parent, ...
type round2 struct {
	Round   int      `json:"round"`
	Full    bool     `json:"full"`    // forget everything first
	Players []string `json:"players"` // the players' names, when they change
	Stats   [][]int  `json:"stats"`   // squares, births, kills, deaths, collisions, timeouts, errors per team
	Died    []int    `json:"died"`    // id, killer, collision (0 or 1)
	Moved   []int    `json:"moved"`   // id, direction
	Born    []int    `json:"born"`    // child, parent, row, col
	At      []int    `json:"at"`      // id, row, col
	Busy    []int    `json:"busy"`    // ids that may not act
	Free    []int    `json:"free"`    // ids that may act again
	Cells   []int    `json:"cells"`   // row, col, what is there
}

// orders2 is a protocol-2 answer: pairs of a square's id and its order.
type orders2 struct {
	Type   string `json:"type"` // "actions"
	Round  int    `json:"round"`
	Orders []any  `json:"orders"`
}

// world is what a protocol-2 bot knows: its squares and the cells as it
// was last told of them.
type world struct {
	hello   Hello
	players []string
	squares map[int]*known
	cells   []int // Size×Size, row by row from the bottom
}

type known struct {
	row, col int
	acts     bool
}

func newWorld(h Hello) *world {
	w := &world{hello: h, players: h.Players}
	w.forget()
	return w
}

func (w *world) forget() {
	w.squares = map[int]*known{}
	w.cells = make([]int, w.hello.Size*w.hello.Size)
	for i := range w.cells {
		w.cells[i] = Empty
	}
}

// next is the cell one step from (r, c) in direction d; ok is false
// beyond the edge of an arena that does not wrap.
func (w *world) next(r, c, d int) (int, int, bool) {
	n := w.hello.Size
	r, c = r+steps[d][0], c+steps[d][1]
	if w.hello.Wrap {
		return (r + n) % n, (c + n) % n, true
	}
	return r, c, r >= 0 && c >= 0 && r < n && c < n
}

var steps = [8][2]int{{1, -1}, {1, 0}, {1, 1}, {0, 1}, {-1, 1}, {-1, 0}, {-1, -1}, {0, -1}}

// apply reads a protocol-2 round message, in the order docs/bots.md
// gives, and returns it as protocol 1 would have sent it.
func (w *world) apply(line []byte) (SquareRound, error) {
	var m round2
	if err := json.Unmarshal(line, &m); err != nil {
		return SquareRound{}, err
	}
	n, team := w.hello.Size, w.hello.Team
	if m.Full {
		w.forget()
	}
	if m.Players != nil {
		w.players = m.Players
	}
	r := SquareRound{Round: m.Round, Born: []Born{}, Died: []Died{}, Squares: []Square{}}
	for t, s := range m.Stats {
		st := Stats{}
		if t < len(w.players) {
			st.Player = w.players[t]
		}
		if len(s) >= 7 {
			st.Squares, st.Births, st.Kills, st.Deaths, st.Collisions, st.Timeouts, st.Errors = s[0], s[1], s[2], s[3], s[4], s[5], s[6]
		}
		r.Stats = append(r.Stats, st)
	}
	for i := 0; i+2 < len(m.Died); i += 3 {
		d := Died{ID: m.Died[i], Class: w.hello.Class, Killer: m.Died[i+1], Collision: m.Died[i+2] == 1}
		if k := w.squares[d.ID]; k != nil {
			d.Row, d.Col = k.row, k.col
			w.cells[k.row*n+k.col] = Empty
			delete(w.squares, d.ID)
		}
		r.Died = append(r.Died, d)
	}
	// Every cell a square left is emptied first, then every cell a square
	// entered holds the team.
	var entered []*known
	for i := 0; i+1 < len(m.Moved); i += 2 {
		k := w.squares[m.Moved[i]]
		if k == nil {
			return r, fmt.Errorf("square %d moved, but it is not one of ours", m.Moved[i])
		}
		w.cells[k.row*n+k.col] = Empty
		k.row, k.col, _ = w.next(k.row, k.col, m.Moved[i+1])
		entered = append(entered, k)
	}
	for i := 0; i+2 < len(m.At); i += 3 {
		k := w.squares[m.At[i]]
		if k == nil {
			k = &known{acts: true}
			w.squares[m.At[i]] = k
		} else {
			w.cells[k.row*n+k.col] = Empty
		}
		k.row, k.col = m.At[i+1], m.At[i+2]
		entered = append(entered, k)
	}
	for i := 0; i+3 < len(m.Born); i += 4 {
		k := &known{row: m.Born[i+2], col: m.Born[i+3], acts: true}
		w.squares[m.Born[i]] = k
		entered = append(entered, k)
		r.Born = append(r.Born, Born{ID: m.Born[i], Parent: m.Born[i+1], Class: w.hello.Class, Row: k.row, Col: k.col})
	}
	for _, k := range entered {
		w.cells[k.row*n+k.col] = team
	}
	for _, id := range m.Busy {
		if k := w.squares[id]; k != nil {
			k.acts = false
		}
	}
	for _, id := range m.Free {
		if k := w.squares[id]; k != nil {
			k.acts = true
		}
	}
	for i := 0; i+2 < len(m.Cells); i += 3 {
		w.cells[m.Cells[i]*n+m.Cells[i+1]] = m.Cells[i+2]
	}
	for id, k := range w.squares {
		if !k.acts {
			continue
		}
		s := Square{ID: id, Class: w.hello.Class, Row: k.row, Col: k.col}
		for d := range s.View {
			if rr, cc, ok := w.next(k.row, k.col, d); ok {
				s.View[d] = w.cells[rr*n+cc]
			} else {
				s.View[d] = Wall
			}
		}
		r.Squares = append(r.Squares, s)
	}
	sort.Slice(r.Squares, func(i, j int) bool { return r.Squares[i].ID < r.Squares[j].ID })
	return r, nil
}

// orders turns what the bot's round function returned (Actions, as
// protocol 1 writes them) into protocol 2's answer: waits left out, each
// other order the action's first letter and the direction ("me", "anw").
func orders(round int, answer any) (orders2, error) {
	var a Actions
	switch v := answer.(type) {
	case Actions:
		a = v
	case *Actions:
		a = *v
	default: // another type of the bot's own: read it as Actions
		b, err := json.Marshal(answer)
		if err == nil {
			err = json.Unmarshal(b, &a)
		}
		if err != nil {
			return orders2{}, fmt.Errorf("the answer to round %d is not Actions: %v", round, err)
		}
	}
	out := orders2{Type: "actions", Round: a.Round, Orders: []any{}}
	for _, act := range a.Actions {
		if act.Do == "" || act.Do == "wait" {
			continue
		}
		out.Orders = append(out.Orders, act.ID, act.Do[:1]+act.Dir)
	}
	return out, nil
}
