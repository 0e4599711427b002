package main

import (
	"fmt"
	"io"
	"regexp"
	"strings"
	"text/tabwriter"

	"github.com/squarebattle/squarebattle/engine"
)

// problemKind is one kind of problem a team had in a battle: what it is
// (problemLabel) and its message without the file:line, so that the same
// mistake made on every round counts as one kind. First is where it was
// first reported, with its traceback when the battle still had it.
type problemKind struct {
	label  string
	what   string
	first  engine.Problem
	rounds int // rounds in which it was reported
	last   int // the last of those rounds
	// line is, for a bot, the line it wrote in the round of first ("":
	// none, or not a bot).
	line string
}

// trialReport is what check learns from playing a battle to its end.
type trialReport struct {
	team  int // the checked team
	final *engine.Snapshot
	kinds []*problemKind
	// ownKills[t] counts team t's squares credited to team t itself (an
	// attack of its own, or a collision in which its own team was picked
	// as the killer); engine.Stats.Kills counts enemies only.
	ownKills []int
	// firstOwn is the checked team's first own kill, and its round.
	firstOwn      engine.DeathEvent
	firstOwnRound int
	// stopped says why check stopped the battle before its end (see
	// trialBounds), or is "".
	stopped string
	// unfinished: a rule mod's battle reached the round limit of the
	// trial before the game ended by its own rules.
	unfinished bool
}

// trialBounds bound what one battle of check may cost: it stops once the
// checked team has lost faults turns to timeouts and errors (it has shown
// what it does; playing on only spends the instruction budget again and
// again), or has had turns turns (squares alive, round after round), each
// of them within limits.instructions. Zero bounds nothing.
type trialBounds struct {
	faults int
	turns  int
}

// playTrial plays t to its end (or until bounds stop it) and gathers
// team's problems and every team's own kills from the rounds' logs.
//
// The Lua controller reports the first problem of each class and then at
// most one a round (engine.Report), so a kind's count is the rounds it was
// seen in, not the turns it cost: those are the team's timeouts and
// errors, which are exact.
func playTrial(t *trial, team int, bounds trialBounds) *trialReport {
	r := &trialReport{team: team}
	byKey := map[[2]string]*problemKind{}
	squares := t.Snapshot().Teams[team].Stats.Squares
	faults, turns := 0, 0
	for t.Step() {
		l := t.rec.Next()
		turns += squares
		for _, b := range l.Births {
			if b.Team == team {
				squares++
			}
		}
		for _, d := range l.Deaths {
			if d.Team == team {
				squares--
			}
			if d.Killer != d.Team {
				continue
			}
			for len(r.ownKills) <= d.Team {
				r.ownKills = append(r.ownKills, 0)
			}
			r.ownKills[d.Team]++
			if d.Team == team && r.ownKills[d.Team] == 1 {
				r.firstOwn, r.firstOwnRound = d, l.Round
			}
		}
		for _, f := range l.Faults {
			if f.Team == team {
				faults += f.Timeouts + f.Errors
			}
		}
		fresh := false
		for _, p := range l.Problems {
			if p.Team != team && p.Team >= 0 {
				continue
			}
			_, what := splitPlace(p.Message)
			label := problemLabel(p, l.Backstops)
			if t.line != nil {
				what, label = botWhat(what), botLabel(label)
			}
			key := [2]string{label, what}
			k := byKey[key]
			if k == nil {
				k = &problemKind{label: label, what: what, first: p}
				if t.line != nil {
					k.line = t.line(p.Round)
				}
				byKey[key] = k
				r.kinds = append(r.kinds, k)
				fresh = true
			}
			if k.last != p.Round || k.rounds == 0 {
				k.rounds++
				k.last = p.Round
			}
		}
		if fresh {
			// Round logs leave tracebacks out; the snapshot's recent
			// problems still have them.
			r.traces(t.Snapshot().Problems)
		}
		if t.Over() {
			break
		}
		if bounds.faults > 0 && faults >= bounds.faults {
			r.stopped = fmt.Sprintf("the script had lost %s to timeouts and errors", plural(faults, "turn"))
			break
		}
		if bounds.turns > 0 && turns >= bounds.turns {
			r.stopped = fmt.Sprintf("the script had had %s", plural(turns, "turn"))
			break
		}
	}
	r.final = t.Snapshot()
	r.unfinished = t.capped && r.stopped == "" && !endedEarly(r.final)
	r.traces(r.final.FirstProblems)
	for len(r.ownKills) < len(r.final.Teams) {
		r.ownKills = append(r.ownKills, 0)
	}
	return r
}

