package tui

import "github.com/gdamore/tcell/v2"

// action is something a key does.
type action int

const (
	actNone action = iota
	actPause
	actStep
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
	actHelp
	actReplay
	actNewSeed
	actBack
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

// key is one key press: a special key, or a rune when k is KeyRune.
type key struct {
	k tcell.Key
	r rune
}

func r(c rune) key         { return key{tcell.KeyRune, c} }
func k(code tcell.Key) key { return key{k: code} }
func (k key) matches(ev *tcell.EventKey) bool {
	if k.k == tcell.KeyRune {
		return ev.Key() == tcell.KeyRune && ev.Rune() == k.r
	}
	return ev.Key() == k.k
}

// binding is one row of a key table. The same table decides what a key does
// and what the help overlay says, so the two cannot drift apart.
type binding struct {
	keys  []key
	label string // the keys as help shows them
	what  string
	act   action
}

// battleKeys are the battle screen's keys.
var battleKeys = []binding{
	{[]key{r(' ')}, "Space", "pause / resume", actPause},
	{[]key{r('.')}, ".", "step one round (paused)", actStep},
	{[]key{r('+'), r('=')}, "+ / -", "faster / slower (up to unthrottled)", actFaster},
	{[]key{r('-'), r('_')}, "", "", actSlower},
	{[]key{k(tcell.KeyLeft), r('h')}, "arrows hjkl", "pan the arena (or drag with the mouse)", actLeft},
	{[]key{k(tcell.KeyRight), r('l')}, "", "", actRight},
	{[]key{k(tcell.KeyUp), r('k')}, "", "", actUp},
	{[]key{k(tcell.KeyDown), r('j')}, "", "", actDown},
	{[]key{r('f'), r('0')}, "f 0", "fit the whole arena / full size", actFit},
	{[]key{r('e')}, "e", "latest script errors", actErrors},
	{[]key{r('c')}, "c", "cycle colour depth (16 / 256 / 24-bit)", actColours},
	{[]key{k(tcell.KeyCtrlL)}, "Ctrl-L", "redraw the screen", actRedraw},
	{[]key{r('?')}, "?", "this help", actHelp},
	{[]key{r('r')}, "r", "replay with the same seed (after the end)", actReplay},
	{[]key{r('n')}, "n", "new battle with a new seed (after the end)", actNewSeed},
	{[]key{k(tcell.KeyEscape)}, "Esc", "back to the lobby (closes an overlay first)", actBack},
	{[]key{r('q'), k(tcell.KeyCtrlC)}, "q Ctrl-C", "quit", actQuit},
}

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
	{[]key{r('q'), k(tcell.KeyCtrlC), k(tcell.KeyEscape)}, "q", "quit", actQuit},
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
