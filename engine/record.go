package engine

import "slices"

// RoundLog is what one round changed: enough to turn the picture of the
// battle after the previous round into the picture after this one, plus the
// events people want to read (who was born, who died and by whose hand, who
// lost turns). Replays and the rewind buffer are sequences of RoundLogs.
//
// Team statistics are not stored: they follow from the events (see apply),
// which keeps replays small and lets a test prove the events complete.
type RoundLog struct {
	Round    int
	Changes  []CellChange // cells whose occupant changed, ascending by cell
	Births   []BirthEvent
	Deaths   []DeathEvent
	Faults   []FaultEvent // teams that lost turns or had faults this round
	Problems []Problem    // problems reported this round (a sample, see Recorder)
	// Backstops are the round's backstop events (see Backstop), in the
	// order the engine took them: those of the turn phase, teams
	// ascending, then those of the settlement. Their counts are in Faults
	// and their messages among Problems as well; a re-run needs them to
	// play the round as it was.
	Backstops []Backstop
	// Answers are the decisions of the round's Outside teams (see
	// Answered): in SquareBattle those of the turn, teams ascending, then
	// the settlement reports that counted something; in a rule mod batch
	// by batch, teams ascending in each. A re-run hands them back
	// (ReplayAnswers, ReplayModAnswers).
	Answers []Answered
	// A rule mod's rounds also carry how cells are drawn and the score
	// columns; SquareBattle's leave both nil.
	Marks  []MarkChange // cells whose mark changed, ascending by cell
	Values []TeamValues // teams whose score columns changed, ascending by team
	// Printed is what the teams' scripts printed this round, ascending by
	// team, bounded (see MaxRoundLines). It is for people only: the
	// picture of the battle does not depend on it.
	Printed []TeamLines
}

// MarkChange is a cell of a rule mod's board and its new mark.
type MarkChange struct {
	Cell int32
	Mark Mark
}

// TeamValues is a team's score columns after a round, all of them.
type TeamValues struct {
	Team   int
	Values []int
}

// CellChange is a cell and the team now on it (Empty when none).
type CellChange struct {
	Cell int32
	Team int32
}

// BirthEvent is a square created by replication.
type BirthEvent struct {
	Team  int
	Cell  int
	Class ClassID
}

// How a square died.
type DeathKind uint8

const (
	DiedAttacked     DeathKind = iota // in a cell that was attacked
	DiedCollision                     // in a cell shared with other teams only
	DiedOwnCollision                  // in a cell shared with a square of its own team
)

// DeathEvent is a square that died, where, and the team credited with it.
type DeathEvent struct {
	Team   int
	Cell   int
	Killer int
	Kind   DeathKind
}

// FaultEvent is how many turns a team lost to the budget and to errors in
// one round (team-level faults included).
type FaultEvent struct {
	Team     int
	Timeouts int
	Errors   int
}

// Recorder turns a battle's rounds into RoundLogs. It reads the battle
// directly, so it belongs to the goroutine that steps the battle: call Next
// right after every Step that played a round.
type Recorder struct {
	b        *Battle    // a SquareBattle battle, or
	m        *ModBattle // a rule mod battle
	pl       *problemLog
	cells    []int32
	marks    []Mark  // rule mods
	values   [][]int // rule mods
	stats    []Stats
	firsts   int // first problems already recorded
	problems int // problems ever added, as of the last record
	print    printTail
}

// NewRecorder starts recording a battle from its current state, normally
// before its first round.
func NewRecorder(b *Battle) *Recorder {
	r := &Recorder{b: b, pl: &b.problems, cells: make([]int32, len(b.grid)), stats: append([]Stats(nil), b.stats...)}
	b.cellsInto(r.cells)
	r.firsts, r.problems = len(b.problems.first), b.problems.n
	return r
}

// NewModRecorder starts recording a rule mod battle from its current
// state, normally before its first round. Its logs carry cell, mark and
// score changes, lost turns and backstop events; a rule mod has no births
// or deaths.
func NewModRecorder(m *ModBattle) *Recorder {
	bd := &m.board
	r := &Recorder{m: m, pl: &m.problems, cells: append([]int32(nil), bd.cells...), marks: append([]Mark(nil), bd.marks...),
		stats: append([]Stats(nil), m.stats...)}
	for _, v := range bd.values {
		r.values = append(r.values, append([]int(nil), v...))
	}
	r.firsts, r.problems = len(m.problems.first), m.problems.n
	return r
}

