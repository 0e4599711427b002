package worker

import (
	"errors"
	"fmt"
	"sync"
	"sync/atomic"
	"time"

	"github.com/squarebattle/squarebattle/luabind"
)

// Group plays the teams of many battles at once behind the wall, for a
// tournament. A Seat alone costs a round trip to its worker per team per
// phase; on a virtual machine that is tens of microseconds of CPU, more
// than a round of small players costs to decide, so a tournament of such
// players behind the wall ran at a tenth of its in-process speed. A Group
// instead has the teams of one player (a key: the player and its place
// among a battle's teams) in several battles live in the same worker
// process, each in a slot with its own Lua state, and sends each worker
// the requests of all those battles in one frame: a wave.
//
// Waves follow the battles: a wave goes out when every battle that joined
// the group is waiting for an answer (or when a waiter has waited
// groupPatience for one that is not coming). The battles then decide
// nothing until the answers are back, and the workers decide everything
// the battles asked at once, on all the machine's cores.
//
// What a team decides depends on its own phase only, so the waves change
// no battle: a battle in a group is the battle alone, byte for byte,
// unless the backstop fires. The wall is the same as a Seat's, per player:
// a worker holds only one key's teams, and when it dies (killed for its
// wall clock, out of memory, crashed) every team it held loses its Lua
// state as after a crash, and each such battle records the backstop event
// for that team: a player's fault costs that player only.
//
// That event is the worker's death, whatever request of the team's met
// it: one in the wave the worker died in (run or not yet run), one queued
// for the next wave while that wave was out, or the team's next request
// after (a team that asked nothing in that wave). All of them get the
// same error, why the worker died (a timeout if it was killed for its
// wall clock, a crash otherwise), and so the same kind and message. Which
// requests make a wave depends on timing (a wave goes out early when the
// group's patience runs out), so anything else would let the kind a
// battle records depend on the machine's speed: a request queued after
// the wave is no more the culprit than one in it that the worker never
// reached, and which request in the wave spun is not known either.
//
// Concurrency: Join, Leave, the seats' calls and Close may come from many
// goroutines; a seat itself is called by one battle at a time.
type Group struct {
	pool   *Pool
	width  int // slots a worker plays at most
	memMiB int // each worker's memory

	mu       sync.Mutex
	cond     *sync.Cond
	current  map[string]*hosted   // key → the worker new slots of that key go to
	active   map[*hosted]struct{} // every worker with slots or requests
	joined   int                  // battles playing
	waiting  int                  // goroutines waiting for an answer
	flushing bool
	closed   bool
	asked    uint64 // requests queued and battles left so far
	idle     bool   // the patience timer found no request queued for a whole period
	nudging  bool   // the patience timer is armed
	started  int    // workers started, for tests
	stats    GroupStats
	// frameCap, when above 0, is the most requests a wave takes of a
	// worker's queue, the rest waiting for the next: tests set it to
	// split what would be one wave, as a slow machine's patience does.
	frameCap int
	wave     []batch // the last wave's array, for the next (flush only)
}

// GroupStats count what a group sent: waves, frames (one per worker per
// wave) and requests. A request per frame is what a Seat alone costs.
type GroupStats struct{ Waves, Frames, Requests int }

// Stats returns what the group has sent so far.
func (g *Group) Stats() GroupStats {
	g.mu.Lock()
	defer g.mu.Unlock()
	return g.stats
}

// groupPatience is how long the waiters wait, when no battle has asked
// anything new, before one of them sends the wave itself: a battle that
// joined but does something else for long (writes its replay, say) must
// not hold up the rest for long. It counts from the last request queued,
// not from the start of a wait: with a hundred battles still deciding one
// after the other, a wait can be long while every battle is busy. (The
// timer checks whether any request came in a whole period, so the wave
// goes out between one and two periods after the last; reading the clock
// at every request cost more.)
const groupPatience = 20 * time.Millisecond

// groupGCPercent is a group worker's GOGC. Such a worker holds the Lua
// states of dozens of battles, and with the default (100) it spent an
// eighth of its time collecting garbage; at 400 it collects a quarter as
// often, and its heap, five times what is live at most, stays far inside
// the memory it is given for all those teams (Pool.Group), which
// GOMEMLIMIT still enforces. In BenchmarkKOTH64Paired, three runs each
// in one loop: 0.65–0.67× of in-process at 100, 0.66–0.79× at 400
// (docs/performance.md).
const groupGCPercent = 400

