package tui

import (
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"sync/atomic"
	"time"

	"github.com/squarebattle/squarebattle/engine"
	"github.com/squarebattle/squarebattle/engine/replay"
)

// driver owns a battle, or a replay, on its own goroutine. It keeps a
// timeline of the rounds played and a cursor on it: the round on view.
// Playing moves the cursor forward at the target speed; at the newest
// round of a live battle it plays the next round. Stepping back moves only
// the cursor: the battle waits where it was. It ends a battle at the time
// limit and publishes a frame at most twice per frame interval (and after
// every change the user asked for).
//
// A live battle's rounds also go into its replay, compressed in memory from
// the first round (on the replayStream's goroutine), so the whole battle can
// be saved however far back the rewind buffer reaches.
//
// Concurrency: only the driver goroutine touches the battle, the timeline
// and the fields below the line; other goroutines use send, latest and
// stop (which reads stopErr after the goroutine is done).
type driver struct {
	cmds  chan command
	done  chan struct{}
	frame atomic.Pointer[frame]

	// boxes are the viewers' mailboxes: every frame published is put in
	// each, without waiting (see mailbox). mu guards the set only.
	mu        sync.Mutex
	boxes     map[*mailbox]struct{}
	closeOnce sync.Once
	// onEnd, when set before the goroutine starts, is called on the
	// driver goroutine once the battle ends (not when it is stopped). It
	// must not block and must not call the driver's methods.
	onEnd func()

	// ---- driver goroutine only ----
	battle Battle // nil for a replay
	tl     *engine.Timeline
	at     int // round on view
	// resume: the battle was running when the user stepped back, so it
	// runs again when the view comes back to the live round.
	resume bool
	until  int // fast-forward up to this round, then pause (0: none)
	keep   int // rounds of rewind kept

	rec     *engine.Recorder
	stream  *replayStream // the battle's replay, in memory
	seed    uint64
	record  string // file the battle is written to when it ends or stops; "" none
	hideDir bool   // messages name record without its folder
	saveDir string // the folder save writes to ("" the current one)
	ended   bool   // the battle ended and its replay is complete
	stopErr error  // writing record when stopped
	timeUp  bool
	msg     string
	msgSeq  uint64

	every      time.Duration // the frame interval: the UI draws once per interval
	speed      int
	paused     bool
	limit      time.Duration
	used       time.Duration // running time before runningAt
	runningAt  time.Time
	published  time.Time
	logs       [][]string // the teams' logs as last copied (Logger), and
	logsAt     int        // the live round then (a replay's: the round shown)
	seq        uint64
	rate       float64
	rateRounds int
	rateFrom   time.Time
}

// pace is how a driver plays: speed (rounds per second, 0 unthrottled),
// frame cap, time limit, and whether it starts paused.
type pace struct {
	speed, fps int
	limit      time.Duration
	paused     bool
}

func newDriver(p pace) *driver {
	if p.fps < 1 {
		p.fps = 30
	}
	now := time.Now()
	return &driver{
		cmds:      make(chan command, 16),
		done:      make(chan struct{}),
		every:     time.Second / time.Duration(p.fps),
		speed:     p.speed,
		paused:    p.paused,
		limit:     p.limit,
		runningAt: now,
		rateFrom:  now,
	}
}

// startLive drives a battle, keeping keep rounds for rewinding (<0: none
// beyond a keyframe stretch) and writing its replay to record, when set,
// once it ends or is stopped; w saves into the folder saveDir ("" the
// current folder).
func startLive(b Battle, p pace, keep int, record, saveDir string) (*driver, error) {
	d, err := prepareLive(b, p, keep, record)
	if err != nil {
		return nil, err
	}
	d.saveDir = saveDir
	go d.loop()
	return d, nil
}

