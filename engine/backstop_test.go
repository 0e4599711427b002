package engine

import (
	"reflect"
	"strings"
	"testing"
)

// freshPlayer is a randomPlayer whose whole state is its generator; Restart
// gives it the one it started with, as a fresh Lua state would.
type freshPlayer struct {
	randomPlayer
	seed   uint64
	team   int
	called int // calls since the last restart
}

func newFreshPlayer(seed uint64, team int) *freshPlayer {
	p := &freshPlayer{seed: seed, team: team}
	p.Restart()
	return p
}

func (p *freshPlayer) Restart() {
	p.rng, p.called = NewRand(p.seed, TeamStream(p.team)), 0
}

func (p *freshPlayer) Turn(t *Turn) {
	p.called++
	p.randomPlayer.Turn(t)
}

// walled is a freshPlayer behind a wall that fires on a schedule, as a
// worker process would when it hangs or dies: the phase's squares wait,
// the state is dropped, and the event is reported for the engine to count.
type walled struct {
	*freshPlayer
	// fire returns the events of this phase, or none.
	fire    func(round int, settle bool) []BackstopKind
	retired bool
	t       *testing.T
}

func (w *walled) Turn(t *Turn) {
	if w.retired {
		w.t.Errorf("team %d: called in round %d after its retirement", w.team, t.Facts.Round)
	}
	if w.report(t.Facts.Round, false, &t.Report) {
		return
	}
	w.freshPlayer.Turn(t)
}

func (w *walled) Settle(s *Settlement) {
	if w.retired {
		w.t.Errorf("team %d: told of round %d after its retirement", w.team, s.Facts.Round)
	}
	w.report(s.Facts.Round, true, &s.Report)
}

func (w *walled) report(round int, settle bool, r *Report) bool {
	kinds := w.fire(round, settle)
	for _, k := range kinds {
		r.Backstops = append(r.Backstops, Backstop{Kind: k, Class: 0, Message: "r.lua: the wall fired: " + k.String()})
		w.retired = w.retired || k == BackstopRetired
	}
	if len(kinds) > 0 {
		w.Restart()
	}
	return len(kinds) > 0
}

// wallBattle is a six-team battle of fresh players; wall, when not nil,
// puts team t behind a wall that fires as wall(t) says.
func wallBattle(t *testing.T, seed uint64, workers int, ctrl func(team int, p *freshPlayer) Controller) *Battle {
	t.Helper()
	o := Options{Size: 16, Wrap: true, Rounds: 200, ReplicateRounds: 3, Seed: seed, Workers: workers, Classes: []string{"r"}}
	for team := range 6 {
		o.Teams = append(o.Teams, TeamSetup{Player: Player{Name: "R"}, Controller: ctrl(team, newFreshPlayer(seed, team))})
	}
	b, err := NewBattle(o)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(b.Close)
	return b
}

func recordAll(b *Battle) []RoundLog {
	rec := NewRecorder(b)
	var logs []RoundLog
	for b.Step() {
		logs = append(logs, rec.Next())
	}
	return logs
}

