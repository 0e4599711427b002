package engine

import (
	"errors"
	"fmt"
)

// The board of a rule mod: what the rules edit and people see, and the marks
// that say how each cell is drawn. It is apart from mod.go, which drives the
// battle: the rules see the battle only through the board, and
// modreplica.go keeps copies of it where the rules run.

// Style says how a cell of a rule mod's board is drawn.
type Style uint8

const (
	StyleEmpty Style = iota // nothing there
	StyleUnit               // a unit of the cell's team: the team's colour
	StyleTrail              // ground the cell's team holds (paint): the team's colour, softer
	StyleWall               // impassable terrain
	StyleItem               // something to pick up (a pellet)
	StyleValue              // neutral ground shaded by its value, 0 to 255 (orbs)
	styleCount
)

// Mark is a cell's style and a value from 0 to 255 (its shade, for
// StyleValue; free for the rules otherwise).
type Mark uint16

// NewMark builds a mark.
func NewMark(s Style, value uint8) Mark { return Mark(s)<<8 | Mark(value) }

// Style returns the mark's style.
func (m Mark) Style() Style { return Style(m >> 8) }

// Value returns the mark's value.
func (m Mark) Value() uint8 { return uint8(m) }

// Valid reports whether the mark's style is one of the styles.
func (m Mark) Valid() bool { return m.Style() < styleCount }

// Board is the state of a rule mod battle that people see: what is on every
// cell, every team's score columns, and whether the battle is over. The
// rules edit it; the engine turns it into snapshots. It belongs to the
// goroutine that steps the battle.
type Board struct {
	size, rounds int
	round        int
	wrap         bool
	teams        int
	cells        []int32
	marks        []Mark
	values       [][]int
	columns      []string
	rand         *Rand
	over         bool
	winner       int
	decided      bool // the rules named the winner
	forget       [][]int
	journal      *journal // cells set since the last TakeChanges; nil unless a replica
}

// Size is the side of the square board.
func (b *Board) Size() int { return b.size }

// Wrap reports whether the board's edges wrap.
func (b *Board) Wrap() bool { return b.wrap }

// Round is the round being played (0 during Setup).
func (b *Board) Round() int { return b.round }

// Rounds is the round limit.
func (b *Board) Rounds() int { return b.rounds }

// Teams is the number of teams.
func (b *Board) Teams() int { return b.teams }

// Rand is the rules' seeded random stream.
func (b *Board) Rand() *Rand { return b.rand }

// Columns are the score columns' names.
func (b *Board) Columns() []string { return b.columns }

// ErrOffBoard is returned for a cell outside the board.
var ErrOffBoard = errors.New("cell is off the board")

func (b *Board) index(row, col int) (int, error) {
	if row < 0 || row >= b.size || col < 0 || col >= b.size {
		return 0, fmt.Errorf("%w: row %d, column %d on a %d×%d board", ErrOffBoard, row, col, b.size, b.size)
	}
	return row*b.size + col, nil
}

// Set draws a cell: team (or Empty) and mark.
func (b *Board) Set(row, col, team int, m Mark) error {
	i, err := b.index(row, col)
	if err != nil {
		return err
	}
	if team < Empty || team >= b.teams {
		return fmt.Errorf("team %d is not one of the %d teams", team, b.teams)
	}
	if m.Style() >= styleCount {
		return fmt.Errorf("style %d is not a style", m.Style())
	}
	b.cells[i], b.marks[i] = int32(team), m
	if b.journal != nil {
		b.journal.note(i)
	}
	return nil
}

// At returns what a cell shows.
func (b *Board) At(row, col int) (team int, m Mark, err error) {
	i, err := b.index(row, col)
	if err != nil {
		return Empty, 0, err
	}
	return int(b.cells[i]), b.marks[i], nil
}

// SetValue sets one of a team's score columns.
func (b *Board) SetValue(team, column, v int) error {
	if team < 0 || team >= b.teams || column < 0 || column >= len(b.columns) {
		return fmt.Errorf("no column %d of team %d", column, team)
	}
	b.values[team][column] = v
	return nil
}

// Value returns one of a team's score columns.
func (b *Board) Value(team, column int) int {
	if team < 0 || team >= b.teams || column < 0 || column >= len(b.columns) {
		return 0
	}
	return b.values[team][column]
}

// Forget tells the team's caller that a unit is gone.
func (b *Board) Forget(team, unit int) {
	if team >= 0 && team < b.teams {
		b.forget[team] = append(b.forget[team], unit)
	}
}

// Finish ends the battle after this round; winner is a team or -1 for a
// draw.
func (b *Board) Finish(winner int) {
	b.over, b.decided = true, true
	b.winner = winner
	if winner < -1 || winner >= b.teams {
		b.winner = -1
	}
}
