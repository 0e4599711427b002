package engine

import (
	"fmt"
	"sort"
)

// Timeline holds a battle's rounds so that any of them can be looked at
// again: the picture of round r is rebuilt from the nearest keyframe at or
// before r plus the RoundLogs after it. Keyframes every Every rounds keep
// looking back cheap however long the battle; Trim bounds the memory of a
// live battle.
//
// Concurrency: a Timeline is not safe for concurrent use. The snapshots it
// returns are new values and may be handed to any goroutine.
type Timeline struct {
	every int
	start Snapshot // rounds limit, size, seed, players, classes
	// keys[i] is the state after round keys[i].round; keys[0].round is
	// the first round kept.
	keys []keyframe
	// logs[i] is the log of round keys[0].round+1+i.
	logs []RoundLog
	cur  keyframe // state after the last round added
	// squares[t][r] is team t's square count after round r (all rounds
	// ever added, kept by Trim: it is small and the trend needs it).
	squares [][]int32
	// problems holds every recorded problem in order; firsts the indexes
	// of the first problem of each (team, class).
	problems  []Problem
	firsts    []int
	seenFirst map[[2]int]bool
	ended     bool
}

type keyframe struct {
	round      int
	cells      []int32
	stats      []Stats
	eliminated []int
}

func (k *keyframe) clone() keyframe {
	return keyframe{
		round:      k.round,
		cells:      append([]int32(nil), k.cells...),
		stats:      append([]Stats(nil), k.stats...),
		eliminated: append([]int(nil), k.eliminated...),
	}
}

// DefaultKeyframeEvery is the keyframe interval used when none is given.
const DefaultKeyframeEvery = 64

// NewTimeline starts a timeline at the given picture, normally round 0 of a
// battle, with a keyframe every `every` rounds (DefaultKeyframeEvery when
// every < 1).
func NewTimeline(start *Snapshot, every int) *Timeline {
	if every < 1 {
		every = DefaultKeyframeEvery
	}
	t := &Timeline{every: every, start: *start, seenFirst: map[[2]int]bool{}}
	t.start.Cells, t.start.Problems, t.start.FirstProblems = nil, nil, nil
	t.start.Teams = append([]TeamView(nil), start.Teams...)
	k := keyframe{round: start.Round, cells: append([]int32(nil), start.Cells...)}
	for _, tv := range start.Teams {
		k.stats = append(k.stats, tv.Stats)
		k.eliminated = append(k.eliminated, tv.Eliminated)
	}
	t.cur = k
	t.keys = []keyframe{k.clone()}
	t.squares = make([][]int32, len(start.Teams))
	for i := range t.squares {
		t.squares[i] = make([]int32, start.Round+1)
		t.squares[i][start.Round] = int32(k.stats[i].Squares)
	}
	for _, p := range start.FirstProblems {
		t.addProblem(p)
	}
	return t
}

// First is the oldest round the timeline can show; Last the newest.
func (t *Timeline) First() int { return t.keys[0].round }

// Last is the newest round added.
func (t *Timeline) Last() int { return t.cur.round }

// Ended reports whether End was called: the battle is over at Last.
func (t *Timeline) Ended() bool { return t.ended }

// End marks the battle as over after the last round added.
func (t *Timeline) End() { t.ended = true }

// Squares returns team's square count after every round from 0 to Last.
// The slice is shared: callers must not change it, and it stays valid
// (Add only appends past its length).
func (t *Timeline) Squares(team int) []int32 {
	s := t.squares[team]
	return s[:len(s):len(s)]
}

// RoundError reports a RoundLog that does not follow the timeline.
type RoundError struct {
	Round, Want int
	Reason      string
}

func (e *RoundError) Error() string {
	if e.Reason != "" {
		return fmt.Sprintf("round %d: %s", e.Round, e.Reason)
	}
	return fmt.Sprintf("round %d where round %d was expected", e.Round, e.Want)
}

// Add appends the log of the round after Last. A log that does not fit the
// battle (wrong round, a cell or team out of range) is refused whole, so a
// damaged replay never leaves a half-applied round behind.
func (t *Timeline) Add(l RoundLog) error {
	if t.ended {
		return &RoundError{Round: l.Round, Reason: "the battle is already over"}
	}
	if l.Round != t.cur.round+1 {
		return &RoundError{Round: l.Round, Want: t.cur.round + 1}
	}
	if err := t.check(&l); err != nil {
		return err
	}
	apply(&t.cur, &l)
	t.logs = append(t.logs, l)
	for team := range t.squares {
		t.squares[team] = append(t.squares[team], int32(t.cur.stats[team].Squares))
	}
	for _, p := range l.Problems {
		t.addProblem(p)
	}
	if l.Round%t.every == 0 {
		t.keys = append(t.keys, t.cur.clone())
	}
	return nil
}

