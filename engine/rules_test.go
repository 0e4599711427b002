package engine

import (
	"reflect"
	"testing"
)

// TestRules pins each rule of DESIGN.md "SquareBattle rules" with a small
// arena, one round, and the expected board and statistics.
func TestRules(t *testing.T) {
	tests := []struct {
		name    string
		board   string
		intents []Intent           // per team
		decide  func(Ready) Intent // when set, team 0 answers with it instead
		want    string
		stats   []Stats // after the round (Squares, Births, Kills, Deaths, Collisions)
	}{
		{
			name:    "two squares of one team meeting in a cell both die as a collision",
			board:   "0 -1 0\n-1 -1 -1\n-1 -1 1",
			intents: []Intent{{}, WaitIntent},
			decide: func(r Ready) Intent {
				if r.Col == 0 {
					return intent(Move, E)
				}
				return intent(Move, W)
			},
			want:  "-1\t-1\t-1\n-1\t-1\t-1\n-1\t-1\t1\n",
			stats: []Stats{{Deaths: 2, Collisions: 2}, {Squares: 1}},
		},
		{
			name:    "a collision with own team and an enemy counts a collision for the team only",
			board:   "0 -1 0\n-1 1 -1\n-1 -1 -1",
			intents: []Intent{{}, intent(Move, N)},
			decide: func(r Ready) Intent {
				if r.Col == 0 {
					return intent(Move, E)
				}
				return intent(Move, W)
			},
			want:  "-1\t-1\t-1\n-1\t-1\t-1\n-1\t-1\t-1\n",
			stats: []Stats{{Deaths: 2, Collisions: 2, Kills: 1}, {Deaths: 1, Kills: 0}},
		},
		{
			name:    "enemy collision kills both, each team credited a kill",
			board:   "0 -1 1\n-1 -1 -1\n-1 -1 -1",
			intents: []Intent{intent(Move, E), intent(Move, W)},
			want:    "-1\t-1\t-1\n-1\t-1\t-1\n-1\t-1\t-1\n",
			stats:   []Stats{{Deaths: 1, Kills: 1}, {Deaths: 1, Kills: 1}},
		},
		{
			name:    "swapping cells is not a collision",
			board:   "0 1 -1 -1\n-1 -1 -1 -1\n-1 -1 -1 -1\n-1 -1 -1 -1",
			intents: []Intent{intent(Move, E), intent(Move, W)},
			want:    "1\t0\t-1\t-1\n-1\t-1\t-1\t-1\n-1\t-1\t-1\t-1\n-1\t-1\t-1\t-1\n",
			stats:   []Stats{{Squares: 1}, {Squares: 1}},
		},
		{
			name:    "friendly fire kills without a kill credit",
			board:   "0 0 -1\n-1 -1 -1\n-1 -1 1",
			intents: []Intent{intent(Attack, E), WaitIntent},
			// the left square attacks the right one; the right one attacks an empty cell
			want:  "0\t-1\t-1\n-1\t-1\t-1\n-1\t-1\t1\n",
			stats: []Stats{{Squares: 1, Deaths: 1}, {Squares: 1}},
		},
		{
			name:    "a square that moves away escapes the attack on its old cell",
			board:   "0 1 -1 -1\n-1 -1 -1 -1\n-1 -1 -1 -1\n-1 -1 -1 -1",
			intents: []Intent{intent(Attack, E), intent(Move, S)},
			want:    "0\t-1\t-1\t-1\n-1\t1\t-1\t-1\n-1\t-1\t-1\t-1\n-1\t-1\t-1\t-1\n",
			stats:   []Stats{{Squares: 1}, {Squares: 1}},
		},
		{
			name:    "an attacked cell kills every square in it, no collision counted",
			board:   "0 -1 0 -1\n-1 1 -1 -1\n-1 -1 -1 -1\n-1 -1 -1 -1",
			intents: []Intent{{}, intent(Attack, N)},
			decide: func(r Ready) Intent {
				if r.Col == 0 {
					return intent(Move, E)
				}
				return intent(Move, W)
			},
			want:  "-1\t-1\t-1\t-1\n-1\t1\t-1\t-1\n-1\t-1\t-1\t-1\n-1\t-1\t-1\t-1\n",
			stats: []Stats{{Deaths: 2}, {Squares: 1, Kills: 2}},
		},
		{
			name:    "replicating into an occupied cell kills child and occupant",
			board:   "0 1 -1 -1\n-1 -1 -1 -1\n-1 -1 -1 -1\n-1 -1 -1 -1",
			intents: []Intent{intent(Replicate, E), WaitIntent},
			want:    "0\t-1\t-1\t-1\n-1\t-1\t-1\t-1\n-1\t-1\t-1\t-1\n-1\t-1\t-1\t-1\n",
			stats:   []Stats{{Squares: 1, Births: 1, Deaths: 1, Kills: 1}, {Deaths: 1, Kills: 1}},
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			ctrls := make([]Controller, len(tc.intents))
			for i, in := range tc.intents {
				c := &scripted{intent: in}
				if tc.decide != nil && i == 0 {
					c.decide = func(t *Turn, k int) Intent { return tc.decide(t.Squares[k]) }
				}
				ctrls[i] = c
			}
			b := newMapBattle(t, tc.board, ctrls, nil)
			b.Step()
			s := b.Snapshot()
			if got := formatBoard(s); got != tc.want {
				t.Errorf("board after one round:\n%s\nwant:\n%s", got, tc.want)
			}
			for team, want := range tc.stats {
				got := s.Teams[team].Stats
				got.Timeouts, got.Errors = 0, 0
				if got != want {
					t.Errorf("team %d stats = %+v, want %+v", team, got, want)
				}
			}
		})
	}
}

