package human

import (
	"errors"
	"testing"
	"time"

	"github.com/squarebattle/squarebattle/engine"
	"github.com/squarebattle/squarebattle/luabind"
)

// plainOf is the plain value of JSON text, as a rule mod's view or answer.
func plainOf(t *testing.T, text string) any {
	t.Helper()
	v, err := luabind.PlainFromJSON([]byte(text))
	if err != nil {
		t.Fatal(err)
	}
	return v
}

// TestSteerKeys: key sequences steer a snake (the answer is the direction)
// and paint's workers (a list, one direction per worker of the view's
// "mine"); the last direction stands, keys that do not steer change
// nothing, and before the first steer the team answers nothing.
func TestSteerKeys(t *testing.T) {
	views := map[string]string{
		"snake": `{"me":0,"size":10}`,
		"paint": `{"team":0,"mine":[{"x":1,"y":2},{"x":3,"y":4},{"x":5,"y":6}]}`,
	}
	for _, tt := range []struct {
		game, keys string
		want       string // the answer as JSON; "" none
	}{
		{"snake", "", ""},
		{"snake", "<U>", `"up"`},
		{"snake", "w", `"up"`},
		{"snake", "a", `"left"`},
		{"snake", "S", `"down"`},
		{"snake", "l", `"right"`},
		{"snake", "<U><L>", `"left"`},
		{"snake", "<R>q ?x", `"right"`},
		{"snake", "<D><E><T>", `"down"`},
		{"paint", "", ""},
		{"paint", "d", `["right","right","right"]`},
		{"paint", "<L>k", `["up","up","up"]`},
	} {
		t.Run(tt.game+" "+tt.keys, func(t *testing.T) {
			s, err := NewSteer(SteerOptions{Game: tt.game, Plain: luabind.PlainJSON})
			if err != nil {
				t.Fatal(err)
			}
			for _, k := range keys(tt.keys) {
				s.Key(k)
			}
			for round := range 2 {
				turn := &engine.ModTurn{Calls: []engine.Call{{View: plainOf(t, views[tt.game])}}, Answers: make([]engine.Answer, 1)}
				s.Call(turn)
				a := turn.Answers[0]
				got := ""
				if a.Value != nil {
					text, err := luabind.PlainToJSON(a.Value)
					if err != nil {
						t.Fatal(err)
					}
					got = string(text)
				}
				if got != tt.want || a.Fault != engine.NoFault {
					t.Errorf("round %d: answer %s (fault %v), want %s", round, got, a.Fault, tt.want)
				}
			}
		})
	}
}

// TestSteerIdle: no key for the idle time hands the team to its autopilot
// (here none: no answer) until the next key.
func TestSteerIdle(t *testing.T) {
	now := time.Unix(0, 0)
	s, err := NewSteer(SteerOptions{Game: "snake", Plain: luabind.PlainJSON, Idle: 5 * time.Second, Now: func() time.Time { return now }})
	if err != nil {
		t.Fatal(err)
	}
	answered := func() bool {
		turn := &engine.ModTurn{Calls: []engine.Call{{View: plainOf(t, `{}`)}}, Answers: make([]engine.Answer, 1)}
		s.Call(turn)
		return turn.Answers[0].Value != nil
	}
	s.Key(Rune('w'))
	now = now.Add(4 * time.Second)
	if !answered() {
		t.Fatal("4 s after a key: no answer")
	}
	now = now.Add(time.Second)
	if answered() || !s.State().Idle {
		t.Fatal("5 s after a key: the human still steers")
	}
	s.Key(Named(KeyLeft))
	if !answered() {
		t.Fatal("after a new key: no answer")
	}
}

// TestSteerGames: only the games with a Shape can be steered.
func TestSteerGames(t *testing.T) {
	if _, err := NewSteer(SteerOptions{Game: "orbs", Plain: luabind.PlainJSON}); !errors.Is(err, ErrNoSteering) {
		t.Fatalf("orbs: %v, want ErrNoSteering", err)
	}
}

// TestSteerRace: keys and state reads on one goroutine, calls on another
// (go test -race checks the locking contract).
func TestSteerRace(t *testing.T) {
	s, err := NewSteer(SteerOptions{Game: "paint", Plain: luabind.PlainJSON, Idle: time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	view := plainOf(t, `{"mine":[1,2]}`)
	done := make(chan struct{})
	go func() {
		defer close(done)
		for i := range 2000 {
			s.Key(keys("wasd<U><D><L><R>")[i%8])
			_ = s.State()
		}
	}()
	for range 2000 {
		turn := &engine.ModTurn{Calls: []engine.Call{{View: view}}, Answers: make([]engine.Answer, 1)}
		s.Call(turn)
	}
	<-done
}
