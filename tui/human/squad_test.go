package human

import (
	"testing"
	"time"

	"github.com/squarebattle/squarebattle/engine"
)

// keys turns a compact key script into Keys: a rune each, and <T> Tab,
// <B> Shift-Tab, <E> Enter, <X> Esc, <U> <D> <L> <R> the arrows.
func keys(s string) []Key {
	named := map[byte]KeyName{'T': KeyTab, 'B': KeyBacktab, 'E': KeyEnter, 'X': KeyEsc, 'U': KeyUp, 'D': KeyDown, 'L': KeyLeft, 'R': KeyRight}
	var out []Key
	for i := 0; i < len(s); i++ {
		if s[i] == '<' && i+2 < len(s) && s[i+2] == '>' {
			out = append(out, Named(named[s[i+1]]))
			i += 2
			continue
		}
		out = append(out, Rune(rune(s[i])))
	}
	return out
}

// turnOf is a turn of three ready squares, ids 2, 5 and 9, on a 10×10
// torus.
func turnOf(facts *engine.Facts) *engine.Turn {
	t := &engine.Turn{Facts: facts, Squares: []engine.Ready{{ID: 2, Row: 1, Col: 1}, {ID: 5, Row: 4, Col: 4}, {ID: 9, Row: 9, Col: 0}}}
	t.Intents = make([]engine.Intent, len(t.Squares))
	for i := range t.Intents {
		t.Intents[i] = engine.WaitIntent
	}
	return t
}

func move(d engine.Direction) engine.Intent {
	return engine.Intent{Action: engine.Move, Dir: d, Child: engine.NoClass, Become: engine.NoClass}
}

func TestSquadKeys(t *testing.T) {
	wait := engine.WaitIntent
	classes := []Class{{ID: 4, Name: "explorer"}, {ID: 7, Name: "borg"}}
	rep := func(d engine.Direction, c engine.ClassID) engine.Intent {
		return engine.Intent{Action: engine.Replicate, Dir: d, Child: c, Become: engine.NoClass}
	}
	att := func(d engine.Direction) engine.Intent {
		return engine.Intent{Action: engine.Attack, Dir: d, Child: engine.NoClass, Become: engine.NoClass}
	}
	for _, tt := range []struct {
		name   string
		keys   string
		want   [3]engine.Intent
		sel    engine.SquareID
		prompt bool
	}{
		{"no keys: every square waits, the first is selected", "", [3]engine.Intent{wait, wait, wait}, 2, false},
		{"a direction alone moves the selected square", "l", [3]engine.Intent{move(engine.E), wait, wait}, 2, false},
		{"arrows are directions", "<U>", [3]engine.Intent{move(engine.N), wait, wait}, 2, false},
		{"Tab selects the next square", "<T>k", [3]engine.Intent{wait, move(engine.N), wait}, 5, false},
		{"Tab wraps round", "<T><T><T>j", [3]engine.Intent{move(engine.S), wait, wait}, 2, false},
		{"Shift-Tab goes back, wrapping", "<B>y", [3]engine.Intent{wait, wait, move(engine.NW)}, 9, false},
		{"orders stand while Tab moves on", "u<T>b<T>n", [3]engine.Intent{move(engine.NE), move(engine.SW), move(engine.SE)}, 9, false},
		{"a then a direction attacks", "ah", [3]engine.Intent{att(engine.W), wait, wait}, 2, false},
		{"the verb stays for the next square", "al<T>k", [3]engine.Intent{att(engine.E), att(engine.N), wait}, 5, false},
		{"m takes the verb back to move", "al<T>mk", [3]engine.Intent{att(engine.E), move(engine.N), wait}, 5, false},
		{"r, a direction, a digit replicates into that class", "rl2", [3]engine.Intent{rep(engine.E, 7), wait, wait}, 2, false},
		{"Enter picks the last child class", "rl2<T>rk<E>", [3]engine.Intent{rep(engine.E, 7), rep(engine.N, 7), wait}, 5, false},
		{"Enter at first picks the first class", "rj<E>", [3]engine.Intent{rep(engine.S, 4), wait, wait}, 2, false},
		{"after replicate a direction moves again", "rj1<T>l", [3]engine.Intent{rep(engine.S, 4), move(engine.E), wait}, 5, false},
		{"a key that is no class keeps asking", "rjq", [3]engine.Intent{wait, wait, wait}, 2, true},
		{"Esc cancels the child prompt", "rj<X>", [3]engine.Intent{wait, wait, wait}, 2, false},
		{"a digit past the classes keeps asking", "rj9", [3]engine.Intent{wait, wait, wait}, 2, true},
		{"x clears the selected square's order", "l<T>k<B>x", [3]engine.Intent{wait, move(engine.N), wait}, 2, false},
		{"X clears every order", "l<T>kX", [3]engine.Intent{wait, wait, wait}, 5, false},
		{"p asks for the autopilot, without one it says so", "pl", [3]engine.Intent{move(engine.E), wait, wait}, 2, false},
	} {
		t.Run(tt.name, func(t *testing.T) {
			q := NewSquad(SquadOptions{Classes: classes, Pilot: engine.NoClass})
			facts := &engine.Facts{Size: 10, Wrap: true}
			q.Turn(turnOf(facts)) // the squad learns its squares
			for _, k := range keys(tt.keys) {
				q.Key(k)
			}
			for round := range 2 { // orders stand
				turn := turnOf(facts)
				q.Turn(turn)
				for i, w := range tt.want {
					if turn.Intents[i] != w {
						t.Errorf("round %d, square %d: intent %+v, want %+v", round, turn.Squares[i].ID, turn.Intents[i], w)
					}
				}
				q.Settle(&engine.Settlement{Facts: facts})
			}
			st := q.State()
			if st.Selected != tt.sel || (st.Prompt != "") != tt.prompt {
				t.Errorf("selected %d prompt %q, want %d (prompt %v)", st.Selected, st.Prompt, tt.sel, tt.prompt)
			}
		})
	}
}

