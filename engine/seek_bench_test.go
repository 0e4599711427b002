package engine

import (
	"sync"
	"testing"
)

// seekBattle is a recorded 150×150 battle of 5000 rounds, built once per
// test binary: four teams of random players (move, attack, now and then
// replicate) that keep a few thousand squares busy all battle long.
var seekBattle = sync.OnceValues(func() (*Timeline, error) {
	const size, rounds = 150, 5000
	m := &Map{Size: size, Cells: make([]int, size*size)}
	for i := range m.Cells {
		m.Cells[i] = Empty
		if i%9 == 0 {
			m.Cells[i] = i / 9 % 4
		}
	}
	o := Options{Size: size, Wrap: true, Rounds: rounds, ReplicateRounds: 5, Seed: 11, Map: m, Classes: []string{"r"}}
	for team := 0; team < 4; team++ {
		o.Teams = append(o.Teams, TeamSetup{Player: Player{Name: "R"}, Controller: &randomPlayer{rng: NewRand(11, TeamStream(team))}})
	}
	b, err := NewBattle(o)
	if err != nil {
		return nil, err
	}
	defer b.Close()
	rec := NewRecorder(b)
	tl := NewTimeline(b.Snapshot(), 0)
	for b.Step() {
		if err := tl.Add(rec.Next()); err != nil {
			return nil, err
		}
	}
	return tl, nil
})

// BenchmarkTimelineSeek is the cost of showing any round of a long
// recorded battle again (rewind, a replay's Home/PgUp/jump): At on a
// random round rebuilds it from the keyframe at or before it. A frame at
// 60 fps is 16.7 ms; a seek must be a small part of that.
//
//	go test -run '^$' -bench TimelineSeek ./engine/
func BenchmarkTimelineSeek(b *testing.B) {
	tl, err := seekBattle()
	if err != nil {
		b.Fatal(err)
	}
	changes := 0
	for r := tl.First() + 1; r <= tl.Last(); r++ {
		l, _ := tl.Log(r)
		changes += len(l.Changes)
	}
	rng := NewRand(1, 0)
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		if s := tl.At(rng.IntN(tl.Last() + 1)); s == nil {
			b.Fatal("no snapshot")
		}
	}
	b.ReportMetric(float64(changes)/float64(tl.Last()), "changes/round")
}
