package replay

import (
	"bytes"
	"reflect"
	"strings"
	"testing"

	"github.com/squarebattle/squarebattle/engine"
)

// stripeRules is a small rule mod for the replay tests: one walker per
// team leaves a trail and scores it; the board has a wall, an item and
// shaded ground; the rules end the battle in round 40 naming the last
// team the winner, whatever the scores.
type stripeRules struct {
	pos    [][2]int
	called int // the last round whose calls went out
}

func (r *stripeRules) Setup(b *engine.Board) error {
	for c := 0; c < b.Size(); c++ {
		_ = b.Set(0, c, engine.Empty, engine.NewMark(engine.StyleValue, uint8(c*20)))
	}
	_ = b.Set(b.Size()-1, 0, engine.Empty, engine.NewMark(engine.StyleWall, 0))
	_ = b.Set(b.Size()/2, b.Size()/2, engine.Empty, engine.NewMark(engine.StyleItem, 0))
	for t := 0; t < b.Teams(); t++ {
		p := [2]int{1 + t, t}
		r.pos = append(r.pos, p)
		_ = b.Set(p[0], p[1], t, engine.NewMark(engine.StyleUnit, 0))
		_ = b.SetValue(t, 1, 100)
	}
	return nil
}

func (r *stripeRules) Next(b *engine.Board) ([]engine.Call, error) {
	if r.called == b.Round() {
		return nil, nil
	}
	r.called = b.Round()
	var calls []engine.Call
	for t := 0; t < b.Teams(); t++ {
		calls = append(calls, engine.Call{Team: t, Class: engine.NoClass})
	}
	return calls, nil
}

func (r *stripeRules) Resolve(b *engine.Board, calls []engine.Call, answers []engine.Answer) error {
	for i, c := range calls {
		_ = b.SetValue(c.Team, 1, b.Value(c.Team, 1)+1)
		d, ok := answers[i].Value.(int)
		if !ok {
			continue
		}
		off := [4][2]int{{1, 0}, {0, 1}, {-1, 0}, {0, -1}}[d&3]
		p := r.pos[c.Team]
		q := [2]int{(p[0] + off[0] + b.Size()) % b.Size(), (p[1] + off[1] + b.Size()) % b.Size()}
		if team, _, _ := b.At(q[0], q[1]); team >= 0 && team != c.Team {
			continue
		}
		_ = b.Set(p[0], p[1], c.Team, engine.NewMark(engine.StyleTrail, 0))
		_ = b.Set(q[0], q[1], c.Team, engine.NewMark(engine.StyleUnit, 0))
		_ = b.SetValue(c.Team, 0, b.Value(c.Team, 0)+1)
		r.pos[c.Team] = q
	}
	if b.Round() == 40 {
		b.Finish(b.Teams() - 1)
	}
	return nil
}

func (r *stripeRules) Close() {}

// stepper answers with seeded directions and loses a turn now and then.
type stepper struct{ rng *engine.Rand }

func (s *stepper) Call(t *engine.ModTurn) {
	for i := range t.Calls {
		t.Answers[i] = engine.Answer{Value: int(s.rng.IntN(4))}
		if s.rng.IntN(9) == 0 {
			t.Answers[i] = engine.Answer{Fault: engine.FaultTimeout}
		}
	}
}

// recordMod plays a stripe battle into a replay and returns its bytes and
// every live snapshot.
func recordMod(t *testing.T, seed uint64, teams int) ([]byte, []*engine.Snapshot) {
	data, live, _ := recordModWith(t, seed, teams, func(_ int, rng *engine.Rand) engine.Caller { return &stepper{rng} })
	return data, live
}

// recordModWith is recordMod with each team's caller made by caller from
// its team and seeded stream; it returns every round's log too.
func recordModWith(t testing.TB, seed uint64, teams int, caller func(int, *engine.Rand) engine.Caller) ([]byte, []*engine.Snapshot, []engine.RoundLog) {
	return recordModOpts(t, seed, teams, caller, nil)
}

