package engine

// What passes between a rule mod battle and those it drives: the calls the
// rules ask for and the answers they get back (the Rules interface), and a
// team's share of them as its Caller sees it. Kept apart from mod.go, which
// runs the round, as the contract the rules and callers are written against.

// Call asks one player for an answer: a team's strategy (games with one
// call per team) or one unit's script (games with one call per unit).
type Call struct {
	Team  int
	Unit  int     // the unit's id, as the rules number units; 0 for team calls
	Class ClassID // the script that answers; NoClass means the team's player
	View  any     // what the player is shown, as the rules built it; opaque here
	// Budget, when above 0, is this call's instruction budget instead of
	// the configured one: games with a clock (a bank of instructions that
	// grows each round, capped per turn) set it from their bank.
	Budget int
}

// Answer is a player's answer to a Call. Value is opaque to the engine;
// when Fault is set the call timed out or failed and Value is nil.
type Answer struct {
	Value any
	Fault Fault
	Used  int // instructions the call ran, for games that keep a clock
}

// Rules are a rule mod's rules as the engine drives them. The engine calls
// them from the goroutine that steps the battle, never concurrently.
type Rules interface {
	// Setup lays out the board before round 1.
	Setup(b *Board) error
	// Next returns the next calls of the current round. A game whose units
	// act at the same time returns all of a round's calls at once; a game
	// with a turn queue returns one call at a time, seeing the board as the
	// answers before it left it. No calls end the round.
	Next(b *Board) ([]Call, error)
	// Resolve applies the answers to the calls Next just returned, in the
	// same order.
	Resolve(b *Board, calls []Call, answers []Answer) error
	// Close releases the rules' resources.
	Close()
}

// Sizer is implemented by rules that can choose the board's side
// themselves: with ModOptions.Size 0, Size runs before Setup on a board of
// side 0 (nothing can be drawn yet) whose random stream Setup continues,
// so a seed decides the size as it decides everything else. It returns 0
// when the rules do not choose.
type Sizer interface {
	Size(b *Board) (int, error)
}

// ModTurn is one team's share of a batch of calls.
type ModTurn struct {
	Team  int
	Facts *ModFacts
	// Batch numbers the batches of calls of a round from 0, in the order
	// the rules asked for them (all of a team's calls of a round are
	// batch 0 in a game whose units act at the same time): with the
	// round, it says where a backstop event fired.
	Batch   int
	Calls   []Call
	Answers []Answer // filled by the caller, one per call
	// Forget lists units of this team that are gone since the last turn,
	// so the caller can drop their private data.
	Forget []int
	Report Report
}

// ModFacts are the read-only facts every player may consult.
type ModFacts struct {
	Round, Rounds int
	Size          int
	Players       []string // display name of each team's player
	Columns       []string // the game's score columns
	Values        [][]int  // Values[team][column], as of the start of the round
	Classes       []string // class id of each ClassID
}

// Caller answers a team's calls: the rule mod's counterpart of Controller.
// The engine calls it from a worker goroutine; calls for the same team never
// overlap, calls for different teams may run at the same time.
type Caller interface {
	Call(t *ModTurn)
}