// Group returns a group of this pool's workers; each of its workers plays
// at most width teams (1 or more), each of which may hold teamMiB of Lua
// memory (limits.memory_mib). A worker of the group gets the pool's
// memory (Options.MemoryMiB) and twice teamMiB more for every team past
// the first, the room the Go heap needs for a Lua state at its budget: a
// player whose teams use what the sandbox lets them in every battle never
// runs out of memory for playing several battles at once, and the worker
// holds no more than that player's teams could in the program's process.
// Close the group when its battles are over.
func (p *Pool) Group(width, teamMiB int) *Group {
	width = min(max(width, 1), maxSlots)
	g := &Group{pool: p, width: width, memMiB: p.o.MemoryMiB + (width-1)*2*max(teamMiB, 0),
		current: map[string]*hosted{}, active: map[*hosted]struct{}{}}
	g.cond = sync.NewCond(&g.mu)
	return g
}

// Join tells the group a battle starts playing; Leave that it ended. A
// wave waits for every joined battle to wait.
func (g *Group) Join() {
	g.mu.Lock()
	g.joined++
	g.mu.Unlock()
}

// Leave is Join's end. It may send a wave the leaving battle held up.
func (g *Group) Leave() {
	g.mu.Lock()
	g.joined--
	g.asked++
	g.idle = false
	g.cond.Broadcast()
	g.mu.Unlock()
}

// Seater returns how the teams of one battle sit in the group: team i on
// a worker of keys[i]. Teams of different keys never share a worker, nor
// do two teams of one battle (give them different keys).
func (g *Group) Seater(keys []string) luabind.Seater {
	return func(o luabind.TeamOptions) (luabind.Seat, error) {
		if o.Index < 0 || o.Index >= len(keys) {
			return nil, fmt.Errorf("worker: team %d has no key in its group", o.Index)
		}
		if o.Entry != "" {
			return nil, errors.New("worker: a group seats SquareBattle teams only")
		}
		s, err := g.pool.Seat(o)
		if err != nil {
			return nil, err
		}
		seat := s.(*Seat)
		seat.grp, seat.key = g, keys[o.Index]
		return seat, nil
	}
}

// Close stops the group's workers. Seats still in use find theirs gone.
func (g *Group) Close() {
	g.mu.Lock()
	defer g.mu.Unlock()
	g.closed = true
	if g.flushing {
		// The wave in flight ends on its own; its workers go with the pool.
		g.cond.Broadcast()
		return
	}
	for h := range g.active {
		g.drop(h, errGroupClosed)
	}
	g.cond.Broadcast()
}

// hosted is one worker process as a group uses it. Its fields are guarded
// by the group's mutex, except w, which only the goroutine sending a wave
// uses while flushing.
type hosted struct {
	key      string
	w        *proc
	dead     error // why the worker is gone: its slots have lost their state
	slots    int   // slots started and not ended
	next     uint64
	held     heldCatalogs // catalogs sent to it
	queue    []*call
	retiring bool // used half its CPU time: no new slots
	// Reused from wave to wave, so that a wave allocates nothing of its
	// own (the program's garbage collector ran behind the waves): free
	// is a queue's array the last wave gave back; frame and answers are
	// used by the flushing goroutine only, like w.
	free    []*call
	frame   enc
	answers [][]byte
}

// call is one request in a wave, and its answer. A seat reuses its call
// and the call's buffers for its next request once it has read the answer
// (Seat.recv): nothing else holds a call by then.
type call struct {
	slot    uint64
	body    []byte // kind and fields
	limit   int
	timeout time.Duration // the request's own share of the wave's bound
	waiting bool          // the seat's goroutine is counted in g.waiting
	// done is set, under the group's mutex, when the call has its answer
	// or its error; the seat's goroutine may read it without the mutex.
	done   atomic.Bool
	kind   byte
	answer []byte // in buf
	buf    []byte
	err    error
}

// reset readies a call for a new request: body is the request's frame.
func (c *call) reset(slot uint64, frame []byte, limit int, timeout time.Duration) {
	c.slot, c.limit, c.timeout, c.waiting = slot, limit, timeout, false
	c.body = append(c.body[:0], frameBody(frame)...)
	c.done.Store(false)
	c.kind, c.answer, c.err = 0, nil, nil
}

// errGroupClosed is a request made of a group that was closed.
var errGroupClosed = errors.New("worker group closed")

