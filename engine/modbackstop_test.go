package engine

import (
	"reflect"
	"strings"
	"testing"
)

// walledWalker is a walker behind a wall that fires on a schedule, as a
// worker process would when it hangs or dies: the batch's calls go
// unanswered, the walker's state (its generator) starts over, and the
// event is reported for the engine to count.
type walledWalker struct {
	walker
	seed    uint64
	team    int
	fire    func(round, batch int) []BackstopKind
	called  int // calls since the last restart
	retired bool
	t       *testing.T
}

func newWalledWalker(t *testing.T, seed uint64, team int, fire func(round, batch int) []BackstopKind) *walledWalker {
	w := &walledWalker{seed: seed, team: team, fire: fire, t: t}
	w.Restart()
	return w
}

func (w *walledWalker) Restart() {
	w.rng, w.called = NewRand(w.seed, TeamStream(w.team)), 0
}

func (w *walledWalker) Call(t *ModTurn) {
	if w.retired {
		w.t.Errorf("team %d: called in round %d after its retirement", w.team, t.Facts.Round)
	}
	if w.fire != nil {
		if kinds := w.fire(t.Facts.Round, t.Batch); len(kinds) > 0 {
			for _, k := range kinds {
				t.Report.Backstops = append(t.Report.Backstops, Backstop{Kind: k, Class: NoClass, Message: "w.lua: the wall fired: " + k.String()})
				w.retired = w.retired || k == BackstopRetired
			}
			w.Restart()
			return
		}
	}
	w.called++
	w.walker.Call(t)
}

// walledModBattle is a sequenced trail battle of three walled walkers
// (each called per times a round), fire[team] scheduling team's wall.
func walledModBattle(t *testing.T, workers, per int, ctrl func(team int, w *walledWalker) Caller) *ModBattle {
	t.Helper()
	o := ModOptions{Size: 12, Wrap: true, Rounds: 40, Seed: 5, Workers: workers, Columns: []string{"painted"},
		Rules: &trailRules{sequenced: true, per: per}, Classes: []string{"w"}}
	for team := range 3 {
		o.Teams = append(o.Teams, ModTeam{Player: Player{Name: "W"}, Caller: ctrl(team, newWalledWalker(t, 5, team, nil))})
	}
	m, err := NewModBattle(o)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(m.Close)
	return m
}

func recordMod(m *ModBattle) []RoundLog {
	rec := NewModRecorder(m)
	var logs []RoundLog
	for m.Step() {
		logs = append(logs, rec.Next())
	}
	return logs
}

