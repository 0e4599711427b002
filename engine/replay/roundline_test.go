package replay

import (
	"bytes"
	"encoding/json"
	"io"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/squarebattle/squarebattle/engine"
)

// TestRoundLineMatchesJSON: a round's line written by appendRound is, byte
// for byte, what encoding/json's Encoder (HTML escaping off) writes for
// it, for rounds with every field empty, full or in between, numbers of
// every size and sign, and strings that json escapes or mends (HTML
// characters, controls, line separators, invalid UTF-8), so replays are
// the same files they were.
func TestRoundLineMatchesJSON(t *testing.T) {
	rng := rand.New(rand.NewPCG(29, 1))
	ints := func() []int {
		if rng.IntN(3) == 0 {
			return nil
		}
		xs := make([]int, rng.IntN(40))
		for i := range xs {
			switch rng.IntN(4) {
			case 0:
				xs[i] = rng.IntN(10)
			case 1:
				xs[i] = -rng.IntN(1000)
			case 2:
				xs[i] = int(rng.Int64()) // any size
			default:
				xs[i] = []int{0, math.MaxInt, math.MinInt, math.MaxInt32, math.MinInt32}[rng.IntN(5)]
			}
		}
		return xs
	}
	ints32 := func() []int32 {
		var xs []int32
		for _, x := range ints() {
			xs = append(xs, int32(x))
		}
		if xs == nil && rng.IntN(2) == 0 {
			xs = []int32{} // empty but not nil: left out all the same
		}
		return xs
	}
	text := func() string {
		parts := []string{"a", "<b>", "&amp;", "\x00", "\x1b[2J", "\u2028", "\u2029", "é", "\xff\xfe", `"`, `\`, "\t", "💥", " "}
		var b bytes.Buffer
		for range rng.IntN(6) {
			b.WriteString(parts[rng.IntN(len(parts))])
		}
		return b.String()
	}
	for i := range 3000 {
		r := round{R: int(rng.Int64N(1 << 40)), C: ints32(), B: ints(), D: ints(), F: ints(), M: ints32(), V: ints()}
		if i%2 == 0 {
			for range rng.IntN(3) {
				r.P = append(r.P, problem{Team: rng.IntN(4), Class: rng.IntN(3), Square: rng.IntN(5000), Kind: 1 + rng.IntN(2), Message: text()})
			}
			for range rng.IntN(2) {
				r.W = append(r.W, backstop{Team: rng.IntN(4), Phase: "turn", Batch: rng.IntN(3), Class: rng.IntN(2), Kind: text(), Message: text()})
			}
			for range rng.IntN(2) {
				r.L = append(r.L, printed{Team: rng.IntN(4), Lines: []string{text(), text()}, Cut: rng.IntN(3)})
			}
			r.A = encodeAnswers([]engine.Answered{{Team: rng.IntN(4), Settle: rng.IntN(2) == 0, Batch: rng.IntN(3),
				Intents:  []engine.Intent{{Action: engine.Action(rng.IntN(4)), Dir: engine.Direction(rng.IntN(8))}},
				Answers:  []engine.RecordedAnswer{{Value: json.RawMessage(`{ "x" : [1, 2] }`)}, {Value: nil, Used: rng.IntN(9)}},
				Timeouts: rng.IntN(2)}})[:rng.IntN(2)]
		}
		var want bytes.Buffer
		enc := json.NewEncoder(&want)
		enc.SetEscapeHTML(false)
		if err := enc.Encode(r); err != nil {
			t.Fatal(err)
		}
		got, err := appendRound([]byte("kept:"), &r)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got, append([]byte("kept:"), want.Bytes()...)) {
			t.Fatalf("round %d:\n got %s\nwant %s", i, got, want.Bytes())
		}
	}
}

// BenchmarkRoundLine is a busy round of a full 64×64 arena, 684 squares
// moving: its line written by appendRound and by encoding/json.
func BenchmarkRoundLine(b *testing.B) {
	r := round{R: 417}
	for i := range 684 {
		r.C = append(r.C, int32(3+i%11), int32(i%4))
	}
	for i := range 30 {
		r.B = append(r.B, i%4, 100*i, 1)
		r.D = append(r.D, i%4, 97*i, (i+1)%4, 1)
	}
	b.Run("append", func(b *testing.B) {
		var buf []byte
		for b.Loop() {
			buf, _ = appendRound(buf[:0], &r)
		}
		b.SetBytes(int64(len(buf)))
	})
	b.Run("json", func(b *testing.B) {
		var buf bytes.Buffer
		enc := json.NewEncoder(&buf)
		enc.SetEscapeHTML(false)
		for b.Loop() {
			buf.Reset()
			_ = enc.Encode(r)
		}
		b.SetBytes(int64(buf.Len()))
	})
}

// BenchmarkWriterRound is the recorder's whole cost of that busy round:
// the line, the buffer and gzip (a flush every FlushEvery rounds).
func BenchmarkWriterRound(b *testing.B) {
	l := &engine.RoundLog{Round: 417}
	for i := range 684 {
		l.Changes = append(l.Changes, engine.CellChange{Cell: int32(5 * i), Team: int32(i % 4)})
	}
	for i := range 30 {
		l.Births = append(l.Births, engine.BirthEvent{Team: i % 4, Cell: 100 * i, Class: 1})
		l.Deaths = append(l.Deaths, engine.DeathEvent{Team: i % 4, Cell: 97 * i, Killer: (i + 1) % 4, Kind: 1})
	}
	start := &engine.Snapshot{Size: 64, Cells: make([]int32, 64*64)}
	w, err := NewWriter(io.Discard, Header{}, start)
	if err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		if err := w.Round(l); err != nil {
			b.Fatal(err)
		}
	}
}