func (t *Timeline) check(l *RoundLog) error {
	cells, teams := int32(len(t.cur.cells)), len(t.cur.stats)
	bad := func(what string, v int) error {
		return &RoundError{Round: l.Round, Reason: fmt.Sprintf("%s %d is out of range", what, v)}
	}
	prev := int32(-1)
	for _, c := range l.Changes {
		if c.Cell <= prev || c.Cell >= cells {
			return bad("cell", int(c.Cell))
		}
		prev = c.Cell
		if c.Team < Empty || int(c.Team) >= teams {
			return bad("team", int(c.Team))
		}
	}
	for _, x := range l.Births {
		if x.Team < 0 || x.Team >= teams {
			return bad("team", x.Team)
		}
	}
	for _, x := range l.Deaths {
		if x.Team < 0 || x.Team >= teams {
			return bad("team", x.Team)
		}
		if x.Killer < 0 || x.Killer >= teams {
			return bad("killer", x.Killer)
		}
	}
	for _, x := range l.Faults {
		if x.Team < 0 || x.Team >= teams {
			return bad("team", x.Team)
		}
	}
	return nil
}

// apply moves state k one round forward. Team totals follow from the
// events, in the engine's own terms: a birth adds a square, a death takes
// one and credits the killer unless it is the square's own team.
func apply(k *keyframe, l *RoundLog) {
	k.round = l.Round
	for _, c := range l.Changes {
		k.cells[c.Cell] = c.Team
	}
	for _, x := range l.Births {
		k.stats[x.Team].Births++
		k.stats[x.Team].Squares++
	}
	for _, x := range l.Deaths {
		s := &k.stats[x.Team]
		s.Deaths++
		s.Squares--
		if x.Kind == DiedOwnCollision {
			s.Collisions++
		}
		if x.Killer != x.Team {
			k.stats[x.Killer].Kills++
		}
	}
	for _, x := range l.Faults {
		k.stats[x.Team].Timeouts += x.Timeouts
		k.stats[x.Team].Errors += x.Errors
	}
	for team := range k.stats {
		if k.stats[team].Squares <= 0 && k.eliminated[team] == 0 {
			k.eliminated[team] = l.Round
		}
	}
}

func (t *Timeline) addProblem(p Problem) {
	key := [2]int{p.Team, int(p.Class)}
	if !t.seenFirst[key] {
		t.seenFirst[key] = true
		t.firsts = append(t.firsts, len(t.problems))
	}
	t.problems = append(t.problems, p)
}

// Log returns the log of a round the timeline still holds.
func (t *Timeline) Log(round int) (RoundLog, bool) {
	i := round - t.keys[0].round - 1
	if i < 0 || i >= len(t.logs) {
		return RoundLog{}, false
	}
	return t.logs[i], true
}

// At rebuilds the picture after round r, clamped to [First, Last].
func (t *Timeline) At(r int) *Snapshot {
	r = max(t.First(), min(r, t.Last()))
	var k keyframe
	if r == t.cur.round {
		k = t.cur.clone()
	} else {
		i := sort.Search(len(t.keys), func(i int) bool { return t.keys[i].round > r }) - 1
		k = t.keys[i].clone()
		base := t.keys[0].round
		for k.round < r {
			apply(&k, &t.logs[k.round-base])
		}
	}
	s := t.start
	s.Round = r
	s.Cells = k.cells
	s.Over = t.ended && r == t.Last()
	s.Winner = -1
	if s.Over {
		s.Winner = winnerOf(k.stats)
	}
	s.Teams = make([]TeamView, len(k.stats))
	for i := range s.Teams {
		s.Teams[i] = TeamView{Team: i, Player: t.start.Teams[i].Player, Stats: k.stats[i], Eliminated: k.eliminated[i]}
	}
	n := sort.Search(len(t.problems), func(i int) bool { return t.problems[i].Round > r })
	for _, i := range t.firsts {
		if i < n {
			s.FirstProblems = append(s.FirstProblems, t.problems[i])
		}
	}
	recent := t.problems[max(0, n-recentProblems):n]
	s.Problems = append(make([]Problem, 0, len(recent)), recent...)
	return &s
}

// Trim forgets rounds so that at most about keep rounds before Last stay
// viewable; it drops whole keyframe intervals, so a few more may remain.
func (t *Timeline) Trim(keep int) {
	limit := t.cur.round - keep
	i := sort.Search(len(t.keys), func(i int) bool { return t.keys[i].round > limit }) - 1
	if i <= 0 {
		return
	}
	drop := t.keys[i].round - t.keys[0].round
	t.logs = append([]RoundLog(nil), t.logs[drop:]...)
	t.keys = append([]keyframe(nil), t.keys[i:]...)
}
