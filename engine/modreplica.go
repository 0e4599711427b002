package engine

// A replica board is a copy of a rule mod's board kept where the rules run
// when that is not the engine's process (a worker process, luabind/worker):
// the rules edit the replica through the same Board methods, and what they
// changed in one call — cells, score columns, the end, units forgotten and
// the random stream — goes back to the engine's board, which stays the one
// people see. Both boards start equal and only the rules change either, so
// applying every call's changes keeps them equal.

// journal records which cells were set, each once, in the order first set.
type journal struct {
	cells []int
	seen  []bool
}

func (j *journal) note(i int) {
	if len(j.seen) <= i {
		return // the board was resized; Resize makes a new journal
	}
	if !j.seen[i] {
		j.seen[i] = true
		j.cells = append(j.cells, i)
	}
}

// NewReplicaBoard returns a board of side 0 (before the rules choose a
// size, or before Resize) for teams teams and the given score columns.
func NewReplicaBoard(teams, rounds int, wrap bool, columns []string) *Board {
	b := &Board{rounds: rounds, wrap: wrap, teams: teams, winner: -1, columns: columns,
		values: make([][]int, teams), rand: &Rand{}, forget: make([][]int, teams), journal: &journal{}}
	for t := range b.values {
		b.values[t] = make([]int, len(columns))
	}
	return b
}

// Resize gives a replica its side, all cells empty, as NewModBattle does
// once the size is known. It is a no-op when the side is unchanged.
func (b *Board) Resize(size int) {
	if size == b.size || size < 0 || size > maxModSize {
		return
	}
	b.size = size
	b.cells, b.marks = make([]int32, size*size), make([]Mark, size*size)
	for i := range b.cells {
		b.cells[i] = Empty
	}
	b.journal = &journal{seen: make([]bool, size*size)}
}

// SetRound sets the round a replica is in.
func (b *Board) SetRound(round int) { b.round = round }

// Decision reports whether the rules ended the battle (Finish) and the
// winner they named.
func (b *Board) Decision() (decided bool, winner int) { return b.decided, b.winner }

// TakeChanges calls fn for every cell set since the last call, once per
// cell with what it holds now, and starts a new record.
func (b *Board) TakeChanges(fn func(cell int, team int, m Mark)) {
	j := b.journal
	if j == nil {
		return
	}
	for _, i := range j.cells {
		j.seen[i] = false
		fn(i, int(b.cells[i]), b.marks[i])
	}
	j.cells = j.cells[:0]
}

// TakeForgotten returns the units of team forgotten since the last call
// and clears the list.
func (b *Board) TakeForgotten(team int) []int {
	if team < 0 || team >= b.teams {
		return nil
	}
	out := b.forget[team]
	b.forget[team] = nil
	return out
}

// SetCell draws a cell given by its index (row × size + column), as Set.
func (b *Board) SetCell(cell, team int, m Mark) error {
	if cell < 0 || cell >= len(b.cells) {
		return b.Set(-1, -1, team, m) // the same error as any cell off the board
	}
	return b.Set(cell/b.size, cell%b.size, team, m)
}

// State returns the generator's state, to carry a stream to another
// process and back (SetState).
func (r *Rand) State() [4]uint64 { return r.s }

// SetState puts the generator in a state State returned. The all-zero
// state, which xoshiro cannot leave, becomes the one Seed gives instead.
func (r *Rand) SetState(s [4]uint64) {
	r.s = s
	if r.s == [4]uint64{} {
		r.s[0] = 1
	}
}
