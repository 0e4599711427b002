package tui

import (
	"fmt"

	"github.com/gdamore/tcell/v2"
)

// The battle screen's keys, for a live battle and a replay alike.

// battleKey handles a key on the battle screen.
func (a *App) battleKey(ev *tcell.EventKey) error {
	v := a.w
	v.touched = itemNone // what this key changes, if anything, is set below
	if v.confirm != actNone {
		asked := v.confirm
		v.confirm = actNone
		if act := lookup(a.lookupKeys(), ev); act == asked || ev.Key() == tcell.KeyRune && ev.Rune() == 'y' {
			return a.doLeave(asked)
		}
		// any other key stays, and does what it does (w saves)
	}
	if v.prompting {
		if done := a.promptKey(ev); done {
			return nil
		}
	}
	// No key reaches the battle under an overlay: the pane uses its own,
	// and any key but quit closes help.
	if v.over == errorsOverlay {
		if a.paneKey(ev) {
			return errQuit
		}
		return nil
	}
	if _, h := a.s.Size(); v.over == helpOverlay && scrollHelp(ev, a.helpCut, &a.helpTop, h) {
		return nil
	}
	if v.over != noOverlay && ev.Key() == tcell.KeyEscape {
		v.over = noOverlay
		return nil
	}
	// The human's team has the first say over a key; what it does not
	// use (q, space, ?, w, ...) works as in any battle.
	// Once the battle is over they are the battle's again (r, n).
	if v.human != nil && v.over == noOverlay && !v.d.latest().end && a.humanKey(ev) {
		return nil
	}
	act := lookup(a.lookupKeys(), ev)
	if v.over != noOverlay && act != actQuit {
		v.over = noOverlay
		return nil
	}
	if a.hall != nil && a.hallKey(act) {
		return nil
	}
	d := v.d
	f := d.latest()
	r := a.layout().arena
	switch act {
	case actQuit:
		if ev.Key() == tcell.KeyRune && a.ownLive() && !f.end {
			v.confirm = actQuit
			return nil
		}
		return errQuit
	case actPause:
		if f.end && !f.past {
			a.flash(a.endNote())
		}
		d.send(command{kind: cmdPause})
	case actStep, actStep10, actStep100:
		n := map[action]int{actStep: 1, actStep10: 10, actStep100: 100}[act]
		switch {
		case f.snap.Round < f.live:
		case f.end:
			a.flash(a.endNote())
		case n > 1:
			a.flash("this is the live round: . or Right plays one more")
		}
		d.send(command{kind: cmdStep, n: n})
	case actBack, actBack10, actBack100:
		n := map[action]int{actBack: 1, actBack10: 10, actBack100: 100}[act]
		if f.snap.Round <= f.first {
			a.flash(a.oldestNote(f))
		}
		d.send(command{kind: cmdBack, n: n})
	case actOldest:
		d.send(command{kind: cmdSeek, n: f.first})
	case actLive:
		d.send(command{kind: cmdSeek, n: -1})
	case actGoto:
		v.prompting, v.typing = true, ""
	case actFaster, actSlower:
		dir := 1
		if act == actSlower {
			dir = -1
		}
		n := nextSpeed(a.lobby.set.Speed, dir)
		a.lobby.set.Speed = n
		v.touched = itemSpeed
		d.send(command{kind: cmdSpeed, n: n})
	case actLeft:
		v.view.pan(-8, 0, f.snap.Size, r, a.asciiArena())
	case actRight:
		v.view.pan(8, 0, f.snap.Size, r, a.asciiArena())
	case actUp:
		v.view.pan(0, -4, f.snap.Size, r, a.asciiArena())
	case actDown:
		v.view.pan(0, 4, f.snap.Size, r, a.asciiArena())
	case actFit:
		v.view.fit = !v.view.fit
		if v.view.fit {
			a.flash("fit: whole arena")
		} else {
			a.flash("full size: pan with hjkl or the mouse")
		}
	case actErrors:
		v.over, v.pane = errorsOverlay, pane{}
	case actColours:
		a.th.depth = nextDepth(a.th.depth, a.th.most)
		a.flash(depthNote(a.th.depth, a.th.most, a.th.mono))
	case actRedraw:
		a.s.Sync()
		a.onTerm = nil // Sync cleared the shared rows too
	case actHelp:
		v.over, a.helpTop = helpOverlay, 0
	case actSave:
		v.saved = true
		a.flash("saving…")
		d.send(command{kind: cmdSave})
	case actReplay, actNewSeed:
		if a.replaying() {
			d.send(command{kind: cmdRestart})
			return nil
		}
		if !f.end {
			a.flash("the battle is still on")
			return nil
		}
		su := v.setup
		if act == actNewSeed {
			su.Seed = a.o.NewSeed()
			a.lobby.seed, a.lobby.random = su.Seed, true
		}
		return a.start(su)
	case actBack2Lobby:
		if a.ownLive() && !v.saved && a.o.Record == "" {
			v.confirm = actBack2Lobby
			return nil
		}
		return a.doLeave(actBack2Lobby)
	}
	return nil
}

