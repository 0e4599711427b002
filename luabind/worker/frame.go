package worker

import (
	"bufio"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
)

// A frame is a uvarint length, then that many bytes: a message kind byte
// and the message's fields, each a varint, a uvarint or a length-prefixed
// string. Both sides read a frame whole before decoding it, and never
// allocate more for it than the reader's bound allows (see readFrame).

// Message kinds. Every request gets exactly one answer: kindOK (with a
// body that depends on the request) or kindFail (one line of text).
const (
	kindCatalog byte = iota + 1 // load a catalog: hash, source
	kindStart                   // start a team: hash, team options
	kindTurn                    // facts, ready squares → intents, report, lines
	kindSettle                  // facts, births, deaths → report, lines
	kindEnd                     // close the team → CPU seconds used so far
	kindOK
	kindFail
)

// errMalformed is what any broken frame becomes. The parent treats it as
// a crash of the worker that sent it.
var errMalformed = errors.New("malformed frame")

// readFrame reads one frame whose length must not exceed limit. buf is
// reused when big enough; a frame that names a larger size is refused
// before anything is allocated, and a larger buffer is only grown as
// bytes actually arrive.
func readFrame(r *bufio.Reader, buf []byte, limit int) ([]byte, error) {
	n, err := binary.ReadUvarint(r)
	if err != nil {
		return buf, err
	}
	if n == 0 || n > uint64(limit) {
		return buf, fmt.Errorf("%w: frame of %d bytes (at most %d)", errMalformed, n, limit)
	}
	buf = buf[:0]
	for uint64(len(buf)) < n {
		// Grow by what is buffered or a chunk, whichever is larger, so a
		// peer that names a big frame and sends nothing costs nothing.
		want := int(n) - len(buf)
		chunk := min(want, max(r.Buffered(), 64<<10))
		if cap(buf)-len(buf) < chunk {
			nb := make([]byte, len(buf), len(buf)+max(chunk, len(buf)))
			copy(nb, buf)
			buf = nb
		}
		m, err := io.ReadFull(r, buf[len(buf):len(buf)+chunk])
		buf = buf[:len(buf)+m]
		if err != nil {
			if err == io.EOF {
				err = io.ErrUnexpectedEOF
			}
			return buf, err
		}
	}
	return buf, nil
}

// enc builds one frame. The first bytes are room for the length, filled by
// finish, so a frame is written with one Write.
type enc struct{ b []byte }

const lenRoom = binary.MaxVarintLen64

func (e *enc) start(kind byte) {
	e.b = append(e.b[:0], make([]byte, lenRoom)...)
	e.b = append(e.b, kind)
}

func (e *enc) u(v uint64)  { e.b = binary.AppendUvarint(e.b, v) }
func (e *enc) i(v int64)   { e.b = binary.AppendVarint(e.b, v) }
func (e *enc) int(v int)   { e.i(int64(v)) }
func (e *enc) byte(v byte) { e.b = append(e.b, v) }

// small is u for numbers that are nearly always below 128: one byte,
// written inline.
func (e *enc) small(v uint64) {
	if v < 0x80 {
		e.b = append(e.b, byte(v))
		return
	}
	e.u(v)
}
func (e *enc) bytes(p []byte) { e.u(uint64(len(p))); e.b = append(e.b, p...) }
func (e *enc) str(s string)   { e.u(uint64(len(s))); e.b = append(e.b, s...) }
func (e *enc) bool(v bool) {
	if v {
		e.byte(1)
	} else {
		e.byte(0)
	}
}

// finish writes the length in front of the body and returns the frame.
func (e *enc) finish() []byte {
	body := len(e.b) - lenRoom
	var tmp [lenRoom]byte
	n := binary.PutUvarint(tmp[:], uint64(body))
	start := lenRoom - n
	copy(e.b[start:], tmp[:n])
	return e.b[start:]
}

// frameBody is the body of a frame enc.finish made: what follows its
// length.
func frameBody(frame []byte) []byte {
	d := &dec{b: frame}
	n := d.u()
	if d.err != nil || uint64(len(d.b)) != n {
		panic("worker: a frame of its own is malformed")
	}
	return d.b
}

// dec reads fields from one frame. The first error sticks; every read
// after it returns zero values, so decoders check err once at the end.
// Counts are checked against the bytes left (every element takes at least
// one), so no count read from a frame can size an allocation beyond the
// frame itself.
type dec struct {
	b   []byte
	err error
}

func (d *dec) fail() {
	if d.err == nil {
		d.err = errMalformed
	}
}

func (d *dec) u() uint64 {
	if d.err != nil {
		return 0
	}
	v, n := binary.Uvarint(d.b)
	if n <= 0 {
		d.fail()
		return 0
	}
	d.b = d.b[n:]
	return v
}

// small is u with the one-byte case inline (see enc.small). Unlike the
// other reads it may return a byte of the frame after an error: the error
// sticks all the same, and what was read is then dropped.
func (d *dec) small() uint64 {
	if b := d.b; len(b) > 0 && b[0] < 0x80 {
		d.b = b[1:]
		return uint64(b[0])
	}
	return d.u()
}

func (d *dec) i() int64 {
	if d.err != nil {
		return 0
	}
	v, n := binary.Varint(d.b)
	if n <= 0 {
		d.fail()
		return 0
	}
	d.b = d.b[n:]
	return v
}

// int reads a varint that must lie in [lo, hi].
func (d *dec) int(lo, hi int64) int {
	v := d.i()
	if v < lo || v > hi {
		d.fail()
		return int(lo)
	}
	return int(v)
}

func (d *dec) byte() byte {
	if d.err != nil || len(d.b) == 0 {
		d.fail()
		return 0
	}
	v := d.b[0]
	d.b = d.b[1:]
	return v
}

func (d *dec) bool() bool { return d.byte() != 0 }

// count reads a number of elements to come, each of at least minBytes.
func (d *dec) count(minBytes int) int {
	v := d.u()
	if v > uint64(len(d.b)/max(minBytes, 1)) {
		d.fail()
		return 0
	}
	return int(v)
}

func (d *dec) bytes() []byte {
	n := d.u()
	if d.err != nil || n > uint64(len(d.b)) {
		d.fail()
		return nil
	}
	p := d.b[:n:n]
	d.b = d.b[n:]
	return p
}

func (d *dec) str() string { return string(d.bytes()) }

// end fails unless the whole frame was read.
func (d *dec) end() error {
	if d.err == nil && len(d.b) != 0 {
		d.fail()
	}
	return d.err
}