// TestBackstopsReplayAsRecorded: a battle in which walls fire (timeouts and
// crashes while deciding and while settling, a retirement) records every
// event; the same battle played again by players that never fault, with the
// recorded events handed back through ReplayBackstops, gives the same round
// logs, whatever the number of workers of either.
func TestBackstopsReplayAsRecorded(t *testing.T) {
	const seed = 5
	schedules := map[int]func(*walled) func(int, bool) []BackstopKind{
		// Team 1 times out while deciding in round 4, crashes in round 12.
		1: func(*walled) func(int, bool) []BackstopKind {
			return func(round int, settle bool) []BackstopKind {
				switch {
				case !settle && round == 4:
					return []BackstopKind{BackstopTimeout}
				case !settle && round == 12:
					return []BackstopKind{BackstopCrash}
				}
				return nil
			}
		},
		// Team 2 crashes the first time it settles after round 10.
		2: func(*walled) func(int, bool) []BackstopKind {
			done := false
			return func(round int, settle bool) []BackstopKind {
				if settle && round > 10 && !done {
					done = true
					return []BackstopKind{BackstopCrash}
				}
				return nil
			}
		},
		// Team 4 crashes in rounds 7, 8 and 9 and is retired at the third.
		4: func(*walled) func(int, bool) []BackstopKind {
			return func(round int, settle bool) []BackstopKind {
				switch {
				case settle || round < 7 || round > 9:
					return nil
				case round == 9:
					return []BackstopKind{BackstopCrash, BackstopRetired}
				}
				return []BackstopKind{BackstopCrash}
			}
		},
	}
	for _, workers := range []int{1, 4} {
		recorded := recordAll(wallBattle(t, seed, workers, func(team int, p *freshPlayer) Controller {
			if s := schedules[team]; s != nil {
				w := &walled{freshPlayer: p, t: t}
				w.fire = s(w)
				return w
			}
			return p
		}))
		events := map[int][]Backstop{}
		var kinds []string
		for _, l := range recorded {
			for _, e := range l.Backstops {
				events[e.Team] = append(events[e.Team], e)
				kinds = append(kinds, e.Kind.String())
				if e.Round != l.Round || !strings.HasPrefix(e.Message, "r.lua: the wall fired") {
					t.Errorf("event %+v in the log of round %d", e, l.Round)
				}
			}
		}
		if len(events[1]) != 2 || len(events[2]) != 1 || !events[2][0].Settle || len(events[4]) != 4 {
			t.Fatalf("recorded events %+v", events)
		}
		for _, replayWorkers := range []int{1, 4} {
			var players []*freshPlayer
			b := wallBattle(t, seed, replayWorkers, func(team int, p *freshPlayer) Controller {
				players = append(players, p)
				return ReplayBackstops(p, events[team])
			})
			again := recordAll(b)
			if !reflect.DeepEqual(again, recorded) {
				t.Errorf("workers %d/%d: the re-run's logs differ from the recording", workers, replayWorkers)
			}
			st := b.Stats(4)
			if st.Errors != 3 || players[4].called != 0 {
				t.Errorf("retired team: %+v, called %d times since its last restart", st, players[4].called)
			}
			if st := b.Stats(1); st.Timeouts != 1 || st.Errors != 1 {
				t.Errorf("team 1: %+v, want a timeout and an error", st)
			}
		}
		t.Logf("events: %v", kinds)
	}
}

// TestBackstopsWithoutRestart: a recorded event where the re-run's
// controller cannot restart still counts and explains the fault; the
// re-run then differs only if the team's state mattered.
func TestBackstopsWithoutRestart(t *testing.T) {
	b := wallBattle(t, 9, 1, func(team int, p *freshPlayer) Controller {
		if team != 0 {
			return p
		}
		return ReplayBackstops(&p.randomPlayer, []Backstop{{Round: 2, Kind: BackstopTimeout, Message: "t"}, {Round: 5, Kind: BackstopRetired, Message: "r"}})
	})
	logs := recordAll(b)
	if st := b.Stats(0); st.Timeouts != 1 {
		t.Errorf("stats %+v, want one timeout", st)
	}
	if len(logs[1].Backstops) != 1 || len(logs[4].Backstops) != 1 || logs[4].Backstops[0].Kind != BackstopRetired {
		t.Errorf("rounds 2 and 5 logged %+v and %+v", logs[1].Backstops, logs[4].Backstops)
	}
}

// TestBackstopEventsAreBounded: what a controller reports is made safe and
// bounded before it is counted or recorded.
func TestBackstopEventsAreBounded(t *testing.T) {
	long := strings.Repeat("é", MaxBackstopText)
	reports := []Backstop{
		{Kind: BackstopCrash, Class: 99, Message: "\x1b[2J" + long},
		{Kind: BackstopKind(9), Message: "unknown"},
		{Kind: BackstopTimeout, Message: "third"},
	}
	b := wallBattle(t, 3, 1, func(team int, p *freshPlayer) Controller {
		if team != 0 {
			return p
		}
		return reportOnce{reports}
	})
	b.Step()
	got := b.backstops
	if len(got) != 1 {
		t.Fatalf("events %+v, want only the first (the second is unknown, the third beyond the bound)", got)
	}
	e := got[0]
	if e.Class != NoClass || len(e.Message) > MaxBackstopText || strings.ContainsRune(e.Message, 0x1b) || !strings.HasSuffix(e.Message, "…") {
		t.Errorf("event %+v: want no class, a safe message clipped to %d bytes", e.Class, MaxBackstopText)
	}
	if st := b.Stats(0); st.Errors != 1 || st.Timeouts != 0 {
		t.Errorf("stats %+v, want the one crash", st)
	}
}

