package bot

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"
	"strconv"

	"github.com/squarebattle/squarebattle/engine"
)

// Protocol 2 for SquareBattle (docs/bots.md, "Protocol 2"): a round
// message says what changed since the bot's last one, and the engine keeps
// a mirror of what the bot was told, so that it sends only the
// difference. What the bot knows is
//
//   - its squares: where each is and whether it may act, and
//   - the arena's cells as it was last told of them (all empty at first),
//     of which those next to a square that may act are always right.
//
// A round message carries, in this order of application: "died" (squares
// gone, their cells now empty), "moved" (one step each: first every cell
// left is emptied, then every cell entered holds the team), "born" and "at"
// (squares new to the bot, or placed anew; their cells hold the team),
// "busy" and "free" (squares that may not act, or may again) and "cells"
// (what differs, after all that, from the truth in the views of the
// squares that may act). A full message (the first, and the one after the
// bot asks with "resync") starts from nothing: "at" lists every square.

// unit is one of the bot's squares as the bot knows it.
type unit struct {
	id       engine.SquareID
	row, col int32
	acts     bool // it may act (the bot was told so)
	gone     bool // died: dropped at the end of the merge
}

// mirror is what a protocol-2 bot was told, and the scratch lists of the
// message being built.
type mirror struct {
	units   []unit  // ascending id
	cells   []int16 // size×size, what the bot takes each cell to hold
	size    int
	wrap    bool
	full    bool // the next message is full (the bot asked)
	sent    bool // a message went out: the first is full
	players []string

	next                                  []unit
	born, died, at, moved, busy, free, on []int32
	cellList                              []int32
	orders                                []order
	dead                                  []engine.SquareID // ids born and dead between two messages
}

// find is the index of the unit id.
func (m *mirror) find(id engine.SquareID) (int, bool) {
	k, ok := slices.BinarySearchFunc(m.units, id, func(u unit, id engine.SquareID) int { return int(u.id - id) })
	return k, ok && !m.units[k].gone
}

// insert adds a unit, keeping the ids in order (a newborn's id is the
// highest yet: it goes at the end).
func (m *mirror) insert(u unit) {
	if n := len(m.units); n == 0 || m.units[n-1].id < u.id {
		m.units = append(m.units, u)
		return
	}
	k, found := slices.BinarySearchFunc(m.units, u.id, func(x unit, id engine.SquareID) int { return int(x.id - id) })
	if found {
		m.units[k] = u
		return
	}
	m.units = slices.Insert(m.units, k, u)
}

// place is a square that may act and that the bot does not know: it goes
// in "at".
func (m *mirror) place(s *engine.Ready) unit {
	u := unit{id: s.ID, row: int32(s.Row), col: int32(s.Col), acts: true}
	m.at = append(m.at, int32(s.ID), u.row, u.col)
	m.on = append(m.on, u.row, u.col)
	return u
}

// neighbour is the cell one step from (row, col) in direction d, or -1
// beyond the edge of an arena that does not wrap.
func (m *mirror) neighbour(row, col, d int) (int, int) {
	o := &offsets[d]
	r, c := row+o[0], col+o[1]
	if m.wrap {
		if r < 0 {
			r += m.size
		} else if r >= m.size {
			r -= m.size
		}
		if c < 0 {
			c += m.size
		} else if c >= m.size {
			c -= m.size
		}
		return r, c
	}
	if r < 0 || c < 0 || r >= m.size || c >= m.size {
		return -1, -1
	}
	return r, c
}

// step is the direction from (r0, c0) to the neighbouring (r1, c1).
func (m *mirror) step(r0, c0 int32, r1, c1 int) (int, bool) {
	for d := range offsets {
		if r, c := m.neighbour(int(r0), int(c0), d); r == r1 && c == c1 {
			return d, true
		}
	}
	return 0, false
}

// offsets are the row and column steps of the directions, in view order
// (row 0 is the bottom row: north is row + 1).
var offsets = [8][2]int{{1, -1}, {1, 0}, {1, 1}, {0, 1}, {-1, 1}, {-1, 0}, {-1, -1}, {0, -1}}

