package engine

import (
	"bytes"
	"fmt"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// MaxArenaSize is the largest arena side a battle may be played on: the
// bound of the arena.size setting (package config), which the readers of
// map and replay files hold those files to as well. A file names a size;
// nothing the size of it is built before the size is checked against this.
const MaxArenaSize = 2000

// Map is a starting arena written in the original game's notation.
type Map struct {
	Size int
	// Cells holds a team index or Empty for every cell, row-major with row 0
	// (the bottom row) first, the same layout the engine uses internally.
	Cells []int
	// lines[r] is the line of the source text that held row r, for errors.
	lines []int
}

// ParseMap reads the seed document's notation: whitespace-separated integers,
// the top row first, -1 for an empty cell and k for a square of team k. The
// map must be square. A '#' starts a comment that runs to the end of the
// line; blank lines are ignored, so a board diagram can be pasted in as is.
// file names the source in errors.
//
// The text may come from anyone: the first row's width is the arena's
// side, and it is held to MaxArenaSize before anything of that size is
// made, and the arena is made only when the text is long enough to fill
// it; a row of another width, or a row past the last, is refused on its
// line. Memory is the cells of the arena (8 bytes a cell, for at least two
// bytes of text a cell) and does not grow with the text otherwise: a file
// of any length or shape is read in a bounded amount.
func ParseMap(file string, text []byte) (*Map, error) {
	fail := func(line int, format string, args ...any) (*Map, error) {
		return nil, &MapError{File: file, Line: line, Reason: fmt.Sprintf(format, args...)}
	}
	var m *Map
	rows := 0
	lineNo := 0
	for rest := text; len(rest) > 0; {
		lineNo++
		line := rest
		if i := bytes.IndexByte(rest, '\n'); i >= 0 {
			line, rest = rest[:i], rest[i+1:]
		} else {
			rest = nil
		}
		if c := bytes.IndexByte(line, '#'); c >= 0 {
			line = line[:c]
		}
		n := countFields(line)
		if n == 0 {
			continue
		}
		if m == nil { // the first row: its width is the arena's side
			if n > MaxArenaSize {
				return fail(lineNo, "the first row has %d cells; an arena is at most %d×%d (arena.size)", n, MaxArenaSize, MaxArenaSize)
			}
			m = &Map{Size: n, lines: make([]int, n)}
			// n×n fields, each a byte or more and a space or newline after
			// it: a text too short for them cannot be a map of this side,
			// and the rows say where it goes wrong; the arena is made only
			// for a text that can fill it.
			if len(text) >= 2*n*n-1 {
				m.Cells = make([]int, n*n)
			}
		}
		if n != m.Size {
			return fail(lineNo, "row has %d cells, the first row has %d", n, m.Size)
		}
		if rows == m.Size {
			return fail(lineNo, "the arena must be square: more than %d rows of %d cells", m.Size, m.Size)
		}
		r := m.Size - 1 - rows // the first line is the top row
		var row []int
		if m.Cells != nil {
			row = m.Cells[r*m.Size : (r+1)*m.Size]
		}
		j := 0
		for f := range fields(line) {
			v, err := strconv.Atoi(string(f))
			if err != nil {
				return fail(lineNo, "column %d: %q is not an integer", j+1, clipField(f))
			}
			if v < Empty {
				return fail(lineNo, "column %d: %d is neither -1 (empty) nor a team index", j+1, v)
			}
			if row != nil {
				row[j] = v
			}
			j++
		}
		m.lines[r] = lineNo
		rows++
	}
	if m == nil {
		return fail(0, "no rows")
	}
	if rows != m.Size || m.Cells == nil {
		return fail(m.lines[m.Size-rows], "the arena must be square: %d rows of %d cells", rows, m.Size)
	}
	return m, nil
}

// countFields counts the whitespace-separated fields of line.
func countFields(line []byte) int {
	n := 0
	for range fields(line) {
		n++
	}
	return n
}

// fields yields the fields of line that strings.Fields would, without
// copying them.
func fields(line []byte) func(yield func([]byte) bool) {
	space := func(i int) (bool, int) { // whether a space starts at i, and its length
		if c := line[i]; c < utf8.RuneSelf {
			return asciiSpace[c], 1
		}
		r, n := utf8.DecodeRune(line[i:])
		return unicode.IsSpace(r), n
	}
	return func(yield func([]byte) bool) {
		start := -1
		for i := 0; i < len(line); {
			sp, n := space(i)
			switch {
			case sp && start >= 0:
				if !yield(line[start:i]) {
					return
				}
				start = -1
			case !sp && start < 0:
				start = i
			}
			i += n
		}
		if start >= 0 {
			yield(line[start:])
		}
	}
}

var asciiSpace = [utf8.RuneSelf]bool{'\t': true, '\n': true, '\v': true, '\f': true, '\r': true, ' ': true}

// clipField shortens a field quoted in an error.
func clipField(f []byte) string {
	if len(f) > 24 {
		return string(f[:24]) + "…"
	}
	return string(f)
}

// Format writes m back in the seed's notation, top row first, tab separated.
func (m *Map) Format() string {
	var sb strings.Builder
	for r := m.Size - 1; r >= 0; r-- {
		for c := 0; c < m.Size; c++ {
			if c > 0 {
				sb.WriteByte('\t')
			}
			sb.WriteString(strconv.Itoa(m.Cells[r*m.Size+c]))
		}
		sb.WriteByte('\n')
	}
	return sb.String()
}

// check verifies the map against the teams of a battle.
func (m *Map) check(teams int, file string) error {
	seen := make([]bool, teams)
	for i, v := range m.Cells {
		if v == Empty {
			continue
		}
		if v >= teams {
			e := &MapError{File: file, Reason: fmt.Sprintf("column %d: team %d, but only %d players were named (teams 0..%d)", i%m.Size+1, v, teams, teams-1)}
			if m.lines != nil {
				e.Line = m.lines[i/m.Size]
			}
			return e
		}
		seen[v] = true
	}
	for t, ok := range seen {
		if !ok {
			return &MapError{File: file, Reason: fmt.Sprintf("team %d has no square on the map", t)}
		}
	}
	return nil
}
