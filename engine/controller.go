package engine

// Controller decides for one team. The engine calls it from a worker
// goroutine; calls for the same team never overlap, calls for different teams
// may run at the same time. Everything a controller may read in a Turn or a
// Settlement stays unchanged until the call returns; it must not keep
// references to the slices after returning.
type Controller interface {
	// Turn fills t.Intents[i] for every t.Squares[i], which are the team's
	// squares that may act this round, in ascending id order. Intents arrive
	// pre-filled with WaitIntent.
	Turn(t *Turn)
	// Settle tells the team what the round did to it: squares born (so the
	// controller can give the child its initial data) and squares that died
	// (so it can run their eliminated hooks and drop their data).
	Settle(s *Settlement)
}

// Dispatcher is a Controller whose decisions are made elsewhere, in
// another process: each phase the engine first hands every such team its
// phase (SendTurn, SendSettle), then asks for the answers (Turn, Settle)
// as it does of any controller, so that all those teams work at the same
// time whatever the number of the battle's workers. SendTurn and Turn (and
// SendSettle and Settle) are called in pairs for the same round with the
// same argument, from the battle's goroutine and then from a worker; a
// Turn without a SendTurn before it does the whole job itself. What the
// teams decide cannot depend on this: each team's answer depends on its
// own phase only.
type Dispatcher interface {
	Controller
	SendTurn(t *Turn)
	SendSettle(s *Settlement)
}

// Facts are the read-only facts of the battle that every script may consult.
type Facts struct {
	Round     int
	Size      int
	Wrap      bool
	Players   []string // display name of each team's starting player
	Stats     []Stats  // per team, as of the start of the current phase
	Classes   []string // class id of each ClassID
	TeamCount int
}

// Ready is one square that is asked for an intent.
type Ready struct {
	ID       SquareID
	Class    ClassID
	Row, Col int
	// View holds the eight neighbouring cells in direction order as they were
	// at the start of the round: -1 empty, Wall off the edge of an arena that
	// does not wrap, otherwise a team index.
	View [8]int32
}

// Wall is what a view shows beyond the edge of an arena that does not wrap.
const Wall = -2

// Empty marks an empty cell.
const Empty = -1

// Turn is one team's decision phase of one round.
type Turn struct {
	Team    int
	Facts   *Facts
	Squares []Ready
	Intents []Intent
	Report  Report
}

// Birth is a square created this round.
type Birth struct {
	Parent, Child SquareID
	Class         ClassID
	Row, Col      int
}

// Death is a square that died this round.
type Death struct {
	Square    SquareID
	Class     ClassID
	Row, Col  int
	Killer    int  // team index of the killer
	Collision bool // died in a shared cell rather than an attacked one
	own       bool // the shared cell held a square of its own team
}

// Settlement is one team's view of how a round ended for it.
type Settlement struct {
	Team   int
	Facts  *Facts
	Births []Birth
	Deaths []Death
	Report Report
}
