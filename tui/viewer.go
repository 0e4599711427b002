package tui

import (
	"github.com/squarebattle/squarebattle/engine/replay"
)

// viewer is one session's view onto a battle or a replay: everything that
// is the viewer's own (pan, fit, overlays, the frame on screen, the round
// being typed), apart from the battle's driver, which it may share with
// other sessions' viewers. The driver puts every frame it publishes in
// the viewer's mailbox; the session draws the newest one at its own pace.
//
// Concurrency: a viewer belongs to its session's goroutine.
type viewer struct {
	d   *driver
	b   *liveBattle // the hall's battle watched; nil for a local battle or a replay
	box *mailbox
	// control: the viewer may pause, step, rewind and change the speed
	// (a local battle, a replay, the owner's private battle). A spectator
	// of a shared battle may not: all its viewers see the same round.
	control bool
	// own: leaving stops the driver (the session's own battle or replay).
	own bool
	// follow: a viewer of the featured battle moves on to the next one.
	follow bool
	rep    *replay.Replay // the recording shown; nil for a live battle
	setup  Setup          // the battle's setup, for r and n

	colours   []int
	view      arenaView
	over      overlay
	pane      pane   // the errors-and-log pane's tab, cursor and scroll
	shown     uint64 // seq of the frame on screen
	msgSeq    uint64 // the driver's last message shown
	last      *frame // frame last drawn
	typing    string // digits of a round typed after g
	prompting bool   // the g prompt is open
	// confirm is the question the status bar asks before q quits a
	// running battle or Esc leaves an unsaved one (actQuit or
	// actBack2Lobby); actNone when none is asked.
	confirm action
	// touched is what the last key changed (the speed after + or -): the
	// status bar keeps it whatever else it drops.
	touched item
	saved   bool // w was pressed: the battle so far is in a file
	gone    bool // the battle was stopped under this viewer
	// human is the team played at the keys of a local battle; nil none.
	human *humanSide
}

// newViewer subscribes a fresh view to d.
func newViewer(d *driver, colours []int) *viewer {
	v := &viewer{d: d, box: newMailbox(), colours: colours, view: arenaView{fit: true}}
	d.subscribe(v.box)
	return v
}

// defaultColours gives teams the palette in order.
func defaultColours(teams int) []int {
	c := make([]int, teams)
	for i := range c {
		c[i] = i % len(palette)
	}
	return c
}

// replaying reports whether the session shows a recording.
func (a *App) replaying() bool { return a.w != nil && a.w.rep != nil }

// show puts v on screen, leaving what was there.
func (a *App) attach(v *viewer) {
	a.leave()
	a.w = v
	a.screen, a.note = battleScreen, ""
	a.dirty = true
}

// leave stops viewing: the mailbox is dropped, and a battle or replay the
// session owns is stopped (a hall battle through the hall, which frees its
// slot and saves it).
func (a *App) leave() {
	v := a.w
	if v == nil {
		return
	}
	a.w = nil
	a.unshare()
	v.d.unsubscribe(v.box)
	if v.b != nil {
		if n := a.hall.leave(v.b, v.own); n > 0 {
			a.leftNote(v.b, n)
		}
		return
	}
	if !v.own {
		return
	}
	if v.rep == nil {
		a.stats.Rounds += v.d.latest().live
	}
	if err := v.d.stop(); err != nil && a.err == nil {
		a.err = err
	}
}

// start begins a battle and shows the battle screen: the session's own
// driver locally, a private battle in the hall otherwise (which may have
// to wait in the queue).
func (a *App) start(su Setup) error {
	if a.hall != nil {
		return a.startPrivate(su)
	}
	b, err := a.o.Source.NewBattle(su)
	if err != nil {
		a.lobby.message = err.Error()
		return nil
	}
	colours := a.teamColours(len(su.Players))
	a.leave()
	keep := a.o.Settings.Rewind
	if keep == 0 {
		keep = DefaultRewind
	}
	record := ""
	if a.o.Record != "" {
		a.battles++
		record = numbered(a.o.Record, a.battles)
	}
	p := a.pace()
	hs := humanSideOf(b)
	if hs != nil {
		p = humanPace(a.o.Settings, p, hs)
	}
	d, err := startLive(b, p, keep, record, a.o.Replays)
	if err != nil {
		b.Close()
		a.lobby.message = err.Error()
		return nil
	}
	v := newViewer(d, colours)
	v.control, v.own, v.setup, v.human = true, true, su, hs
	a.attach(v)
	return nil
}

// teamColours are the colours of a new battle's teams: those the lobby
// gave them, or those of the battle on view when it is the same teams
// again (r and n keep them).
func (a *App) teamColours(teams int) []int {
	if a.w != nil && len(a.w.colours) == teams && a.screen == battleScreen {
		return a.w.colours
	}
	c := defaultColours(teams)
	for i := range c {
		if i < len(a.lobby.teams) {
			c[i] = a.lobby.teams[i].colour
		}
	}
	return c
}

// watchReplay shows a recording, the session's own.
func (a *App) watchReplay(rep *replay.Replay) {
	d := startReplay(rep.Timeline, a.pace())
	v := newViewer(d, defaultColours(len(rep.Header.Players)))
	v.control, v.own, v.rep = true, true, rep
	a.attach(v)
}

func (a *App) pace() pace {
	return pace{speed: a.lobby.set.Speed, fps: a.o.Settings.FPS, limit: a.lobby.set.TimeLimit, paused: a.o.Paused}
}
