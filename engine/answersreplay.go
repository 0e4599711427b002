package engine

// ReplayAnswers returns a controller that answers from recorded, a
// battle's recorded decisions of outside teams (RoundLog.Answers, in the
// order recorded; the records of other teams than the one asked are
// skipped, so the whole battle's list will do): in each phase it fills the
// turn's intents, or the settlement's report, from the record of that
// phase and team, and reports the recorded counts and problems. It never
// calls anything else. A phase without a record (a re-run that went
// elsewhere than the recording) leaves every square waiting and counts
// nothing; comparing the re-run with the recording then shows the
// difference. Intents beyond those recorded wait; recorded ones beyond the
// squares asked are dropped.
//
// To replay a team whose wall also fired (Backstop), wrap it:
// ReplayBackstops(ReplayAnswers(recorded), events). In the phases where an
// event fired nothing is recorded but the event, which ReplayBackstops
// reports without asking ReplayAnswers.
//
// Concurrency: like any controller, it is called for one phase at a time.
func ReplayAnswers(recorded []Answered) Controller {
	return &replayedAnswers{recorded: recorded}
}

// ReplayModAnswers is ReplayAnswers for a rule mod's team: in each batch
// of a round's calls it answers the calls from the recorded batch, each
// value decoded by codec (one it cannot decode is a counted error), and
// reports the recorded counts and problems. A batch without a record, or
// a call beyond those recorded, goes unanswered without a fault.
//
// Concurrency: like any caller, it is called for one batch at a time.
func ReplayModAnswers(recorded []Answered, codec AnswerCodec) Caller {
	return &replayedAnswers{recorded: recorded, codec: codec}
}

// replayedAnswers hands recorded decisions back; next is the first record
// not yet passed.
type replayedAnswers struct {
	recorded []Answered
	codec    AnswerCodec
	next     int
}

// take returns the record of team's phase now, if any, and moves past
// every record of that phase and before it.
func (c *replayedAnswers) take(now where, team int) *Answered {
	var found *Answered
	for c.next < len(c.recorded) {
		a := &c.recorded[c.next]
		at := where{a.Round, a.Settle, a.Batch}
		if now.before(at) {
			break
		}
		if at == now && a.Team == team && found == nil {
			found = a
		}
		c.next++
	}
	return found
}

// report sets r to the recorded counts and problems of a.
func (a *Answered) report(r *Report) {
	r.Timeouts += a.Timeouts
	r.Errors += a.Errors
	for _, p := range a.Problems {
		p.Round, p.Team = 0, 0 // the engine sets them
		r.Problems = append(r.Problems, p)
	}
}

func (c *replayedAnswers) Turn(t *Turn) {
	a := c.take(where{t.Facts.Round, false, 0}, t.Team)
	if a == nil {
		return
	}
	copy(t.Intents, a.Intents)
	a.report(&t.Report)
}

func (c *replayedAnswers) Settle(s *Settlement) {
	if a := c.take(where{s.Facts.Round, true, 0}, s.Team); a != nil {
		a.report(&s.Report)
	}
}

func (c *replayedAnswers) Call(t *ModTurn) {
	a := c.take(where{t.Facts.Round, false, t.Batch}, t.Team)
	if a == nil {
		return
	}
	for i := range min(len(t.Answers), len(a.Answers)) {
		ra := a.Answers[i]
		ans := Answer{Fault: ra.Fault, Used: ra.Used}
		if ra.Value != nil && ra.Fault == NoFault {
			v, err := c.codec.DecodeAnswer(ra.Value)
			if err != nil {
				ans.Fault = FaultError
				t.Report.Problems = append(t.Report.Problems, Problem{Class: NoClass, Square: -1, Kind: FaultError,
					Message: "recorded answer cannot be decoded: " + err.Error()})
			} else {
				ans.Value = v
			}
		}
		t.Answers[i] = ans
	}
	a.report(&t.Report)
}