// TestModBackstopsReplayAsRecorded: a rule mod battle in which walls fire
// (in different batches of a round, a retirement) records every event
// with its batch; the battle played again by walkers that never fault,
// the recorded events handed back through ReplayModBackstops, gives the
// same round logs, whatever the number of workers of either.
func TestModBackstopsReplayAsRecorded(t *testing.T) {
	schedules := map[int]func(round, batch int) []BackstopKind{
		// Team 1 (called in batch 1) times out in round 4, crashes in 12.
		1: func(round, batch int) []BackstopKind {
			switch round {
			case 4:
				return []BackstopKind{BackstopTimeout}
			case 12:
				return []BackstopKind{BackstopCrash}
			}
			return nil
		},
		// Team 2 crashes in rounds 7, 8 and 9 and is retired at the third.
		2: func(round, batch int) []BackstopKind {
			switch {
			case round < 7 || round > 9:
				return nil
			case round == 9:
				return []BackstopKind{BackstopCrash, BackstopRetired}
			}
			return []BackstopKind{BackstopCrash}
		},
	}
	plain := recordMod(walledModBattle(t, 1, 1, func(_ int, w *walledWalker) Caller { return w }))
	for _, workers := range []int{1, 3} {
		recorded := recordMod(walledModBattle(t, workers, 1, func(team int, w *walledWalker) Caller {
			w.fire = schedules[team]
			return w
		}))
		if reflect.DeepEqual(recorded, plain) {
			t.Fatal("the walls changed nothing: the test cannot tell a replayed event from none")
		}
		events := map[int][]Backstop{}
		var got []string
		for _, l := range recorded {
			for _, e := range l.Backstops {
				events[e.Team] = append(events[e.Team], e)
				got = append(got, e.Kind.String())
				if e.Round != l.Round || e.Batch != e.Team || e.Settle || !strings.HasPrefix(e.Message, "w.lua: the wall fired") {
					t.Errorf("event %+v in the log of round %d, want batch %d (the team's turn in the queue)", e, l.Round, e.Team)
				}
				if !containsProblem(l.Problems, e.problem()) {
					t.Errorf("event %+v is not among round %d's problems", e, l.Round)
				}
			}
		}
		if want := []string{"timeout", "crash", "crash", "crash", "retired", "crash"}; !reflect.DeepEqual(got, want) {
			t.Fatalf("recorded events %v, want %v", got, want)
		}
		for _, replayWorkers := range []int{1, 3} {
			var walkers []*walledWalker
			m := walledModBattle(t, replayWorkers, 1, func(team int, w *walledWalker) Caller {
				walkers = append(walkers, w)
				return ReplayModBackstops(w, events[team])
			})
			if again := recordMod(m); !reflect.DeepEqual(again, recorded) {
				t.Errorf("workers %d/%d: the re-run's logs differ from the recording", workers, replayWorkers)
			}
			s := m.Snapshot()
			if st := s.Teams[2].Stats; st.Errors != 3 || walkers[2].called != 0 {
				t.Errorf("retired team: %+v, called %d times since its last restart", st, walkers[2].called)
			}
			if st := s.Teams[1].Stats; st.Timeouts != 1 || st.Errors != 1 {
				t.Errorf("team 1: %+v, want a timeout and an error", st)
			}
			if r := s.Teams[2].Retired; r.Round != 9 || !strings.HasPrefix(r.Reason, "w.lua: the wall fired") || s.Teams[1].Retired.Round != 0 {
				t.Errorf("retirements %+v and %+v, want team 2's in round 9 with its event's message", s.Teams[1].Retired, r)
			}
		}
	}
}

// TestModBackstopsPerRoundBounded: a team whose wall fires in every batch
// of a round is retired by the engine once the round holds
// MaxModBackstopsPerRound-1 of its events, so no round of a rule mod holds
// more than a replay reader accepts.
func TestModBackstopsPerRoundBounded(t *testing.T) {
	const per = 40
	logs := recordMod(walledModBattle(t, 2, per, func(team int, w *walledWalker) Caller {
		if team == 0 {
			w.fire = func(round, batch int) []BackstopKind { return []BackstopKind{BackstopCrash} }
		}
		return w
	}))
	var kinds []BackstopKind
	for _, e := range logs[0].Backstops {
		kinds = append(kinds, e.Kind)
		if e.Team != 0 || e.Batch%3 != 0 {
			t.Errorf("event %+v, want team 0's, in its batches", e)
		}
	}
	if len(kinds) != MaxModBackstopsPerRound || kinds[len(kinds)-1] != BackstopRetired || kinds[len(kinds)-2] != BackstopCrash {
		t.Fatalf("round 1's events %v, want %d ending in the engine's retirement", kinds, MaxModBackstopsPerRound)
	}
	for _, l := range logs[1:] {
		if len(l.Backstops) > 0 {
			t.Errorf("round %d: events %+v after the retirement", l.Round, l.Backstops)
		}
	}
	tl := NewTimeline(&Snapshot{Size: 12, Marks: make([]Mark, 144), Cells: make([]int32, 144), Teams: make([]TeamView, 3), Columns: []string{"painted"}, Classes: []string{"w"}}, 0)
	if err := tl.checkBackstops(&logs[0]); err != nil {
		t.Errorf("the timeline refuses the engine's own round: %v", err)
	}
}
