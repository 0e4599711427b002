package tui

import (
	"sync/atomic"
	"time"

	"github.com/squarebattle/squarebattle/engine"
)

// frame is what the driver publishes for the UI: an immutable snapshot and
// the figures around it. The UI may keep a frame as long as it likes.
type frame struct {
	snap *engine.Snapshot
	// squares[t][r] is team t's square count after round r+1. The driver
	// only ever appends past the published length, so sharing the backing
	// arrays is safe.
	squares [][]int32
	speed   float64       // measured rounds per second (0 while paused)
	target  int           // target rounds per second, 0 = unthrottled
	left    time.Duration // time left on the limit; <0 when there is none
	paused  bool
	seq     uint64
}

type commandKind int

const (
	cmdPause commandKind = iota // toggle pause
	cmdStep                     // one round, when paused
	cmdSpeed                    // set the target speed to n
	cmdStop                     // end the goroutine
)

type command struct {
	kind commandKind
	n    int
}

// driver owns a battle on its own goroutine: it steps it at the target
// speed, ends it at the time limit and publishes a frame at most once per
// frame interval (and after every change the user asked for).
//
// Concurrency: only the driver goroutine touches the battle and the fields
// below the line; other goroutines use send, latest and stop.
type driver struct {
	battle Battle
	cmds   chan command
	done   chan struct{}
	frame  atomic.Pointer[frame]

	// ---- driver goroutine only ----
	every      time.Duration // minimum time between published frames
	speed      int
	paused     bool
	limit      time.Duration
	used       time.Duration // running time before runningAt
	runningAt  time.Time
	published  time.Time
	seq        uint64
	history    [][]int32
	rate       float64
	rateRounds int
	rateFrom   time.Time
}

func startDriver(b Battle, speed, fps int, limit time.Duration, paused bool) *driver {
	if fps < 1 {
		fps = 30
	}
	now := time.Now()
	d := &driver{
		battle:    b,
		cmds:      make(chan command, 16),
		done:      make(chan struct{}),
		every:     time.Second / time.Duration(fps),
		speed:     speed,
		paused:    paused,
		limit:     limit,
		runningAt: now,
		rateFrom:  now,
	}
	s := b.Snapshot()
	d.history = make([][]int32, len(s.Teams))
	d.publishSnap(s, now)
	go d.loop()
	return d
}

// latest returns the newest frame.
func (d *driver) latest() *frame { return d.frame.Load() }

// send queues a command; it never blocks the UI for long because the driver
// drains its queue between rounds.
func (d *driver) send(c command) {
	select {
	case d.cmds <- c:
	case <-d.done:
	}
}

// stop ends the goroutine, waits for it and closes the battle.
func (d *driver) stop() {
	d.send(command{kind: cmdStop})
	<-d.done
	d.battle.Close()
}

func (d *driver) loop() {
	defer close(d.done)
	timer := time.NewTimer(time.Hour)
	defer timer.Stop()
	next := time.Now()
	for {
		if d.paused || d.over() {
			if !d.handle(<-d.cmds) {
				return
			}
			next = time.Now()
			continue
		}
		if d.speed == 0 {
			select {
			case c := <-d.cmds:
				if !d.handle(c) {
					return
				}
				continue
			default:
			}
		} else {
			wait := time.Until(next)
			if left := d.left(time.Now()); d.limit > 0 && left < wait {
				wait = left
			}
			if wait > 0 {
				timer.Reset(wait)
				select {
				case c := <-d.cmds:
					if !timer.Stop() {
						<-timer.C
					}
					if !d.handle(c) {
						return
					}
					continue
				case <-timer.C:
				}
			}
			period := time.Second / time.Duration(d.speed)
			next = next.Add(period)
			if now := time.Now(); next.Before(now.Add(-period)) {
				next = now // fell behind: do not race to catch up
			}
		}
		d.step(false)
	}
}

func (d *driver) over() bool { return d.battle.Over() }

// handle carries out one command; false means stop.
func (d *driver) handle(c command) bool {
	now := time.Now()
	switch c.kind {
	case cmdStop:
		return false
	case cmdPause:
		if d.over() {
			return true
		}
		if d.paused {
			d.runningAt = now
		} else {
			d.used += now.Sub(d.runningAt)
		}
		d.paused = !d.paused
		d.rateRounds, d.rateFrom, d.rate = 0, now, 0
	case cmdStep:
		if d.paused && !d.over() {
			d.step(true)
			return true
		}
	case cmdSpeed:
		d.speed = c.n
		d.rateRounds, d.rateFrom = 0, now
	}
	d.publish(now)
	return true
}

// step plays one round (or ends the battle at the time limit) and publishes
// when a frame is due.
func (d *driver) step(force bool) {
	now := time.Now()
	if d.limit > 0 && !d.paused && d.left(now) <= 0 {
		d.battle.End()
		d.publish(now)
		return
	}
	if d.battle.Step() {
		for t := range d.history {
			d.history[t] = append(d.history[t], int32(d.battle.Stats(t).Squares))
		}
		d.rateRounds++
	}
	if el := now.Sub(d.rateFrom); el >= 500*time.Millisecond {
		d.rate = float64(d.rateRounds) / el.Seconds()
		d.rateRounds, d.rateFrom = 0, now
	}
	// The end of a battle is always shown, however fast it came.
	if force || d.battle.Over() || now.Sub(d.published) >= d.every {
		d.publish(now)
	}
}

// left is the time left on the limit at now.
func (d *driver) left(now time.Time) time.Duration {
	if d.limit <= 0 {
		return -1
	}
	used := d.used
	if !d.paused {
		used += now.Sub(d.runningAt)
	}
	return max(d.limit-used, 0)
}

func (d *driver) publish(now time.Time) { d.publishSnap(d.battle.Snapshot(), now) }

func (d *driver) publishSnap(s *engine.Snapshot, now time.Time) {
	d.seq++
	f := &frame{snap: s, speed: d.rate, target: d.speed, left: d.left(now), paused: d.paused, seq: d.seq}
	if d.paused || s.Over {
		f.speed = 0
	}
	f.squares = make([][]int32, len(d.history))
	for t, h := range d.history {
		f.squares[t] = h[:len(h):len(h)]
	}
	d.published = now
	d.frame.Store(f)
}
