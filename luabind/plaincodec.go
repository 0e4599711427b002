package luabind

import (
	"encoding/binary"
	"errors"
	"fmt"
	"math"

	lua "github.com/yuin/gopher-lua"
)

// Plain values cross a process boundary (rules.lua in a worker process,
// luabind/worker) in the encoding below. It keeps what matters of their
// identity: a table met twice in one message is sent once and referred to
// after, and a constant table (game.constant) is sent once per battle and
// decoded, every time after, into the same *plainTable, so a team VM keeps
// its one copy of it exactly as when the rules run in this process.
//
// A value is a tag byte and its payload:
//
//	0 nil, 1 false, 2 true
//	3 number: its 8 bytes, little-endian IEEE 754 (NaN and -0 kept)
//	4 string: uvarint length, bytes
//	5 table: flags (1 = constant), uvarint count, count × (key, value)
//	6 a table of this message: uvarint index (tables in the order finished)
//	7 a constant of the battle: uvarint index (in the order first sent)
//
// A table gets its index when its last entry is read, so a reference can
// only name a table already complete: no decoded value contains itself.
const (
	plainNil byte = iota
	plainFalse
	plainTrue
	plainNumber
	plainString
	plainTable_
	plainRef
	plainConst
)

// PlainEncoder writes plain values; it remembers the constants it has sent.
// One encoder serves one battle, on one goroutine.
type PlainEncoder struct {
	consts map[*plainTable]int
	msg    map[*plainTable]int
	n      int // tables of the current message
}

// PlainDecoder reads what a PlainEncoder wrote; it keeps the constants
// decoded so far. One decoder serves one battle, on one goroutine.
type PlainDecoder struct {
	consts       []*plainTable
	constEntries int
	msg          []*plainTable
}

// ErrPlainEncoding is what a broken encoding is reported as.
var ErrPlainEncoding = errors.New("malformed plain value")

// Message starts a new message: tables of earlier ones are not referred to.
func (e *PlainEncoder) Message() {
	clear(e.msg)
	e.n = 0
}

// Message starts a new message on the decoding side.
func (d *PlainDecoder) Message() { d.msg = d.msg[:0] }

// Append appends the encoding of v (a value a plain copier made, or nil).
func (e *PlainEncoder) Append(b []byte, v any) []byte {
	switch x := v.(type) {
	case nil:
		return append(b, plainNil)
	case lua.LBool:
		if x {
			return append(b, plainTrue)
		}
		return append(b, plainFalse)
	case lua.LNumber:
		return binary.LittleEndian.AppendUint64(append(b, plainNumber), math.Float64bits(float64(x)))
	case lua.LString:
		b = binary.AppendUvarint(append(b, plainString), uint64(len(x)))
		return append(b, x...)
	case *plainTable:
		if i, ok := e.consts[x]; ok {
			return binary.AppendUvarint(append(b, plainConst), uint64(i))
		}
		if i, ok := e.msg[x]; ok {
			return binary.AppendUvarint(append(b, plainRef), uint64(i))
		}
		var flags byte
		if x.constant {
			flags = 1
		}
		b = binary.AppendUvarint(append(b, plainTable_, flags), uint64(len(x.keys)))
		for i := range x.keys {
			b = e.Append(b, x.keys[i])
			b = e.Append(b, x.vals[i])
		}
		if x.constant {
			if e.consts == nil {
				e.consts = map[*plainTable]int{}
			}
			e.consts[x] = len(e.consts)
		} else {
			if e.msg == nil {
				e.msg = map[*plainTable]int{}
			}
			e.msg[x] = e.n
			e.n++
		}
		return b
	}
	return append(b, plainNil) // lua.LNil and anything not plain
}

// Read decodes one value from the front of b and returns the rest. A value
// is refused if it nests tables more than 32 deep or, built as the Lua
// tables it stands for, would hold more than 2^20 entries: the bounds a
// plain copier keeps in this process.
func (d *PlainDecoder) Read(b []byte) (any, []byte, error) {
	v, rest, err := d.value(b, 0)
	if err != nil {
		return nil, b, err
	}
	if t, ok := v.(*plainTable); ok && t.entries > maxPlainEntries {
		return nil, b, fmt.Errorf("%w: more than %d table entries", ErrPlainEncoding, maxPlainEntries)
	}
	return v, rest, nil
}

func (d *PlainDecoder) value(b []byte, depth int) (any, []byte, error) {
	bad := func(what string) (any, []byte, error) {
		return nil, b, fmt.Errorf("%w: %s", ErrPlainEncoding, what)
	}
	if len(b) == 0 {
		return bad("truncated")
	}
	tag, b := b[0], b[1:]
	switch tag {
	case plainNil:
		return nil, b, nil
	case plainFalse:
		return lua.LFalse, b, nil
	case plainTrue:
		return lua.LTrue, b, nil
	case plainNumber:
		if len(b) < 8 {
			return bad("truncated number")
		}
		return lua.LNumber(math.Float64frombits(binary.LittleEndian.Uint64(b))), b[8:], nil
	case plainString:
		n, k := binary.Uvarint(b)
		if k <= 0 || n > uint64(len(b)-k) {
			return bad("truncated string")
		}
		return lua.LString(b[k : k+int(n)]), b[k+int(n):], nil
	case plainRef, plainConst:
		n, k := binary.Uvarint(b)
		list := d.msg
		if tag == plainConst {
			list = d.consts
		}
		if k <= 0 || n >= uint64(len(list)) {
			return bad("reference to no table")
		}
		t := list[n]
		if depth+t.height > maxPlainDepth {
			return bad("tables nested too deep")
		}
		return t, b[k:], nil
	case plainTable_:
		if depth >= maxPlainDepth {
			return bad("tables nested too deep")
		}
		if len(b) == 0 {
			return bad("truncated table")
		}
		constant := b[0] == 1
		if b[0] > 1 {
			return bad("table flags")
		}
		b = b[1:]
		n, k := binary.Uvarint(b)
		if k <= 0 || n > uint64(len(b)-k)/2 { // an entry takes two bytes at least
			return bad("table size")
		}
		b = b[k:]
		t := &plainTable{size: 1, height: 1, constant: constant}
		if n > 0 {
			t.keys, t.vals = make([]any, 0, n), make([]any, 0, n)
		}
		for range n {
			var pk, pv any
			var err error
			if pk, b, err = d.value(b, depth+1); err != nil {
				return nil, b, err
			}
			if pv, b, err = d.value(b, depth+1); err != nil {
				return nil, b, err
			}
			if pk == nil || pv == nil {
				return bad("a nil key or value")
			}
			// Entries as a plain copier counts them: a nested table's
			// every time it appears.
			t.entries++
			for _, x := range [2]any{pk, pv} {
				if pt, ok := x.(*plainTable); ok {
					t.entries += pt.entries
				}
			}
			if t.entries > maxPlainEntries {
				return bad(fmt.Sprintf("more than %d table entries", maxPlainEntries))
			}
			t.add(pk, pv)
		}
		if constant {
			if d.constEntries += t.entries; d.constEntries > maxPlainEntries {
				return bad("constants hold too many entries")
			}
			d.consts = append(d.consts, t)
		} else {
			d.msg = append(d.msg, t)
		}
		return t, b, nil
	}
	return bad(fmt.Sprintf("tag %d", tag))
}
