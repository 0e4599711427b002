package tui

import (
	"time"

	"github.com/squarebattle/squarebattle/engine"
	"github.com/squarebattle/squarebattle/engine/bot"
)

// What the driver hands the UI: the frame it publishes after a round or a
// command, and how it builds one. Apart from driver.go, which plays the
// battle, because this is the only part viewers see of it.

// frame is what the driver publishes for the UI: an immutable snapshot and
// the figures around it. The UI may keep a frame as long as it likes.
type frame struct {
	snap *engine.Snapshot
	// squares[t][r] is team t's square count after round r, for r from 0
	// to snap.Round. The timeline only ever appends past the published
	// length, so sharing the backing arrays is safe.
	squares [][]int32
	live    int           // the newest round: played in a live battle, recorded in a replay
	first   int           // the oldest round that can still be shown
	past    bool          // a live battle is showing an earlier round than live (rewinding)
	end     bool          // nothing more to play: the battle is over, or a replay shows its last round
	speed   float64       // measured rounds per second (0 while paused)
	target  int           // target rounds per second, 0 = unthrottled
	left    time.Duration // time left on the limit; <0 when there is none
	paused  bool
	timeUp  bool // the time limit ended the battle
	seq     uint64
	// msg is news for the status bar (a file saved or not); msgSeq counts
	// messages, so the UI shows each once.
	msg    string
	msgSeq uint64
	// logs[t] is what team t's scripts printed, newest last (a live
	// battle whose Battle is a Logger; nil otherwise). A copy: the frame's own.
	logs [][]string
	// trips[t] is bot team t's last round trip (Timed), nil for the
	// others; nil for a battle without bots and for a replay.
	trips []*bot.RoundTrip
}

// replayLogLines is how many of each team's printed lines a replay's log
// pane shows, as many as a live team keeps.
const replayLogLines = 200

// publish shows the round on view: the live battle's own snapshot at the
// live round, otherwise the picture the timeline rebuilds.
func (d *driver) publish(now time.Time) {
	var s *engine.Snapshot
	if d.battle != nil && d.live() {
		s = d.battle.Snapshot()
	} else {
		s = d.tl.At(d.at)
	}
	d.seq++
	f := &frame{snap: s, speed: d.rate, target: d.speed, left: d.left(now), paused: d.paused, seq: d.seq,
		live: d.tl.Last(), first: d.tl.First(), past: d.battle != nil && !d.live(), end: d.live() && d.over(),
		timeUp: d.timeUp, msg: d.msg, msgSeq: d.msgSeq}
	if d.paused || f.end {
		f.speed = 0
	}
	f.squares = make([][]int32, len(s.Teams))
	for t := range f.squares {
		sq := d.tl.Squares(t)
		n := min(s.Round+1, len(sq)) // shorter only if the timeline refused a round
		f.squares[t] = sq[:n:n]
	}
	if l, ok := d.battle.(Logger); ok {
		// the logs change only when rounds are played: copy them then
		if d.logs == nil || d.logsAt != f.live {
			d.logs, d.logsAt = l.Logs(), f.live
		}
		f.logs = d.logs
	} else if d.battle == nil {
		// a replay: what its rounds carry, up to the round shown
		if d.logs == nil || d.logsAt != s.Round {
			d.logs, d.logsAt = d.tl.PrintedLogs(s.Round, len(s.Teams), replayLogLines), s.Round
		}
		f.logs = d.logs
	}
	if t, ok := d.battle.(Timed); ok && d.live() {
		f.trips = t.RoundTrips()
	}
	d.published = now
	d.frame.Store(f)
	d.mu.Lock()
	for m := range d.boxes {
		m.put(f)
	}
	d.mu.Unlock()
}