// TestReplicateSitsStill: parent and child appear at once and are not asked
// for the configured number of rounds; then both act again.
func TestReplicateSitsStill(t *testing.T) {
	for _, rr := range []int{0, 1, 3, 100} {
		c := &scripted{decide: func(t *Turn, i int) Intent {
			if t.Facts.Round == 1 {
				return intent(Replicate, E)
			}
			return WaitIntent
		}}
		other := &scripted{intent: WaitIntent}
		b := newMapBattle(t, "0 -1 -1 -1 -1\n-1 -1 -1 -1 -1\n-1 -1 -1 -1 -1\n-1 -1 -1 -1 -1\n-1 -1 -1 -1 1",
			[]Controller{c, other}, func(o *Options) { o.ReplicateRounds = rr })
		for i := 0; i < rr+3; i++ {
			b.Step()
		}
		for r := 2; r <= rr+3; r++ {
			want := r > rr+1
			if c.rounds[r] != want {
				t.Errorf("replicate_rounds=%d: team asked in round %d = %v, want %v", rr, r, c.rounds[r], want)
			}
		}
		last := c.turns[len(c.turns)-1]
		if len(last.Squares) != 2 {
			t.Errorf("replicate_rounds=%d: %d squares asked after the wait, want parent and child", rr, len(last.Squares))
		}
		if len(c.births) != 1 || c.births[0].Parent != 0 || c.births[0].Row != 4 || c.births[0].Col != 1 {
			t.Errorf("births = %+v", c.births)
		}
	}
}

// TestKillerPick: with two attacking teams the killer is drawn from the
// seeded stream: the same seed always gives the same killer, and both teams
// get picked for some seed.
func TestKillerPick(t *testing.T) {
	board := "1 -1 2\n-1 0 -1\n-1 -1 -1"
	picked := map[int]bool{}
	for seed := uint64(1); seed <= 40; seed++ {
		run := func() []Death {
			victim := &scripted{intent: WaitIntent}
			b := newMapBattle(t, board, []Controller{victim, &scripted{intent: intent(Attack, SE)}, &scripted{intent: intent(Attack, SW)}},
				func(o *Options) { o.Seed = seed; o.Classes = []string{"x"} })
			b.Step()
			return victim.deaths
		}
		a, b := run(), run()
		if !reflect.DeepEqual(a, b) || len(a) != 1 {
			t.Fatalf("seed %d: deaths %v then %v", seed, a, b)
		}
		picked[a[0].Killer] = true
	}
	if !picked[1] || !picked[2] || len(picked) != 2 {
		t.Errorf("killers picked over 40 seeds: %v, want both 1 and 2", picked)
	}
}

// TestEnd covers when a battle ends and who wins.
func TestEnd(t *testing.T) {
	tests := []struct {
		name    string
		board   string
		intents []Intent
		rounds  int
		round   int // round the battle ends
		winner  int
	}{
		{"one team left ends the battle", "0 -1 -1\n1 -1 -1\n-1 -1 -1", []Intent{intent(Attack, S), WaitIntent}, 50, 1, 0},
		{"nobody left is a tie", "0 1 -1\n-1 -1 -1\n-1 -1 -1", []Intent{intent(Attack, E), intent(Attack, W)}, 50, 1, -1},
		{"round limit, equal counts tie", "0 -1 -1\n-1 -1 -1\n-1 -1 1", []Intent{WaitIntent, WaitIntent}, 7, 7, -1},
		{"round limit, most squares wins", "0 0 -1\n-1 -1 -1\n-1 -1 1", []Intent{WaitIntent, WaitIntent}, 5, 5, 0},
		{"a single team plays to the limit", "0 -1\n-1 -1", []Intent{intent(Move, E)}, 9, 9, 0},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var ctrls []Controller
			for _, in := range tc.intents {
				ctrls = append(ctrls, &scripted{intent: in})
			}
			b := newMapBattle(t, tc.board, ctrls, func(o *Options) { o.Rounds = tc.rounds })
			s := b.Run()
			if s.Round != tc.round || !s.Over || s.Winner != tc.winner {
				t.Errorf("ended round %d over=%v winner %d; want round %d winner %d", s.Round, s.Over, s.Winner, tc.round, tc.winner)
			}
		})
	}
}

