package worker

import (
	"errors"
	"fmt"
)

// A batch carries, in one frame, requests about several teams that one
// worker plays for a Group: the teams of one player in battles played at
// the same time. Each team lives in a numbered slot of the worker with its
// own Lua state; a battle's team is never told of another slot's.
//
//	batch   count (slot request)…   where each request is a frame body: kind, fields
//	answer  ok count (answer)… cpu  each answer a frame body in the same order;
//	                                cpu is the milliseconds of CPU the worker has used
//
// A request in a batch is any request a worker used alone takes, except a
// batch and a rule mod's rules: a catalog (its slot is ignored), a start
// (which creates the slot), a turn, a settle, an end (which frees the
// slot). The answers are what the worker would answer alone.
const kindBatch byte = 0x60

// maxSlots bounds the teams one worker plays for a Group. The parent
// never asks for more (Group's width); a worker refuses a batch that
// would make more.
const maxSlots = 1024

// slotMap holds a Group worker's teams by slot number.
type slotMap map[uint64]*slot

func (m slotMap) endAll() {
	for k, sl := range m {
		if sl.team != nil {
			sl.team.Close()
		}
		delete(m, k)
	}
}

// errNested refuses a batch inside a batch and a rules request in one.
var errNested = errors.New("batch: a request a batch cannot carry")

// batch answers every request of a batch frame, in order. A malformed
// batch is refused whole, before any of it runs.
func (s *server) batch(d *dec) []byte {
	n := d.count(2)
	parts := s.parts[:0]
	defer func() { clear(parts); s.parts = parts[:0] }() // keep no frame alive
	for range n {
		parts = append(parts, batchPart{slot: d.u(), body: d.bytes()})
	}
	if err := d.end(); err != nil {
		return s.answer(err)
	}
	if s.slots == nil {
		s.slots = slotMap{}
	}
	out := &s.batchOut // reused: a batch's answer is written before the next is read
	out.start(kindOK)
	out.u(uint64(len(parts)))
	for _, p := range parts {
		out.bytes(s.inSlot(p.slot, p.body))
	}
	out.i(cpuMillis())
	return out.finish()
}

// inSlot answers one request of a batch about the team in slot n, and
// returns the answer's body (kind, fields): valid until the next request.
func (s *server) inSlot(n uint64, body []byte) []byte {
	if len(body) == 0 {
		return s.bodyOf(s.answer(errMalformed))
	}
	switch body[0] {
	case kindBatch, kindRulesStart, kindRulesCall, kindTopLevels:
		return s.bodyOf(s.answer(errNested))
	case kindCatalog:
		return s.bodyOf(s.handle(body))
	}
	sl := s.slots[n]
	if sl == nil {
		if body[0] != kindStart {
			return s.bodyOf(s.answer(fmt.Errorf("batch: no team in slot %d", n)))
		}
		if len(s.slots) >= maxSlots {
			return s.bodyOf(s.answer(fmt.Errorf("batch: more than %d teams", maxSlots)))
		}
		sl = &slot{}
		s.slots[n] = sl
	}
	s.slot = sl
	reply := s.handle(body)
	if body[0] == kindEnd || sl.team == nil {
		delete(s.slots, n)
	}
	s.slot = &s.solo
	return s.bodyOf(reply)
}

// batchPart is one request of a batch: its slot and its frame's body.
type batchPart struct {
	slot uint64
	body []byte
}

// bodyOf strips the length from a frame enc.finish made.
func (s *server) bodyOf(frame []byte) []byte { return frameBody(frame) }