// appendList appends key and the numbers of list, when it holds any.
func appendList(b []byte, key string, list []int32) []byte {
	if len(list) == 0 {
		return b
	}
	b = append(b, key...)
	for i, v := range list {
		if i > 0 {
			b = append(b, ',')
		}
		b = strconv.AppendInt(b, int64(v), 10)
	}
	return append(b, ']')
}

// encodeRound2 appends the protocol-2 round message of t and updates the
// mirror as the bot will once it reads it. It runs on the exchange's
// goroutine while the engine waits for it, like encodeRound.
func (c *Controller) encodeRound2(b []byte, t *engine.Turn) []byte {
	f, m := t.Facts, &c.m
	full := m.full || !m.sent || m.size != f.Size || m.wrap != f.Wrap
	m.full, m.sent = false, true
	if full {
		m.size, m.wrap = f.Size, f.Wrap
		n := f.Size * f.Size
		if cap(m.cells) < n {
			m.cells = make([]int16, n)
		}
		m.cells = m.cells[:n]
		for i := range m.cells {
			m.cells[i] = engine.Empty
		}
	}
	team := int16(t.Team)
	m.born, m.died, m.at, m.moved = m.born[:0], m.died[:0], m.at[:0], m.moved[:0]
	m.busy, m.free, m.on, m.dead = m.busy[:0], m.free[:0], m.on[:0], m.dead[:0]

	// A square born and dead since the last message is in neither list.
	for _, d := range c.died {
		for _, x := range c.born {
			if x.Child == d.Square {
				m.dead = append(m.dead, d.Square)
				break
			}
		}
	}
	// died: the bot drops them, and their cells are empty.
	for _, d := range c.died {
		if slices.Contains(m.dead, d.Square) {
			continue
		}
		collision := int32(0)
		if d.Collision {
			collision = 1
		}
		m.died = append(m.died, int32(d.Square), int32(d.Killer), collision)
		if k, ok := m.find(d.Square); ok {
			u := &m.units[k]
			m.cells[int(u.row)*m.size+int(u.col)] = engine.Empty
			u.gone = true
		}
	}
	// born: new squares, acting until told otherwise.
	for _, x := range c.born {
		if slices.Contains(m.dead, x.Child) {
			continue
		}
		m.born = append(m.born, int32(x.Child), int32(x.Parent), int32(x.Row), int32(x.Col))
		m.insert(unit{id: x.Child, row: int32(x.Row), col: int32(x.Col), acts: true})
		m.on = append(m.on, int32(x.Row), int32(x.Col))
	}
	c.born, c.died = c.born[:0], c.died[:0]

	// The squares that may act against what the bot knows: moved, placed,
	// busy, free. Both lists ascend by id.
	m.next = m.next[:0]
	sq := t.Squares
	i := 0
	for k := range m.units {
		u := m.units[k]
		if u.gone {
			continue
		}
		for i < len(sq) && sq[i].ID < u.id { // a square the bot does not know
			m.next = append(m.next, m.place(&sq[i]))
			i++
		}
		if i < len(sq) && sq[i].ID == u.id {
			s := &sq[i]
			i++
			if int32(s.Row) != u.row || int32(s.Col) != u.col {
				m.cells[int(u.row)*m.size+int(u.col)] = engine.Empty
				if d, ok := m.step(u.row, u.col, s.Row, s.Col); ok && !full {
					m.moved = append(m.moved, int32(u.id), int32(d))
				} else {
					m.at = append(m.at, int32(u.id), int32(s.Row), int32(s.Col))
				}
				u.row, u.col = int32(s.Row), int32(s.Col)
				m.on = append(m.on, u.row, u.col)
			}
			if !u.acts {
				u.acts = true
				m.free = append(m.free, int32(u.id))
			}
		} else if u.acts {
			u.acts = false
			m.busy = append(m.busy, int32(u.id))
		}
		m.next = append(m.next, u)
	}
	for ; i < len(sq); i++ {
		m.next = append(m.next, m.place(&sq[i]))
	}
	m.units, m.next = m.next, m.units

	if full { // from nothing: every square where it is, those that may not act busy
		m.at, m.busy, m.free, m.moved, m.on = m.at[:0], m.busy[:0], m.free[:0], m.moved[:0], m.on[:0]
		for _, u := range m.units {
			m.at = append(m.at, int32(u.id), u.row, u.col)
			m.on = append(m.on, u.row, u.col)
			if !u.acts {
				m.busy = append(m.busy, int32(u.id))
			}
		}
	}
	// Every cell a square entered holds the team, after every cell left
	// was emptied.
	for j := 0; j < len(m.on); j += 2 {
		m.cells[int(m.on[j])*m.size+int(m.on[j+1])] = team
	}
	// cells: what the squares that may act see that the bot does not know.
	for k := range sq {
		s := &sq[k]
		for d, v := range s.View {
			if v == engine.Wall {
				continue
			}
			r, col := m.neighbour(s.Row, s.Col, d)
			if r < 0 {
				continue
			}
			if cell := &m.cells[r*m.size+col]; *cell != int16(v) {
				*cell = int16(v)
				m.cellList = append(m.cellList, int32(r), int32(col), v)
			}
		}
	}

	b = append(b, `{"type":"round","round":`...)
	b = appendInt(b, f.Round)
	if full {
		b = append(b, `,"full":true,"players":[`...)
		for p, name := range f.Players {
			if p > 0 {
				b = append(b, ',')
			}
			b = appendString(b, name)
		}
		b = append(b, ']')
		m.players = append(m.players[:0], f.Players...)
	} else if !slices.Equal(m.players, f.Players) {
		b = append(b, `,"players":[`...)
		for p, name := range f.Players {
			if p > 0 {
				b = append(b, ',')
			}
			b = appendString(b, name)
		}
		b = append(b, ']')
		m.players = append(m.players[:0], f.Players...)
	}
	b = append(b, `,"stats":[`...)
	for k, s := range f.Stats {
		if k > 0 {
			b = append(b, ',')
		}
		b = append(b, '[')
		for j, v := range [...]int{s.Squares, s.Births, s.Kills, s.Deaths, s.Collisions, s.Timeouts, s.Errors} {
			if j > 0 {
				b = append(b, ',')
			}
			b = appendInt(b, v)
		}
		b = append(b, ']')
	}
	b = append(b, ']')
	b = appendList(b, `,"died":[`, m.died)
	b = appendList(b, `,"moved":[`, m.moved)
	b = appendList(b, `,"born":[`, m.born)
	b = appendList(b, `,"at":[`, m.at)
	b = appendList(b, `,"busy":[`, m.busy)
	b = appendList(b, `,"free":[`, m.free)
	b = appendList(b, `,"cells":[`, m.cellList)
	m.cellList = m.cellList[:0]
	return append(b, '}')
}