// ownLive reports whether the battle on view is the local program's own
// live battle (not a replay, not a hall's): leaving it loses it.
func (a *App) ownLive() bool {
	return a.hall == nil && a.w != nil && a.w.own && a.w.rep == nil
}

// confirmPrompt is the question the status bar asks for v.confirm, in
// forms each whole, longest first: the last fits a 40-column terminal.
func confirmPrompt(asked action) []string {
	if asked == actQuit {
		return []string{
			"the battle is running: q again (or y) quits, any other key stays",
			"the battle is running: q again (or y) quits, other keys stay",
			"battle running: q again (or y) quits, other keys stay",
			"q again (or y) quits, other keys stay",
		}
	}
	if asked == actStopAll {
		return []string{
			"stop this battle for everyone watching? x again (or y) stops it, any other key keeps it",
			"stop it for everyone? x again (or y) stops it, other keys keep it",
			"stop for all? x/y stops, other keys keep it",
			"x/y stop for all, else keep",
		}
	}
	return []string{
		"leave without saving? Esc again (or y) leaves, w saves first, any other key stays",
		"leave without saving? Esc again (or y) leaves, w saves first, other keys stay",
		"leave without saving? Esc/y leaves, w saves first, other keys stay",
		"not saved: Esc/y leaves, w saves, other keys stay",
		"Esc/y leave unsaved, w save, else stay",
	}
}

// gotoPrompt is the g prompt with the digits typed (at most 9), in forms
// as confirmPrompt's.
func gotoPrompt(typing string) []string {
	return []string{"go to round: " + typing + "_  (Enter, Esc)", "round: " + typing + "_ (Enter, Esc)"}
}

// doLeave quits, or goes back to the lobby with the battle's teams.
func (a *App) doLeave(act action) error {
	if act == actQuit {
		return errQuit
	}
	if act == actStopAll && a.hall != nil {
		a.stopForAll()
		return nil
	}
	v := a.w
	a.leave()
	if len(a.lobby.teams) == 0 && v != nil {
		a.lobby.keepTeams(v.setup.Players, v.colours, a.entries())
	}
	a.screen = lobbyScreen
	return nil
}

// promptKey edits the round typed after g: digits and Backspace edit,
// Enter goes there, Esc cancels. Any other key closes the prompt and does
// what it does; done reports that the key was used up.
func (a *App) promptKey(ev *tcell.EventKey) (done bool) {
	v := a.w
	switch {
	case ev.Key() == tcell.KeyRune && ev.Rune() >= '0' && ev.Rune() <= '9':
		if len(v.typing) < 9 {
			v.typing += string(ev.Rune())
		}
		return true
	case ev.Key() == tcell.KeyBackspace || ev.Key() == tcell.KeyBackspace2:
		if v.typing != "" {
			v.typing = v.typing[:len(v.typing)-1]
		}
		return true
	case ev.Key() == tcell.KeyEscape:
		v.prompting = false
		return true
	case ev.Key() == tcell.KeyEnter:
		v.prompting = false
		if v.typing != "" {
			a.goTo(atoi(v.typing))
		}
		return true
	}
	v.prompting = false
	return false
}

// goTo shows round n: a recorded one, or, past the live round of a live
// battle, the battle runs at full speed up to it and pauses there.
func (a *App) goTo(n int) {
	f := a.w.d.latest()
	switch {
	case n < f.first:
		a.flash(a.oldestNote(f))
		n = f.first
	case n > f.live && (a.replaying() || f.end):
		a.flash(a.endNote())
		n = f.live
	case n > f.live && n > f.snap.Rounds:
		a.flash(fmt.Sprintf("the battle ends by round %d", f.snap.Rounds))
		n = f.snap.Rounds
	case n > f.live:
		a.flash(fmt.Sprintf("playing on to round %d…", n))
	}
	a.w.d.send(command{kind: cmdSeek, n: n})
}

func atoi(digits string) int {
	n := 0
	for _, c := range digits {
		n = n*10 + int(c-'0')
	}
	return n
}

// oldestNote says why the view cannot go further back.
func (a *App) oldestNote(f *frame) string {
	if f.first == 0 {
		return "this is round 0, the start"
	}
	return fmt.Sprintf("round %d is the oldest kept (tui.rewind)", f.first)
}

// endNote says why the view cannot go further forward.
func (a *App) endNote() string {
	if a.replaying() {
		return "the recording ends here"
	}
	return "the battle is over"
}
