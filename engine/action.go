package engine

import "strings"

// Action is what a square chose to do this round.
type Action uint8

// The four actions of the original game. Wait, Move and Attack take one
// round; Replicate makes parent and child sit still for the configured number
// of rounds afterwards.
const (
	Wait Action = iota
	Move
	Attack
	Replicate
)

var actionNames = [...]string{"wait", "move", "attack", "replicate"}

// String returns the lower-case name used by scripts.
func (a Action) String() string {
	if int(a) < len(actionNames) {
		return actionNames[a]
	}
	return "action(?)"
}

// ParseAction accepts an action name in any letter case.
func ParseAction(s string) (Action, bool) {
	for i, name := range actionNames { // the constants scripts return, exactly: the common case
		if s == name {
			return Action(i), true
		}
	}
	for i, name := range actionNames {
		if strings.EqualFold(s, name) {
			return Action(i), true
		}
	}
	return 0, false
}

// Fault records why a square's turn was turned into a wait by its
// controller. Faults are counted in the team's statistics.
type Fault uint8

const (
	// NoFault: the controller's answer stands.
	NoFault Fault = iota
	// FaultTimeout: the script ran out of its instruction budget.
	FaultTimeout
	// FaultError: the script raised an error or returned something invalid.
	FaultError
)

func (f Fault) String() string {
	switch f {
	case NoFault:
		return "ok"
	case FaultTimeout:
		return "timeout"
	case FaultError:
		return "error"
	}
	return "fault(?)"
}

// ClassID identifies a player class (one script) within a battle: an index
// into Options.Classes.
type ClassID int32

// NoClass means "no class change" in an Intent.
const NoClass ClassID = -1

// SquareID identifies a square for the whole battle. Ids are handed out in
// birth order and never reused, so ascending id is the order in which
// controllers are asked, which keeps shared team state deterministic.
type SquareID int32

// Intent is a controller's answer for one square in one round.
type Intent struct {
	Action Action
	Dir    Direction
	// Child is the class of the square created by Replicate.
	Child ClassID
	// Become switches the square to another class from the next round on;
	// NoClass keeps the current one.
	Become ClassID
	// Fault, when set, turns the intent into a wait and is counted.
	Fault Fault
}

// WaitIntent is the zero-cost answer of a square that does nothing.
var WaitIntent = Intent{Action: Wait, Child: NoClass, Become: NoClass}
