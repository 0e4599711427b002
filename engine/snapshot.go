package engine

// TeamView is one team as shown in a snapshot.
type TeamView struct {
	Team   int
	Player Player
	Stats  Stats
	// Eliminated is the round in which the team lost its last square, 0 while it lives.
	Eliminated int
	// Values are a rule mod's score columns for the team (see
	// Snapshot.Columns); nil in SquareBattle.
	Values []int
	// Retired says when and why a backstop event retired the team (a
	// bot that crashed or faulted too often, a Lua team whose workers
	// crashed too often); its Round is 0 while the team plays.
	Retired Retirement
}

// Snapshot is an immutable picture of a battle after a round. Viewers (the
// terminal UI, spectators, recorders) read snapshots and never the live
// battle, so they may hold one as long as they like on any goroutine.
type Snapshot struct {
	Round  int
	Rounds int // round limit
	Size   int
	Seed   uint64
	Over   bool
	Winner int // team index, or -1 for a tie or while the battle runs
	// Cells holds the team on every cell (Empty when none), row-major with
	// row 0, the bottom row, first.
	Cells []int32
	// Marks, for a rule mod, say how each cell is drawn (a unit, the softer
	// trail a team leaves, a wall, an item, shaded ground); nil in
	// SquareBattle, where every cell with a team holds a square.
	Marks []Mark
	// Columns name a rule mod's score columns (TeamView.Values); the first
	// is the score that decides the winner. Nil in SquareBattle.
	Columns []string
	Teams   []TeamView
	// FirstProblems holds the first problem of each kind (an error, a
	// timeout) of every (team, class), in order;
	// Problems the most recent ones, oldest first.
	FirstProblems []Problem
	Problems      []Problem
	Classes       []string
}

// Snapshot takes a picture of the battle as it is now.
func (b *Battle) Snapshot() *Snapshot {
	s := &Snapshot{
		Round:         b.round,
		Rounds:        b.opts.Rounds,
		Size:          b.size,
		Seed:          b.opts.Seed,
		Over:          b.over,
		Winner:        -1,
		Cells:         make([]int32, len(b.grid)),
		Teams:         make([]TeamView, len(b.teams)),
		FirstProblems: append([]Problem(nil), b.problems.first...),
		Problems:      b.problems.latest(),
		Classes:       b.opts.Classes,
	}
	if b.over {
		s.Winner = b.Winner()
	}
	for i, id := range b.grid {
		s.Cells[i] = Empty
		if id >= 0 {
			s.Cells[i] = b.squares[id].team
		}
	}
	for t := range b.teams {
		s.Teams[t] = TeamView{Team: t, Player: b.teams[t].setup.Player, Stats: b.stats[t], Eliminated: b.teams[t].eliminated, Retired: b.teams[t].retirement}
	}
	return s
}

// At returns the team on the cell at row, col (row 0 at the bottom).
func (s *Snapshot) At(row, col int) int { return int(s.Cells[row*s.Size+col]) }

// Board returns the arena in the seed's notation: rows from the top row
// down, each cell Empty or a team index.
func (s *Snapshot) Board() [][]int {
	rows := make([][]int, s.Size)
	for i := range rows {
		r := s.Size - 1 - i
		row := make([]int, s.Size)
		for c := range row {
			row[c] = int(s.Cells[r*s.Size+c])
		}
		rows[i] = row
	}
	return rows
}

// Map returns the arena as a Map, for example to print it with Format.
func (s *Snapshot) Map() *Map {
	m := &Map{Size: s.Size, Cells: make([]int, len(s.Cells))}
	for i, v := range s.Cells {
		m.Cells[i] = int(v)
	}
	return m
}