// order is one square's order in a protocol-2 answer: where its id and
// its order are in the list.
type order struct {
	k     int   // the square's index in Turn.Squares
	id    int64 // its id
	entry int   // the order's index in the list
	start int   // the order's text in the answer
	end   int
}

// decode2 turns the orders of a protocol-2 answer into t's intents: a
// flat list of pairs, a square's id and its order ("w", or "m", "a" or
// "r" followed by a direction name). As in protocol 1, a structural fault
// rejects the whole answer (every square waits) and a wrong order makes
// its square wait with an error.
func (c *Controller) decode2(raw []byte, t *engine.Turn) error {
	if len(raw) == 0 || string(raw) == "null" {
		return malformed(`no "orders"`)
	}
	s := scanner{b: raw}
	s.space()
	if !s.eat('[') {
		return malformed(`"orders" is not a list`)
	}
	if n := len(t.Squares); cap(c.seen) < n {
		c.seen = make([]bool, n)
	} else {
		c.seen = c.seen[:n]
		clear(c.seen)
	}
	orders := c.m.orders[:0]
	s.space()
	hint := 0 // bots list ids in ascending order: try the next square first
	for entry := 0; !s.eat(']'); entry++ {
		if entry > 0 && !s.eat(',') {
			return malformed(`"orders" is not a list`) // not reached: the line is JSON
		}
		s.space()
		start := s.i
		if !s.value(0) {
			return malformed("orders[%d] is nested too deep", entry)
		}
		v := raw[start:s.i]
		s.space()
		if entry%2 == 1 {
			orders[len(orders)-1].start, orders[len(orders)-1].end = start, s.i
			continue
		}
		id, ok := quickInt(v)
		if !ok {
			if id, ok = wholeNumber(v); !ok {
				return malformed("orders[%d]: %s is not a square id", entry, clip(v))
			}
		}
		k := squareIndex(t.Squares, id, hint)
		if k < 0 {
			return malformed("orders[%d]: square %d is not one of this round's squares", entry, id)
		}
		if c.seen[k] {
			return malformed("orders[%d]: square %d has two orders", entry, id)
		}
		c.seen[k], hint = true, k+1
		orders = append(orders, order{k: k, id: id, entry: entry + 1, start: -1})
	}
	c.m.orders = orders
	if n := len(orders); n > 0 && orders[n-1].start < 0 {
		return malformed("orders[%d]: square %d has no order after it", 2*n-2, orders[n-1].id)
	}
	for _, o := range orders {
		in, ok := c.intent2(raw[o.start:o.end])
		if !ok {
			sq := &t.Squares[o.k]
			t.Intents[o.k] = engine.WaitIntent
			t.Intents[o.k].Fault = engine.FaultError
			if c.l.noted(1) {
				t.Report.Problems = append(t.Report.Problems, engine.Problem{Class: sq.Class, Square: sq.ID, Kind: engine.FaultError,
					Message: fmt.Sprintf("bot: round %d: orders[%d]: unknown order %s", t.Facts.Round, o.entry, clip(raw[o.start:o.end]))})
			}
			continue
		}
		t.Intents[o.k] = in
	}
	return nil
}

