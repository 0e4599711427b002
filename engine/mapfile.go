package engine

import (
	"fmt"
	"strconv"
	"strings"
)

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
func ParseMap(file string, text []byte) (*Map, error) {
	var rows [][]int
	var rowLines []int
	for i, line := range strings.Split(string(text), "\n") {
		lineNo := i + 1
		if c := strings.IndexByte(line, '#'); c >= 0 {
			line = line[:c]
		}
		fields := strings.Fields(line)
		if len(fields) == 0 {
			continue
		}
		row := make([]int, len(fields))
		for j, f := range fields {
			v, err := strconv.Atoi(f)
			if err != nil {
				return nil, &MapError{File: file, Line: lineNo, Reason: fmt.Sprintf("column %d: %q is not an integer", j+1, f)}
			}
			if v < Empty {
				return nil, &MapError{File: file, Line: lineNo, Reason: fmt.Sprintf("column %d: %d is neither -1 (empty) nor a team index", j+1, v)}
			}
			row[j] = v
		}
		if len(rows) > 0 && len(row) != len(rows[0]) {
			return nil, &MapError{File: file, Line: lineNo, Reason: fmt.Sprintf("row has %d cells, the first row has %d", len(row), len(rows[0]))}
		}
		rows = append(rows, row)
		rowLines = append(rowLines, lineNo)
	}
	if len(rows) == 0 {
		return nil, &MapError{File: file, Reason: "no rows"}
	}
	if len(rows) != len(rows[0]) {
		return nil, &MapError{File: file, Line: rowLines[len(rowLines)-1], Reason: fmt.Sprintf("the arena must be square: %d rows of %d cells", len(rows), len(rows[0]))}
	}
	size := len(rows)
	m := &Map{Size: size, Cells: make([]int, size*size), lines: make([]int, size)}
	for i, row := range rows {
		r := size - 1 - i // the first line is the top row
		copy(m.Cells[r*size:], row)
		m.lines[r] = rowLines[i]
	}
	return m, nil
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
