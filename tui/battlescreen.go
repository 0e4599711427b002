package tui

import (
	"fmt"
	"time"

	"github.com/squarebattle/squarebattle/engine"
)

// The battle screen: the arena, the team table, the status bar and what
// covers them.

// battleLayout places the arena, the team table and the status bar.
type battleLayout struct {
	arena, table rect
	status       int  // status bar row
	human        rect // the human's line (a battle with a human); zero otherwise
}

// layout: with room, the table sits right of the arena; otherwise under it.
func (a *App) layout() battleLayout {
	w, h := a.s.Size()
	var snap *engine.Snapshot
	if a.w != nil && a.w.last != nil {
		snap = a.w.last.snap
	}
	l := layoutFor(w, h, snap)
	if a.w != nil && a.w.human != nil {
		l, l.human = humanLayout(l)
	}
	return l
}

// layoutFor is the battle screen's layout on a w×h screen for snap (nil:
// before the first frame).
func layoutFor(w, h int, snap *engine.Snapshot) battleLayout {
	teams := 1
	rows := 2
	if snap != nil {
		teams = len(snap.Teams)
		rows = tableRows(snap)
	}
	l := battleLayout{status: h - 1}
	const side = tableMinW + 14
	if w >= 2*side-10 {
		// Beside the arena: wider than its least when the names need it,
		// up to half the screen.
		side := side
		if snap != nil {
			side = max(side, min(tableWidth(snap), w/2))
		}
		l.table = rect{w - side, 0, side, h - 1}
		l.arena = rect{0, 0, w - side - 1, h - 1}
		return l
	}
	th := min(rows, max((h-1)/2, 1+teams))
	th = min(th, h-1-3)
	l.arena = rect{0, 0, w, h - 1 - th}
	l.table = rect{0, h - 1 - th, w, th}
	return l
}

// drawBoard paints what is above the status bar: the arena, the team
// table and the bar between them. It reads only its arguments, so the
// viewers of one battle can share what it paints (share.go).
func drawBoard(c canvas, th theme, colours []int, view *arenaView, f *frame, l battleLayout) {
	view.draw(c, th, colours, f.snap, l.arena)
	if l.table.x > 0 {
		for y := 0; y < l.table.h; y++ {
			c.s.Put(l.table.x-1, y, c.g.bar, th.dim())
		}
	}
	drawTeams(c, th, colours, f.snap, f.squares, f.trips, l.table)
}

func (a *App) drawBattle(w, h int) {
	v := a.w
	f := v.d.latest()
	v.last, v.shown = f, f.seq
	if f.msgSeq != v.msgSeq {
		v.msgSeq = f.msgSeq
		a.note, a.noteTil = f.msg, time.Now().Add(4*time.Second)
	}
	l := a.layout()
	var sd *sharedDraw
	// The owner of a battle with a human sees its own line and cursor:
	// never the picture the spectators share.
	if v.over == noOverlay && !f.snap.Over && !(f.end && a.replaying()) && v.human == nil {
		sd = a.drawShared(f, l, w, h)
	}
	if sd == nil {
		a.unshare()
		drawBoard(a.c, a.th, v.colours, &v.view, f, l)
	} else {
		f, v.last = sd.f, sd.f
	}
	if v.human != nil && sd == nil {
		a.drawHuman(f, l, l.human, w, h)
	}
	if sd != nil {
		a.sendShared(sd, a.statusOf(f), w, l.status)
		a.sent = true
		return
	}
	drawStatus(a.c, a.th, a.statusOf(f), l.status, w)
	switch {
	case v.over == helpOverlay:
		a.helpCut = helpBox(a.c, a.th, a.keys(), &a.helpTop, w, h)
	case v.over == errorsOverlay:
		a.drawPane(f, w, h)
	case f.snap.Over:
		title, lines := victoryLines(f.snap, a.timeUp(f), min(w-8, 70), a.th, a.victoryHint())
		drawBox(a.c, title, lines, w, h)
	case f.end && a.replaying():
		title, lines := recordingEndLines(f.snap, a.damage(), min(w-8, 70), a.th)
		drawBox(a.c, title, lines, w, h)
	}
}

// timeUp reports whether the interactive time limit ended the battle.
func (a *App) timeUp(f *frame) bool {
	if a.replaying() {
		return a.w.rep.Result != nil && a.w.rep.Result.Reason == "time limit"
	}
	return f.timeUp
}

// damage is the replay's one-line damage report, or "".
func (a *App) damage() string {
	if a.replaying() && a.w.rep.Damage != nil {
		return a.w.rep.Damage.Error()
	}
	return ""
}

func (a *App) victoryHint() string {
	if a.replaying() {
		return "r watch again   Left rewind   q quit"
	}
	switch {
	case a.hall != nil && !a.w.control:
		return "Esc menu   q quit"
	case a.hall != nil:
		return "r replay (same seed)   n new seed   Left rewind   Esc menu   q quit"
	}
	return "r replay (same seed)   n new seed   Left rewind   Esc lobby   q quit"
}

// statusOf gathers what the status bar shows: a question asked or the g
// prompt in place of a flash.
func (a *App) statusOf(f *frame) status {
	v := a.w
	st := status{f: f, note: a.note, touched: v.touched, replay: a.replaying(), damaged: a.damage() != ""}
	switch {
	case v.confirm != actNone:
		st.prompt, st.note = confirmPrompt(v.confirm), ""
	case v.prompting:
		st.prompt, st.note = gotoPrompt(v.typing), ""
	}
	st.zoom = "full size 1:1"
	if v := a.w; v.view.fit {
		g := v.view.geometry(f.snap.Size, a.layout().arena, a.asciiArena())
		st.zoom = fmt.Sprintf("fit 1:%d", g.k)
	}
	if v := a.w; v.b != nil {
		st.label = "battle " + v.b.id
		switch {
		case v.b.featured:
			st.label += " (featured)"
		case v.control && v.b.shared.Load():
			st.label += " (yours, shared)"
		case v.control:
			st.label += " (yours, private: s shares)"
		default:
			st.label += " (watching)"
		}
		if n := v.b.viewers.Load(); n > 1 {
			st.label += fmt.Sprintf(", %d viewers", n)
		}
		st.spectator = !v.control
	}
	return st
}
