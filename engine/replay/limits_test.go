package replay

import (
	"bytes"
	"errors"
	"fmt"
	"strings"
	"testing"
)

// The reader's bounds (limits.go): every case is a file written to make a
// reader allocate what it names. Each is refused with one line naming the
// file, the line and the field, and what Read allocated (TotalAlloc) stays
// within a bound that grows with the file's bytes, not with its numbers:
// 64 times the file and 4 MiB for a file refused; a file read also pays
// for the arena it names, once checked (cellCost a cell) and for its
// rounds (roundCost each).
const (
	cellCost  = 16      // the starting arena, decoded, and the timeline's two copies, 4 bytes a cell each
	roundCost = 2 << 10 // the timeline's record of a round (264 bytes), its list grown by a quarter at a time, and decoding
)

func refusedBound(in []byte) uint64 { return 64*uint64(len(in)) + 4<<20 }

func readBound(in []byte, cells, rounds int) uint64 {
	return refusedBound(in) + cellCost*uint64(cells) + roundCost*uint64(rounds)
}

// readMeasured reads data, measuring what Read allocates.
func readMeasured(data []byte) (*Replay, error, uint64) {
	var rep *Replay
	var err error
	n := allocated(func() { rep, err = Read(bytes.NewReader(data), "h.sbr") })
	return rep, err, n
}

// junkHeader is a header line whose field key holds n bytes of filler
// after it: spaces, or a string's letters.
func junkHeader(field string, n int, filler byte) []byte {
	head := []byte(`{"squarebattle_replay":1,"size":10,"rounds":10,"players":[{"team":0}],"start":[-1,100],` + field)
	return append(append(head, bytes.Repeat([]byte{filler}, n)...), "\"}\n"...)
}