// endedEarly reports whether a battle ended before its round limit, so by
// its own rules.
func endedEarly(s *engine.Snapshot) bool {
	return s.Over && s.Round < s.Rounds
}

// problemLabel names what kind of problem p is: the engine's fault
// (timeout, error), or more precisely what stopped the script: its
// memory limit, the worker process it ran in dying, the wall clock around
// that worker, the team being retired after too many of those, or the
// game's rules failing.
func problemLabel(p engine.Problem, backstops []engine.Backstop) string {
	if p.Team < 0 {
		return "rules error"
	}
	for _, e := range backstops {
		if e.Team == p.Team && e.Round == p.Round && e.Message == p.Message {
			switch e.Kind {
			case engine.BackstopCrash:
				return "worker crash"
			case engine.BackstopTimeout:
				return "wall-clock timeout"
			case engine.BackstopRetired:
				return "retired"
			}
		}
	}
	if strings.Contains(p.Message, "memory limit exceeded") {
		return "memory"
	}
	return p.Kind.String()
}

// traces fills in the traceback of each kind's first problem from ps.
func (r *trialReport) traces(ps []engine.Problem) {
	for _, k := range r.kinds {
		if k.first.Trace != "" {
			continue
		}
		for _, p := range ps {
			q := p
			q.Trace = ""
			if q == k.first {
				k.first.Trace = p.Trace
				break
			}
		}
	}
}

// placeRe matches a message that starts with its file:line.
var placeRe = regexp.MustCompile(`^(.+?:\d+): (.*)$`)

// splitPlace splits "file:line: message" into its place and message; a
// message without a place returns "" and itself.
func splitPlace(msg string) (place, what string) {
	if m := placeRe.FindStringSubmatch(msg); m != nil {
		return m[1], m[2]
	}
	return "", msg
}

// outcome is how the checked team's battle ended, for the --all table.
func (r *trialReport) outcome() string {
	switch {
	case r.stopped != "" || r.unfinished:
		return "stopped"
	case r.final.Winner == r.team:
		return "won"
	case r.final.Winner >= 0:
		return "lost"
	}
	return "tied"
}

