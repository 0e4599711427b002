package engine

import (
	"flag"
	"fmt"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite golden files under testdata/ from the current engine")

// scripted answers every square of its team with the same intent, or with
// whatever decide returns, and records what it was told.
type scripted struct {
	intent Intent
	decide func(t *Turn, i int) Intent
	turns  []Turn       // copies of every turn it was asked
	deaths []Death      // every death reported to it
	births []Birth      // every birth reported to it
	rounds map[int]bool // rounds in which it was asked
}

func (s *scripted) Turn(t *Turn) {
	if s.rounds == nil {
		s.rounds = map[int]bool{}
	}
	s.rounds[t.Facts.Round] = true
	for i := range t.Squares {
		if s.decide != nil {
			t.Intents[i] = s.decide(t, i)
		} else {
			t.Intents[i] = s.intent
		}
	}
	c := Turn{Team: t.Team, Squares: append([]Ready(nil), t.Squares...), Intents: append([]Intent(nil), t.Intents...)}
	s.turns = append(s.turns, c)
}

func (s *scripted) Settle(st *Settlement) {
	s.deaths = append(s.deaths, st.Deaths...)
	s.births = append(s.births, st.Births...)
}

func intent(a Action, d Direction) Intent {
	return Intent{Action: a, Dir: d, Child: 0, Become: NoClass}
}

// parseIntent reads "move NE", "wait", "replicate E".
func parseIntent(t *testing.T, s string) Intent {
	t.Helper()
	f := strings.Fields(s)
	a, ok := ParseAction(f[0])
	if !ok {
		t.Fatalf("bad action %q", s)
	}
	in := intent(a, 0)
	if len(f) > 1 {
		d, ok := ParseDirection(f[1])
		if !ok {
			t.Fatalf("bad direction %q", s)
		}
		in.Dir = d
	}
	return in
}

// newMapBattle builds a battle from a map in the seed's notation with one
// controller per team.
func newMapBattle(t *testing.T, text string, ctrls []Controller, mod func(*Options)) *Battle {
	t.Helper()
	m, err := ParseMap("test", []byte(text))
	if err != nil {
		t.Fatal(err)
	}
	o := Options{Size: m.Size, Wrap: true, Rounds: 1000, ReplicateRounds: 100, Seed: 1, Map: m, Classes: []string{"a", "b"}}
	for i, c := range ctrls {
		o.Teams = append(o.Teams, TeamSetup{Player: Player{Name: fmt.Sprintf("P%d", i)}, Controller: c})
	}
	if mod != nil {
		mod(&o)
	}
	b, err := NewBattle(o)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(b.Close)
	return b
}

func formatBoard(s *Snapshot) string { return s.Map().Format() }

func fmtSscan(s string, v *int) (int, error) { return fmt.Sscan(s, v) }
func itoa(i int) string                      { return fmt.Sprint(i) }
