package worker

import (
	"errors"
	"fmt"
)

// A group's wave: every worker's queued requests sent as one batch, then
// the answers read back and handed to the calls (batch_serve.go is the
// worker's side of it). Apart from group.go, which seats the teams and
// queues their requests: this is the part that talks to the workers.

// flush sends a wave: every worker's queued requests as one batch, all
// sent before any answer is read. Called with the mutex held; it lets go
// of it while it writes and reads. It reports whether there was anything
// to send.
func (g *Group) flush() bool {
	wave := g.wave[:0]
	defer func() { clear(wave); g.wave = wave[:0] }() // reused by the next wave
	for h := range g.active {
		if n := len(h.queue); n > 0 {
			if g.frameCap > 0 && n > g.frameCap {
				n = g.frameCap
			}
			wave = append(wave, batch{h: h, calls: h.queue[:n:n]})
			h.queue = h.queue[n:]
			if len(h.queue) == 0 {
				// Requests queued while this wave is out go into the
				// array the last wave gave back.
				h.queue, h.free = h.free[:0], nil
			}
		}
	}
	if len(wave) == 0 {
		return false
	}
	g.idle = false
	g.flushing = true
	g.stats.Waves++
	g.stats.Frames += len(wave)
	for _, b := range wave {
		g.stats.Requests += len(b.calls)
	}
	g.mu.Unlock()
	started := 0
	for i := range wave {
		b := &wave[i]
		if b.h.w == nil && b.h.dead == nil {
			b.h.w, b.failed = g.pool.startKept(g.memMiB, groupGCPercent)
			started++
		}
		if b.h.dead == nil && b.failed == nil {
			b.h.w.send(batchFrame(&b.h.frame, b.calls))
		}
	}
	for i := range wave {
		b := &wave[i]
		if b.h.dead == nil && b.failed == nil {
			b.retiring, b.failed = g.collect(b.h, b.calls)
		}
	}
	g.mu.Lock()
	g.started += started
	for _, b := range wave {
		h := b.h
		if b.failed != nil {
			h.dead = b.failed
		}
		h.retiring = h.retiring || b.retiring
		for _, c := range b.calls {
			g.answered(c, h.dead)
		}
		if h.free == nil {
			// The wave's array becomes the next wave's queue. Its
			// capacity is its length (flush caps it), so a split
			// wave's first part never grows into the requests that
			// stayed queued behind it.
			clear(b.calls)
			h.free = b.calls[:0]
		}
		if h.dead != nil || (h.retiring && h.slots == 0) {
			g.drop(h, errors.New("retired"))
		}
	}
	g.flushing = false
	g.cond.Broadcast()
	return true
}

// batch is a wave's requests to one worker.
type batch struct {
	h     *hosted
	calls []*call
	// What the wave found, kept here while the mutex is not held and
	// given to h under it: why its worker failed, and whether it should
	// take no new slots.
	failed   error
	retiring bool
}

// batchFrame encodes a wave's requests to one worker in e.
func batchFrame(e *enc, calls []*call) []byte {
	e.start(kindBatch)
	e.u(uint64(len(calls)))
	for _, c := range calls {
		e.u(c.slot)
		e.bytes(c.body)
	}
	return e.finish()
}

// collect reads a worker's answer to a batch and hands each request its
// answer, and says whether the worker should retire; a worker that fails
// is killed, and collect returns why. It runs without the mutex: it
// changes only h.w, which no one else uses during a wave.
func (g *Group) collect(h *hosted, calls []*call) (retiring bool, failed error) {
	limit := replyBase
	timeout := g.pool.o.CallTimeout
	for _, c := range calls {
		limit += c.limit
		timeout += c.timeout
	}
	kind, body, err := h.w.recv(limit, timeout)
	var cpu int64
	if err == nil {
		cpu, err = readBatch(kind, body, calls, &h.answers)
	}
	if err == nil {
		// A worker lives as long as its key has battles: past half its
		// CPU time (RLIMIT_CPU) it takes no new slots and goes when its
		// last one ends, well before the kernel would stop it.
		return cpu >= int64(g.pool.o.CPUSeconds)*500, nil
	}
	g.pool.discard(h.w)
	if !errors.Is(err, errTimeout) && !errors.Is(err, errMalformed) {
		err = fmt.Errorf("died: %s", h.w.cause())
	}
	h.w = nil
	return false, err
}

// readBatch decodes a batch's answer into its calls, all or nothing;
// answers is room it may reuse.
func readBatch(kind byte, body []byte, calls []*call, answers *[][]byte) (cpu int64, err error) {
	if kind != kindOK {
		return 0, errMalformed
	}
	d := &dec{b: body}
	if n := d.u(); n != uint64(len(calls)) {
		return 0, errMalformed
	}
	as := (*answers)[:0]
	defer func() { clear(as); *answers = as[:0] }() // no frame kept alive
	for _, c := range calls {
		a := d.bytes()
		if len(a) == 0 || len(a) > c.limit {
			return 0, errMalformed
		}
		as = append(as, a)
	}
	cpu = d.i()
	if err := d.end(); err != nil {
		return 0, err
	}
	for i, c := range calls {
		// Into the call's own buffer: the worker's frame is read over
		// by the next wave.
		c.buf = append(c.buf[:0], as[i]...)
		c.kind, c.answer = c.buf[0], c.buf[1:]
	}
	return cpu, nil
}