// prepareLive is startLive without starting the goroutine: the caller may
// set onEnd and hideDir first, then calls go d.loop().
func prepareLive(b Battle, p pace, keep int, record string) (*driver, error) {
	d := newDriver(p)
	d.battle, d.record, d.keep = b, record, max(keep, 0)
	s := b.Snapshot()
	d.seed = s.Seed
	d.tl = engine.NewTimeline(s, keyframeEvery(s.Size, d.keep))
	d.rec = b.Recorder()
	stream, err := newReplayStream(b.Header(), s)
	if err != nil {
		return nil, err
	}
	d.stream = stream
	d.publish(time.Now())
	return d, nil
}

// startReplay drives a recorded battle from its first round. The driver
// owns tl from now on.
func startReplay(tl *engine.Timeline, p pace) *driver {
	d := newDriver(p)
	d.limit = 0
	d.tl, d.at = tl, tl.First()
	d.publish(time.Now())
	go d.loop()
	return d
}

// keyframeEvery spaces the rewind buffer's keyframes so that they hold
// about 32 MB however large the arena, and never closer than the engine's
// default: a seek rebuilds at most that many rounds, which even on the
// largest arenas takes a few milliseconds.
func keyframeEvery(size, keep int) int {
	const budget = 32 << 20
	perKey := size * size * 4
	return max(engine.DefaultKeyframeEvery, keep*perKey/budget+1)
}

// subscribe adds a viewer's mailbox and puts the newest frame in it.
func (d *driver) subscribe(m *mailbox) {
	d.mu.Lock()
	if d.boxes == nil {
		d.boxes = map[*mailbox]struct{}{}
	}
	d.boxes[m] = struct{}{}
	d.mu.Unlock()
	m.put(d.latest())
}

// unsubscribe removes a viewer's mailbox; the driver puts nothing more in
// it.
func (d *driver) unsubscribe(m *mailbox) {
	d.mu.Lock()
	delete(d.boxes, m)
	d.mu.Unlock()
}

