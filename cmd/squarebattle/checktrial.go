package main

import (
	"fmt"
	"io"
	"regexp"
	"strings"
	"text/tabwriter"

	"github.com/squarebattle/squarebattle/engine"
)

// problemKind is one kind of problem a team had in a battle: a fault and
// its message without the file:line, so that the same mistake made on
// every round counts as one kind. First is where it was first reported,
// with its traceback when the battle still had it.
type problemKind struct {
	fault  engine.Fault
	what   string
	first  engine.Problem
	rounds int // rounds in which it was reported
	last   int // the last of those rounds
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
}

// playTrial plays t to its end and gathers team's problems and every
// team's own kills from the rounds' logs.
//
// The Lua controller reports the first problem of each class and then at
// most one a round (engine.Report), so a kind's count is the rounds it was
// seen in, not the turns it cost: those are the team's timeouts and
// errors, which are exact.
func playTrial(t *trial, team int) *trialReport {
	r := &trialReport{team: team}
	byKey := map[[2]string]*problemKind{}
	for t.Step() {
		l := t.rec.Next()
		for _, d := range l.Deaths {
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
		fresh := false
		for _, p := range l.Problems {
			if p.Team != team && p.Team >= 0 {
				continue
			}
			_, what := splitPlace(p.Message)
			key := [2]string{p.Kind.String(), what}
			k := byKey[key]
			if k == nil {
				k = &problemKind{fault: p.Kind, what: what, first: p}
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
	}
	r.final = t.Snapshot()
	r.traces(r.final.FirstProblems)
	for len(r.ownKills) < len(r.final.Teams) {
		r.ownKills = append(r.ownKills, 0)
	}
	return r
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

// write prints the battle's result, a row per team, and the checked
// team's problems by kind and own kills.
func (r *trialReport) write(w io.Writer, mod bool) {
	s := r.final
	if s.Winner >= 0 {
		fmt.Fprintf(w, "  %s won after %s.\n", safe(s.Teams[s.Winner].Player.Name), plural(s.Round, "round"))
	} else {
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
		fmt.Fprintf(w, "  %s in %s, first in round %d: %s\n", k.fault, plural(k.rounds, "round"), k.first.Round, safe(k.first.Message))
		for _, l := range strings.Split(k.first.Trace, "\n") {
			if l != "" {
				fmt.Fprintf(w, "    %s\n", safe(l))
			}
		}
	}
}