// TestHostileHeaders: line 1 is refused, on line 1 and naming its field,
// before anything of the size it names is made.
func TestHostileHeaders(t *testing.T) {
	if testing.Short() {
		t.Skip("reads files of tens of megabytes")
	}
	many := func(n int, each string) string {
		parts := make([]string, n)
		for i := range parts {
			parts[i] = fmt.Sprintf(each, i)
		}
		return strings.Join(parts, ",")
	}
	cases := []struct {
		name string
		data []byte
		want string
	}{
		// the arena
		{"size 2^30", hugeArena(1<<30, 0), "size: 1073741824 is out of range: an arena is 1 to 2000 cells a side"},
		{"size 16384, compressed", gzipped(hugeArena(16384, 128)), "size: 16384 is out of range"},
		{"size 14142, compressed", gzipped(hugeArena(14142, 0)), "size: 14142 is out of range"},
		{"size 2001", hugeArena(2001, 3), "size: 2001 is out of range"},
		{"size 0", []byte(`{"squarebattle_replay":1,"size":0,"players":[{"team":0}],"start":[]}` + "\n"), "size: 0 is out of range"},
		{"size -3", []byte(`{"squarebattle_replay":1,"size":-3,"players":[{"team":0}],"start":[-1,9]}` + "\n"), "size: -3 is out of range"},
		{"no size", []byte(`{"squarebattle_replay":1,"players":[{"team":0}],"start":[]}` + "\n"), "size 0 is out of range"},
		{"size not a number", []byte(`{"squarebattle_replay":1,"size":"2000","players":[{"team":0}]}` + "\n"), "size: json: cannot unmarshal"},
		// teams
		{"2M players", manyPlayers(2_000_000), "players: more than 1024 players (a battle has at most 1024 teams)"},
		{"2M players, compressed", gzipped(manyPlayers(2_000_000)), "players: more than 1024 players"},
		{"1025 players", manyPlayers(MaxTeams + 1), "players: more than 1024 players"},
		{"a player's name of 1 MiB", []byte(header(10, 10, `"players":[{"team":0,"name":"`+strings.Repeat("n", 1<<20)+`"}],`)), "players: player 0: a text of 1048576 bytes (at most 8192)"},
		{"players out of order", []byte(header(10, 10, `"players":[{"team":1},{"team":0}],`)), "players: player 0 is listed as team 1"},
		// rounds
		{"rounds 10^12", []byte(header(10, 1_000_000_000_000, "")), "rounds: 1000000000000 is out of range: a battle has 0 to 10000000 rounds"},
		{"rounds 10^7+1", []byte(header(10, MaxRounds+1, "")), "rounds: 10000001 is out of range"},
		{"rounds -1", []byte(header(10, -1, "")), "rounds: -1 is out of range"},
		// classes, columns, texts
		{"100k classes", []byte(header(10, 10, `"classes":[`+many(100_000, `{"id":"c%d"}`)+`],`)), "classes: more than 4096 classes"},
		{"100k classes, compressed", gzipped([]byte(header(10, 10, `"classes":[`+many(100_000, `{"id":"c%d"}`)+`],`))), "classes: more than 4096 classes"},
		{"a class file of 64 KiB", []byte(header(10, 10, `"classes":[{"id":"w","file":"`+strings.Repeat("f", 64<<10)+`"}],`)), "classes: class 0: a text of 65536 bytes"},
		{"65 columns", []byte(header(10, 10, `"game":"g","columns":[`+many(65, `"c%d"`)+`],`)), "columns: more than 64 score columns"},
		{"a program of 1 MiB", []byte(header(10, 10, `"program":"`+strings.Repeat("p", 1<<20)+`",`)), "program: a text of 1048576 bytes"},
		{"a config of 2 MiB", []byte(header(10, 10, `"config":{"x":"`+strings.Repeat("c", 2<<20)+`"},`)), "config: 2097160 bytes (at most 1048576)"},
		// the starting arena
		{"start of 2^31 cells", []byte(`{"squarebattle_replay":1,"size":10,"players":[{"team":0}],"start":[-1,2147483647]}` + "\n"), "start: more than 100 cells"},
		{"start past int32", []byte(`{"squarebattle_replay":1,"size":10,"players":[{"team":0}],"start":[-1,2147483648]}` + "\n"), "start: \"2147483648\" is not a whole number of 32 bits"},
		{"start of 201 numbers", []byte(`{"squarebattle_replay":1,"size":10,"players":[{"team":0}],"start":[` + strings.Repeat("0,1,", 100) + `0]}` + "\n"), "start: 201 numbers: a run-length encoded arena has at most 200, two a cell"},
		{"start of 8M runs before the size", ([]byte(`{"squarebattle_replay":1,"start":[` + strings.Repeat("0,0,", 4<<20) + `0,1],"size":1,"players":[{"team":0}]}` + "\n")), "start: 8388610 numbers: a run-length encoded arena has at most 8000000"},
		{"start with a team that does not play", []byte(`{"squarebattle_replay":1,"size":2,"players":[{"team":0}],"start":[7,4]}` + "\n"), "start: team 7 is out of range"},
		{"start_values of a million columns", []byte(header(10, 10, `"game":"g","columns":["a"],"start_values":[[`+strings.Repeat("1,", 1<<20)+`1]],`)), "start_values: team 0: more than 64 score columns"},
		{"start_values of 2000 rows", []byte(header(10, 10, `"game":"g","start_values":[`+strings.Repeat("[],", 2000)+`[]],`)), "start_values: more than 1024 rows"},
		// the line
		{"32 MiB of spaces, compressed", gzipped(junkHeader(`"program":"x"`, 32<<20, ' ')), "a line longer than"},
		{"a 32 MiB program, compressed", gzipped(junkHeader(`"program":"`, 32<<20, 'p')), "a line longer than"},
		{"a 32 MiB unknown field, compressed", gzipped(junkHeader(`"zzz":"`, 32<<20, 'z')), "a line longer than"},
		{"text after the header", []byte(header(10, 10, "")[:len(header(10, 10, ""))-1] + ` {"a":1}` + "\n"), "text after the header"},
		{"no newline", []byte(strings.TrimSuffix(header(10, 10, ""), "\n")), "the file ends in the middle of a line"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			rep, err, n := readMeasured(c.data)
			if bound := refusedBound(c.data); n > bound {
				t.Errorf("allocated %d bytes reading %d; want at most %d", n, len(c.data), bound)
			}
			if err == nil {
				t.Fatalf("read (damage %v), want it refused", rep.Damage)
			}
			var fe *FormatError
			if msg := err.Error(); !errors.As(err, &fe) || !errors.Is(err, ErrCorrupt) || fe.Line != 1 ||
				!strings.HasPrefix(msg, "h.sbr: line 1: ") || !strings.Contains(msg, c.want) || strings.Contains(msg, "\n") {
				t.Errorf("error %q; want one line naming h.sbr: line 1 and saying %q", msg, c.want)
			}
			t.Logf("%d bytes: %d allocated: %v", len(c.data), n, err)
		})
	}
}

