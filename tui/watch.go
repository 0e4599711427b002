package tui

import "fmt"

// What a session does with the hall's battles: watch one, start and share
// its own, follow the featured battle, wait in the queue.

// keys is the battle screen's key table, as help shows it.
func (a *App) keys() []binding {
	switch {
	case a.hall == nil && a.replaying():
		return replayKeys
	case a.hall == nil && a.w != nil && a.w.human != nil:
		return humanHelp(a.w.human, battleKeys)
	case a.w != nil && a.w.human != nil && a.w.control:
		return humanHelp(a.w.human, ownerKeys)
	case a.hall == nil:
		return battleKeys
	case a.replaying():
		return hallReplayKeys
	case a.w.control:
		return ownerKeys
	}
	return spectatorKeys
}

// lookupKeys is the table keys are looked up in: a spectator's keys are
// the owner's, so that battleKey can say who may use them.
func (a *App) lookupKeys() []binding {
	if a.hall != nil && !a.replaying() {
		return ownerKeys
	}
	return a.keys()
}

// hallKey handles what a battle key means in an SSH session before the
// common table does; done reports that it did.
func (a *App) hallKey(act action) (done bool) {
	v := a.w
	switch {
	case act == actBack2Lobby:
		a.toMenu()
		return true
	case v.gone && controls[act]:
		a.flash("this battle was stopped: Esc for the menu")
		return true
	case !v.control && controls[act]:
		a.flash("only the owner can pause or change this battle")
		return true
	case act == actShare:
		shared := !v.b.shared.Load()
		v.b.shared.Store(shared)
		if shared {
			a.flash(fmt.Sprintf("shared: others can watch battle %s (watch %s)", v.b.id, v.b.id))
		} else {
			a.flash("private again: only you can open it")
		}
		a.hall.logEvent("battle shared", v.b, "shared", shared)
		return true
	case act == actSave:
		a.flash("the server saves every battle when it ends")
		return true
	case act == actStopAll:
		v.confirm = actStopAll
		a.dirty = true
		return true
	}
	return false
}

// toMenu leaves whatever the session shows for the menu.
func (a *App) toMenu() {
	a.leave()
	a.cancelTicket()
	a.screen = menuScreen
	if a.lad.resume { // a replay opened from a player's page
		a.screen, a.lad.resume = ladderPageScreen, false
	}
	a.dirty = true
}

// watch shows the hall's battle id ("" the featured one) as a spectator,
// or, for its owner, with the full key table.
func (a *App) watch(id string) error {
	b, err := a.hall.find(id, a.so.User)
	if err != nil {
		return err
	}
	a.watchBattle(b, id == "" || b.featured)
	return nil
}

func (a *App) watchBattle(b *liveBattle, follow bool) {
	v := newViewer(b.d, defaultColours(len(b.setup.Players)))
	v.b, v.follow, v.setup = b, follow, b.setup
	v.control = b.ownerName() != "" && b.ownerName() == a.so.User
	b.viewers.Add(1)
	a.attach(v)
}

// startPrivate asks the hall for a private battle: it starts at once or
// waits in the queue, its position on screen.
func (a *App) startPrivate(su Setup) error {
	if !a.so.CanStart {
		a.lobby.message = "starting battles needs an identity: connect with an SSH key"
		return nil
	}
	colours := a.teamColours(len(su.Players))
	a.leave()
	a.cancelTicket()
	su.OwnerKey = a.so.Key
	t, err := a.hall.requestFor(a.so.User, a.account(), su, a.pace())
	if err != nil {
		a.lobby.message = err.Error()
		a.screen = lobbyScreen
		return nil
	}
	a.ticket = t
	a.pendingColours = colours
	a.screen = queueScreen
	a.followTicket()
	return nil
}

// followTicket shows the battle a ticket was waiting for, once it runs.
func (a *App) followTicket() {
	t := a.ticket
	b, err := a.hall.ticketState(t)
	switch {
	case err != nil:
		a.ticket = nil
		a.lobby.message = err.Error()
		a.screen = lobbyScreen
	case b != nil:
		a.ticket = nil
		v := newViewer(b.d, a.pendingColours)
		v.b, v.control, v.own, v.setup, v.human = b, true, true, b.setup, b.human
		b.viewers.Add(1)
		a.attach(v)
	}
	a.dirty = true
}

// cancelTicket leaves the queue (or the battle the ticket just started).
func (a *App) cancelTicket() {
	if a.ticket != nil {
		a.hall.cancel(a.ticket)
		a.ticket = nil
	}
}

// followHall catches up with the hall: a started battle for the queue, the
// next featured battle for its viewers, a battle stopped under a viewer.
func (a *App) followHall() {
	switch a.screen {
	case queueScreen:
		if a.ticket != nil {
			a.followTicket()
		}
	case listScreen, menuScreen:
		a.dirty = true // the list and its round counts move on
	}
	v := a.w
	if v == nil || v.b == nil || v.gone {
		return
	}
	if v.follow {
		if b := a.hall.currentFeatured(); b != nil && b != v.b {
			a.watchBattle(b, true)
			a.flash("a new featured battle")
			return
		}
	}
	if v.d.stopped() {
		v.gone = true
		a.flash("this battle was stopped: Esc for the menu")
	}
}
