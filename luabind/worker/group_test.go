package worker

import (
	"fmt"
	"reflect"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/squarebattle/squarebattle/engine"
	"github.com/squarebattle/squarebattle/luabind"
	"github.com/squarebattle/squarebattle/luabind/worker/testhooks"
	"github.com/squarebattle/squarebattle/scripts"
)

// playTogether plays battles at once, each on its own goroutine, joined
// to the groups, and returns each battle's round logs.
func playTogether(battles []*luabind.Battle, groups ...*Group) [][]engine.RoundLog {
	logs := make([][]engine.RoundLog, len(battles))
	var wg sync.WaitGroup
	for i, b := range battles {
		for _, g := range groups {
			g.Join()
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			logs[i] = recordAll(b)
			b.Close()
			for _, g := range groups {
				g.Leave()
			}
		}()
	}
	wg.Wait()
	return logs
}

// TestGroupSameBattles: battles played at once in a group, a player's
// teams of several battles sharing a worker, are byte for byte the
// battles played alone in this process, for any width of the group and
// any number of engine workers, with a player fielded twice in a battle.
func TestGroupSameBattles(t *testing.T) {
	cat := shipped(t)
	var names []string
	for _, p := range cat.Players()[:3] {
		names = append(names, p.ID)
	}
	players := append(names, names[0]) // the first player twice
	keys := []string{"a/0", "b/0", "c/0", "a/1"}
	const battles = 5
	p := plainPool(t, Options{Size: 1})
	for _, width := range []int{1, 2, 8} {
		for _, workers := range []int{1, 2} {
			t.Run(fmt.Sprintf("width%d/workers%d", width, workers), func(t *testing.T) {
				var want [][]engine.RoundLog
				var bs []*luabind.Battle
				g := p.Group(width, 64)
				defer g.Close()
				for i := range battles {
					o := engine.Options{Size: 20, Wrap: true, Rounds: 60, ReplicateRounds: 4, Seed: uint64(11 + i), Workers: workers}
					want = append(want, recordAll(battle(t, cat, players, o, nil)))
					bs = append(bs, battle(t, cat, players, o, g.Seater(keys)))
				}
				for i, got := range playTogether(bs, g) {
					sameLogs(t, fmt.Sprintf("battle %d", i), got, want[i])
				}
				// A worker plays at most width teams: 5 battles of a key
				// need ceil(5/width) workers.
				if n, want := g.workersStarted(), 4*((battles+width-1)/width); n != want {
					t.Errorf("%d workers started, want %d", n, want)
				}
			})
		}
	}
}

// workersStarted counts the workers the group ever started (tests).
func (g *Group) workersStarted() int {
	g.mu.Lock()
	defer g.mu.Unlock()
	return g.started
}

