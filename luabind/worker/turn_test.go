package worker

import (
	"slices"
	"testing"

	"github.com/squarebattle/squarebattle/engine"
)

// TestTurnCodec: squares and intents come back as they went, large and
// out-of-order values included, and a frame that lies is refused.
func TestTurnCodec(t *testing.T) {
	squares := []engine.Ready{
		{ID: 0, Class: 0, Row: 0, Col: 0, View: [8]int32{-2, -1, 0, 1, 2, 3, -1, -2}},
		{ID: 5, Class: 2, Row: 63, Col: 1, View: [8]int32{-1, -1, -1, -1, -1, -1, -1, -1}},
		{ID: 3, Class: 1, Row: 200, Col: 1 << 20, View: [8]int32{maxTeams, 127, 128, 0, 0, 0, 0, 0}},
		{ID: 1<<31 - 1, Class: 2, Row: 1 << 20, Col: 0, View: [8]int32{}},
	}
	var e enc
	e.start(kindTurn)
	putSquares(&e, squares)
	var got engine.Turn
	d := &dec{b: e.b[lenRoom+1:]}
	getSquares(d, &got, 3)
	if err := d.end(); err != nil || !slices.Equal(got.Squares, squares) {
		t.Fatalf("squares: %v\n got %+v\nwant %+v", err, got.Squares, squares)
	}
	for i, in := range got.Intents {
		if in != engine.WaitIntent {
			t.Errorf("intent %d arrives as %+v, want a wait", i, in)
		}
	}
	d = &dec{b: e.b[lenRoom+1:]}
	getSquares(d, &got, 2) // class 2 is out of range
	if d.end() == nil {
		t.Error("a class the worker does not know was accepted")
	}

	intents := []engine.Intent{
		engine.WaitIntent,
		{Action: engine.Replicate, Dir: 7, Child: 2, Become: engine.NoClass},
		{Action: engine.Move, Dir: 3, Child: engine.NoClass, Become: 300},
		{Action: engine.Wait, Child: engine.NoClass, Become: engine.NoClass, Fault: engine.FaultTimeout},
		{Action: engine.Attack, Dir: 5, Child: engine.NoClass, Become: engine.NoClass, Fault: engine.FaultError},
	}
	e.start(kindOK)
	putIntents(&e, intents)
	d = &dec{b: e.b[lenRoom+1:]}
	back := getIntents(d, len(intents), 301, nil)
	if err := d.end(); err != nil || !slices.Equal(back, intents) {
		t.Fatalf("intents: %v\n got %+v\nwant %+v", err, back, intents)
	}
	for _, c := range []struct {
		name   string
		n, cls int
		frame  []byte
	}{
		{"count differs", 4, 301, e.b[lenRoom+1:]},
		{"class out of range", 5, 299, e.b[lenRoom+1:]},
		{"bad fault", 1, 1, []byte{1, 3 << 5}},
		{"count past the frame", 1 << 20, 1, []byte{0x80, 0x80, 0x40, 0}},
	} {
		d := &dec{b: c.frame}
		getIntents(d, c.n, c.cls, nil)
		if d.end() == nil {
			t.Errorf("%s: accepted", c.name)
		}
	}
}

// BenchmarkTurnCodec is a round's coding for one team of a full 64×64
// board of four teams (1,024 squares): the parent writes the squares, the
// worker reads them and writes the intents, the parent reads those.
func BenchmarkTurnCodec(b *testing.B) {
	const n = 1024
	squares := make([]engine.Ready, n)
	for i := range squares {
		r := &squares[i]
		r.ID, r.Class, r.Row, r.Col = engine.SquareID(i*4), 0, i/16, i%64
		for k := range r.View {
			r.View[k] = int32((i + k) % 4)
		}
	}
	var pe, we enc
	var wt engine.Turn
	var intents []engine.Intent
	for b.Loop() {
		pe.start(kindTurn)
		putSquares(&pe, squares)
		d := &dec{b: frameBody(pe.finish())[1:]}
		getSquares(d, &wt, 1)
		we.start(kindOK)
		putIntents(&we, wt.Intents)
		d = &dec{b: frameBody(we.finish())[1:]}
		intents = getIntents(d, n, 1, intents)
		if d.end() != nil {
			b.Fatal("malformed")
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*n), "ns/square")
}
