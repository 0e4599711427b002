package luabind

import "github.com/squarebattle/squarebattle/engine"

// InProcess seats a team in this process: the Seater of isolation none.
func InProcess(o TeamOptions) (Seat, error) { return NewTeam(o), nil }

// ReplayedSeater seats teams as seat does (in this process when seat is
// nil), each behind engine.ReplayBackstops (and, for a rule mod's team,
// engine.ReplayModBackstops) with the events of recorded (a battle's
// backstop events, in round order) that are its own: where a recording
// says the wall around a team fired, a re-run reports the same event and
// restarts the team instead of asking its scripts. A team without events
// is seated as seat seats it.
func ReplayedSeater(seat Seater, recorded []engine.Backstop) Seater {
	if seat == nil {
		seat = InProcess
	}
	return func(o TeamOptions) (Seat, error) {
		s, err := seat(o)
		if err != nil {
			return nil, err
		}
		var own []engine.Backstop
		for _, e := range recorded {
			if e.Team == o.Index {
				own = append(own, e)
			}
		}
		if len(own) == 0 {
			return s, nil
		}
		r := replayedSeat{Seat: s, ctrl: engine.ReplayBackstops(s, own)}
		if c, ok := s.(engine.Caller); ok {
			return replayedModSeat{replayedSeat: r, call: engine.ReplayModBackstops(c, own)}, nil
		}
		return r, nil
	}
}

// replayedSeat is a seat whose calls go through a replaying controller.
type replayedSeat struct {
	Seat
	ctrl engine.Controller
}

func (r replayedSeat) Turn(t *engine.Turn)         { r.ctrl.Turn(t) }
func (r replayedSeat) Settle(s *engine.Settlement) { r.ctrl.Settle(s) }

// replayedModSeat is a replayedSeat that can play a rule mod's team too.
type replayedModSeat struct {
	replayedSeat
	call engine.Caller
}

func (r replayedModSeat) Call(t *engine.ModTurn) { r.call.Call(t) }
