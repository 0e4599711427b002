package engine

import (
	"reflect"
	"strings"
	"testing"
)

// FuzzParseMap: any text either parses into a map that prints and parses
// back to itself, or is refused with a one-line error; never a panic.
func FuzzParseMap(f *testing.F) {
	for _, s := range []string{
		"0 -1\n-1 1\n",
		"# comment\n0 1 -1\n-1 -1 -1\n2 -1 -1\n",
		"0\n",
		"",
		"0 1\n1\n",
		"x y\nz w\n",
		"-1 -1\n-1 -1\n",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		m, err := ParseMap("fuzz.map", data)
		if err != nil {
			if strings.Contains(err.Error(), "\n") {
				t.Errorf("error is not one line: %q", err)
			}
			return
		}
		again, err := ParseMap("again.map", []byte(m.Format()))
		if err != nil {
			t.Fatalf("a parsed map does not parse again: %v\n%s", err, m.Format())
		}
		if m.Size != again.Size || !reflect.DeepEqual(m.Cells, again.Cells) {
			t.Fatalf("round trip changed the map:\n%v\n%v", m, again)
		}
	})
}

// fuzzed answers with intents read from the fuzzer's bytes, including
// impossible ones (unknown actions, directions and classes).
type fuzzed struct {
	data []byte
	pos  int
}

func (f *fuzzed) next() byte {
	if len(f.data) == 0 {
		return 0
	}
	b := f.data[f.pos%len(f.data)]
	f.pos++
	return b
}

func (f *fuzzed) Turn(t *Turn) {
	for i := range t.Intents {
		b := f.next()
		in := Intent{Action: Action(b % 5), Dir: Direction(f.next() % 9), Child: ClassID(b>>5) - 1, Become: NoClass}
		if b&0x10 != 0 {
			in.Become = ClassID(f.next()%4) - 1
		}
		if b == 0xff {
			in.Fault = FaultTimeout
		}
		t.Intents[i] = in
	}
}
func (f *fuzzed) Settle(*Settlement) {}

// FuzzResolve plays battles whose intents come from the fuzzer and checks
// the resolver's invariants after every round: no two squares share a
// cell, the arena and the list of live squares agree, every team's square
// count equals its births minus its deaths plus its first square, and every
// death was reported exactly once.
func FuzzResolve(f *testing.F) {
	f.Add([]byte{1, 2, 3, 4, 5, 6, 7, 8}, uint8(6), uint8(3), true)
	f.Add([]byte{3, 3, 3, 3}, uint8(4), uint8(2), false)
	f.Add([]byte{0xff, 0x13, 0x22, 0x31, 0x47}, uint8(5), uint8(4), true)
	f.Fuzz(func(t *testing.T, data []byte, size, teams uint8, wrap bool) {
		n := 3 + int(size%10)
		k := 1 + int(teams%6)
		o := Options{Size: n, Wrap: wrap, Rounds: 60, ReplicateRounds: 2, Seed: uint64(len(data)), Classes: []string{"a", "b"}}
		for i := 0; i < k; i++ {
			o.Teams = append(o.Teams, TeamSetup{Player: Player{Name: "F"}, Controller: &fuzzed{data: data, pos: i}})
		}
		b, err := NewBattle(o)
		if err != nil {
			t.Fatal(err)
		}
		defer b.Close()
		deaths := map[SquareID]int{}
		for b.Step() {
			for tm := range b.teams {
				for _, d := range b.teams[tm].settlement.Deaths {
					deaths[d.Square]++
				}
			}
			checkInvariants(t, b, deaths)
		}
	})
}

func checkInvariants(t *testing.T, b *Battle, deaths map[SquareID]int) {
	t.Helper()
	cells := map[int32]SquareID{}
	count := make([]int, len(b.teams))
	for _, id := range b.live {
		sq := &b.squares[id]
		if !sq.alive {
			t.Fatalf("round %d: dead square %d is in the live list", b.round, id)
		}
		if other, ok := cells[sq.cell]; ok {
			t.Fatalf("round %d: squares %d and %d share cell %d", b.round, other, id, sq.cell)
		}
		cells[sq.cell] = id
		if b.grid[sq.cell] != id {
			t.Fatalf("round %d: the arena shows %d on cell %d, the list square %d", b.round, b.grid[sq.cell], sq.cell, id)
		}
		count[sq.team]++
	}
	for c, id := range b.grid {
		if id >= 0 && cells[int32(c)] != id {
			t.Fatalf("round %d: cell %d holds square %d, which is not live there", b.round, c, id)
		}
	}
	for tm, st := range b.stats {
		if st.Squares != count[tm] || st.Squares != 1+st.Births-st.Deaths {
			t.Fatalf("round %d: team %d has %d squares, stats say %d (1 + %d births - %d deaths)", b.round, tm, count[tm], st.Squares, st.Births, st.Deaths)
		}
	}
	for id, n := range deaths {
		if n != 1 || b.squares[id].alive {
			t.Fatalf("round %d: square %d reported dead %d times (alive %v)", b.round, id, n, b.squares[id].alive)
		}
	}
}
