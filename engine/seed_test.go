package engine

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// seedFixture is one board diagram sequence from the seed document: the
// intents of each team, the board before, and the board after each round.
type seedFixture struct {
	header  []string // comment and intent lines, kept for -update
	intents map[int]string
	before  string
	after   []string
}

func readSeedFixture(t *testing.T, path string) seedFixture {
	t.Helper()
	raw, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	f := seedFixture{intents: map[int]string{}}
	var cur *strings.Builder
	var sections []*strings.Builder
	for _, line := range strings.Split(string(raw), "\n") {
		switch {
		case strings.HasPrefix(line, "#"):
			f.header = append(f.header, line)
		case strings.HasPrefix(line, "team "):
			f.header = append(f.header, line)
			var team int
			var rest string
			parts := strings.SplitN(strings.TrimPrefix(line, "team "), ":", 2)
			if _, err := fmtSscan(parts[0], &team); err != nil {
				t.Fatalf("%s: bad line %q", path, line)
			}
			rest = strings.TrimSpace(parts[1])
			f.intents[team] = rest
		case line == "before:" || strings.HasPrefix(line, "after "):
			cur = &strings.Builder{}
			sections = append(sections, cur)
		case strings.TrimSpace(line) == "":
		default:
			cur.WriteString(line + "\n")
		}
	}
	f.before = sections[0].String()
	for _, s := range sections[1:] {
		f.after = append(f.after, s.String())
	}
	return f
}

func (f seedFixture) write(path string, after []string) error {
	var sb strings.Builder
	for _, h := range f.header {
		sb.WriteString(h + "\n")
	}
	sb.WriteString("before:\n" + f.before)
	for i, a := range after {
		sb.WriteString("after " + itoa(i+1) + ":\n" + a)
	}
	return os.WriteFile(path, []byte(sb.String()), 0o644)
}

// TestSeedDiagrams replays every board diagram of the seed document and
// compares the arena after each round with the seed's "after" diagram.
func TestSeedDiagrams(t *testing.T) {
	paths, _ := filepath.Glob("testdata/seed/*.txt")
	if len(paths) < 6 {
		t.Fatalf("expected the six seed diagrams, found %d", len(paths))
	}
	for _, path := range paths {
		t.Run(filepath.Base(path), func(t *testing.T) {
			f := readSeedFixture(t, path)
			ctrls := make([]Controller, len(f.intents))
			for team, s := range f.intents {
				ctrls[team] = &scripted{intent: parseIntent(t, s)}
			}
			b := newMapBattle(t, f.before, ctrls, nil)
			if got := formatBoard(b.Snapshot()); got != f.before {
				t.Fatalf("map did not load as written:\n%s", got)
			}
			var got []string
			for range f.after {
				b.Step()
				got = append(got, formatBoard(b.Snapshot()))
			}
			if *update {
				if err := f.write(path, got); err != nil {
					t.Fatal(err)
				}
				return
			}
			for i := range f.after {
				if got[i] != f.after[i] {
					t.Errorf("after round %d:\n%s\nwant (the seed's diagram):\n%s", i+1, got[i], f.after[i])
				}
			}
		})
	}
}

// TestSeedView checks the seed's worked example of what a square sees.
func TestSeedView(t *testing.T) {
	board := `
-1 -1  0 -1 -1
-1  0 -1 -1 -1
-1 -1  1 -1 -1
-1 -1 -1 -1 -1
-1 -1 -1 -1 -1`
	red, blue := &scripted{intent: WaitIntent}, &scripted{intent: WaitIntent}
	b := newMapBattle(t, board, []Controller{red, blue}, nil)
	b.Step()
	tests := []struct {
		name     string
		c        *scripted
		row, col int
		view     [8]int32
	}{
		{"red 0 in column 1", red, 3, 1, [8]int32{-1, -1, 0, -1, 1, -1, -1, -1}},
		{"blue 1", blue, 2, 2, [8]int32{0, -1, -1, -1, -1, -1, -1, -1}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			found := false
			for _, r := range tc.c.turns[0].Squares {
				if r.Row == tc.row && r.Col == tc.col {
					found = true
					if r.View != tc.view {
						t.Errorf("view = %v, want %v", r.View, tc.view)
					}
				}
			}
			if !found {
				t.Errorf("no square asked at row %d col %d", tc.row, tc.col)
			}
		})
	}
}
