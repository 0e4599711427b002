package engine

import (
	"errors"
	"reflect"
	"strings"
	"testing"
)

// trailRules is a small rule mod written in Go for the engine's tests: one
// walker per team; each round every team says where its walker steps
// (0..3 = N E S W); a walker leaves its trail and scores every cell it
// paints; walkers that would meet stay put.
type trailRules struct {
	pos       [][2]int
	failAt    int // Resolve fails in this round
	sequenced bool
	per       int // sequenced: calls of each team a round (1 when 0)
	next      int // sequenced: calls made this round
}

func (r *trailRules) Setup(b *Board) error {
	for t := 0; t < b.Teams(); t++ {
		p := [2]int{b.Rand().IntN(b.Size()), b.Rand().IntN(b.Size())}
		r.pos = append(r.pos, p)
		if err := b.Set(p[0], p[1], t, NewMark(StyleUnit, 0)); err != nil {
			return err
		}
	}
	return nil
}

func (r *trailRules) Next(b *Board) ([]Call, error) {
	if r.sequenced {
		if r.next == b.Teams()*max(r.per, 1) {
			r.next = 0
			return nil, nil
		}
		team := r.next % b.Teams()
		r.next++
		return []Call{{Team: team, Class: NoClass, View: r.pos[team]}}, nil
	}
	if r.next == b.Round() {
		return nil, nil
	}
	r.next = b.Round()
	var calls []Call
	for t := 0; t < b.Teams(); t++ {
		calls = append(calls, Call{Team: t, Class: NoClass, View: r.pos[t]})
	}
	return calls, nil
}

func (r *trailRules) Resolve(b *Board, calls []Call, answers []Answer) error {
	if b.Round() == r.failAt {
		return errors.New("trail.lua:9: attempt to index a nil value")
	}
	for i, c := range calls {
		d, ok := answers[i].Value.(int)
		if !ok {
			continue
		}
		off := [4][2]int{{1, 0}, {0, 1}, {-1, 0}, {0, -1}}[d&3]
		p := r.pos[c.Team]
		q := [2]int{(p[0] + off[0] + b.Size()) % b.Size(), (p[1] + off[1] + b.Size()) % b.Size()}
		if team, m, _ := b.At(q[0], q[1]); m.Style() == StyleUnit && team != c.Team {
			continue
		}
		b.Set(p[0], p[1], c.Team, NewMark(StyleTrail, 0))
		if team, m, _ := b.At(q[0], q[1]); m.Style() != StyleTrail || team != c.Team {
			b.SetValue(c.Team, 0, b.Value(c.Team, 0)+1)
		}
		b.Set(q[0], q[1], c.Team, NewMark(StyleUnit, 0))
		r.pos[c.Team] = q
	}
	if b.Value(0, 0) >= 40 {
		b.Finish(0)
	}
	return nil
}

func (r *trailRules) Close() {}

// walker answers with seeded random directions, and misbehaves on request.
type walker struct {
	rng   *Rand
	fault Fault
	panic bool
}

func (w *walker) Call(t *ModTurn) {
	if w.panic && t.Facts.Round == 3 {
		panic("boom")
	}
	for i := range t.Calls {
		t.Answers[i] = Answer{Value: int(w.rng.IntN(4))}
		if w.fault != NoFault && t.Facts.Round%5 == 0 {
			t.Answers[i] = Answer{Fault: w.fault}
		}
	}
}

func modBattle(t *testing.T, seed uint64, workers int, rules *trailRules, walkers ...*walker) *ModBattle {
	t.Helper()
	o := ModOptions{Size: 12, Wrap: true, Rounds: 60, Seed: seed, Workers: workers, Columns: []string{"painted"}, Rules: rules}
	for i, w := range walkers {
		if w.rng == nil {
			w.rng = NewRand(seed, TeamStream(i))
		}
		o.Teams = append(o.Teams, ModTeam{Player: Player{Name: "W"}, Caller: w})
	}
	m, err := NewModBattle(o)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(m.Close)
	return m
}

func TestModBattleIsDeterministic(t *testing.T) {
	for _, sequenced := range []bool{false, true} {
		var runs []*Snapshot
		for _, workers := range []int{1, 4, 4} {
			m := modBattle(t, 7, workers, &trailRules{sequenced: sequenced}, &walker{}, &walker{}, &walker{}, &walker{})
			for m.Step() {
			}
			runs = append(runs, m.Snapshot())
		}
		if !reflect.DeepEqual(runs[0], runs[1]) || !reflect.DeepEqual(runs[1], runs[2]) {
			t.Errorf("sequenced %v: one and four workers differ", sequenced)
		}
		s := runs[0]
		if !s.Over || s.Teams[0].Values[0] == 0 || len(s.Marks) != 144 {
			t.Errorf("sequenced %v: over %v, values %v", sequenced, s.Over, s.Teams[0].Values)
		}
		units := 0
		for _, tv := range s.Teams {
			units += tv.Stats.Squares
		}
		if units != 4 {
			t.Errorf("%d units on the board, want 4", units)
		}
	}
}

