package engine

import (
	"fmt"
	"slices"
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
	// squares[t][r] is team t's square count after round r (in a rule
	// mod, its first score column): all rounds ever added, kept by Trim:
	// it is small and the trend needs it.
	squares [][]int32
	gain    []int // checkSquares' scratch
	// problems holds every recorded problem in order; firsts the indexes
	// of the first problem of each kind of each (team, class).
	problems  []Problem
	firsts    []int
	seenFirst map[[3]int]bool
	ended     bool
	// retired marks the teams a backstop event retired: no event of
	// theirs may follow.
	retired []bool
	// retirements say when and why (nil until a team is retired).
	retirements []Retirement
	// winner, when decided, is the winner End was told (a rule mod's rules
	// may name one the scores do not show).
	winner  int
	decided bool
}

type keyframe struct {
	round      int
	cells      []int32
	stats      []Stats
	eliminated []int
	// A rule mod's marks and score columns; nil in SquareBattle.
	marks  []Mark
	values [][]int
}

func (k *keyframe) clone() keyframe {
	c := keyframe{
		round:      k.round,
		cells:      append([]int32(nil), k.cells...),
		stats:      append([]Stats(nil), k.stats...),
		eliminated: append([]int(nil), k.eliminated...),
	}
	if k.marks != nil {
		c.marks = append([]Mark(nil), k.marks...)
		c.values = make([][]int, len(k.values))
		for i, v := range k.values {
			c.values[i] = append([]int(nil), v...)
		}
	}
	return c
}

// mod reports whether the keyframe is of a rule mod battle.
func (k *keyframe) mod() bool { return k.marks != nil }

// trend is the figure a team's sparkline follows: its squares, or a rule
// mod's first score column.
func (k *keyframe) trend(team int) int32 {
	if k.mod() {
		if len(k.values[team]) == 0 {
			return 0
		}
		return int32(k.values[team][0])
	}
	return int32(k.stats[team].Squares)
}

// DefaultKeyframeEvery is the keyframe interval used when none is given.
const DefaultKeyframeEvery = 64

