package engine

import (
	"reflect"
	"testing"
)

// faultyPlayer is a randomPlayer that also times out, errs and asks for
// impossible classes now and then, so every kind of event shows up.
type faultyPlayer struct{ randomPlayer }

func (p *faultyPlayer) Turn(t *Turn) {
	p.randomPlayer.Turn(t)
	for i := range t.Intents {
		switch p.rng.IntN(40) {
		case 0:
			t.Intents[i].Fault = FaultTimeout
		case 1:
			t.Intents[i].Fault = FaultError
			t.Report.Problems = append(t.Report.Problems, Problem{Class: 0, Square: t.Squares[i].ID, Kind: FaultError, Message: "boom"})
		case 2:
			t.Intents[i].Become = 7
		}
	}
}

func eventBattle(t *testing.T, seed uint64, size, teams int) *Battle {
	o := Options{Size: size, Wrap: true, Rounds: 300, ReplicateRounds: 3, Seed: seed, Classes: []string{"r"}}
	for team := 0; team < teams; team++ {
		o.Teams = append(o.Teams, TeamSetup{Player: Player{Name: "R"}, Controller: &faultyPlayer{randomPlayer{rng: NewRand(seed, TeamStream(team))}}})
	}
	b, err := NewBattle(o)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(b.Close)
	return b
}

// TestTimelineRebuildsEveryRound records battles and checks that the
// picture rebuilt for every round, forwards and backwards and after a trim,
// equals the live snapshot of that round: the events carry everything the
// statistics need.
func TestTimelineRebuildsEveryRound(t *testing.T) {
	cases := []struct {
		name         string
		seed         uint64
		size, teams  int
		every, keep  int
		wantProblems bool
	}{
		{"small arena, keyframe every round", 1, 8, 3, 1, 0, true},
		{"crowded", 2, 12, 6, 7, 0, true},
		{"default keyframes", 3, 20, 4, 0, 0, true},
		{"trimmed", 4, 16, 4, 10, 50, true},
	}
	kinds := map[DeathKind]int{}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			b := eventBattle(t, c.seed, c.size, c.teams)
			rec := NewRecorder(b)
			tl := NewTimeline(b.Snapshot(), c.every)
			live := []*Snapshot{b.Snapshot()}
			for b.Step() {
				l := rec.Next()
				for _, d := range l.Deaths {
					kinds[d.Kind]++
				}
				if err := tl.Add(l); err != nil {
					t.Fatal(err)
				}
				if b.Over() {
					tl.End()
				}
				live = append(live, b.Snapshot())
				if c.keep > 0 {
					tl.Trim(c.keep)
				}
			}
			first := tl.First()
			if c.keep > 0 && (first < tl.Last()-c.keep-tl.every || first > tl.Last()-c.keep) {
				t.Errorf("after trimming to %d rounds, first is %d of %d", c.keep, first, tl.Last())
			}
			check := func(r int) {
				got, want := tl.At(r), live[r]
				if !reflect.DeepEqual(got, want) {
					t.Fatalf("round %d rebuilt differs from live:\n got %+v\nwant %+v", r, got.Teams, want.Teams)
				}
			}
			for r := first; r <= tl.Last(); r++ {
				check(r)
			}
			for r := tl.Last(); r >= first; r -= 3 {
				check(r)
			}
			if s := tl.At(tl.Last()); c.wantProblems && len(s.FirstProblems) == 0 {
				t.Error("no problems recorded")
			}
			for team := range live[0].Teams {
				sq := tl.Squares(team)
				for r, s := range live {
					if int(sq[r]) != s.Teams[team].Stats.Squares {
						t.Fatalf("team %d squares after round %d: %d, want %d", team, r, sq[r], s.Teams[team].Stats.Squares)
					}
				}
			}
		})
	}
	if len(kinds) < 3 {
		t.Errorf("death kinds seen: %v, want all three", kinds)
	}
}

