package battle

import (
	"fmt"
	"io"

	"github.com/squarebattle/squarebattle/engine"
	"github.com/squarebattle/squarebattle/luabind"
)

// teamLog is a battle Stepper that writes what each team printed during
// every round it steps. It reads the seats between rounds, from the
// goroutine that steps the battle.
type teamLog struct {
	Stepper
	round func() int
	seats []luabind.Seat
	names []string
	seen  []int64
	w     io.Writer
	err   error // the first write error; the battle plays on
}

// Logged is b, writing its teams' lines to w when w is not nil.
func Logged(b Stepper, round func() int, seats []luabind.Seat, w io.Writer) Stepper {
	if w == nil {
		return b
	}
	t := &teamLog{Stepper: b, round: round, seats: seats, seen: make([]int64, len(seats)), w: w}
	for _, team := range b.Snapshot().Teams {
		t.names = append(t.names, engine.SafeText(team.Player.Name))
	}
	return t
}

// Step plays a round, then writes what it printed, team by team.
func (t *teamLog) Step() bool {
	more := t.Stepper.Step()
	r := t.round()
	for i, s := range t.seats {
		lines, total := s.Printed(t.seen[i])
		if skipped := total - t.seen[i] - int64(len(lines)); skipped > 0 && t.err == nil {
			_, t.err = fmt.Fprintf(t.w, "round %d team %d %s: (%d lines printed past the %d kept)\n", r, i, t.names[i], skipped, len(lines))
		}
		t.seen[i] = total
		for _, l := range lines {
			if t.err == nil {
				_, t.err = fmt.Fprintf(t.w, "round %d team %d %s: %s\n", r, i, t.names[i], engine.SafeLine(l))
			}
		}
	}
	return more
}
