package engine

import "fmt"

// checkAnswers refuses a round whose recorded decisions could not have
// come from a battle: a team out of range or not decided outside, a phase
// the game does not have, records out of the engine's order or more than
// one per team and phase, more intents than the team had squares, an
// intent the engine would not have recorded, an answer too long or with a
// value and a fault, counts or problems beyond the bounds. It is what
// keeps a hostile replay's records small: at most MaxRoundAnswered of
// them and MaxRoundAnswers rule mod answers a round, each of bounded size.
func (t *Timeline) checkAnswers(l *RoundLog) error {
	if len(l.Answers) == 0 {
		return nil
	}
	teams, mod, classes := len(t.cur.stats), t.cur.mod(), len(t.start.Classes)
	bad := func(format string, args ...any) error {
		return &RoundError{Round: l.Round, Reason: "recorded answers: " + fmt.Sprintf(format, args...)}
	}
	if len(l.Answers) > MaxRoundAnswered {
		return bad("%d records in one round (at most %d)", len(l.Answers), MaxRoundAnswered)
	}
	answers := 0
	var last where
	lastTeam := -1
	for i := range l.Answers {
		a := &l.Answers[i]
		switch {
		case a.Team < 0 || a.Team >= teams:
			return bad("team %d is out of range", a.Team)
		case t.start.Teams[a.Team].Player.Outside == "":
			return bad("team %d is not decided outside the battle", a.Team)
		case a.Round != l.Round:
			return bad("a record says round %d", a.Round)
		case mod && (a.Settle || a.Intents != nil):
			return bad("a rule mod's team has no turn of squares")
		case !mod && (a.Batch != 0 || a.Answers != nil):
			return bad("a SquareBattle team has no batches of calls")
		case a.Settle && a.Intents != nil:
			return bad("team %d decided in its settlement", a.Team)
		case a.Batch < 0 || a.Batch >= maxModBatches:
			return bad("batch %d is out of range", a.Batch)
		case a.Timeouts < 0 || a.Timeouts > MaxAnswerFaults || a.Errors < 0 || a.Errors > MaxAnswerFaults:
			return bad("team %d counts %d timeouts and %d errors (each between 0 and %d)", a.Team, a.Timeouts, a.Errors, MaxAnswerFaults)
		case len(a.Problems) > MaxAnswerProblems:
			return bad("team %d reports %d problems in one phase (at most %d)", a.Team, len(a.Problems), MaxAnswerProblems)
		case len(a.Intents) > int(t.cur.stats[a.Team].Squares):
			return bad("%d intents for team %d's %d squares", len(a.Intents), a.Team, t.cur.stats[a.Team].Squares)
		}
		at := where{a.Round, a.Settle, a.Batch}
		if i > 0 && (at.before(last) || at == last && a.Team <= lastTeam) {
			return bad("out of order")
		}
		last, lastTeam = at, a.Team
		for _, in := range a.Intents {
			if !ValidIntent(in, classes) {
				return bad("team %d: intent %+v is not one the engine records", a.Team, in)
			}
		}
		if answers += len(a.Answers); answers > MaxRoundAnswers {
			return bad("more than %d answers in one round", MaxRoundAnswers)
		}
		for _, x := range a.Answers {
			switch {
			case x.Fault > FaultError:
				return bad("team %d: unknown fault %d", a.Team, x.Fault)
			case x.Fault != NoFault && x.Value != nil:
				return bad("team %d: an answer with both a value and a fault", a.Team)
			case len(x.Value) > MaxAnswerValue:
				return bad("team %d: an answer of %d bytes (at most %d)", a.Team, len(x.Value), MaxAnswerValue)
			case x.Value != nil && !ValidAnswer(x.Value):
				return bad("team %d: an answer that is not compact JSON text", a.Team)
			case x.Used < 0 || x.Used > MaxAnswerUsed:
				return bad("team %d: %d instructions used", a.Team, x.Used)
			}
		}
		for _, p := range a.Problems {
			q := p
			admitProblem(&q, l.Round, a.Team, classes)
			if q != p {
				return bad("team %d: a problem the engine would not record (%q)", a.Team, ClipText(SafeText(p.Message), 64))
			}
		}
	}
	return nil
}
