package main

import (
	"bufio"
	"fmt"
	"io"

	"github.com/squarebattle/squarebattle/engine"
	"github.com/squarebattle/squarebattle/luabind"
)

// run --log: what every team's scripts print, as the battle plays, one line
// per printed line prefixed with the round and the team, to standard error
// (--log alone) or to a file (--log=FILE, written whole under a temporary
// name and renamed at the end, like every file this program writes).

// logUsage is the --log flag's help.
const logUsage = "print every line the teams' scripts print, as they print it, prefixed with the round and the team: to standard error, or with --log=`FILE` to a file"

// teamLog is a battle stepper that writes what each team printed during
// every round it steps. It reads the seats between rounds, from the
// goroutine that steps the battle.
type teamLog struct {
	stepper
	round func() int
	seats []luabind.Seat
	names []string
	seen  []int64
	w     io.Writer
	err   error // the first write error; the battle plays on
}

// logged is b, writing its teams' lines to w when w is not nil.
func logged(b stepper, round func() int, seats []luabind.Seat, w io.Writer) stepper {
	if w == nil {
		return b
	}
	t := &teamLog{stepper: b, round: round, seats: seats, seen: make([]int64, len(seats)), w: w}
	for _, team := range b.Snapshot().Teams {
		t.names = append(t.names, safe(team.Player.Name))
	}
	return t
}

// Step plays a round, then writes what it printed, team by team.
func (t *teamLog) Step() bool {
	more := t.stepper.Step()
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

// withLog calls play with where run --log sends the teams' lines: nil for
// no --log (name ""), stderr for "-", else a buffered writer on a temporary
// file that becomes name once play succeeds.
func withLog(name string, stderr io.Writer, play func(io.Writer) error) error {
	switch name {
	case "":
		return play(nil)
	case "-":
		return play(stderr)
	}
	var failed error // the battle's error, not the file's
	err := writeFileAtomic(name, func(w io.Writer) error {
		bw := bufio.NewWriter(w)
		if failed = play(bw); failed != nil {
			return failed
		}
		return bw.Flush()
	})
	if failed != nil {
		return failed
	}
	if err != nil {
		return fmt.Errorf("--log %s: %w", name, err)
	}
	return nil
}