// TestSquadFollowsSquares: births join the cycle, deaths leave it (with
// their orders), the cursor follows a mover and falls to the next square
// when its own dies.
func TestSquadFollowsSquares(t *testing.T) {
	q := NewSquad(SquadOptions{Pilot: engine.NoClass})
	facts := &engine.Facts{Size: 10, Wrap: true}
	turn := turnOf(facts)
	q.Turn(turn)
	q.Key(Rune('l')) // square 2 moves east
	turn = turnOf(facts)
	q.Turn(turn)
	q.Settle(&engine.Settlement{Facts: facts, Births: []engine.Birth{{Parent: 5, Child: 12, Row: 5, Col: 4}}})
	if st := q.State(); st.Row != 1 || st.Col != 2 || st.Squares != 4 {
		t.Fatalf("after a move east and a birth: %+v, want square 2 at 1,2 of 4 squares", st)
	}
	q.Settle(&engine.Settlement{Facts: facts, Deaths: []engine.Death{{Square: 2}}})
	st := q.State()
	if st.Selected != 5 || st.Squares != 3 || st.Orders != 0 {
		t.Fatalf("after the selected square died: %+v, want square 5 selected, 3 squares, no orders", st)
	}
	q.Key(Named(KeyBacktab))
	q.Key(Named(KeyBacktab))
	if st := q.State(); st.Selected != 9 {
		t.Fatalf("Shift-Tab twice from 5 over 5, 9, 12: selected %d, want 9", st.Selected)
	}
	q.Settle(&engine.Settlement{Facts: facts, Deaths: []engine.Death{{Square: 5}, {Square: 9}, {Square: 12}}})
	if st := q.State(); st.Selected != -1 || st.Squares != 0 {
		t.Fatalf("after every square died: %+v", st)
	}
	if !q.Key(Rune('l')) || q.State().Note == "" {
		t.Fatal("a direction with no square is the squad's and says why nothing happened")
	}
}

// TestSquadIdle: no key for the idle time sets every order aside until
// the next key.
func TestSquadIdle(t *testing.T) {
	now := time.Unix(1000, 0)
	q := NewSquad(SquadOptions{Pilot: engine.NoClass, Idle: 10 * time.Second, Now: func() time.Time { return now }})
	facts := &engine.Facts{Size: 10, Wrap: true}
	q.Turn(turnOf(facts))
	q.Key(Rune('l'))
	for _, tt := range []struct {
		after time.Duration
		key   bool
		want  engine.Intent
	}{
		{9 * time.Second, false, move(engine.E)},
		{10 * time.Second, false, engine.WaitIntent},
		{0, true, move(engine.E)}, // a key (Tab, Shift-Tab: back to square 2) brings the orders back
	} {
		now = now.Add(tt.after)
		if tt.key {
			q.Key(Named(KeyTab))
			q.Key(Named(KeyBacktab))
		}
		turn := turnOf(facts)
		q.Turn(turn)
		if turn.Intents[0] != tt.want || q.State().Idle != (tt.want == engine.WaitIntent) {
			t.Fatalf("%v on (key %v): intent %+v idle %v, want %+v", tt.after, tt.key, turn.Intents[0], q.State().Idle, tt.want)
		}
	}
}

// TestSquadUnusedKeys: keys the squad does not use go on to the screen.
func TestSquadUnusedKeys(t *testing.T) {
	q := NewSquad(SquadOptions{Pilot: engine.NoClass})
	for _, k := range []Key{Rune('q'), Rune(' '), Rune('?'), Named(KeyEsc), Named(KeyEnter)} {
		if q.Key(k) {
			t.Errorf("key %+v was used; it belongs to the battle screen", k)
		}
	}
}

// walled is an autopilot whose wall fired: every square it decides for
// waits, and its report carries a backstop event (what a Lua seat in a
// crashed worker process reports).
type walled struct{}

func (walled) Turn(t *engine.Turn) {
	t.Report.Backstops = append(t.Report.Backstops, engine.Backstop{Kind: engine.BackstopCrash, Class: 3, Message: "worker died"})
}
func (walled) Settle(*engine.Settlement) {}

// TestSquadAbsorbsAutopilotWall: the autopilot's backstop events become
// its errors; the human's orders stand, and the team's report has no
// event that would silence the round or retire the team.
func TestSquadAbsorbsAutopilotWall(t *testing.T) {
	q := NewSquad(SquadOptions{Autopilot: walled{}, Classes: []Class{{ID: 3, Name: "x"}}, Pilot: 3})
	facts := &engine.Facts{Size: 10, Wrap: true}
	q.Turn(turnOf(facts))
	q.Key(Rune('l'))
	turn := turnOf(facts)
	q.Turn(turn)
	if turn.Intents[0] != move(engine.E) || len(turn.Report.Backstops) != 0 || turn.Report.Errors != 1 ||
		len(turn.Report.Problems) != 1 || turn.Report.Problems[0].Message != "autopilot: worker died" {
		t.Fatalf("intent %+v, report %+v", turn.Intents[0], turn.Report)
	}
}
