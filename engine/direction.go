package engine

import "strings"

// Direction is one of the eight neighbours of a cell. The order is the one the
// original game uses everywhere: a square's view lists its neighbours in this
// order, so a direction can index the view.
type Direction uint8

// The eight directions, clockwise from the north-west corner.
const (
	NW Direction = iota
	N
	NE
	E
	SE
	S
	SW
	W
)

// Directions lists every direction in view order.
var Directions = [8]Direction{NW, N, NE, E, SE, S, SW, W}

var directionNames = [8]string{"NW", "N", "NE", "E", "SE", "S", "SW", "W"}

// Row 0 is the bottom of the arena, so north adds one to the row.
var directionOffsets = [8][2]int{
	NW: {+1, -1}, N: {+1, 0}, NE: {+1, +1}, E: {0, +1},
	SE: {-1, +1}, S: {-1, 0}, SW: {-1, -1}, W: {0, -1},
}

// String returns the compass name, e.g. "NE".
func (d Direction) String() string {
	if int(d) < len(directionNames) {
		return directionNames[d]
	}
	return "Direction(?)"
}

// Valid reports whether d is one of the eight directions.
func (d Direction) Valid() bool { return d < 8 }

// Offset returns the change in row and column one step in direction d.
func (d Direction) Offset() (dRow, dCol int) {
	o := directionOffsets[d]
	return o[0], o[1]
}

// Opposite returns the direction pointing back.
func (d Direction) Opposite() Direction { return (d + 4) % 8 }

// ParseDirection accepts a compass name in any letter case ("ne", "NE").
func ParseDirection(s string) (Direction, bool) {
	for i, name := range directionNames {
		if strings.EqualFold(s, name) {
			return Direction(i), true
		}
	}
	return 0, false
}