type reportOnce struct{ events []Backstop }

func (r reportOnce) Turn(t *Turn) {
	if t.Facts.Round == 1 {
		t.Report.Backstops = append(t.Report.Backstops, r.events...)
	}
}
func (reportOnce) Settle(*Settlement) {}

// TestTimelineRefusesBadBackstops: a replay's events are checked like its
// other events; a round that could not come from a battle is refused whole.
func TestTimelineRefusesBadBackstops(t *testing.T) {
	ok := func(team int, kind BackstopKind) Backstop {
		return Backstop{Round: 1, Team: team, Kind: kind, Class: 0, Message: "m"}
	}
	settle := func(e Backstop) Backstop { e.Settle = true; return e }
	cases := []struct {
		name   string
		events []Backstop
		want   string // "" accepted
	}{
		{"a crash and its retirement", []Backstop{ok(0, BackstopCrash), ok(0, BackstopRetired)}, ""},
		{"turn then settle", []Backstop{ok(1, BackstopTimeout), settle(ok(0, BackstopCrash))}, ""},
		{"team out of range", []Backstop{ok(2, BackstopCrash)}, "team 2"},
		{"unknown kind", []Backstop{ok(0, 0)}, "unknown kind"},
		{"class out of range", []Backstop{{Round: 1, Kind: BackstopCrash, Class: 1}}, "class 1"},
		{"message too long", []Backstop{{Round: 1, Kind: BackstopCrash, Message: strings.Repeat("x", MaxBackstopText+1)}}, "bytes"},
		{"wrong round", []Backstop{{Round: 2, Kind: BackstopCrash}}, "round 2"},
		{"settle before turn", []Backstop{settle(ok(0, BackstopCrash)), ok(1, BackstopCrash)}, "out of order"},
		{"too many in a phase", []Backstop{ok(0, BackstopCrash), ok(0, BackstopCrash), ok(0, BackstopCrash)}, "more than 2"},
		{"after retirement", []Backstop{ok(0, BackstopRetired), settle(ok(0, BackstopCrash))}, "retired already"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			start := &Snapshot{Size: 2, Cells: []int32{0, 1, -1, -1}, Classes: []string{"r"},
				Teams: []TeamView{{Team: 0, Stats: Stats{Squares: 1}}, {Team: 1, Stats: Stats{Squares: 1}}}}
			tl := NewTimeline(start, 0)
			err := tl.Add(RoundLog{Round: 1, Backstops: c.events})
			switch {
			case c.want == "" && err != nil:
				t.Errorf("refused: %v", err)
			case c.want != "" && (err == nil || !strings.Contains(err.Error(), c.want)):
				t.Errorf("got %v, want an error saying %q", err, c.want)
			}
		})
	}
}

// TestRetiredInSnapshots: a team retired by a backstop event says so in
// the live battle's snapshot and in the timeline's pictures from that
// round on, with the event's message; the other teams play on.
func TestRetiredInSnapshots(t *testing.T) {
	b := wallBattle(t, 3, 1, func(team int, p *freshPlayer) Controller {
		if team != 2 {
			return p
		}
		w := &walled{freshPlayer: p, t: t}
		w.fire = func(round int, settle bool) []BackstopKind {
			if !settle && round == 2 {
				return []BackstopKind{BackstopCrash, BackstopRetired}
			}
			return nil
		}
		return w
	})
	tl := NewTimeline(b.Snapshot(), 4)
	rec := NewRecorder(b)
	for b.Step() {
		if err := tl.Add(rec.Next()); err != nil {
			t.Fatal(err)
		}
	}
	if tl.Last() < 3 {
		t.Fatalf("the battle ended in round %d", tl.Last())
	}
	want := Retirement{Round: 2, Reason: "r.lua: the wall fired: retired"}
	for _, tc := range []struct {
		name string
		s    *Snapshot
		want Retirement
	}{
		{"live", b.Snapshot(), want},
		{"timeline at the end", tl.At(tl.Last()), want},
		{"timeline at round 2", tl.At(2), want},
		{"timeline at round 1", tl.At(1), Retirement{}},
	} {
		for i, team := range tc.s.Teams {
			w := Retirement{}
			if i == 2 {
				w = tc.want
			}
			if team.Retired != w {
				t.Errorf("%s: team %d is retired %+v, want %+v", tc.name, i, team.Retired, w)
			}
		}
	}
}
