package engine

import (
	"bytes"
	"errors"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

// hostileMapDir, when set, makes TestWhatAMapReaderAllocates write its maps
// there too, to be played by the command (squarebattle run --map).
var hostileMapDir = flag.String("hostile.dir", "", "write the maps of TestWhatAMapReaderAllocates to this folder")

// squareMap is a side×side map in the seed's notation, every cell cell but
// the top left, which is team 0's.
func squareMap(side int, cell string) []byte {
	var b bytes.Buffer
	b.Grow(side * side * (len(cell) + 1))
	for r := range side {
		for c := range side {
			if c > 0 {
				b.WriteByte(' ')
			}
			if r == 0 && c == 0 {
				b.WriteString("0")
			} else {
				b.WriteString(cell)
			}
		}
		b.WriteByte('\n')
	}
	return b.Bytes()
}

// mapAllocated measures the bytes ParseMap allocates reading text.
func mapAllocated(text []byte) (*Map, error, uint64) {
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	m, err := ParseMap("hostile.map", text)
	runtime.ReadMemStats(&after)
	return m, err, after.TotalAlloc - before.TotalAlloc
}

// TestWhatAMapReaderAllocates parses the maps of docs/replay-format.md's
// figures and says what each cost; run with -v to see them (and
// -hostile.dir DIR to keep the files). It asserts nothing:
// TestHostileMaps does.
func TestWhatAMapReaderAllocates(t *testing.T) {
	if testing.Short() {
		t.Skip("parses maps of 30 MB")
	}
	for _, c := range []struct {
		name string
		text []byte
	}{
		{"30mb.map", squareMap(3873, "0")},
		{"2100.map", squareMap(2100, "-1")},
		{"2000.map", squareMap(2000, "-1")},
	} {
		m, err, n := mapAllocated(c.text)
		size := 0
		if m != nil {
			size = m.Size
		}
		t.Logf("%-9s %9d bytes: allocated %11d bytes (%.1f× the file): size %d, %v", c.name, len(c.text), n, float64(n)/float64(len(c.text)), size, err)
		if *hostileMapDir != "" {
			if err := os.WriteFile(filepath.Join(*hostileMapDir, c.name), c.text, 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}
}

// TestHostileMaps: a map whose side is past MaxArenaSize, however the text
// is shaped, is refused on the line that shows it, with one line naming
// the file and line; what ParseMap allocates stays within 64 times the
// text and a MiB. A map at the bound is read.
func TestHostileMaps(t *testing.T) {
	if testing.Short() {
		t.Skip("parses maps of 30 MB")
	}
	long := bytes.Repeat([]byte("0 "), 15<<20)
	full := squareMap(2000, "-1")
	rows := bytes.SplitAfter(full, []byte("\n"))
	join := func(parts ...[]byte) []byte { return bytes.Join(parts, nil) }
	cases := []struct {
		name string
		text []byte
		line int    // the line named; 0: the map is read
		want string // in the error
	}{
		{"30 MB square map", squareMap(3873, "0"), 1, "the first row has 3873 cells; an arena is at most 2000×2000"},
		{"30 MB on one line", long, 1, "the first row has 15728640 cells"},
		{"30 MB of one-cell rows", bytes.Repeat([]byte("0\n"), 15<<20), 2, "more than 1 rows of 1 cells"},
		{"30 MB of comments then a row", append(bytes.Repeat([]byte("# -1 -1 -1 -1 -1 -1\n"), 3<<20/2), "0\n"...), 0, ""},
		{"2100×2100", squareMap(2100, "-1"), 1, "the first row has 2100 cells"},
		{"2001×2001", squareMap(2001, "-1"), 1, "the first row has 2001 cells"},
		{"2000 wide, 2001 rows", join(full, rows[1]), 2001, "more than 2000 rows of 2000 cells"},
		{"2000 wide, 1999 rows", join(rows[:1999]...), 1999, "the arena must be square: 1999 rows of 2000 cells"},
		{"2000 wide, then a longer row", join(rows[0], long[:2*2001], []byte("\n")), 2, "row has 2001 cells, the first row has 2000"},
		{"2000×2000", squareMap(2000, "-1"), 0, ""},
		{"2000×2000, every cell a square", squareMap(2000, "1"), 0, ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			m, err, n := mapAllocated(c.text)
			if bound := 64*uint64(len(c.text)) + 1<<20; n > bound {
				t.Errorf("allocated %d bytes reading %d; want at most %d", n, len(c.text), bound)
			}
			if c.line == 0 {
				if err != nil {
					t.Fatal(err)
				}
				t.Logf("%d bytes: a %d×%d map, %d bytes allocated", len(c.text), m.Size, m.Size, n)
				return
			}
			var me *MapError
			if !errors.As(err, &me) || !errors.Is(err, ErrBadMap) {
				t.Fatalf("error %v, want a MapError", err)
			}
			if msg := err.Error(); me.Line != c.line || !strings.Contains(msg, c.want) || strings.Contains(msg, "\n") ||
				!strings.HasPrefix(msg, fmt.Sprintf("hostile.map:%d: ", c.line)) {
				t.Errorf("error %q; want one line naming hostile.map:%d and saying %q", msg, c.line, c.want)
			}
		})
	}
}

// TestMapAtTheBound: a 2000×2000 map, the largest arena, reads back as
// written, rows top first.
func TestMapAtTheBound(t *testing.T) {
	if testing.Short() {
		t.Skip("parses a 2000×2000 map")
	}
	text := squareMap(MaxArenaSize, "-1")
	m, err := ParseMap("big.map", text)
	if err != nil {
		t.Fatal(err)
	}
	if m.Size != MaxArenaSize || m.Cells[(MaxArenaSize-1)*MaxArenaSize] != 0 || m.Cells[0] != Empty {
		t.Fatalf("size %d; the top left cell is %d, the bottom left %d", m.Size, m.Cells[(MaxArenaSize-1)*MaxArenaSize], m.Cells[0])
	}
	if err := m.check(1, "big.map"); err != nil {
		t.Fatal(err)
	}
}

// TestMapFieldsAsBefore: fields split on what strings.Fields splits on,
// Unicode spaces included, and comments and blank lines are skipped.
func TestMapFieldsAsBefore(t *testing.T) {
	m, err := ParseMap("t", []byte("# a comment\n\n0\u00a0-1 # row one\r\n-1\t\u20031\n"))
	if err != nil {
		t.Fatal(err)
	}
	if m.Size != 2 || fmt.Sprint(m.Cells) != "[-1 1 0 -1]" || m.lines[1] != 3 || m.lines[0] != 4 {
		t.Fatalf("map %d %v, lines %v", m.Size, m.Cells, m.lines)
	}
	for _, c := range []struct{ text, want string }{
		{"0 x\n1 1\n", "t:1: column 2: \"x\" is not an integer"},
		{"0 -2\n1 1\n", "t:1: column 2: -2 is neither -1"},
		{"", "t: no rows"},
		{"# only\n\n", "t: no rows"},
		{"0 1\n1\n", "t:2: row has 1 cells, the first row has 2"},
		{"0 " + strings.Repeat("9", 40) + "\n1 1\n", "t:1: column 2: \"999999999999999999999999…\" is not an integer"},
	} {
		if _, err := ParseMap("t", []byte(c.text)); err == nil || !strings.HasPrefix(err.Error(), c.want) {
			t.Errorf("%q: error %v, want %q", c.text, err, c.want)
		}
	}
}
