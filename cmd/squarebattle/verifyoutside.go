package main

import (
	"fmt"
	"strings"

	"github.com/squarebattle/squarebattle/engine"
	"github.com/squarebattle/squarebattle/engine/replay"
	"github.com/squarebattle/squarebattle/luabind"
)

// A team decided outside the battle (a bot, a person; header player
// field outside) cannot be asked again: replay --verify hands it its
// recorded decisions instead (engine.ReplayAnswers, ReplayModAnswers),
// behind its recorded backstop events as any team, and starts nothing
// for it. Teams of scripts are played again as always.

// outsideSeater seats the teams rep says were decided outside with their
// recorded decisions and events, and every other team as seat does.
func outsideSeater(seat luabind.Seater, rep *replay.Replay) luabind.Seater {
	answers, events := recordedAnswers(rep), recordedBackstops(rep)
	return func(o luabind.TeamOptions) (luabind.Seat, error) {
		if o.Index < 0 || o.Index >= len(rep.Header.Players) || rep.Header.Players[o.Index].Outside == "" {
			return seat(o)
		}
		var own []engine.Backstop
		for _, e := range events {
			if e.Team == o.Index {
				own = append(own, e)
			}
		}
		s := &answeredSeat{
			kind: rep.Header.Players[o.Index].Outside,
			ctrl: engine.ReplayBackstops(engine.ReplayAnswers(answers), own),
			call: engine.ReplayModBackstops(engine.ReplayModAnswers(answers, luabind.PlainJSON), own),
		}
		if p := rep.Header.Players[o.Index]; p.Outside == engine.OutsideBot && p.Class >= 0 && p.Class < len(rep.Header.Classes) {
			return ownClassSeat{answeredSeat: s, class: rep.Header.Classes[p.Class].ID}, nil
		}
		return s, nil
	}
}

// A bot plays a class of its own (luabind.OwnClassSeat), which is no
// script of the folder: the re-run takes it as recorded.

// ownClassSeat is a recorded bot's seat, under its own class.
type ownClassSeat struct {
	*answeredSeat
	class string
}

func (s ownClassSeat) OwnClass() string { return s.class }

// botClasses are the classes of the recorded players decided by a bot:
// their own, not scripts of the folder.
func botClasses(h *replay.Header) map[int]bool {
	out := map[int]bool{}
	for _, p := range h.Players {
		if p.Outside == engine.OutsideBot {
			out[p.Class] = true
		}
	}
	return out
}

// scriptClasses are the recorded classes that are scripts of the folder.
func scriptClasses(h *replay.Header) []replay.Class {
	bots := botClasses(h)
	var out []replay.Class
	for i, c := range h.Classes {
		if !bots[i] {
			out = append(out, c)
		}
	}
	return out
}

// recordedBotPlayer is the player of recorded team, when a bot played it
// under its own class, which the catalog does not hold; else nil.
func recordedBotPlayer(h *replay.Header, team int) *luabind.Class {
	p := h.Players[team]
	if p.Outside != engine.OutsideBot || p.Class < 0 || p.Class >= len(h.Classes) {
		return nil
	}
	c := h.Classes[p.Class]
	return &luabind.Class{ID: c.ID, File: c.File, Name: p.Name, Victory: p.Victory, Defeat: p.Defeat}
}

// recordedAnswers lists the outside teams' decisions of every recorded
// round, in order.
func recordedAnswers(rep *replay.Replay) []engine.Answered {
	return everyRound(rep, func(l *engine.RoundLog) []engine.Answered { return l.Answers })
}

// answeredSeat plays an outside team from the recording: a
// luabind.OutsideSeat, so the re-run records its decisions again and they
// can be compared with the recording.
type answeredSeat struct {
	kind string
	ctrl engine.Controller
	call engine.Caller
}

func (s *answeredSeat) Turn(t *engine.Turn)                   { s.ctrl.Turn(t) }
func (s *answeredSeat) Settle(st *engine.Settlement)          { s.ctrl.Settle(st) }
func (s *answeredSeat) Call(t *engine.ModTurn)                { s.call.Call(t) }
func (s *answeredSeat) Outside() string                       { return s.kind }
func (s *answeredSeat) Log() []string                         { return nil }
func (s *answeredSeat) Printed(since int64) ([]string, int64) { return nil, since }
func (s *answeredSeat) Close()                                {}

// describeAnswers names the first record two rounds' lists disagree on.
func describeAnswers(got, want []engine.Answered) string {
	name := func(as []engine.Answered, i int) string {
		if i >= len(as) {
			return "none"
		}
		a := as[i]
		return fmt.Sprintf("team %d in %s: %d intents, %d answers, %d timeouts, %d errors, %d problems",
			a.Team, phaseName(a.Settle, a.Batch), len(a.Intents), len(a.Answers), a.Timeouts, a.Errors, len(a.Problems))
	}
	for i := range max(len(got), len(want)) {
		if i >= len(got) || i >= len(want) || fmt.Sprint(got[i]) != fmt.Sprint(want[i]) {
			return fmt.Sprintf("%s re-run, %s recorded", name(got, i), name(want, i))
		}
	}
	return "in their details"
}

// answeredNote says, after "identical", how many phases of outside teams
// the re-run took from the recording.
func answeredNote(rep *replay.Replay) string {
	var teams []string
	seen := map[int]bool{}
	n := 0
	for _, a := range recordedAnswers(rep) {
		n++
		if !seen[a.Team] {
			seen[a.Team] = true
			teams = append(teams, fmt.Sprint(a.Team))
		}
	}
	if n == 0 {
		return ""
	}
	return fmt.Sprintf("; %d decisions of outside team %s taken as recorded", n, strings.Join(teams, ", "))
}