// quickInt reads a JSON number written as a plain integer of at most 9
// digits (an id or a round as bots write them).
func quickInt(b []byte) (int64, bool) {
	neg := len(b) > 0 && b[0] == '-'
	if neg {
		b = b[1:]
	}
	if len(b) == 0 || len(b) > 9 || len(b) > 1 && b[0] == '0' {
		return 0, false
	}
	v := int64(0)
	for _, c := range b {
		if c < '0' || c > '9' {
			return 0, false
		}
		v = v*10 + int64(c-'0')
	}
	if neg {
		v = -v
	}
	return v, true
}

// squareIndex is the index of square id in squares (ascending ids), or
// -1; hint is where to look first.
func squareIndex(squares []engine.Ready, id int64, hint int) int {
	if hint < len(squares) && int64(squares[hint].ID) == id {
		return hint
	}
	lo, hi := 0, len(squares)
	for lo < hi {
		mid := int(uint(lo+hi) >> 1)
		if int64(squares[mid].ID) < id {
			lo = mid + 1
		} else {
			hi = mid
		}
	}
	if lo < len(squares) && int64(squares[lo].ID) == id {
		return lo
	}
	return -1
}

// intent2 reads one order of protocol 2: "w", or the first letter of
// move, attack or replicate followed by a direction name, in any case
// ("me", "Anw", "rS"). A replicated child is of the parent's class.
func (c *Controller) intent2(raw []byte) (engine.Intent, bool) {
	in := engine.WaitIntent
	if len(raw) < 3 || raw[0] != '"' || raw[len(raw)-1] != '"' {
		return in, false
	}
	o := raw[1 : len(raw)-1]
	if bytes.IndexByte(o, '\\') >= 0 { // escapes: rare, and slower
		var s string
		if json.Unmarshal(raw, &s) != nil || s == "" {
			return in, false
		}
		o = []byte(s)
	}
	switch o[0] | 0x20 {
	case 'w':
		return in, len(o) == 1
	case 'm':
		in.Action = engine.Move
	case 'a':
		in.Action = engine.Attack
	case 'r':
		in.Action = engine.Replicate
		in.Child = c.class
	default:
		return engine.WaitIntent, false
	}
	d, ok := dirByName(o[1:])
	if !ok {
		return engine.WaitIntent, false
	}
	in.Dir = d
	return in, true
}

// dirByName reads a direction name in any case.
func dirByName(b []byte) (engine.Direction, bool) {
	var lower [2]byte
	if len(b) == 0 || len(b) > 2 {
		return 0, false
	}
	for i, c := range b {
		lower[i] = c | 0x20
	}
	for d, name := range directionNames {
		if len(name) == len(b) && name[0] == lower[0] && (len(b) == 1 || name[1] == lower[1]) {
			return engine.Direction(d), true
		}
	}
	return 0, false
}