// cellsInto writes the team on every cell into dst.
func (b *Battle) cellsInto(dst []int32) {
	for i, id := range b.grid {
		dst[i] = Empty
		if id >= 0 {
			dst[i] = b.squares[id].team
		}
	}
}

// Next returns the log of the round just played.
func (r *Recorder) Next() RoundLog {
	if r.m != nil {
		return r.nextMod()
	}
	b := r.b
	l := RoundLog{Round: b.round}
	for i, id := range b.grid {
		team := int32(Empty)
		if id >= 0 {
			team = b.squares[id].team
		}
		if r.cells[i] != team {
			r.cells[i] = team
			l.Changes = append(l.Changes, CellChange{Cell: int32(i), Team: team})
		}
	}
	for t := range b.teams {
		s := &b.teams[t].settlement
		for _, x := range s.Births {
			l.Births = append(l.Births, BirthEvent{Team: t, Cell: x.Row*b.size + x.Col, Class: x.Class})
		}
		for _, x := range s.Deaths {
			kind := DiedAttacked
			if x.Collision {
				kind = DiedCollision
				if x.own {
					kind = DiedOwnCollision
				}
			}
			l.Deaths = append(l.Deaths, DeathEvent{Team: t, Cell: x.Row*b.size + x.Col, Killer: x.Killer, Kind: kind})
		}
		r.faults(&l, t, b.stats[t])
		if p, ok := r.print.lines(t, b.teams[t].setup.Controller); ok {
			l.Printed = append(l.Printed, p)
		}
	}
	l.Problems = r.newProblems()
	l.takeBackstops(b.backstops)
	l.Answers = cloneAnswers(b.answers)
	return l
}

// takeBackstops keeps a copy of the round's backstop events. Their
// problems are in the sample whatever else the round had, so a replay's
// viewer always shows them.
func (l *RoundLog) takeBackstops(events []Backstop) {
	if len(events) == 0 {
		return
	}
	l.Backstops = append([]Backstop(nil), events...)
	for _, e := range l.Backstops {
		if p := e.problem(); !containsProblem(l.Problems, p) {
			l.Problems = append(l.Problems, p)
		}
	}
}

// faults adds team t's lost turns since the last record to l.
func (r *Recorder) faults(l *RoundLog, t int, now Stats) {
	was := r.stats[t]
	if now.Timeouts != was.Timeouts || now.Errors != was.Errors {
		l.Faults = append(l.Faults, FaultEvent{Team: t, Timeouts: now.Timeouts - was.Timeouts, Errors: now.Errors - was.Errors})
	}
	r.stats[t] = now
}

// nextMod is Next for a rule mod battle.
func (r *Recorder) nextMod() RoundLog {
	bd := &r.m.board
	l := RoundLog{Round: bd.round}
	for i, team := range bd.cells {
		if r.cells[i] != team {
			r.cells[i] = team
			l.Changes = append(l.Changes, CellChange{Cell: int32(i), Team: team})
		}
		if m := bd.marks[i]; r.marks[i] != m {
			r.marks[i] = m
			l.Marks = append(l.Marks, MarkChange{Cell: int32(i), Mark: m})
		}
	}
	for t, v := range bd.values {
		if !slices.Equal(r.values[t], v) {
			copy(r.values[t], v)
			l.Values = append(l.Values, TeamValues{Team: t, Values: append([]int(nil), v...)})
		}
		r.faults(&l, t, r.m.stats[t])
	}
	for t, team := range r.m.opts.Teams {
		if p, ok := r.print.lines(t, team.Caller); ok {
			l.Printed = append(l.Printed, p)
		}
	}
	l.Problems = r.newProblems()
	l.takeBackstops(r.m.backstops)
	l.Answers = cloneAnswers(r.m.answers)
	return l
}

// newProblems returns the problems added since the last record: every new
// first problem of a (team, class) and the most recent others, oldest first.
// A round with more problems than the engine keeps loses the middle ones,
// as the live view does.
func (r *Recorder) newProblems() []Problem {
	pl := r.pl
	added := pl.n - r.problems
	if added == 0 {
		return nil
	}
	recent := pl.latest()
	recent = recent[len(recent)-min(added, len(recent)):]
	var out []Problem
	for _, p := range pl.first[r.firsts:] {
		if !containsProblem(recent, p) {
			out = append(out, p)
		}
	}
	out = append(out, recent...)
	for i := range out {
		out[i].Trace = "" // not part of a replay (Problem.Trace)
	}
	r.firsts, r.problems = len(pl.first), pl.n
	return out
}

func containsProblem(ps []Problem, p Problem) bool {
	for _, q := range ps {
		if q == p {
			return true
		}
	}
	return false
}
