package tui

import "time"

// What the UI asks of the driver: the commands it queues, and how the
// driver carries them out between rounds (pause, step, seek, save). Apart
// from driver.go, which plays the battle and keeps its time.

type commandKind int

const (
	cmdPause   commandKind = iota // toggle pause; in the past, play on from there
	cmdStep                       // n rounds forward, pausing first; at the live round of a paused battle, play one
	cmdBack                       // n rounds back, pausing first
	cmdSeek                       // to round n (clamped); n < 0 is the live round; past it, fast-forward a live battle
	cmdRestart                    // a replay: from its first round again, playing
	cmdSpeed                      // set the target speed to n
	cmdSave                       // write the battle so far to a replay file in the save folder
	cmdStop                       // end the goroutine
)

type command struct {
	kind commandKind
	n    int
}

// handle carries out one command; false means stop.
func (d *driver) handle(c command) bool {
	now := time.Now()
	switch c.kind {
	case cmdStop:
		if d.battle != nil && d.record != "" && !d.ended {
			d.stopErr = d.writeReplay(d.record)
		}
		return false
	case cmdPause:
		switch {
		case !d.paused:
			d.setPaused(true, now)
		case d.canAdvance():
			d.setPaused(false, now)
		}
		d.resume = false
	case cmdStep:
		d.pauseForView(now, false)
		switch {
		case !d.live():
			d.moveTo(d.at+max(c.n, 1), now)
		case c.n <= 1 && !d.over():
			d.advance(true)
			return true
		}
	case cmdBack:
		d.pauseForView(now, true)
		d.at = max(d.tl.First(), d.at-max(c.n, 1))
	case cmdSeek:
		to := c.n
		if to < 0 {
			to = d.tl.Last()
		}
		switch {
		case to > d.tl.Last() && !d.over():
			d.at, d.resume = d.tl.Last(), false
			d.setPaused(false, now)
			d.until = to
		case to >= d.tl.Last():
			d.moveTo(d.tl.Last(), now)
		default:
			d.pauseForView(now, to < d.at)
			d.at = max(d.tl.First(), to)
		}
	case cmdRestart:
		d.at, d.resume = d.tl.First(), false
		d.setPaused(false, now)
	case cmdSpeed:
		d.speed = c.n
		d.rateRounds, d.rateFrom = 0, now
	case cmdSave:
		d.save()
	}
	d.publish(now)
	return true
}

// pauseForView pauses before the view moves by hand. Stepping back from a
// running battle remembers to run it again once the view is back at the
// live round; a step forward that pauses it does not.
func (d *driver) pauseForView(now time.Time, back bool) {
	if !d.paused {
		d.resume = back && d.battle != nil && !d.over()
		d.setPaused(true, now)
	}
	d.until = 0
}

// moveTo moves the view forward to round r (at most the live round); at
// the live round a battle that was running before the rewind runs again.
func (d *driver) moveTo(r int, now time.Time) {
	d.at = min(r, d.tl.Last())
	if d.live() && d.resume {
		d.resume = false
		d.setPaused(false, now)
	}
}
