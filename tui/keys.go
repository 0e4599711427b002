package tui

import "github.com/gdamore/tcell/v2"

// action is something a key does.
type action int

const (
	actNone action = iota
	actPause
	actStep
	actBack
	actStep10
	actBack10
	actStep100
	actBack100
	actOldest
	actLive
	actGoto
	actFaster
	actSlower
	actLeft
	actRight
	actUp
	actDown
	actFit
	actErrors
	actColours
	actRedraw
	actSave
	actHelp
	actReplay
	actNewSeed
	actBack2Lobby
	actQuit

	// lobby
	actNext
	actPrev
	actPick
	actRemove
	actColour
	actMore
	actLess
	actSeed
	actStart
)

// key is one key press: a special key, or a rune when k is KeyRune. A
// special key with mod set matches only with that modifier held; one
// without matches with any (terminals add modifiers to Ctrl keys).
type key struct {
	k   tcell.Key
	r   rune
	mod tcell.ModMask
}

func r(c rune) key         { return key{k: tcell.KeyRune, r: c} }
func k(code tcell.Key) key { return key{k: code} }
func shift(code tcell.Key) key {
	return key{k: code, mod: tcell.ModShift}
}
func (k key) matches(ev *tcell.EventKey) bool {
	if k.k == tcell.KeyRune {
		return ev.Key() == tcell.KeyRune && ev.Rune() == k.r
	}
	return ev.Key() == k.k && ev.Modifiers()&k.mod == k.mod
}

// binding is one row of a key table. The same table decides what a key does
// and what the help overlay says, so the two cannot drift apart. Where two
// rows match a key, the first wins: rows with a modifier come first.
type binding struct {
	keys  []key
	label string // the keys as help shows them
	what  string
	act   action
}

// viewKeys move through the rounds and look at the arena: the same in a
// live battle and in a replay, as in SQLillo's viewer.
var viewKeys = []binding{
	{[]key{r(' ')}, "Space", "pause / play (from the round shown)", actPause},
	{[]key{shift(tcell.KeyRight)}, "", "", actStep10},
	{[]key{shift(tcell.KeyLeft)}, "", "", actBack10},
	{[]key{r('.'), k(tcell.KeyRight)}, ". Right", "one round forward (pauses first)", actStep},
	{[]key{k(tcell.KeyLeft)}, "Left", "one round back: rewind (pauses)", actBack},
	{[]key{}, "Shift-arrow", "10 rounds back / forward", actNone},
	{[]key{k(tcell.KeyPgUp)}, "PgUp PgDn", "100 rounds back / forward", actBack100},
	{[]key{k(tcell.KeyPgDn)}, "", "", actStep100},
	{[]key{k(tcell.KeyHome)}, "Home End", "first round (kept) / last round (live)", actOldest},
	{[]key{k(tcell.KeyEnd)}, "", "", actLive},
	{[]key{r('g')}, "g", "go to round: type it, Enter", actGoto},
	{[]key{r('+'), r('=')}, "+ / -", "faster / slower (up to unthrottled)", actFaster},
	{[]key{r('-'), r('_')}, "", "", actSlower},
	{[]key{r('h')}, "hjkl Up Down", "pan the arena (or drag, or the wheel)", actLeft},
	{[]key{r('l')}, "", "", actRight},
	{[]key{k(tcell.KeyUp), r('k')}, "", "", actUp},
	{[]key{k(tcell.KeyDown), r('j')}, "", "", actDown},
	{[]key{r('f'), r('0')}, "f 0", "fit the whole arena / full size", actFit},
	{[]key{r('e')}, "e", "problems and each team's print log", actErrors},
	{[]key{r('c')}, "c", "colour depth: 16 / 256 / 24-bit, up to the terminal's", actColours},
	{[]key{k(tcell.KeyCtrlL)}, "Ctrl-L", "redraw the screen", actRedraw},
	{[]key{r('?')}, "?", "this help", actHelp},
}

// battleKeys are a live battle's keys.
var battleKeys = append(viewKeys[:len(viewKeys):len(viewKeys)], []binding{
	{[]key{r('w')}, "w", "write the battle so far to a replay file", actSave},
	{[]key{r('r')}, "r", "replay with the same seed (after the end)", actReplay},
	{[]key{r('n')}, "n", "new battle with a new seed (after the end)", actNewSeed},
	{[]key{k(tcell.KeyEscape)}, "Esc", "back to the lobby, teams kept (asks if unsaved)", actBack2Lobby},
	{[]key{r('q'), k(tcell.KeyCtrlC)}, "q Ctrl-C", "quit (q asks while the battle runs)", actQuit},
}...)