func TestTimelineRefusesBadLogs(t *testing.T) {
	b := eventBattle(t, 5, 6, 2)
	tl := NewTimeline(b.Snapshot(), 4)
	cases := []badLog{
		{"skips a round", RoundLog{Round: 2}},
		{"cell out of range", RoundLog{Round: 1, Changes: []CellChange{{Cell: 36, Team: 0}}}},
		{"cells out of order", RoundLog{Round: 1, Changes: []CellChange{{Cell: 5, Team: 0}, {Cell: 3, Team: 1}}}},
		{"unknown team", RoundLog{Round: 1, Changes: []CellChange{{Cell: 1, Team: 2}}}},
		{"unknown killer", RoundLog{Round: 1, Deaths: []DeathEvent{{Team: 0, Killer: 9}}}},
		{"unknown birth team", RoundLog{Round: 1, Births: []BirthEvent{{Team: -1}}}},
		{"unknown fault team", RoundLog{Round: 1, Faults: []FaultEvent{{Team: 3}}}},
	}
	// Births and deaths that do not agree with the board (a replay's
	// lies): the totals would leave the cells behind.
	start := b.Snapshot()
	held, empty := int32(-1), int32(-1)
	for c, team := range start.Cells {
		switch {
		case team == 0 && held < 0:
			held = int32(c)
		case team == Empty && empty < 0:
			empty = int32(c)
		}
	}
	if held < 0 || empty < 0 {
		t.Fatal("the battle has no square of team 0 or no empty cell")
	}
	cases = append(cases,
		badLog{"a death without its cell", RoundLog{Round: 1, Deaths: []DeathEvent{{Team: 0, Cell: int(held), Killer: 1, Kind: DiedAttacked}}}},
		badLog{"a birth without its cell", RoundLog{Round: 1, Births: []BirthEvent{{Team: 0, Cell: int(empty)}}}},
		badLog{"a cell taken without a birth", RoundLog{Round: 1, Changes: []CellChange{{Cell: empty, Team: 0}}}},
		badLog{"a birth's cell out of range", RoundLog{Round: 1, Births: []BirthEvent{{Team: 0, Cell: 36}}}},
		badLog{"a death's cell out of range", RoundLog{Round: 1, Deaths: []DeathEvent{{Team: 0, Cell: -1, Killer: 1}}}},
		badLog{"a cell lost without a death", RoundLog{Round: 1, Changes: []CellChange{{Cell: held, Team: Empty}}}},
		badLog{"a birth counted for another team", RoundLog{Round: 1, Changes: []CellChange{{Cell: empty, Team: 0}}, Births: []BirthEvent{{Team: 1, Cell: int(empty)}}}},
	)
	refuseAll(t, tl, cases)
	tl.End()
	if err := tl.Add(RoundLog{Round: 1}); err == nil {
		t.Error("a round after the end was accepted")
	}
	// A start whose totals are already wrong cannot be led below zero.
	start.Teams[0].Stats.Squares = 0
	refuseAll(t, NewTimeline(start, 4), []badLog{{"fewer than no squares",
		RoundLog{Round: 1, Changes: []CellChange{{Cell: held, Team: Empty}}, Deaths: []DeathEvent{{Team: 0, Cell: int(held), Killer: 1, Kind: DiedAttacked}}}}})
	// What agrees is taken.
	ok := NewTimeline(b.Snapshot(), 4)
	if err := ok.Add(RoundLog{Round: 1, Changes: []CellChange{{Cell: held, Team: Empty}}, Deaths: []DeathEvent{{Team: 0, Cell: int(held), Killer: 1, Kind: DiedAttacked}}}); err != nil {
		t.Errorf("a death that agrees with its cell: %v", err)
	}
}

