package engine

import (
	"reflect"
	"slices"
	"strings"
	"sync"
	"testing"
)

// remotePlayer is randomPlayer as a Dispatcher: it decides when the phase
// is sent, as a worker process would, and hands the answer over in Turn.
// log records the calls of every remotePlayer of a battle, in order.
type remotePlayer struct {
	randomPlayer
	log     *callLog
	answer  []Intent
	panicAt int // SendTurn panics in this round
}

func (p *remotePlayer) SendTurn(t *Turn) {
	p.log.add("send turn")
	if t.Facts.Round == p.panicAt {
		panic("lost the connection")
	}
	c := Turn{Facts: t.Facts, Squares: t.Squares, Intents: append([]Intent(nil), t.Intents...)}
	p.randomPlayer.Turn(&c)
	p.answer = c.Intents
}

func (p *remotePlayer) Turn(t *Turn) {
	p.log.add("turn")
	copy(t.Intents, p.answer)
}

func (p *remotePlayer) SendSettle(*Settlement) { p.log.add("send settle") }
func (p *remotePlayer) Settle(*Settlement)     { p.log.add("settle") }

// callLog is shared by the teams, whose answers are read on the battle's
// workers.
type callLog struct {
	mu    sync.Mutex
	calls []string
}

func (l *callLog) add(call string) {
	l.mu.Lock()
	l.calls = append(l.calls, call)
	l.mu.Unlock()
}

// TestDispatchers: teams whose controllers are Dispatchers play the battle
// they play as plain controllers, on one worker or four, mixed with plain
// teams; every team is sent its phase before any answer is read; a
// controller that panics while sending costs its team that phase only.
func TestDispatchers(t *testing.T) {
	for _, workers := range []int{1, 4} {
		for _, seed := range []uint64{1, 99} {
			plain := randomBattle(t, seed, workers)
			var calls callLog
			o := Options{Size: 24, Wrap: true, Rounds: 400, ReplicateRounds: 5, Seed: seed, Workers: workers, Classes: []string{"r"}}
			for team := 0; team < 6; team++ {
				var c Controller = &randomPlayer{rng: NewRand(seed, TeamStream(team))}
				if team%3 != 0 {
					c = &remotePlayer{randomPlayer: randomPlayer{rng: NewRand(seed, TeamStream(team))}, log: &calls}
				}
				o.Teams = append(o.Teams, TeamSetup{Player: Player{Name: "R"}, Controller: c})
			}
			remote, err := NewBattle(o)
			if err != nil {
				t.Fatal(err)
			}
			sends := 0
			for plain.Step() {
				calls.calls = calls.calls[:0]
				remote.Step()
				log := calls.calls
				sends += len(log) - len(slices.DeleteFunc(slices.Clone(log), func(e string) bool { return e == "send turn" }))
				if a, b := plain.Snapshot(), remote.Snapshot(); !reflect.DeepEqual(a, b) {
					t.Fatalf("workers %d, seed %d: round %d differs with dispatchers", workers, seed, a.Round)
				}
				for _, phase := range []string{"turn", "settle"} {
					if i, j := lastIndex(log, "send "+phase), index(log, phase); j >= 0 && i > j {
						t.Fatalf("workers %d: a %s was read before every team was sent its own: %v", workers, phase, log)
					}
				}
			}
			if sends == 0 {
				t.Fatal("no turn was sent ahead")
			}
			remote.Close()
		}
	}

	var calls callLog
	o := Options{Size: 12, Wrap: true, Rounds: 10, ReplicateRounds: 5, Seed: 3, Classes: []string{"r"}}
	for team := 0; team < 2; team++ {
		o.Teams = append(o.Teams, TeamSetup{Player: Player{Name: "R"}, Controller: &remotePlayer{
			randomPlayer: randomPlayer{rng: NewRand(3, TeamStream(team))}, log: &calls, panicAt: 3 * (1 - team)}})
	}
	b, err := NewBattle(o)
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	for b.Step() {
	}
	s := b.Snapshot()
	if s.Teams[0].Stats.Errors != 1 || s.Teams[1].Stats.Errors != 0 || s.Round != 10 {
		t.Errorf("stats %+v and %+v after %d rounds, want one error for team 0", s.Teams[0].Stats, s.Teams[1].Stats, s.Round)
	}
	if len(s.FirstProblems) == 0 || !strings.Contains(s.FirstProblems[0].Message, "lost the connection") {
		t.Errorf("problems %+v, want the panic shown", s.FirstProblems)
	}
}

func index(s []string, v string) int {
	for i, x := range s {
		if x == v {
			return i
		}
	}
	return -1
}

func lastIndex(s []string, v string) int {
	for i := len(s) - 1; i >= 0; i-- {
		if s[i] == v {
			return i
		}
	}
	return -1
}
