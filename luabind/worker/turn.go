package worker

import (
	"encoding/binary"
	"slices"

	"github.com/squarebattle/squarebattle/engine"
)

// A turn's squares and intents: most of what crosses the pipe, 4,096
// squares a round on a full 64×64 board, so they are packed tight and
// coded without a call per field. Every number is a uvarint, almost
// always a single byte written and read inline (enc.small, dec.small):
//
//	squares  count (idΔ class row col view×8)…
//	intents  count (packed [child+1 become+1])…
//
// idΔ is the zigzag difference from the previous square's id (the engine
// asks in ascending id order, so it is small); a view cell is its value
// less engine.Wall (0 for a wall, 1 for empty, 2+ for a team). An intent
// is one byte, packed = action | dir<<2 | fault<<5 | 0x80 when a class
// follows (child and become, each plus one, so that NoClass is 0).

// squareBytes is the least a square takes, against which counts are
// checked before anything is sized by them.
const squareBytes = 12

func putSquares(e *enc, squares []engine.Ready) {
	e.u(uint64(len(squares)))
	e.b = slices.Grow(e.b, squareBytes*len(squares))
	prev := int64(0)
	for i := range squares {
		r := &squares[i]
		delta := int64(r.ID) - prev
		prev = int64(r.ID)
		z := uint64(delta<<1) ^ uint64(delta>>63)
		var cells, all uint64
		for k, v := range r.View {
			c := uint64(int64(v) - engine.Wall)
			all |= c
			cells |= c << (8 * k)
		}
		if n := len(e.b); all|z|uint64(r.Class)|uint64(r.Row)|uint64(r.Col) < 0x80 && cap(e.b)-n >= squareBytes {
			// The common case: twelve bytes.
			b := e.b[n : n+squareBytes]
			b[0], b[1], b[2], b[3] = byte(z), byte(r.Class), byte(r.Row), byte(r.Col)
			binary.LittleEndian.PutUint64(b[4:], cells)
			e.b = e.b[:n+squareBytes]
			continue
		}
		e.small(z)
		e.small(uint64(r.Class))
		e.small(uint64(r.Row))
		e.small(uint64(r.Col))
		for _, v := range r.View {
			e.small(uint64(int64(v) - engine.Wall))
		}
	}
}

// highBits has the top bit of each of eight bytes: a uvarint byte with it
// set continues into the next.
const highBits = 0x8080808080808080

// getSquares reads a turn's squares into t, checking every field against
// the classes and teams the worker knows.
func getSquares(d *dec, t *engine.Turn, classes int) {
	n := d.count(squareBytes)
	t.Squares = grow(t.Squares, n)
	t.Intents = grow(t.Intents, n)
	id := int64(0)
	for i := range t.Squares {
		r := &t.Squares[i]
		t.Intents[i] = engine.WaitIntent
		var z, class, row, col uint64
		if b := d.b; len(b) >= squareBytes && (uint64(binary.LittleEndian.Uint32(b))|binary.LittleEndian.Uint64(b[4:]))&highBits == 0 {
			// The common case: twelve single-byte numbers. A view cell of
			// one byte is below 128, within range.
			z, class, row, col = uint64(b[0]), uint64(b[1]), uint64(b[2]), uint64(b[3])
			cells := binary.LittleEndian.Uint64(b[4:])
			for k := range r.View {
				r.View[k] = int32(cells>>(8*k)&0xff) + engine.Wall
			}
			d.b = b[squareBytes:]
		} else {
			z, class, row, col = d.small(), d.small(), d.small(), d.small()
			for k := range r.View {
				v := d.small()
				if v > maxTeams-engine.Wall {
					d.fail()
				}
				r.View[k] = int32(int64(v) + engine.Wall)
			}
		}
		id += int64(z>>1) ^ -int64(z&1)
		if id < 0 || id > 1<<31-1 || class >= uint64(classes) || row > 1<<20 || col > 1<<20 {
			d.fail()
		}
		if d.err != nil {
			return
		}
		r.ID, r.Class, r.Row, r.Col = engine.SquareID(id), engine.ClassID(class), int(row), int(col)
	}
}

func grow[T any](s []T, n int) []T {
	if cap(s) < n {
		return make([]T, n)
	}
	return s[:n]
}

const hasClass = 0x80

func putIntents(e *enc, intents []engine.Intent) {
	e.u(uint64(len(intents)))
	for i := range intents {
		in := &intents[i]
		packed := byte(in.Action) | byte(in.Dir)<<2 | byte(in.Fault)<<5
		if in.Child == engine.NoClass && in.Become == engine.NoClass {
			e.byte(packed)
			continue
		}
		e.byte(packed | hasClass)
		e.small(uint64(in.Child + 1))
		e.small(uint64(in.Become + 1))
	}
}

// getIntents reads the intents of n squares into out, which it returns.
func getIntents(d *dec, n, classes int, out []engine.Intent) []engine.Intent {
	if d.u() != uint64(n) || n > len(d.b) {
		d.fail()
		return out[:0]
	}
	out = grow(out, n)
	for i := range out {
		packed := d.byte()
		in := engine.Intent{Action: engine.Action(packed & 3), Dir: engine.Direction(packed >> 2 & 7),
			Fault: engine.Fault(packed >> 5 & 3), Child: engine.NoClass, Become: engine.NoClass}
		if packed&hasClass != 0 {
			child, become := d.small(), d.small()
			if child > uint64(classes) || become > uint64(classes) {
				d.fail()
			}
			in.Child, in.Become = engine.ClassID(int(child)-1), engine.ClassID(int(become)-1)
		}
		if in.Action > engine.Replicate || in.Fault > engine.FaultError {
			d.fail()
		}
		out[i] = in
	}
	return out
}
