package engine

import (
	"reflect"
	"testing"
)

// randomPlayer answers with seeded random intents, replicating now and then.
type randomPlayer struct{ rng *Rand }

func (p *randomPlayer) Turn(t *Turn) {
	for i := range t.Intents {
		in := intent(Action(p.rng.IntN(4)), Direction(p.rng.IntN(8)))
		if in.Action == Replicate && p.rng.IntN(4) != 0 {
			in.Action = Attack
		}
		t.Intents[i] = in
	}
}
func (p *randomPlayer) Settle(*Settlement) {}

func randomBattle(t *testing.T, seed uint64, workers int) *Battle {
	o := Options{Size: 24, Wrap: true, Rounds: 400, ReplicateRounds: 5, Seed: seed, Workers: workers, Classes: []string{"r"}}
	for team := 0; team < 6; team++ {
		o.Teams = append(o.Teams, TeamSetup{Player: Player{Name: "R"}, Controller: &randomPlayer{rng: NewRand(seed, TeamStream(team))}})
	}
	b, err := NewBattle(o)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(b.Close)
	return b
}

// TestWorkersDoNotChangeTheBattle plays the same seeded battle on one and on
// four workers and compares every round's snapshot.
func TestWorkersDoNotChangeTheBattle(t *testing.T) {
	for _, seed := range []uint64{1, 2, 99} {
		one, four := randomBattle(t, seed, 1), randomBattle(t, seed, 4)
		for one.Step() {
			four.Step()
			a, b := one.Snapshot(), four.Snapshot()
			if !reflect.DeepEqual(a, b) {
				t.Fatalf("seed %d: round %d differs between 1 and 4 workers", seed, a.Round)
			}
		}
		if !four.Over() {
			t.Fatalf("seed %d: four workers still running after one worker ended", seed)
		}
	}
}

func TestRandStreams(t *testing.T) {
	a, b := NewRand(7, 1), NewRand(7, 1)
	c := NewRand(7, 2)
	same, differ := true, false
	for i := 0; i < 100; i++ {
		x, y, z := a.Uint64(), b.Uint64(), c.Uint64()
		same = same && x == y
		differ = differ || x != z
	}
	if !same || !differ {
		t.Errorf("streams: same seed+stream equal=%v, other stream differs=%v", same, differ)
	}
	r := NewRand(1, 1)
	counts := make([]int, 6)
	for i := 0; i < 60000; i++ {
		counts[r.IntN(6)]++
	}
	for v, n := range counts {
		if n < 9000 || n > 11000 {
			t.Errorf("IntN(6) gave %d %d times in 60000", v, n)
		}
	}
	// Pin the first values so a change to the generator is noticed: replays
	// recorded with an older build would no longer reproduce.
	if got, pinnedFirst := NewRand(42, StreamPlacement).Uint64(), uint64(8622440120750775459); got != pinnedFirst {
		t.Errorf("first value of seed 42 placement stream = %d, want %d", got, pinnedFirst)
	}
}
