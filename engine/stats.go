package engine

// Stats are one team's running totals, the numbers the original game shows in
// its team list and hands to scripts.
type Stats struct {
	Squares    int // squares alive now
	Births     int // squares created by replication
	Kills      int // enemy squares this team killed
	Deaths     int // squares of this team that died, for any reason
	Collisions int // deaths in a cell shared with a square of the same team
	Timeouts   int // turns lost to the instruction budget
	Errors     int // turns lost to script errors or invalid answers, plus team-level faults
}

// Report is what a controller adds to its team's fault counts during a phase,
// beyond the faults carried by individual intents (for example an error in an
// eliminated hook, or a team VM rebuilt after hitting its memory limit).
type Report struct {
	Timeouts int
	Errors   int
	// Problems describes faults for people to read. Controllers should report
	// each distinct problem sparingly (the Lua controller sends the first per
	// class and a running sample), since the engine keeps them all.
	Problems []Problem
	// Backstops are events of the wall around the team's scripts (see
	// Backstop): the engine counts and explains them, so Timeouts, Errors
	// and Problems do not include them. At most MaxBackstopsPerReport.
	Backstops []Backstop
}

// Problem is a script fault worth showing to a person.
type Problem struct {
	Round   int
	Team    int
	Class   ClassID
	Square  SquareID
	Kind    Fault
	Message string // one line, "file:line: message" when the position is known
	// Trace is a short traceback of a script's error or timeout: up to
	// five frames, innermost first, one a line ("file:line: in function
	// 'name'"), or "" when there is none. It is for people reading the
	// problem now (check, the errors pane, run --json); replays record
	// only Message (Recorder strips it), so their format is unchanged.
	Trace string
}

func (r *Report) reset() {
	r.Timeouts, r.Errors = 0, 0
	r.Problems = r.Problems[:0]
	r.Backstops = r.Backstops[:0]
}
