package main

import (
	"bufio"
	"fmt"
	"io"
)

// run --log: what every team's scripts print, as the battle plays, one line
// per printed line prefixed with the round and the team, to standard error
// (--log alone) or to a file (--log=FILE, written whole under a temporary
// name and renamed at the end, like every file this program writes).

// logUsage is the --log flag's help.
const logUsage = "print every line the teams' scripts print, as they print it, prefixed with the round and the team: to standard error, or with --log=`FILE` to a file"

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
