package main

import (
	"github.com/squarebattle/squarebattle/engine"
	"github.com/squarebattle/squarebattle/engine/replay"
	"github.com/squarebattle/squarebattle/luabind"
)

// A re-run (replay --verify) cannot ask an outside team again (a bot, a
// person): it hands the team's recorded decisions back instead
// (engine.ReplayAnswers), with the wall's recorded events, and a bot's own
// class (not a script of the folder) is taken as recorded.

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

// recordedAnswers lists the outside teams' recorded decisions of every
// round, in order.
func recordedAnswers(rep *replay.Replay) []engine.Answered {
	var out []engine.Answered
	for r := 1; r <= rep.Timeline.Last(); r++ {
		l, _ := rep.Timeline.Log(r)
		out = append(out, l.Answers...)
	}
	return out
}

// withRecordedOutside seats every recorded outside team with its recorded
// decisions and wall events, and the others with seat.
func withRecordedOutside(seat luabind.Seater, rep *replay.Replay, codec engine.AnswerCodec) luabind.Seater {
	h := &rep.Header
	answers, events := recordedAnswers(rep), recordedBackstops(rep)
	seat = luabind.ReplayedSeater(seat, events)
	return func(o luabind.TeamOptions) (luabind.Seat, error) {
		if o.Index >= len(h.Players) || h.Players[o.Index].Outside == "" {
			return seat(o)
		}
		p := h.Players[o.Index]
		var own []engine.Backstop
		for _, e := range events {
			if e.Team == o.Index {
				own = append(own, e)
			}
		}
		s := answeredSeat{outside: p.Outside, ctrl: engine.ReplayBackstops(engine.ReplayAnswers(answers), own)}
		if codec != nil {
			s.call = engine.ReplayModBackstops(engine.ReplayModAnswers(answers, codec), own)
		}
		if p.Outside == engine.OutsideBot && p.Class >= 0 && p.Class < len(h.Classes) {
			return ownClassSeat{answeredSeat: s, class: h.Classes[p.Class].ID}, nil
		}
		return s, nil
	}
}

// answeredSeat plays a team from its recorded decisions.
type answeredSeat struct {
	outside string
	ctrl    engine.Controller
	call    engine.Caller
}

func (s answeredSeat) Turn(t *engine.Turn)                   { s.ctrl.Turn(t) }
func (s answeredSeat) Settle(st *engine.Settlement)          { s.ctrl.Settle(st) }
func (s answeredSeat) Call(t *engine.ModTurn)                { s.call.Call(t) }
func (s answeredSeat) Log() []string                         { return nil }
func (s answeredSeat) Printed(since int64) ([]string, int64) { return nil, since }
func (s answeredSeat) Close()                                {}
func (s answeredSeat) Outside() string                       { return s.outside }

// ownClassSeat is a recorded bot's seat: its class is its own.
type ownClassSeat struct {
	answeredSeat
	class string
}

func (s ownClassSeat) OwnClass() string { return s.class }

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