// NewTimeline starts a timeline at the given picture, normally round 0 of a
// battle, with a keyframe every `every` rounds (DefaultKeyframeEvery when
// every < 1). A picture with Marks is a rule mod's: its rounds carry marks
// and score columns too.
func NewTimeline(start *Snapshot, every int) *Timeline {
	if every < 1 {
		every = DefaultKeyframeEvery
	}
	t := &Timeline{every: every, start: *start, seenFirst: map[[3]int]bool{}, winner: -1}
	t.start.Cells, t.start.Marks, t.start.Problems, t.start.FirstProblems = nil, nil, nil, nil
	t.start.Teams = append([]TeamView(nil), start.Teams...)
	k := keyframe{round: start.Round, cells: append([]int32(nil), start.Cells...)}
	if start.Marks != nil {
		k.marks = append([]Mark(nil), start.Marks...)
		k.values = make([][]int, len(start.Teams))
	}
	for i, tv := range start.Teams {
		k.stats = append(k.stats, tv.Stats)
		k.eliminated = append(k.eliminated, tv.Eliminated)
		if k.mod() {
			k.values[i] = make([]int, len(start.Columns))
			copy(k.values[i], tv.Values)
		}
	}
	t.cur = k
	t.keys = []keyframe{k.clone()}
	t.squares = make([][]int32, len(start.Teams))
	for i := range t.squares {
		t.squares[i] = make([]int32, start.Round+1)
		t.squares[i][start.Round] = k.trend(i)
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

// Alive is how many squares (a rule mod's units) the teams hold together
// after the last round added, as their totals count them.
func (t *Timeline) Alive() int {
	n := 0
	for _, s := range t.cur.stats {
		n += max(0, s.Squares)
	}
	return n
}

// Ended reports whether End was called: the battle is over at Last.
func (t *Timeline) Ended() bool { return t.ended }

// End marks the battle as over after the last round added. The winner
// follows from the totals: the most squares, or a rule mod's highest first
// score column.
func (t *Timeline) End() { t.ended = true }

// EndWinner marks the battle as over with the winner its end named (a
// team, or -1 for none): a rule mod's rules may decide it otherwise than
// by the scores.
func (t *Timeline) EndWinner(winner int) {
	t.ended, t.winner, t.decided = true, winner, true
}

// Squares returns team's square count (in a rule mod, its first score
// column: what its trend follows) after every round from 0 to Last.
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
	if err := t.checkBackstops(&l); err != nil {
		return err
	}
	if err := t.checkAnswers(&l); err != nil {
		return err
	}
	apply(&t.cur, &l)
	t.logs = append(t.logs, l)
	for team := range t.squares {
		t.squares[team] = append(t.squares[team], t.cur.trend(team))
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
		if x.Cell < 0 || x.Cell >= int(cells) {
			return bad("cell", x.Cell)
		}
	}
	for _, x := range l.Deaths {
		if x.Team < 0 || x.Team >= teams {
			return bad("team", x.Team)
		}
		if x.Cell < 0 || x.Cell >= int(cells) {
			return bad("cell", x.Cell)
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
	if !t.cur.mod() {
		if len(l.Marks) > 0 || len(l.Values) > 0 {
			return &RoundError{Round: l.Round, Reason: "marks or score columns in a SquareBattle round"}
		}
		return t.checkSquares(l)
	}
	if len(l.Births) > 0 || len(l.Deaths) > 0 {
		return &RoundError{Round: l.Round, Reason: "births or deaths in a rule mod's round"}
	}
	prev = -1
	for _, c := range l.Marks {
		if c.Cell <= prev || c.Cell >= cells {
			return bad("cell", int(c.Cell))
		}
		prev = c.Cell
		if c.Mark.Style() >= styleCount {
			return bad("style", int(c.Mark.Style()))
		}
	}
	last := -1
	for _, v := range l.Values {
		if v.Team <= last || v.Team >= teams {
			return bad("team", v.Team)
		}
		last = v.Team
		if len(v.Values) != len(t.start.Columns) {
			return &RoundError{Round: l.Round, Reason: fmt.Sprintf("team %d has %d score columns, the game %d", v.Team, len(v.Values), len(t.start.Columns))}
		}
	}
	return nil
}

// checkSquares refuses a SquareBattle round whose births and deaths do
// not agree with its board: a square holds one cell, so what a team's
// births less its deaths add to its total must be what the changes add to
// the cells it holds, and no total may fall below zero. A replay that lied
// here would show totals the battle never had (negative ones, say).
func (t *Timeline) checkSquares(l *RoundLog) error {
	if len(l.Births) == 0 && len(l.Deaths) == 0 && len(l.Changes) == 0 {
		return nil
	}
	teams := len(t.cur.stats)
	t.gain = slices.Grow(t.gain[:0], 2*teams)[:2*teams]
	clear(t.gain)
	cells, events := t.gain[:teams], t.gain[teams:] // what each adds to a team's squares
	for _, c := range l.Changes {
		if old := t.cur.cells[c.Cell]; old >= 0 {
			cells[old]--
		}
		if c.Team >= 0 {
			cells[c.Team]++
		}
	}
	for _, x := range l.Births {
		events[x.Team]++
	}
	for _, x := range l.Deaths {
		events[x.Team]--
	}
	for team := range teams {
		switch {
		case cells[team] != events[team]:
			return &RoundError{Round: l.Round, Reason: fmt.Sprintf("team %d's births and deaths do not match its cells", team)}
		case t.cur.stats[team].Squares+events[team] < 0:
			return &RoundError{Round: l.Round, Reason: fmt.Sprintf("team %d would have fewer than no squares", team)}
		}
	}
	return nil
}

// apply moves state k one round forward. Team totals follow from the
// events, in the engine's own terms: a birth adds a square, a death takes
// one and credits the killer unless it is the square's own team.
func apply(k *keyframe, l *RoundLog) {
	k.round = l.Round
	if k.mod() {
		applyMod(k, l)
		return
	}
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

// applyMod is apply for a rule mod: cells, marks and score columns as
// logged; a team's squares are its units (cells of its own with the unit
// style), as ModBattle.Snapshot counts them.
func applyMod(k *keyframe, l *RoundLog) {
	unit := func(i int32) int {
		if k.cells[i] >= 0 && k.marks[i].Style() == StyleUnit {
			return int(k.cells[i])
		}
		return -1
	}
	// Walk both lists (each ascending by cell) together, so a cell named
	// by both is counted once.
	ch, mk := l.Changes, l.Marks
	for len(ch) > 0 || len(mk) > 0 {
		var cell int32
		switch {
		case len(mk) == 0 || (len(ch) > 0 && ch[0].Cell <= mk[0].Cell):
			cell = ch[0].Cell
		default:
			cell = mk[0].Cell
		}
		if was := unit(cell); was >= 0 {
			k.stats[was].Squares--
		}
		if len(ch) > 0 && ch[0].Cell == cell {
			k.cells[cell] = ch[0].Team
			ch = ch[1:]
		}
		if len(mk) > 0 && mk[0].Cell == cell {
			k.marks[cell] = mk[0].Mark
			mk = mk[1:]
		}
		if now := unit(cell); now >= 0 {
			k.stats[now].Squares++
		}
	}
	for _, v := range l.Values {
		copy(k.values[v.Team], v.Values)
	}
	for _, x := range l.Faults {
		k.stats[x.Team].Timeouts += x.Timeouts
		k.stats[x.Team].Errors += x.Errors
	}
}

func (t *Timeline) addProblem(p Problem) {
	key := [3]int{p.Team, int(p.Class), int(p.Kind)} // as problemLog's
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
	s.Marks = k.marks
	s.Over = t.ended && r == t.Last()
	s.Winner = -1
	switch {
	case !s.Over:
	case t.decided:
		s.Winner = t.winner
	case k.mod():
		s.Winner = modWinner(k.values)
	default:
		s.Winner = winnerOf(k.stats)
	}
	s.Teams = make([]TeamView, len(k.stats))
	for i := range s.Teams {
		s.Teams[i] = TeamView{Team: i, Player: t.start.Teams[i].Player, Stats: k.stats[i], Eliminated: k.eliminated[i]}
		if i < len(t.retirements) && t.retirements[i].Round > 0 && t.retirements[i].Round <= r {
			s.Teams[i].Retired = t.retirements[i]
		}
		if k.mod() {
			s.Teams[i].Values = append([]int(nil), k.values[i]...)
		}
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