// TestModTimelineRebuildsEveryRound is TestTimelineRebuildsEveryRound for
// rule mod battles: the marks, the score columns, the units and the lost
// turns of every round rebuild equal to the live snapshot.
func TestModTimelineRebuildsEveryRound(t *testing.T) {
	cases := []struct {
		name        string
		seed        uint64
		every, keep int
		rules       *trailRules
		walkers     []*walker
	}{
		{"keyframe every round", 1, 1, 0, &trailRules{}, []*walker{{}, {}, {}}},
		{"faults and a rules failure", 2, 7, 0, &trailRules{failAt: 33}, []*walker{{fault: FaultTimeout}, {panic: true}, {fault: FaultError}}},
		{"sequenced, trimmed", 3, 5, 20, &trailRules{sequenced: true}, []*walker{{}, {}, {}, {}}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			m := modBattle(t, c.seed, 2, c.rules, c.walkers...)
			rec := NewModRecorder(m)
			tl := NewTimeline(m.Snapshot(), c.every)
			live := []*Snapshot{m.Snapshot()}
			marks, values, faults := 0, 0, 0
			for m.Step() {
				l := rec.Next()
				marks += len(l.Marks)
				values += len(l.Values)
				faults += len(l.Faults)
				if err := tl.Add(l); err != nil {
					t.Fatal(err)
				}
				live = append(live, m.Snapshot())
				if m.Over() {
					tl.EndWinner(live[len(live)-1].Winner)
				}
				if c.keep > 0 {
					tl.Trim(c.keep)
				}
			}
			if marks == 0 || values == 0 {
				t.Fatalf("%d mark changes, %d score changes recorded", marks, values)
			}
			if c.walkers[0].fault != NoFault && faults == 0 {
				t.Fatal("no lost turns recorded")
			}
			for r := tl.First(); r <= tl.Last(); r++ {
				if got, want := tl.At(r), live[r]; !reflect.DeepEqual(got, want) {
					t.Fatalf("round %d rebuilt differs from live:\n got %+v\nwant %+v", r, got.Teams, want.Teams)
				}
			}
			for r := tl.Last(); r >= tl.First(); r -= 3 {
				if got, want := tl.At(r), live[r]; !reflect.DeepEqual(got, want) {
					t.Fatalf("round %d (backwards) rebuilt differs from live", r)
				}
			}
			for team := range live[0].Teams {
				trend := tl.Squares(team)
				for r, s := range live {
					if int(trend[r]) != s.Teams[team].Values[0] {
						t.Fatalf("team %d trend after round %d: %d, want its score %d", team, r, trend[r], s.Teams[team].Values[0])
					}
				}
			}
		})
	}
}

func TestModTimelineRefusesBadLogs(t *testing.T) {
	m := modBattle(t, 5, 1, &trailRules{}, &walker{}, &walker{})
	tl := NewTimeline(m.Snapshot(), 4)
	cases := []badLog{
		{"mark cell out of range", RoundLog{Round: 1, Marks: []MarkChange{{Cell: 144}}}},
		{"marks out of order", RoundLog{Round: 1, Marks: []MarkChange{{Cell: 5}, {Cell: 5}}}},
		{"no such style", RoundLog{Round: 1, Marks: []MarkChange{{Cell: 1, Mark: NewMark(styleCount, 0)}}}},
		{"unknown values team", RoundLog{Round: 1, Values: []TeamValues{{Team: 2, Values: []int{1}}}}},
		{"too many columns", RoundLog{Round: 1, Values: []TeamValues{{Team: 0, Values: []int{1, 2}}}}},
		{"a death", RoundLog{Round: 1, Deaths: []DeathEvent{{Team: 0, Killer: 1}}}},
	}
	refuseAll(t, tl, cases)
	sb := NewTimeline(eventBattle(t, 5, 6, 2).Snapshot(), 4)
	if err := sb.Add(RoundLog{Round: 1, Marks: []MarkChange{{Cell: 1}}}); err == nil {
		t.Error("a SquareBattle timeline accepted marks")
	}
}

type badLog struct {
	name string
	log  RoundLog
}

// refuseAll checks that tl, at round 0, refuses every log and stays as it was.
func refuseAll(t *testing.T, tl *Timeline, cases []badLog) {
	t.Helper()
	before := tl.At(0)
	for _, c := range cases {
		if err := tl.Add(c.log); err == nil {
			t.Errorf("%s: accepted", c.name)
		}
	}
	if tl.Last() != 0 || !reflect.DeepEqual(tl.At(0), before) {
		t.Error("a refused log changed the timeline")
	}
}
