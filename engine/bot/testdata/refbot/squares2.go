package main

import (
	"fmt"
	"os"
	"sort"
	"strings"
)

// round2 is a round message of protocol 2 (the end message is
// protocol 1's).
type round2 struct {
	Type  string `json:"type"`
	Round int    `json:"round"`
	Full  bool   `json:"full"`
	Died  []int  `json:"died"`
	Moved []int  `json:"moved"`
	Born  []int  `json:"born"`
	At    []int  `json:"at"`
	Busy  []int  `json:"busy"`
	Free  []int  `json:"free"`
	Cells []int  `json:"cells"`
}

// world is what a protocol-2 bot knows (docs/bots.md, "Protocol 2"): its
// squares, and the cells of the arena as it was last told of them.
type world struct {
	size  int
	wrap  bool
	team  int
	units map[int]*unit
	cells []int // size×size, row by row from the bottom; -1 empty
}

type unit struct {
	row, col int
	acts     bool
}

func newWorld(h *hello) *world {
	w := &world{size: h.Size, wrap: h.Wrap, team: h.Team}
	w.forget()
	return w
}

// forget drops everything: the start of a full message.
func (w *world) forget() {
	w.units = map[int]*unit{}
	w.cells = make([]int, w.size*w.size)
	for i := range w.cells {
		w.cells[i] = -1
	}
}

// next is the cell one step from (r, c) in direction d, ok false beyond
// the edge of an arena that does not wrap.
func (w *world) next(r, c, d int) (int, int, bool) {
	r, c = r+offsets[d][0], c+offsets[d][1]
	if w.wrap {
		return (r + w.size) % w.size, (c + w.size) % w.size, true
	}
	return r, c, r >= 0 && c >= 0 && r < w.size && c < w.size
}

// apply reads one round message into the world, in the order the
// protocol says.
func (w *world) apply(m *round2) {
	if resynced && !m.Full {
		fmt.Fprintln(os.Stderr, "refbot: asked for a full state, got a round message that is not full")
		os.Exit(3)
	}
	resynced = false
	if m.Full {
		w.forget()
	}
	for i := 0; i+2 < len(m.Died); i += 3 { // id, killer, collision
		if u := w.units[m.Died[i]]; u != nil {
			w.cells[u.row*w.size+u.col] = -1
			delete(w.units, m.Died[i])
		}
	}
	var entered []*unit
	// Every cell left is emptied first, then every cell entered is ours.
	for i := 0; i+1 < len(m.Moved); i += 2 { // id, direction
		if u := w.units[m.Moved[i]]; u != nil {
			w.cells[u.row*w.size+u.col] = -1
			u.row, u.col, _ = w.next(u.row, u.col, m.Moved[i+1])
			entered = append(entered, u)
		}
	}
	for i := 0; i+2 < len(m.At); i += 3 { // id, row, col
		u := w.units[m.At[i]]
		if u == nil {
			u = &unit{acts: true}
			w.units[m.At[i]] = u
		} else {
			w.cells[u.row*w.size+u.col] = -1
		}
		u.row, u.col = m.At[i+1], m.At[i+2]
		entered = append(entered, u)
	}
	for i := 0; i+3 < len(m.Born); i += 4 { // child, parent, row, col
		u := &unit{row: m.Born[i+2], col: m.Born[i+3], acts: true}
		w.units[m.Born[i]] = u
		entered = append(entered, u)
	}
	for _, u := range entered {
		w.cells[u.row*w.size+u.col] = w.team
	}
	for _, id := range m.Busy {
		if u := w.units[id]; u != nil {
			u.acts = false
		}
	}
	for _, id := range m.Free {
		if u := w.units[id]; u != nil {
			u.acts = true
		}
	}
	for i := 0; i+2 < len(m.Cells); i += 3 { // row, col, value
		w.cells[m.Cells[i]*w.size+m.Cells[i+1]] = m.Cells[i+2]
	}
}

// squares are the squares that may act, in ascending id, with their
// views as protocol 1 would send them.
func (w *world) squares() []square {
	var out []square
	for id, u := range w.units {
		if !u.acts {
			continue
		}
		s := square{ID: id, Row: u.row, Col: u.col}
		for d := range s.View {
			r, c, ok := w.next(u.row, u.col, d)
			if !ok {
				s.View[d] = -2
				continue
			}
			s.View[d] = w.cells[r*w.size+c]
		}
		out = append(out, s)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].ID < out[j].ID })
	return out
}

// orders turns a protocol-1 answer of SquareBattle into protocol 2's:
// pairs of a square's id and its order, waits left out.
func orders(a map[string]any) map[string]any {
	list := []any{}
	acts, _ := a["actions"].([]any)
	for _, x := range acts {
		act := x.(map[string]any)
		do := act["do"].(string)
		if do == "wait" {
			continue
		}
		dir := act["dir"]
		if d, ok := dir.(int); ok {
			dir = directionNames[d]
		}
		list = append(list, act["id"], do[:1]+strings.ToLower(dir.(string)))
	}
	return map[string]any{"type": "actions", "round": a["round"], "orders": list}
}
