package human

import (
	"encoding/json"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/squarebattle/squarebattle/engine"
)

// Shape is how a rule mod wants a steer as an answer. The mods answer
// with plain values (what a Lua player returns); Each names the field of
// the call's view whose entries are the team's units, each steered alike
// (paint: "mine", the team's workers, answered with a list of
// directions); "" answers the direction alone (snake).
type Shape struct {
	Each string
}

// Shapes are the rule mods a human can steer, by game folder.
var Shapes = map[string]Shape{
	"snake": {},
	"paint": {Each: "mine"},
}

// ErrNoSteering is returned for a game a human cannot steer.
var ErrNoSteering = errors.New("a human cannot play this game")

// SteerOptions configure a Steer.
type SteerOptions struct {
	Game string // the rule mod's folder: its Shape
	// Plain converts between the mods' plain values and JSON text
	// (luabind.PlainJSON): the steer writes its answer as JSON and reads
	// the view's units the same way, so this package needs no Lua.
	Plain engine.AnswerCodec
	// Autopilot answers while the human has not steered yet or is idle: a
	// Lua player of the game. Nil answers nothing then (the mod's default:
	// a snake keeps its direction, paint's workers stay).
	Autopilot engine.Caller
	Idle      time.Duration
	Now       func() time.Time
}

// Steer is the controller of a rule mod team played at the keys: arrows,
// WASD or hjkl set a direction that stands until the next one.
type Steer struct {
	o     SteerOptions
	shape Shape

	mu      sync.Mutex
	dir     string // "" not steered yet
	lastKey time.Time
}

// NewSteer makes the controller of a human's team in the rule mod
// o.Game; ErrNoSteering when the game has no Shape.
func NewSteer(o SteerOptions) (*Steer, error) {
	sh, ok := Shapes[o.Game]
	if !ok {
		return nil, fmt.Errorf("%w: %s (a human can play SquareBattle, snake and paint)", ErrNoSteering, o.Game)
	}
	if o.Now == nil {
		o.Now = time.Now
	}
	return &Steer{o: o, shape: sh, lastKey: o.Now()}, nil
}

// SteerState is what the UI shows of a Steer.
type SteerState struct {
	Dir  string // "" not steered yet
	Idle bool
}

// State returns what the UI shows.
func (s *Steer) State() SteerState {
	s.mu.Lock()
	defer s.mu.Unlock()
	return SteerState{Dir: s.dir, Idle: s.idle()}
}

func (s *Steer) idle() bool {
	return s.o.Idle > 0 && s.o.Now().Sub(s.lastKey) >= s.o.Idle
}

// Key takes one key press and reports whether it steered.
func (s *Steer) Key(k Key) bool {
	d, ok := steerDir(k)
	if !ok {
		return false
	}
	s.mu.Lock()
	s.dir, s.lastKey = d, s.o.Now()
	s.mu.Unlock()
	return true
}

// Call answers the team's calls with the standing direction, or lets the
// autopilot answer before the first steer and while the human is idle.
func (s *Steer) Call(t *engine.ModTurn) {
	s.mu.Lock()
	dir, idle := s.dir, s.idle()
	s.mu.Unlock()
	if dir == "" || idle {
		if s.o.Autopilot != nil {
			s.o.Autopilot.Call(t)
			// as Squad.Turn: the autopilot's wall is not the team's
			events := t.Report.Backstops
			t.Report.Backstops = nil
			absorb(&t.Report, events, t.Team, 0)
		}
		return
	}
	for i, c := range t.Calls {
		v, err := s.answer(c.View, dir)
		if err != nil {
			t.Answers[i] = engine.Answer{Fault: engine.FaultError}
			t.Report.Errors++
			continue
		}
		t.Answers[i] = engine.Answer{Value: v}
	}
}

// maxUnits bounds the answer's list: no mod fields more units per team.
const maxUnits = 4096

// answer is dir in the game's shape for a call showing view.
func (s *Steer) answer(view any, dir string) (any, error) {
	if s.shape.Each == "" {
		return s.o.Plain.DecodeAnswer([]byte(`"` + dir + `"`))
	}
	text, err := s.o.Plain.EncodeAnswer(view)
	if err != nil {
		return nil, err
	}
	var v map[string]json.RawMessage
	if err := json.Unmarshal(text, &v); err != nil {
		return nil, err
	}
	var units []json.RawMessage
	if err := json.Unmarshal(v[s.shape.Each], &units); err != nil {
		return nil, fmt.Errorf("view field %s: %w", s.shape.Each, err)
	}
	n := min(len(units), maxUnits)
	list := make([]string, n)
	for i := range list {
		list[i] = dir
	}
	out, _ := json.Marshal(list)
	return s.o.Plain.DecodeAnswer(out)
}