// TestWalls: without wrap, the view shows Wall beyond the edge and moving
// into it leaves the square where it is.
func TestWalls(t *testing.T) {
	c := &scripted{intent: intent(Move, NW)}
	b := newMapBattle(t, "0 -1\n-1 1", []Controller{c, &scripted{intent: WaitIntent}}, func(o *Options) { o.Wrap = false })
	b.Step()
	if got := c.turns[0].Squares[0].View; got != [8]int32{Wall, Wall, Wall, -1, 1, -1, Wall, Wall} {
		t.Errorf("view at the top-left corner = %v", got)
	}
	if got := b.Snapshot().At(1, 0); got != 0 {
		t.Errorf("square moved through the wall; cell holds %d", got)
	}
}

// TestBecome: a square switches class between rounds.
func TestBecome(t *testing.T) {
	c := &scripted{decide: func(t *Turn, i int) Intent {
		in := WaitIntent
		if t.Facts.Round == 1 {
			in.Become = 1
		}
		return in
	}}
	b := newMapBattle(t, "0 -1\n-1 1", []Controller{c, &scripted{intent: WaitIntent}}, nil)
	b.Step()
	b.Step()
	if c.turns[0].Squares[0].Class != 0 || c.turns[1].Squares[0].Class != 1 {
		t.Errorf("classes asked: %d then %d, want 0 then 1", c.turns[0].Squares[0].Class, c.turns[1].Squares[0].Class)
	}
}

// TestFaultsCounted: faults carried by intents are counted and the square waits.
func TestFaultsCounted(t *testing.T) {
	c := &scripted{decide: func(t *Turn, i int) Intent {
		in := intent(Move, E)
		in.Fault = FaultTimeout
		if t.Facts.Round == 2 {
			in.Fault = FaultError
		}
		return in
	}}
	b := newMapBattle(t, "0 -1\n-1 1", []Controller{c, &scripted{intent: WaitIntent}}, nil)
	b.Step()
	b.Step()
	s := b.Snapshot()
	if st := s.Teams[0].Stats; st.Timeouts != 1 || st.Errors != 1 {
		t.Errorf("stats = %+v, want one timeout and one error", st)
	}
	if s.At(1, 0) != 0 {
		t.Errorf("a faulted square moved")
	}
}

type panicky struct{}

func (panicky) Turn(*Turn)         { panic("boom") }
func (panicky) Settle(*Settlement) {}

// TestControllerPanic: a failing controller costs only its own team.
func TestControllerPanic(t *testing.T) {
	for _, workers := range []int{1, 2} {
		other := &scripted{intent: intent(Move, E)}
		b := newMapBattle(t, "0 -1 -1\n-1 -1 -1\n-1 -1 1", []Controller{panicky{}, other}, func(o *Options) { o.Workers = workers })
		b.Step()
		s := b.Snapshot()
		if s.Teams[0].Stats.Errors != 1 || len(s.Problems) != 1 || s.At(0, 2) != -1 || s.At(0, 0) != 1 {
			t.Errorf("workers=%d: stats %+v problems %v board\n%s", workers, s.Teams[0].Stats, s.Problems, formatBoard(s))
		}
	}
}

// TestEndNow: the interactive time limit ends a battle between rounds; the
// team with the most squares at that moment wins, and no round follows.
func TestEndNow(t *testing.T) {
	b := newMapBattle(t, "0 0 -1\n-1 -1 -1\n-1 -1 1", []Controller{&scripted{intent: WaitIntent}, &scripted{intent: WaitIntent}}, nil)
	b.Step()
	b.End()
	if b.Step() {
		t.Fatal("a round was played after End")
	}
	s := b.Snapshot()
	if !s.Over || s.Round != 1 || s.Winner != 0 || b.Stats(0).Squares != 2 {
		t.Errorf("after End: over=%v round %d winner %d squares %d", s.Over, s.Round, s.Winner, b.Stats(0).Squares)
	}
}
