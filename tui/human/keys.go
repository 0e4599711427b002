// Package human turns a person's key presses into a team's decisions: the
// controller of a team played at the keyboard, beside the Lua teams.
//
// It draws nothing and imports no screen library: the terminal UI (package
// tui) turns its key events into Keys and draws what State says, so the
// whole logic (selected square, orders, autopilot, idle fallback) is tested
// here without a terminal.
//
// Concurrency: Key and State are called on the UI goroutine, Turn, Settle
// and Call on an engine worker (the engine never overlaps two calls for one
// team). Everything the two sides share sits behind one mutex, held only
// while copying: never while the autopilot's Lua runs, so a key is never
// kept waiting by a round, and a round never waits for a key.
package human

import "github.com/squarebattle/squarebattle/engine"

// KeyName names a key that is not a printable rune.
type KeyName uint8

// The keys the controllers read besides runes.
const (
	KeyRune KeyName = iota
	KeyUp
	KeyDown
	KeyLeft
	KeyRight
	KeyTab
	KeyBacktab // Shift-Tab
	KeyEnter
	KeyEsc
)

// Key is one key press: a named key, or a rune when Name is KeyRune.
type Key struct {
	Name KeyName
	Rune rune
}

// Rune is the key press of a printable character.
func Rune(r rune) Key { return Key{Name: KeyRune, Rune: r} }

// Named is the key press of a named key.
func Named(n KeyName) Key { return Key{Name: n} }

// squareDir is the direction a key names on the SquareBattle keypad: vi's
// hjkl and yubn for the diagonals, or the arrows. Row 0 is the bottom of
// the arena and the screen draws it at the bottom, so up is north.
func squareDir(k Key) (engine.Direction, bool) {
	switch k.Name {
	case KeyUp:
		return engine.N, true
	case KeyDown:
		return engine.S, true
	case KeyLeft:
		return engine.W, true
	case KeyRight:
		return engine.E, true
	case KeyRune:
		switch k.Rune {
		case 'h':
			return engine.W, true
		case 'j':
			return engine.S, true
		case 'k':
			return engine.N, true
		case 'l':
			return engine.E, true
		case 'y':
			return engine.NW, true
		case 'u':
			return engine.NE, true
		case 'b':
			return engine.SW, true
		case 'n':
			return engine.SE, true
		}
	}
	return 0, false
}

// steerDir is the direction a key steers in a rule mod (snake, paint):
// arrows, WASD or hjkl, as the mods name them.
func steerDir(k Key) (string, bool) {
	switch k.Name {
	case KeyUp:
		return "up", true
	case KeyDown:
		return "down", true
	case KeyLeft:
		return "left", true
	case KeyRight:
		return "right", true
	case KeyRune:
		switch k.Rune {
		case 'w', 'W', 'k':
			return "up", true
		case 's', 'S', 'j':
			return "down", true
		case 'a', 'A', 'h':
			return "left", true
		case 'd', 'D', 'l':
			return "right", true
		}
	}
	return "", false
}