// TestGroupBackstop fields, in a group, a player that calls a test hook in
// three battles at once: the hook's worker plays that player's teams of
// all three. Each battle counts and records the backstop for that team
// only, of the kind the hook's death is, and the same events whether the
// battles' requests went to the worker in one wave or in several (split:
// a wave takes one request of a worker's queue, the others are queued
// while it is out, as when a slow machine's patience sends waves early);
// the other teams, on workers of their own keys, play the battle they
// play against a square that only waits; and each battle re-run with its
// recorded events plays every round as recorded.
func TestGroupBackstop(t *testing.T) {
	explorer, err := scripts.FS.ReadFile("explorer.lua")
	if err != nil {
		t.Fatal(err)
	}
	players := []string{"hostile", "explorer", "victim"}
	keys := []string{"hostile", "explorer", "victim"}
	files := func(hostile string) map[string]string {
		return map[string]string{"hostile.lua": hostile, "explorer.lua": string(explorer), "victim.lua": victim}
	}
	short := testPool(t, Options{Size: 1, MemoryMiB: 256, CallTimeout: 700 * time.Millisecond, PerInstruction: time.Nanosecond})
	long := testPool(t, Options{Size: 1, MemoryMiB: 256, CallTimeout: time.Minute})
	options := func(i int) engine.Options {
		return engine.Options{Size: 8, Wrap: true, Rounds: 40, ReplicateRounds: 3, Seed: uint64(3 + i), Workers: 1}
	}
	const battles = 3
	idleCat := catalogOf(t, files(idle))
	var want []*engine.Snapshot
	for i := range battles {
		want = append(want, battle(t, idleCat, players, options(i), nil).Run())
	}
	var recorded [][]engine.Backstop // the last case's events, per battle
	for _, c := range testhooks.Cases {
		for _, split := range []bool{false, true} {
			t.Run(fmt.Sprintf("%s/split=%v", c.Hook, split), func(t *testing.T) {
				if why := c.SkipReason(AddressSpaceLimited()); why != "" {
					t.Skip(why)
				}
				hostileGroup := long.Group(battles, 8)
				if c.Kind == engine.BackstopTimeout {
					hostileGroup = short.Group(battles, 8)
				}
				if split {
					hostileGroup.frameCap = 1
				}
				others := long.Group(battles, 8)
				defer hostileGroup.Close()
				defer others.Close()
				seat := func(o luabind.TeamOptions) (luabind.Seat, error) {
					if o.Index == 0 {
						return hostileGroup.Seater(keys)(o)
					}
					return others.Seater(keys)(o)
				}
				cat := catalogOf(t, files(c.Player()))
				var bs []*luabind.Battle
				for i := range battles {
					bs = append(bs, battle(t, cat, players, options(i), seat))
				}
				logs := playTogether(bs, hostileGroup, others)
				for i, b := range bs {
					got := b.Snapshot()
					if h := got.Teams[0].Stats; (c.Kind == engine.BackstopTimeout && h.Timeouts != 3) || (c.Kind == engine.BackstopCrash && h.Errors != 3) {
						t.Errorf("battle %d: hostile stats %+v, want 3 %ss (then retired)", i, h, c.Kind)
					}
					if len(got.FirstProblems) == 0 || !strings.Contains(got.FirstProblems[0].Message, c.Shown) {
						t.Errorf("battle %d: first problems %+v, want one naming %q", i, got.FirstProblems, c.Shown)
					}
					events := backstopsOf(logs[i])
					var kinds []engine.BackstopKind
					for _, e := range events {
						kinds = append(kinds, e.Kind)
						if e.Team != 0 {
							t.Errorf("battle %d: event %+v, want team 0's", i, e)
						}
					}
					if w := []engine.BackstopKind{c.Kind, c.Kind, c.Kind, engine.BackstopRetired}; !reflect.DeepEqual(kinds, w) {
						t.Errorf("battle %d: recorded events %v, want %v", i, kinds, w)
					}
					otherTeamsSame(t, got, want[i])
					again := battle(t, cat, players, options(i), luabind.ReplayedSeater(nil, events))
					sameLogs(t, fmt.Sprintf("battle %d re-run", i), recordAll(again), logs[i])
					if split && i < len(recorded) && !reflect.DeepEqual(withoutText(events), withoutText(recorded[i])) {
						t.Errorf("battle %d: split waves recorded %+v, whole ones %+v", i, events, recorded[i])
					}
					if !split {
						recorded = append(recorded, events)
					}
				}
				if st := hostileGroup.Stats(); split && st.Requests != st.Frames {
					t.Errorf("split waves: %+v, want a request a frame", st)
				}
			})
		}
		recorded = nil
	}
}

// withoutText is events without their messages, which may name what
// differs from run to run (the heap a worker had when it ran out of
// memory).
func withoutText(events []engine.Backstop) []engine.Backstop {
	var out []engine.Backstop
	for _, e := range events {
		e.Message = ""
		out = append(out, e)
	}
	return out
}