// TestHeadersAtTheBounds: a header at every bound is read, and pays for
// what it names only as much as the bound allows.
func TestHeadersAtTheBounds(t *testing.T) {
	if testing.Short() {
		t.Skip("reads arenas of 2000×2000")
	}
	cases := []struct {
		name          string
		data          []byte
		cells, rounds int
	}{
		{"size 2000", hugeArena(MaxSize, 3), MaxSize * MaxSize, 3},
		{"size 2000, compressed", gzipped(hugeArena(MaxSize, 3)), MaxSize * MaxSize, 3},
		{"1024 players", manyPlayers(MaxTeams), MaxSize * MaxSize, 0},
		{"10^7 rounds", []byte(header(10, MaxRounds, "")), 100, 0},
		{"4096 classes", []byte(header(10, 10, `"classes":[`+strings.TrimSuffix(strings.Repeat(`{"id":"c"},`, MaxClasses), ",")+`],`)), 100, 0},
		{"unknown fields", []byte(header(10, 10, `"zzz":{"a":[1,2,{"b":null}],"c":"`+strings.Repeat("z", 1<<20)+`"},"Size":10,`)), 100, 0},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			rep, err, n := readMeasured(c.data)
			if err != nil {
				t.Fatal(err)
			}
			if rep.Damage != nil {
				t.Fatal(rep.Damage)
			}
			if bound := readBound(c.data, c.cells, c.rounds); n > bound {
				t.Errorf("allocated %d bytes reading %d; want at most %d", n, len(c.data), bound)
			}
			t.Logf("%d bytes: %d allocated", len(c.data), n)
		})
	}
}