// recordModOpts is recordModWith with the battle's options edited by edit
// (when not nil) before the battle is made.
func recordModOpts(t testing.TB, seed uint64, teams int, caller func(int, *engine.Rand) engine.Caller, edit func(*engine.ModOptions)) ([]byte, []*engine.Snapshot, []engine.RoundLog) {
	t.Helper()
	o := engine.ModOptions{Size: 10, Rounds: 60, Seed: seed, Columns: []string{"painted", "clock"}, Rules: &stripeRules{}, Classes: []string{"s"}}
	h := Header{Program: "test", Game: "stripe", Classes: []Class{{ID: "s", File: "stripe/s.lua", SHA256: "00"}}}
	for i := 0; i < teams; i++ {
		o.Teams = append(o.Teams, engine.ModTeam{Player: engine.Player{Name: "S"}, Caller: caller(i, engine.NewRand(seed, engine.TeamStream(i)))})
		h.Players = append(h.Players, Player{Team: i, Name: "S"})
	}
	if edit != nil {
		edit(&o)
	}
	m, err := engine.NewModBattle(o)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(m.Close)
	var buf bytes.Buffer
	live := []*engine.Snapshot{m.Snapshot()}
	w, err := NewWriter(&buf, h, live[0])
	if err != nil {
		t.Fatal(err)
	}
	rec := engine.NewModRecorder(m)
	var logs []engine.RoundLog
	for m.Step() {
		l := rec.Next()
		if err := w.Round(&l); err != nil {
			t.Fatal(err)
		}
		live = append(live, m.Snapshot())
		logs = append(logs, l)
	}
	final := m.Snapshot()
	if err := w.End(final, EndReason(final)); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes(), live, logs
}

// TestModReplayPlaysBack records a rule mod battle and reads it back:
// every round, marks, score columns and the rules' own winner included,
// equals the live battle.
func TestModReplayPlaysBack(t *testing.T) {
	data, live := recordMod(t, 4, 3)
	text := string(plain(t, data))
	for _, want := range []string{`"game":"stripe"`, `"columns":["painted","clock"]`, `"start_marks":`, `"start_values":`, `"m":[`, `"v":[`, `"values":[[`, `"reason":"game over"`} {
		if !strings.Contains(text, want) {
			t.Errorf("the replay has no %s", want)
		}
	}
	rep, err := Read(bytes.NewReader(data), "x.sbr")
	if err != nil {
		t.Fatal(err)
	}
	if rep.Damage != nil || rep.Result == nil {
		t.Fatalf("damage %v, result %v", rep.Damage, rep.Result)
	}
	tl := rep.Timeline
	if tl.Last() != 40 || len(live) != 41 {
		t.Fatalf("%d rounds read, %d played; want 40", tl.Last(), len(live)-1)
	}
	if w := live[40].Winner; w != 2 {
		t.Fatalf("the rules named team 2 the winner, the battle says %d", w)
	}
	for r := 0; r <= tl.Last(); r++ {
		got, want := tl.At(r), live[r]
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("round %d differs:\n got %+v\nwant %+v", r, got.Teams, want.Teams)
		}
	}
}

// TestModReplayDamage: a result whose score columns disagree with the
// rounds, and a round with a broken row of values, are damage.
func TestModReplayDamage(t *testing.T) {
	data, _ := recordMod(t, 5, 2)
	lines := strings.SplitAfter(string(plain(t, data)), "\n")
	cases := []struct {
		name     string
		line     int
		from, to string
	}{
		{"result values", len(lines) - 2, `"values":[[`, `"values":[[9`},
		{"values row", 5, `"v":[`, `"v":[1,`},
	}
	for _, c := range cases {
		bad := append([]string(nil), lines...)
		if !strings.Contains(bad[c.line], c.from) {
			t.Fatalf("%s: line %d has no %s: %s", c.name, c.line+1, c.from, bad[c.line])
		}
		bad[c.line] = strings.Replace(bad[c.line], c.from, c.to, 1)
		rep, err := Read(strings.NewReader(strings.Join(bad, "")), "x.sbr")
		if err != nil {
			t.Fatal(err)
		}
		if rep.Damage == nil || rep.Result != nil {
			t.Errorf("%s: damage %v", c.name, rep.Damage)
		}
	}
}