// TestGroupKilledFromOutside: kill -9 of the worker that plays a player's
// teams of three battles costs each of those teams one error and a fresh
// Lua state, whether or not the team had a request in flight; the battles
// go on, the other players are untouched, and each battle re-run with its
// recorded events plays as recorded.
func TestGroupKilledFromOutside(t *testing.T) {
	explorer, _ := scripts.FS.ReadFile("explorer.lua")
	cat := catalogOf(t, map[string]string{"explorer.lua": string(explorer), "victim.lua": victim})
	players := []string{"victim", "explorer"}
	keys := []string{"victim", "explorer"}
	p := testPool(t, Options{Size: 1})
	g := p.Group(4, 8)
	defer g.Close()
	var bs []*luabind.Battle
	var logs [][]engine.RoundLog
	var recs []*engine.Recorder
	for i := range 3 {
		o := engine.Options{Size: 10, Wrap: true, Rounds: 50, ReplicateRounds: 3, Seed: uint64(5 + i), Workers: 1}
		b := battle(t, cat, players, o, g.Seater(keys))
		bs, logs, recs = append(bs, b), append(logs, nil), append(recs, engine.NewRecorder(b.Battle))
	}
	// Battles not joined to the group send their own waves: step them in
	// turn, so that at the kill the first battle's team has its state in
	// the worker and no request in flight.
	step := func(rounds int) {
		for range rounds {
			for i, b := range bs {
				if b.Step() {
					logs[i] = append(logs[i], recs[i].Next())
				}
			}
		}
	}
	step(10)
	pid := g.pidOf("victim")
	if pid == 0 {
		t.Fatal("no worker for the victim key")
	}
	if err := syscall.Kill(pid, syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	step(1000)
	for i, b := range bs {
		got := b.Snapshot()
		if h := got.Teams[0].Stats; h.Errors != 1 {
			t.Errorf("battle %d: killed team %+v, want one error", i, h)
		}
		if h := got.Teams[1].Stats; h.Errors != 0 || h.Timeouts != 0 {
			t.Errorf("battle %d: the other team %+v, want no fault", i, h)
		}
		events := backstopsOf(logs[i])
		if len(events) != 1 || events[0].Team != 0 || events[0].Kind != engine.BackstopCrash {
			t.Errorf("battle %d: events %+v, want one crash of team 0", i, events)
		}
		o := engine.Options{Size: 10, Wrap: true, Rounds: 50, ReplicateRounds: 3, Seed: uint64(5 + i), Workers: 1}
		again := battle(t, cat, players, o, luabind.ReplayedSeater(nil, events))
		sameLogs(t, fmt.Sprintf("battle %d re-run", i), recordAll(again), logs[i])
	}
	if alive(pid) {
		t.Errorf("worker %d still alive", pid)
	}
}

// pidOf is the process id of the worker new teams of key go to (tests).
func (g *Group) pidOf(key string) int {
	g.mu.Lock()
	defer g.mu.Unlock()
	if h := g.current[key]; h != nil && h.w != nil {
		return h.w.cmd.Process.Pid
	}
	return 0
}

// TestLanesSameBattles: battles spread over lanes, each lane a group with
// workers of its own, are byte for byte the battles played alone in this
// process; battles joining at once are shared out evenly, and a lane
// freed by a battle that left takes the next.
func TestLanesSameBattles(t *testing.T) {
	cat := shipped(t)
	var players []string
	for _, p := range cat.Players()[:3] {
		players = append(players, p.ID)
	}
	keys := []string{"a/0", "b/0", "c/0"}
	p := plainPool(t, Options{Size: 1})
	lanes := p.Lanes(2, 2, 64)
	defer lanes.Close()
	const battles = 6
	var want [][]engine.RoundLog
	var bs []*luabind.Battle
	var joined []Lane
	for i := range battles {
		o := engine.Options{Size: 16, Wrap: true, Rounds: 50, ReplicateRounds: 4, Seed: uint64(31 + i), Workers: 1}
		want = append(want, recordAll(battle(t, cat, players, o, nil)))
		lane := lanes.Join()
		joined = append(joined, lane)
		bs = append(bs, battle(t, cat, players, o, lane.Seater(keys)))
	}
	perLane := map[int]int{}
	for _, lane := range joined {
		perLane[lane.i]++
	}
	if perLane[0] != battles/2 || perLane[1] != battles/2 {
		t.Errorf("battles per lane %v, want %d in each", perLane, battles/2)
	}
	logs := make([][]engine.RoundLog, battles)
	var wg sync.WaitGroup
	for i, b := range bs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			logs[i] = recordAll(b)
			b.Close()
			joined[i].Leave()
		}()
	}
	wg.Wait()
	for i := range bs {
		sameLogs(t, fmt.Sprintf("battle %d", i), logs[i], want[i])
	}
	for i, g := range lanes.groups {
		// 3 battles of a key at width 2: two workers a key, three keys.
		if n := g.workersStarted(); n != 6 {
			t.Errorf("lane %d started %d workers, want 6", i, n)
		}
	}
	if st := lanes.Stats(); st.Waves == 0 || st.Requests < st.Frames {
		t.Errorf("stats %+v", st)
	}
	// Everyone left: the next battle goes to the first lane.
	if lane := lanes.Join(); lane.i != 0 {
		t.Errorf("after all left, joined lane %d, want 0", lane.i)
	} else {
		lane.Leave()
	}
}

// TestGroupPatience: a battle that joined a group but asks nothing (busy
// elsewhere, say writing its replay) holds up the others only for the
// group's patience: a battle beside it plays to the end, each of its waves
// sent by a waiter once no request came for a period, and plays what it
// plays alone; the idle battle then plays as well.
func TestGroupPatience(t *testing.T) {
	cat := shipped(t)
	var players []string
	for _, p := range cat.Players()[:2] {
		players = append(players, p.ID)
	}
	keys := []string{"a", "b"}
	p := plainPool(t, Options{Size: 1})
	g := p.Group(4, 64)
	defer g.Close()
	o := engine.Options{Size: 12, Wrap: true, Rounds: 8, ReplicateRounds: 3, Seed: 7, Workers: 1}
	want := recordAll(battle(t, cat, players, o, nil))
	g.Join() // the battle that asks nothing for now
	g.Join()
	busy := battle(t, cat, players, o, g.Seater(keys))
	done := make(chan []engine.RoundLog)
	go func() {
		b := battle(t, cat, players, o, g.Seater(keys))
		logs := recordAll(b)
		b.Close()
		g.Leave()
		done <- logs
	}()
	var got []engine.RoundLog
	select {
	case got = <-done:
	case <-time.After(time.Minute): // a liveness bound, not a speed one
		t.Fatal("the playing battle was held up by the idle one")
	}
	sameLogs(t, "beside an idle battle", got, want)
	if st := g.Stats(); st.Waves < len(want) {
		t.Errorf("%d waves for %d rounds", st.Waves, len(want))
	}
	sameLogs(t, "the idle battle, after", recordAll(busy), want)
	busy.Close()
	g.Leave()
}