// replayKeys are the replay viewer's keys.
var replayKeys = append(viewKeys[:len(viewKeys):len(viewKeys)], []binding{
	{[]key{r('r')}, "r", "watch again from the first round", actReplay},
	{[]key{r('q'), k(tcell.KeyCtrlC), k(tcell.KeyEscape)}, "q Esc", "quit (Esc closes an overlay first)", actQuit},
}...)

// lobbyKeys are the lobby's keys.
var lobbyKeys = []binding{
	{[]key{k(tcell.KeyTab)}, "Tab", "next area", actNext},
	{[]key{k(tcell.KeyBacktab)}, "", "", actPrev},
	{[]key{k(tcell.KeyUp), r('k')}, "Up Down", "move", actUp},
	{[]key{k(tcell.KeyDown), r('j')}, "", "", actDown},
	{[]key{k(tcell.KeyEnter)}, "Enter", "add player / remove team / start", actPick},
	{[]key{k(tcell.KeyDelete), k(tcell.KeyBackspace), k(tcell.KeyBackspace2), r('x')}, "x", "remove team", actRemove},
	{[]key{r('c')}, "c", "change team colour", actColour},
	{[]key{k(tcell.KeyRight), r('+'), r('l')}, "Left Right", "change a setting (or type digits)", actMore},
	{[]key{k(tcell.KeyLeft), r('-'), r('h')}, "", "", actLess},
	{[]key{r('n')}, "n", "new seed", actSeed},
	{[]key{r('s')}, "s", "start battle", actStart},
	{[]key{r('?')}, "?", "help", actHelp},
	{[]key{r('q'), k(tcell.KeyCtrlC)}, "q", "quit (Esc never does: it is back in a battle)", actQuit},
}

// lookup finds what a key does in a table.
func lookup(table []binding, ev *tcell.EventKey) action {
	for _, b := range table {
		for _, k := range b.keys {
			if k.matches(ev) {
				return b.act
			}
		}
	}
	return actNone
}

// actShare is the owner's s in the hall: share the battle (or make it
// private again).
const actShare = actStart + 1

// actStopAll is the owner's x in the hall: stop the battle for everyone
// watching it (asks first). Leaving (Esc, q) never stops it for others.
const actStopAll = actStart + 2

// hallTail are the keys a battle screen has in an SSH session: Esc goes
// back to the menu, q and Ctrl-C quit the session.
var hallTail = []binding{
	{[]key{k(tcell.KeyEscape)}, "Esc", "back to the menu (closes an overlay first)", actBack2Lobby},
	{[]key{r('q'), k(tcell.KeyCtrlC)}, "q Ctrl-C", "quit", actQuit},
}

// ownerKeys are the owner's keys for a private battle in the hall: the
// local table, with s to share and without writing files on the server.
var ownerKeys = concat(viewKeys, []binding{
	{[]key{r('s')}, "s", "share the battle: others can watch it (again: private)", actShare},
	{[]key{r('x')}, "x", "stop the battle for everyone watching (asks); leaving never does", actStopAll},
	{[]key{r('r')}, "r", "replay with the same seed (after the end)", actReplay},
	{[]key{r('n')}, "n", "new battle with a new seed (after the end)", actNewSeed},
}, hallTail)

// hallReplayKeys are a recording's keys in an SSH session.
var hallReplayKeys = concat(viewKeys, []binding{
	{[]key{r('r')}, "r", "watch again from the first round", actReplay},
}, hallTail)

// spectatorKeys are what help lists for a viewer of someone else's battle:
// the view is theirs, the battle is not. (The owner's keys still reach
// battleKey, which says who may use them.)
var spectatorKeys = concat([]binding{
	{[]key{}, "Space + - …", "pause, step, rewind, speed: only the battle's owner", actNone},
}, without(viewKeys, controls), hallTail)

// controls are the actions that change the battle for all its viewers.
var controls = map[action]bool{
	actPause: true, actStep: true, actBack: true, actStep10: true, actBack10: true, actStep100: true, actBack100: true,
	actOldest: true, actLive: true, actGoto: true, actFaster: true, actSlower: true, actSave: true,
	actReplay: true, actNewSeed: true, actShare: true, actStopAll: true,
}

// without is table less the rows doing one of acts (and help-only rows).
func without(table []binding, acts map[action]bool) []binding {
	var out []binding
	for _, b := range table {
		if !acts[b.act] && b.act != actNone {
			out = append(out, b)
		}
	}
	return out
}

func concat(tables ...[]binding) []binding {
	var out []binding
	for _, t := range tables {
		out = append(out, t...)
	}
	return out
}