// TestHostileRounds: a round line past a bound is damage on its line; the
// rounds before it play, and what the reader holds grows with the file.
func TestHostileRounds(t *testing.T) {
	if testing.Short() {
		t.Skip("reads files of tens of megabytes")
	}
	h := header(10, 1000, "")
	lines := func(ls ...string) []byte { return []byte(h + strings.Join(ls, "")) }
	problem := `{"team":0,"class":0,"square":1,"kind":2,"msg":"w.lua:3: boom"}`
	repeated := func(n int, s string) string { return strings.TrimSuffix(strings.Repeat(s+",", n), ",") }
	cases := []struct {
		name       string
		data       []byte
		line, last int
		want       string
	}{
		{"a round past the limit", []byte(header(10, 5, "") + string(quietRounds(6))), 7, 5, "round 6 is past the battle's round limit, 5"},
		{"the same round a million times", lines(strings.Repeat("{\"r\":1}\n", 1_000_000)), 3, 1, "round 1 where round 2 was expected"},
		{"the same round a million times, compressed", gzipped(lines(strings.Repeat("{\"r\":1}\n", 1_000_000))), 3, 1, "round 1 where round 2 was expected"},
		{"1000 problems of one kind", lines("{\"r\":1,\"p\":[" + repeated(1000, problem) + "]}\n"), 2, 0, "1000 problems in a round, of which 999 are not the first"},
		{"33 problems again", lines("{\"r\":1,\"p\":["+problem+"]}\n", "{\"r\":2,\"p\":["+repeated(33, problem)+"]}\n"), 3, 1, "a replay keeps at most 32 such"},
		{"a problem of no team", lines("{\"r\":1,\"p\":[{\"team\":5,\"kind\":2}]}\n"), 2, 0, "a problem of team 5"},
		{"10M cell changes, compressed", gzipped(lines("{\"r\":1,\"c\":[" + repeated(10<<20, "1,0") + "]}\n")), 2, 0, "a line longer than"},
		{"a million cell changes", lines("{\"r\":1,\"c\":[" + repeated(1<<20, "1,0") + "]}\n"), 2, 0, "2097152 numbers of cell changes (c) in one round (at most 200"},
		{"100 MiB of spaces, compressed", gzipped(lines("{\"r\":1," + strings.Repeat(" ", 100<<20) + "}\n")), 2, 0, "a line longer than"},
		{"a 65 MiB line", lines("{\"r\":1," + strings.Repeat(" ", 65<<20) + "}\n"), 2, 0, "a line longer than 67108864 bytes"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			rep, err, n := readMeasured(c.data)
			if bound := refusedBound(c.data); n > bound {
				t.Errorf("allocated %d bytes reading %d; want at most %d", n, len(c.data), bound)
			}
			if err != nil {
				t.Fatal(err)
			}
			var fe *FormatError
			if !errors.As(rep.Damage, &fe) {
				t.Fatalf("damage %v, want a FormatError", rep.Damage)
			}
			if msg := fe.Error(); fe.Line != c.line || !strings.Contains(msg, c.want) || strings.Contains(msg, "\n") ||
				!strings.HasPrefix(msg, fmt.Sprintf("h.sbr: line %d: ", c.line)) {
				t.Errorf("damage %q; want one line naming h.sbr: line %d and saying %q", msg, c.line, c.want)
			}
			if got := rep.Timeline.Last(); got != c.last {
				t.Errorf("plays up to round %d, want %d", got, c.last)
			}
			t.Logf("%d bytes: %d allocated: %v", len(c.data), n, fe)
		})
	}
}

// TestManyRounds: rounds are kept (they are the battle), a few hundred
// bytes each; keyframes are spaced so that a large arena is not copied
// every 64 rounds: at most keyframeBudget of them.
func TestManyRounds(t *testing.T) {
	if testing.Short() {
		t.Skip("reads 100000 rounds")
	}
	cases := []struct {
		name          string
		data          []byte
		cells, rounds int
	}{
		{"100000 quiet rounds", []byte(header(10, 100_000, "") + string(quietRounds(100_000))), 100, 100_000},
		{"100000 quiet rounds, compressed", gzipped([]byte(header(10, 100_000, "") + string(quietRounds(100_000)))), 100, 100_000},
		{"20000 quiet rounds of a 2000×2000 arena, compressed", gzipped(hugeArena(MaxSize, 20_000)), MaxSize * MaxSize, 20_000},
		{"2000 quiet rounds of a 2000×2000 arena of 10^7 rounds, compressed", gzipped(bytes.Replace(hugeArena(MaxSize, 2000), []byte(`"rounds":2000`), []byte(`"rounds":10000000`), 1)), MaxSize * MaxSize, 2000},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			rep, err, n := readMeasured(c.data)
			if err != nil || rep.Damage != nil {
				t.Fatalf("%v %v", err, rep.Damage)
			}
			if rep.Timeline.Last() != c.rounds {
				t.Fatalf("%d rounds, want %d", rep.Timeline.Last(), c.rounds)
			}
			if bound := readBound(c.data, c.cells, c.rounds) + keyframeBudget; n > bound {
				t.Errorf("allocated %d bytes reading %d; want at most %d", n, len(c.data), bound)
			}
			t.Logf("%d bytes: %d allocated (%d a round)", len(c.data), n, n/uint64(c.rounds))
		})
	}
}