// write prints the battle's result, a row per team, and the checked
// team's problems by kind and own kills.
func (r *trialReport) write(w io.Writer, mod bool) {
	s := r.final
	switch {
	case r.stopped != "":
		fmt.Fprintf(w, "  Stopped after %s: %s, enough to tell (no result).\n", plural(s.Round, "round"), r.stopped)
	case r.unfinished:
		fmt.Fprintf(w, "  No result: the game had not ended by its rules after %s, the trial's limit (--rounds plays longer).\n", plural(s.Round, "round"))
	case s.Winner >= 0:
		fmt.Fprintf(w, "  %s won after %s.\n", safe(s.Teams[s.Winner].Player.Name), plural(s.Round, "round"))
	default:
		fmt.Fprintf(w, "  No winner after %s: a tie.\n", plural(s.Round, "round"))
	}
	var table strings.Builder
	tw := tabwriter.NewWriter(&table, 0, 0, 2, ' ', tabwriter.AlignRight)
	if mod {
		fmt.Fprint(tw, "team\tplayer\tunits\t")
		for _, col := range s.Columns {
			fmt.Fprintf(tw, "%s\t", safe(col))
		}
		fmt.Fprintln(tw, "timeouts\terrors\t")
		for _, t := range s.Teams {
			fmt.Fprintf(tw, "%d\t%s\t%d\t", t.Team, safe(t.Player.Name), t.Stats.Squares)
			for _, v := range t.Values {
				fmt.Fprintf(tw, "%d\t", v)
			}
			fmt.Fprintf(tw, "%d\t%d\t\n", t.Stats.Timeouts, t.Stats.Errors)
		}
	} else {
		fmt.Fprintln(tw, "team\tplayer\tsquares\tbirths\tkills\tdeaths\town-team kills\ttimeouts\terrors\t")
		for _, t := range s.Teams {
			st := t.Stats
			fmt.Fprintf(tw, "%d\t%s\t%d\t%d\t%d\t%d\t%d\t%d\t%d\t\n", t.Team, safe(t.Player.Name), st.Squares, st.Births, st.Kills, st.Deaths, r.ownKills[t.Team], st.Timeouts, st.Errors)
		}
	}
	tw.Flush()
	for _, l := range strings.SplitAfter(table.String(), "\n") {
		if l != "" {
			fmt.Fprint(w, "  "+l)
		}
	}
	me := s.Teams[r.team]
	if n := r.ownKills[r.team]; n > 0 {
		fmt.Fprintf(w, "\nOwn-team kills: %s killed %s of its own, the first in round %d at row %d, column %d",
			safe(me.Player.Name), plural(n, "square"), r.firstOwnRound, r.firstOwn.Cell/s.Size, r.firstOwn.Cell%s.Size)
		if c := me.Stats.Collisions; c > 0 {
			fmt.Fprintf(w, "; %d died sharing a cell with their own team", c)
		}
		fmt.Fprintln(w, ".")
	}
	if len(r.kinds) == 0 {
		return
	}
	fmt.Fprintf(w, "\nProblems while playing: %s; turns lost: %d to timeouts, %d to errors.\n", plural(len(r.kinds), "kind"),
		me.Stats.Timeouts, me.Stats.Errors)
	for _, k := range r.kinds {
		fmt.Fprintf(w, "  %s in %s, first in round %d: %s\n", k.label, plural(k.rounds, "round"), k.first.Round, safe(k.first.Message))
		writeTrace(w, k.first.Trace)
		if k.line != "" {
			fmt.Fprintf(w, "    the bot wrote: %s\n", engine.SafeLine(k.line))
		}
	}
}

// writeTrace prints a traceback under a problem, indented.
func writeTrace(w io.Writer, trace string) {
	for _, l := range strings.Split(trace, "\n") {
		if l != "" {
			fmt.Fprintf(w, "    %s\n", safe(l))
		}
	}
}

// allBattle is one battle of check --all: the opponent, its seed and what
// it showed.
type allBattle struct {
	opponent string
	seed     uint64
	r        *trialReport
}

// allKind is a kind of problem over the battles of check --all: where it
// was seen first, and in how many battles and rounds against each
// opponent (in the order the opponents were played).
type allKind struct {
	label, what string
	first       engine.Problem
	firstVs     string
	firstSeed   uint64
	against     []string
	battles     map[string]int
	rounds      map[string]int
}

// allKinds gathers the kinds of problem of battles, in the order they were
// first seen.
func allKinds(battles []allBattle) []*allKind {
	var kinds []*allKind
	byKey := map[[2]string]*allKind{}
	for _, b := range battles {
		for _, k := range b.r.kinds {
			key := [2]string{k.label, k.what}
			a := byKey[key]
			if a == nil {
				a = &allKind{label: k.label, what: k.what, first: k.first, firstVs: b.opponent, firstSeed: b.seed,
					battles: map[string]int{}, rounds: map[string]int{}}
				byKey[key] = a
				kinds = append(kinds, a)
			}
			if a.battles[b.opponent] == 0 {
				a.against = append(a.against, b.opponent)
			}
			a.battles[b.opponent]++
			a.rounds[b.opponent] += k.rounds
		}
	}
	return kinds
}

// writeAllKinds prints every kind of problem of check --all: its first
// occurrence (opponent, seed, round, file:line and message, traceback),
// then the battles and rounds it came up in against each opponent, of
// perOpponent battles each.
func writeAllKinds(w io.Writer, kinds []*allKind, perOpponent int) {
	for _, k := range kinds {
		fmt.Fprintf(w, "  %s, first against %s (seed %d) in round %d: %s\n", k.label, safe(k.firstVs), k.firstSeed, k.first.Round, safe(k.first.Message))
		writeTrace(w, k.first.Trace)
		for _, vs := range k.against {
			fmt.Fprintf(w, "    against %s: in %d of %d battles, %s\n", safe(vs), k.battles[vs], perOpponent, plural(k.rounds[vs], "round"))
		}
	}
}
