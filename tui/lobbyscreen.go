package tui

import (
	"fmt"

	"github.com/gdamore/tcell/v2"
)

// The lobby as a session drives it: its keys, its mouse, its games. The
// lobby's own state and drawing are in lobby.go.

// source is where the session's players and battles come from: the hall's
// source in an SSH session.
func (a *App) source() Source {
	if a.hall != nil {
		return a.hall.o.Source
	}
	return a.o.Source
}

// initGames lists the source's games in the lobby, with game chosen.
func (a *App) initGames(game string) {
	if gs, ok := a.source().(GameSource); ok {
		a.lobby.games = gs.Games()
		for i, g := range a.lobby.games {
			if g.ID == game {
				a.lobby.game = i
			}
		}
		if game != "" {
			a.applyGameDefaults()
		}
	}
	a.lobby.setEntries(a.entries())
}

// entries are the players of the lobby's game.
func (a *App) entries() []Entry {
	var out []Entry
	if gs, ok := a.source().(GameSource); ok && a.lobby.gameID() != "" {
		out = gs.GameEntries(a.lobby.gameID())
	} else {
		out = a.source().Entries()
	}
	if hs, ok := a.source().(HumanSource); ok && hs.HumanGame(a.lobby.gameID()) {
		// after the starting players, before those that cannot start
		i := 0
		for i < len(out) && out[i].Starting() {
			i++
		}
		out = append(out[:i:i], append([]Entry{humanEntry}, out[i:]...)...)
	}
	return out
}

// humanEntry is the lobby's Human: a team played at the keys.
var humanEntry = Entry{ID: HumanPlayer, Name: "Human", File: "you, at the keys"}

// switchGame moves the lobby's Game setting dir steps: the teams go (the
// players differ), the new game's players are listed and its defaults for
// the board size and the round limit apply.
func (a *App) switchGame(dir int) {
	l := &a.lobby
	n := len(l.games)
	if n < 2 {
		return
	}
	l.game = (l.game + dir + n) % n
	l.teams, l.cursor[areaPlayers], l.cursor[areaTeams], l.top, l.teamTop = nil, 0, 0, 0, 0
	l.entries = nil // another game's players: the cursor follows none of them
	a.applyGameDefaults()
	l.setEntries(a.entries())
}

// applyGameDefaults sets the board size and round limit to the lobby's
// game's own, or back to the configured ones.
func (a *App) applyGameDefaults() {
	l := &a.lobby
	g := l.games[l.game]
	l.set.Size, l.set.Rounds = a.o.Settings.Size, a.o.Settings.Rounds
	switch {
	case g.SeedSize != nil:
		l.set.Size = 0 // the rules choose, from the seed
	case g.Size > 0:
		l.set.Size = g.Size
	}
	if g.Rounds > 0 {
		l.set.Rounds = g.Rounds
	}
}

func (a *App) lobbyKey(ev *tcell.EventKey) error {
	l := &a.lobby
	if a.lobbyHelp {
		if _, h := a.s.Size(); !scrollHelp(ev, a.helpCut, &a.helpTop, h) {
			a.lobbyHelp = false
		}
		return nil
	}
	if a.hall != nil && ev.Key() == tcell.KeyEscape {
		a.toMenu()
		return nil
	}
	act := lookup(lobbyKeys, ev)
	// Digits edit the selected setting.
	if l.area == areaSettings && ev.Key() == tcell.KeyRune && ev.Rune() >= '0' && ev.Rune() <= '9' {
		l.typeDigit(ev.Rune(), false)
		return nil
	}
	if l.area == areaSettings && l.editing != "" && act == actRemove {
		l.typeDigit(0, true)
		return nil
	}
	if act != actRemove {
		l.editing = ""
	}
	l.message = ""
	switch act {
	case actQuit:
		return errQuit
	case actHelp:
		a.lobbyHelp, a.helpTop = true, 0
	case actNext:
		l.area = (l.area + 1) % areaCount
	case actPrev:
		l.area = (l.area + areaCount - 1) % areaCount
	case actUp:
		if l.cursor[l.area] > 0 {
			l.cursor[l.area]--
		} else if l.area > 0 {
			l.area--
			l.cursor[l.area] = max(l.rows()-1, 0)
		}
	case actDown:
		if l.cursor[l.area] < l.rows()-1 {
			l.cursor[l.area]++
		} else if l.area < areaCount-1 {
			l.area++
			l.cursor[l.area] = 0
		}
	case actPick:
		switch l.area {
		case areaPlayers:
			if c := l.cursor[areaPlayers]; c < len(l.entries) {
				a.addTeam(l.entries[c])
			}
		case areaTeams:
			l.removeTeam(l.cursor[areaTeams])
		case areaSettings:
			l.area = areaStart
		case areaStart:
			return a.startFromLobby()
		}
	case actRemove:
		if l.area == areaTeams {
			l.removeTeam(l.cursor[areaTeams])
		}
	case actColour:
		if l.area == areaTeams && l.cursor[areaTeams] < len(l.teams) {
			t := &l.teams[l.cursor[areaTeams]]
			t.colour = l.freeColour(t.colour)
		}
	case actMore, actLess:
		dir := map[action]int{actMore: 1, actLess: -1}[act]
		switch {
		case l.area == areaSettings && l.setting() == setGame:
			a.switchGame(dir)
		case l.area == areaSettings:
			l.adjust(dir)
		}
	case actSeed:
		l.seed, l.random = a.o.NewSeed(), true
	case actStart:
		return a.startFromLobby()
	}
	return nil
}

func (a *App) startFromLobby() error {
	su, msg := a.lobby.setup()
	if msg != "" {
		a.lobby.message = msg
		return nil
	}
	return a.start(su)
}

// lobbyMouse: a click on a player in the list adds it as a team, as the
// original's player selection did. (The rest of the lobby is keyboard-only.)
func (a *App) lobbyMouse(ev *tcell.EventMouse) {
	pressed := ev.Buttons()&tcell.Button1 != 0
	click := pressed && !a.pressed // a press, not a drag that follows it
	a.pressed = pressed
	if !click {
		return
	}
	x, y := ev.Position()
	l := &a.lobby
	if x < l.listW && y >= 3 && y < 3+l.listRows {
		if n := l.top + y - 3; n < len(l.entries) {
			l.area, l.cursor[areaPlayers] = areaPlayers, n
			a.addTeam(l.entries[n])
			a.dirty = true
		}
	}
}

// addTeam adds a team in the lobby; in a hall no more than its cap (a held
// Enter key must not grow the list without end).
func (a *App) addTeam(e Entry) {
	if a.hall != nil && len(a.lobby.teams) >= a.hall.o.MaxTeams {
		a.lobby.message = fmt.Sprintf("this server allows %d teams a battle", a.hall.o.MaxTeams)
		return
	}
	a.lobby.addTeam(e)
}