func TestModBattleFaults(t *testing.T) {
	m := modBattle(t, 3, 2, &trailRules{failAt: 20}, &walker{fault: FaultTimeout}, &walker{panic: true}, &walker{fault: FaultError})
	rounds := 0
	for m.Step() {
		rounds++
	}
	s := m.Snapshot()
	if rounds != 20 || !s.Over {
		t.Fatalf("played %d rounds, over %v; want the rules failure in round 20 to end it", rounds, s.Over)
	}
	var re *RulesError
	if !errors.As(m.Err(), &re) || re.Round != 20 || !strings.Contains(m.Err().Error(), "trail.lua:9:") {
		t.Errorf("err = %v", m.Err())
	}
	if got := s.Teams[0].Stats.Timeouts; got != 4 {
		t.Errorf("team 0 timeouts %d, want 4 (rounds 5, 10, 15, 20)", got)
	}
	if got := s.Teams[2].Stats.Errors; got != 4 {
		t.Errorf("team 2 errors %d, want 4", got)
	}
	if got := s.Teams[1].Stats.Errors; got != 1 { // the panic, counted once as in SquareBattle
		t.Errorf("team 1 errors %d, want 1", got)
	}
	found := false
	for _, p := range s.FirstProblems {
		found = found || strings.Contains(p.Message, "trail.lua:9:")
	}
	if !found {
		t.Errorf("the rules failure is not among the problems: %v", s.FirstProblems)
	}
}

func TestBoardChecks(t *testing.T) {
	m := modBattle(t, 1, 1, &trailRules{}, &walker{}, &walker{})
	b := &m.board
	cases := []struct {
		name string
		err  error
	}{
		{"off the board", b.Set(12, 0, 0, NewMark(StyleUnit, 0))},
		{"negative row", b.Set(-1, 0, 0, 0)},
		{"no such team", b.Set(0, 0, 2, 0)},
		{"no such style", b.Set(0, 0, 0, NewMark(styleCount, 0))},
		{"no such column", b.SetValue(0, 1, 5)},
	}
	for _, c := range cases {
		if c.err == nil {
			t.Errorf("%s: accepted", c.name)
		}
	}
	if _, _, err := b.At(0, 12); !errors.Is(err, ErrOffBoard) {
		t.Errorf("At off the board: %v", err)
	}
}

func TestModWinner(t *testing.T) {
	cases := []struct {
		values  []int
		finish  *int
		want    int
		comment string
	}{
		{[]int{3, 5, 1}, nil, 1, "the highest score"},
		{[]int{5, 5, 1}, nil, -1, "a tie for the lead"},
		{[]int{0, 0}, nil, -1, "nobody scored"},
		{[]int{7, 2}, ptr(1), 1, "the rules decide"},
		{[]int{7, 2}, ptr(-1), -1, "the rules call a draw"},
	}
	for _, c := range cases {
		ws := make([]*walker, len(c.values))
		for i := range ws {
			ws[i] = &walker{}
		}
		m := modBattle(t, 1, 1, &trailRules{}, ws...)
		for team, v := range c.values {
			m.board.SetValue(team, 0, v)
		}
		if c.finish != nil {
			m.board.Finish(*c.finish)
		}
		if got := m.Winner(); got != c.want {
			t.Errorf("%s: winner %d, want %d", c.comment, got, c.want)
		}
	}
}

func ptr(i int) *int { return &i }

// sizedRules choose the board's side from their random stream, or fail.
type sizedRules struct {
	trailRules
	side  func(b *Board) int
	fail  bool
	drawn uint64 // the first number Setup drew
}

func (r *sizedRules) Size(b *Board) (int, error) {
	if r.fail {
		return 0, errors.New("size.lua:1: no")
	}
	return r.side(b), nil
}

func (r *sizedRules) Setup(b *Board) error {
	r.drawn = b.Rand().Uint64()
	return r.trailRules.Setup(b)
}

// TestModSizeFromRules: with Size 0 the rules choose the side, drawing from
// the same seeded stream Setup continues; an explicit size never asks them;
// rules that cannot choose are an option error, rules that fail a rules
// error.
func TestModSizeFromRules(t *testing.T) {
	seeded := func(b *Board) int { return 30 + b.Rand().IntN(11) }
	cases := []struct {
		name  string
		size  int
		rules Rules
		want  int    // the board's side, 0 for an error
		err   string // part of the error
	}{
		{"the rules choose", 0, &sizedRules{side: seeded}, -1, ""},
		{"an explicit size wins", 17, &sizedRules{side: seeded}, 17, ""},
		{"rules that cannot choose", 0, &trailRules{}, 0, "0 asks the rules, which chose 0"},
		{"a side out of range", 0, &sizedRules{side: func(*Board) int { return 1 << 15 }}, 0, "which chose 32768"},
		{"rules that fail", 0, &sizedRules{fail: true}, 0, "size.lua:1: no"},
		{"a negative size", -1, &sizedRules{side: seeded}, 0, "or 0 to let the rules choose"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			o := ModOptions{Size: c.size, Rounds: 5, Seed: 7, Columns: []string{"painted"}, Rules: c.rules,
				Teams: []ModTeam{{Player: Player{Name: "W"}, Caller: &walker{rng: NewRand(7, TeamStream(0))}}}}
			m, err := NewModBattle(o)
			if c.want == 0 {
				if err == nil || !strings.Contains(err.Error(), c.err) {
					t.Fatalf("err %v, want %q", err, c.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			defer m.Close()
			want := c.want
			if want < 0 {
				r := NewRand(7, StreamRules)
				want = 30 + r.IntN(11)
				if got := c.rules.(*sizedRules).drawn; got != r.Uint64() {
					t.Errorf("setup drew %d, not the stream's next number after the size", got)
				}
			}
			if got := m.Snapshot().Size; got != want {
				t.Errorf("size %d, want %d", got, want)
			}
			for m.Step() {
			}
			if m.Err() != nil {
				t.Error(m.Err())
			}
		})
	}
}