// attach gives seat s a slot in a worker of its key, queueing the catalog
// and the start of its team; the start's answer is read with the team's
// first turn.
func (g *Group) attach(s *Seat) error {
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.closed {
		return errGroupClosed
	}
	if h := s.host; h != nil {
		if h.dead == nil {
			return nil
		}
		s.host = nil
		return h.dead // what the team's state was lost to (see Group)
	}
	h := g.current[s.key]
	if h == nil || h.dead != nil || h.retiring || h.slots >= g.width {
		h = &hosted{key: s.key}
		g.current[s.key] = h
		g.active[h] = struct{}{}
	}
	s.host, s.slot = h, h.next
	h.next++
	h.slots++
	s.sent = factsSent{}
	// Compiling the catalog and running the top levels of its files for a
	// new team: what a Seat allows them alone, past the wave's own floor.
	compile := s.timeout(len(s.cat.files)) - g.pool.o.CallTimeout
	if !h.held.has(s.cat.hash) {
		h.held.add(s.cat.hash)
		h.queue = append(h.queue, &call{body: bodyOfFrame(s.cat.frame), limit: replyBase, timeout: compile})
	}
	h.queue = append(h.queue, &call{slot: s.slot, body: bodyOfFrame(s.startFrame()), limit: replyBase, timeout: compile})
	return nil
}

// bodyOfFrame copies a frame's body (without its length).
func bodyOfFrame(frame []byte) []byte {
	return append([]byte(nil), frameBody(frame)...)
}

// queue adds seat s's request (a frame enc.finish made) to the next wave,
// in c (a call of the seat's that is not in use).
func (g *Group) queue(s *Seat, c *call, frame []byte, limit int, timeout time.Duration) {
	c.reset(s.slot, frame, limit, timeout)
	g.mu.Lock()
	defer g.mu.Unlock()
	h := s.host
	if h == nil || h.dead != nil || g.closed {
		// The team's worker is gone: the request fails as the ones in
		// the wave it died in did (see Group).
		c.err = errGroupClosed
		if h != nil && h.dead != nil {
			c.err = h.dead
		}
		c.done.Store(true)
		return
	}
	h.queue = append(h.queue, c)
	g.asked++
	g.idle = false
}

// forget queues the end of seat s's team, without waiting for it.
func (g *Group) forget(s *Seat) {
	g.mu.Lock()
	defer g.mu.Unlock()
	h := s.host
	s.host = nil
	if h == nil {
		return
	}
	h.slots--
	if h.dead == nil && !g.closed {
		var e enc
		e.start(kindEnd)
		h.queue = append(h.queue, &call{slot: s.slot, body: bodyOfFrame(e.finish()), limit: replyBase})
	}
}

// await waits for c's answer, sending waves as the battles come to wait.
// A battle reads its teams' answers one after the other, and after a wave
// all of them are in: those it reads without the mutex.
func (g *Group) await(c *call) (byte, []byte, error) {
	if c.done.Load() {
		return c.kind, c.answer, c.err
	}
	g.mu.Lock()
	if !c.done.Load() {
		c.waiting = true
		g.waiting++
	}
	for !c.done.Load() {
		if !g.flushing && (g.waiting >= g.joined || g.idle) && g.flush() {
			continue
		}
		g.waitAWhile()
	}
	g.mu.Unlock()
	return c.kind, c.answer, c.err
}

// waitAWhile waits on the group's condition, which is signalled when a
// wave comes back, a battle leaves, or when a period of groupPatience
// passed with no request queued: one timer for all the waiters, armed
// when none is. Called with the mutex held.
func (g *Group) waitAWhile() {
	if !g.nudging {
		g.nudging = true
		asked := g.asked
		time.AfterFunc(groupPatience, func() {
			g.mu.Lock()
			g.nudging = false
			g.idle = g.asked == asked
			g.cond.Broadcast()
			g.mu.Unlock()
		})
	}
	g.cond.Wait()
}

// answered marks c answered (with err, if not nil) and no longer counts
// its waiter. Called with the mutex held. Once done is set the call is
// its seat's again (it may read it and reuse it without the mutex), so
// that is the last thing done to it here.
func (g *Group) answered(c *call, err error) {
	if err != nil {
		c.err = err
	}
	if c.waiting {
		c.waiting = false
		g.waiting--
	}
	c.done.Store(true)
}

// drop takes worker h out of the group: requests queued for it since the
// wave went out fail as its slots' state is lost, with the error the
// wave's own requests got (see Group). why is what it is dropped for
// when it is still alive. Called with the mutex held.
func (g *Group) drop(h *hosted, why error) {
	if h.dead == nil {
		h.dead = why
	}
	if g.current[h.key] == h {
		delete(g.current, h.key)
	}
	delete(g.active, h)
	for _, c := range h.queue {
		g.answered(c, h.dead)
	}
	h.queue = nil
	if h.w != nil {
		w := h.w
		h.w = nil
		go g.pool.discard(w)
	}
}