// stopped reports whether the driver's goroutine ended.
func (d *driver) stopped() bool {
	select {
	case <-d.done:
		return true
	default:
		return false
	}
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

// stop ends the goroutine, waits for it and closes the battle. It returns
// the error of writing the --record file of a battle stopped before its
// end, if any.
//
// It may be called more than once and from several goroutines (a hall
// stops a battle its owner is leaving at the same time): the battle is
// closed once, and every call returns the same error.
func (d *driver) stop() error {
	d.send(command{kind: cmdStop})
	<-d.done
	d.closeOnce.Do(func() {
		if d.battle != nil {
			d.battle.Close()
		}
	})
	return d.stopErr
}

func (d *driver) loop() {
	defer close(d.done)
	if d.stream != nil {
		defer d.stream.close()
	}
	timer := time.NewTimer(time.Hour)
	defer timer.Stop()
	next := time.Now()
	for {
		if d.paused || !d.canAdvance() {
			if !d.handle(<-d.cmds) {
				return
			}
			next = time.Now()
			continue
		}
		if speed := d.speed; speed == 0 || d.until > 0 {
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
			period := time.Second / time.Duration(speed)
			next = next.Add(period)
			if now := time.Now(); next.Before(now.Add(-period)) {
				next = now // fell behind: do not race to catch up
			}
		}
		d.advance(false)
	}
}

// live reports whether the view is on the newest round.
func (d *driver) live() bool { return d.at >= d.tl.Last() }

// over reports whether the battle (or replay) has nothing more to play at
// its newest round.
func (d *driver) over() bool { return d.battle == nil || d.battle.Over() }

// canAdvance reports whether playing on would show another round.
func (d *driver) canAdvance() bool { return !d.live() || !d.over() }

func (d *driver) setPaused(p bool, now time.Time) {
	if p == d.paused {
		return
	}
	if p {
		d.used += now.Sub(d.runningAt)
		d.until = 0
	} else {
		d.runningAt = now
	}
	d.paused = p
	d.rateRounds, d.rateFrom, d.rate = 0, now, 0
}

// advance shows the next round: a recorded one while the view is in the
// past, otherwise the battle plays one (or ends at the time limit). It
// publishes when a frame is due.
func (d *driver) advance(force bool) {
	now := time.Now()
	switch {
	case d.battle != nil && d.limit > 0 && !d.paused && !d.battle.Over() && d.left(now) <= 0:
		d.battle.End()
		d.timeUp = true
		d.finish()
		d.at = d.tl.Last() // show how it ended
		force = true
	case !d.live():
		d.at++
		d.rateRounds++
	case !d.over():
		if d.playRound() {
			d.rateRounds++
		}
	}
	if d.until > 0 && d.at >= d.until {
		d.setPaused(true, now)
		force = true
	}
	if el := now.Sub(d.rateFrom); el >= 500*time.Millisecond {
		d.rate = float64(d.rateRounds) / el.Seconds()
		d.rateRounds, d.rateFrom = 0, now
	}
	// The end of a battle is always shown, however fast it came. Otherwise
	// a frame is published once half a frame interval has passed: the UI
	// draws on its own clock, one frame an interval, and publishing only
	// once a whole interval had passed left some of its ticks with nothing
	// new (rounds paced at the frame rate lost a third of their frames;
	// unthrottled, a frame in fifty).
	if force || (d.live() && d.over()) || now.Sub(d.published) >= d.every/2 {
		d.publish(now)
	}
}

// playRound plays one round of the live battle and records it.
func (d *driver) playRound() bool {
	if !d.battle.Step() {
		return false
	}
	l := d.rec.Next()
	if err := d.tl.Add(l); err != nil {
		// The recorder and the timeline disagree: a bug, not the user's.
		// The battle goes on; the rewind shows no more rounds.
		d.note(fmt.Sprintf("rewind stopped: %v", err))
	}
	d.tl.Trim(d.keep)
	d.stream.round(&l)
	d.at = d.tl.Last()
	if d.battle.Over() {
		d.finish()
	}
	return true
}

// finish completes the timeline and the replay of a battle that ended,
// and writes the --record file.
func (d *driver) finish() {
	if d.ended {
		return
	}
	d.until = 0
	final := d.battle.Snapshot()
	reason := replay.EndReason(final)
	if final.Marks != nil { // a rule mod: its rules may name the winner
		d.tl.EndWinner(final.Winner)
		if f, ok := d.battle.(interface{ Err() error }); ok && f.Err() != nil {
			reason = "rules failed"
		}
	} else {
		d.tl.End()
	}
	if d.timeUp {
		reason = "time limit"
	}
	d.stream.end(final, reason)
	d.ended = true
	if d.record != "" {
		if err := d.writeReplay(d.record); err != nil {
			d.note(err.Error())
		} else {
			d.note("recorded to " + d.showRecord())
		}
	}
	if d.onEnd != nil {
		d.onEnd()
	}
}

// showRecord is how messages name the record file: its base name when the
// driver was told to hide its folder (a server's data dir).
func (d *driver) showRecord() string {
	if d.hideDir {
		return filepath.Base(d.record)
	}
	return d.record
}

// save writes the battle so far into the save folder, made when missing,
// under a name that says which battle and how far:
// battle-SEED-ROUND.sbr (the folder says whose), and says the whole path
// it wrote.
func (d *driver) save() {
	if d.battle == nil {
		return
	}
	dir := d.saveDir
	if dir == "" {
		dir = "."
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		d.note("replay folder (tui.replays): " + err.Error())
		return
	}
	name := filepath.Join(dir, fmt.Sprintf("battle-%d-%d.sbr", d.seed, d.tl.Last()))
	if abs, err := filepath.Abs(name); err == nil {
		name = abs
	}
	if err := d.writeReplay(name); err != nil {
		d.note(err.Error())
		return
	}
	what := "saved " + name
	if !d.ended {
		what += fmt.Sprintf(" (unfinished, %d rounds)", d.tl.Last())
	}
	d.note(what)
}

// writeReplay writes the replay so far to a file: complete when the
// battle ended, otherwise the rounds so far without a result.
func (d *driver) writeReplay(name string) error { return d.stream.write(name) }

func (d *driver) note(msg string) { d.msg, d.msgSeq = msg, d.msgSeq+1 }

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
