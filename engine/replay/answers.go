package replay

import (
	"encoding/json"
	"errors"
	"fmt"
	"math"

	"github.com/squarebattle/squarebattle/engine"
)

// answered is the record of one outside team's phase (engine.Answered):
// SquareBattle's intents packed five numbers a square (action, direction,
// child class, new class, fault), or a rule mod's answers as the JSON
// values they were (null: no answer) with, when any is not zero, their
// (fault, instructions) pairs; then the phase's counts and problems.
type answered struct {
	Team    int               `json:"t"`
	Settle  bool              `json:"s,omitempty"` // SquareBattle's settlement
	Batch   int               `json:"b,omitempty"` // a rule mod's batch of the round's calls
	Intents []int             `json:"i,omitempty"`
	Values  []json.RawMessage `json:"v,omitempty"`
	Faults  []int             `json:"u,omitempty"`
	Counts  []int             `json:"e,omitempty"` // timeouts, errors; left out when both are 0
	P       []problem         `json:"p,omitempty"`
}

// intentWidth is how many numbers pack one intent.
const intentWidth = 5

// null is a missing answer's value in a file.
var null = json.RawMessage("null")

// encodeAnswers packs a round's records.
func encodeAnswers(as []engine.Answered) []answered {
	var out []answered
	for _, a := range as {
		x := answered{Team: a.Team, Settle: a.Settle, Batch: a.Batch}
		for _, in := range a.Intents {
			x.Intents = append(x.Intents, int(in.Action), int(in.Dir), int(in.Child), int(in.Become), int(in.Fault))
		}
		faults := false
		for _, v := range a.Answers {
			if v.Value == nil {
				x.Values = append(x.Values, null)
			} else {
				x.Values = append(x.Values, v.Value)
			}
			faults = faults || v.Fault != engine.NoFault || v.Used != 0
		}
		if faults {
			for _, v := range a.Answers {
				x.Faults = append(x.Faults, int(v.Fault), v.Used)
			}
		}
		if a.Timeouts != 0 || a.Errors != 0 {
			x.Counts = []int{a.Timeouts, a.Errors}
		}
		for _, p := range a.Problems {
			x.P = append(x.P, problem{Team: p.Team, Class: int(p.Class), Square: int(p.Square), Kind: int(p.Kind), Message: p.Message})
		}
		out = append(out, x)
	}
	return out
}

// decodeAnswers unpacks a round's records. The timeline checks them
// against the battle (engine.Timeline.Add); here every number is checked
// to fit where it goes, and the records are bounded, before they are kept.
func decodeAnswers(round int, as []answered, teams int) ([]engine.Answered, error) {
	if len(as) == 0 {
		return nil, nil
	}
	if len(as) > engine.MaxRoundAnswered {
		return nil, fmt.Errorf("%d records of answers in one round (at most %d)", len(as), engine.MaxRoundAnswered)
	}
	out := make([]engine.Answered, 0, len(as))
	answers := 0
	for _, x := range as {
		a := engine.Answered{Round: round, Team: x.Team, Settle: x.Settle, Batch: x.Batch}
		switch {
		case x.Team < 0 || x.Team >= teams:
			return nil, fmt.Errorf("answers of team %d, which does not exist", x.Team)
		case x.Batch < 0 || x.Batch > math.MaxInt32:
			return nil, fmt.Errorf("answers of batch %d", x.Batch)
		case len(x.Intents)%intentWidth != 0:
			return nil, errors.New("team's intents: a packed array has the wrong length")
		case x.Faults != nil && len(x.Faults) != 2*len(x.Values):
			return nil, fmt.Errorf("team %d: %d faults for %d answers", x.Team, len(x.Faults)/2, len(x.Values))
		case x.Counts != nil && len(x.Counts) != 2:
			return nil, fmt.Errorf("team %d: counts %v are not (timeouts, errors)", x.Team, x.Counts)
		case len(x.P) > engine.MaxAnswerProblems:
			return nil, fmt.Errorf("team %d reports %d problems in one phase (at most %d)", x.Team, len(x.P), engine.MaxAnswerProblems)
		}
		if answers += len(x.Values); answers > engine.MaxRoundAnswers {
			return nil, fmt.Errorf("more than %d answers in one round", engine.MaxRoundAnswers)
		}
		var err error
		if a.Intents, err = decodeIntents(x.Intents); err != nil {
			return nil, fmt.Errorf("team %d: %v", x.Team, err)
		}
		if a.Answers, err = decodeValues(x.Values, x.Faults); err != nil {
			return nil, fmt.Errorf("team %d: %v", x.Team, err)
		}
		if x.Counts != nil {
			a.Timeouts, a.Errors = x.Counts[0], x.Counts[1]
			if min(a.Timeouts, a.Errors) < 0 || max(a.Timeouts, a.Errors) > engine.MaxAnswerFaults {
				return nil, fmt.Errorf("team %d counts %d timeouts and %d errors in one phase", x.Team, a.Timeouts, a.Errors)
			}
		}
		for _, p := range x.P {
			if len(p.Message) > engine.MaxAnswerText {
				return nil, fmt.Errorf("team %d: a problem of %d bytes (at most %d)", x.Team, len(p.Message), engine.MaxAnswerText)
			}
			if p.Class < int(engine.NoClass) || p.Class > math.MaxInt32 || p.Square < -1 || p.Square > math.MaxInt32 || p.Kind < 0 || p.Kind > int(engine.FaultError) {
				return nil, fmt.Errorf("team %d: a problem's class %d, square %d or kind %d is out of range", x.Team, p.Class, p.Square, p.Kind)
			}
			a.Problems = append(a.Problems, engine.Problem{Round: round, Team: p.Team, Class: engine.ClassID(p.Class),
				Square: engine.SquareID(p.Square), Kind: engine.Fault(p.Kind), Message: p.Message})
		}
		out = append(out, a)
	}
	return out, nil
}

// decodeIntents unpacks intents, each number in its range.
func decodeIntents(packed []int) ([]engine.Intent, error) {
	if len(packed) == 0 {
		return nil, nil
	}
	out := make([]engine.Intent, 0, len(packed)/intentWidth)
	for i := 0; i < len(packed); i += intentWidth {
		act, dir, child, become, fault := packed[i], packed[i+1], packed[i+2], packed[i+3], packed[i+4]
		if act < 0 || act > int(engine.Replicate) || dir < 0 || dir > int(engine.W) || fault < 0 || fault > int(engine.FaultError) ||
			child < int(engine.NoClass) || child > math.MaxInt32 || become < int(engine.NoClass) || become > math.MaxInt32 {
			return nil, fmt.Errorf("intent %v is out of range", packed[i:i+intentWidth])
		}
		out = append(out, engine.Intent{Action: engine.Action(act), Dir: engine.Direction(dir), Child: engine.ClassID(child),
			Become: engine.ClassID(become), Fault: engine.Fault(fault)})
	}
	return out, nil
}

// decodeValues unpacks a rule mod's answers: their JSON values (each at
// most engine.MaxAnswerValue bytes of compact JSON) and their faults.
func decodeValues(values []json.RawMessage, faults []int) ([]engine.RecordedAnswer, error) {
	if len(values) == 0 {
		return nil, nil
	}
	out := make([]engine.RecordedAnswer, len(values))
	for i, v := range values {
		if string(v) != "null" {
			if len(v) > engine.MaxAnswerValue || !engine.ValidAnswer(v) {
				return nil, fmt.Errorf("answer %d is not compact JSON text of at most %d bytes", i, engine.MaxAnswerValue)
			}
			out[i].Value = append([]byte(nil), v...)
		}
		if faults != nil {
			f, used := faults[2*i], faults[2*i+1]
			if f < 0 || f > int(engine.FaultError) || used < 0 || used > engine.MaxAnswerUsed {
				return nil, fmt.Errorf("answer %d: fault %d, %d instructions", i, f, used)
			}
			out[i].Fault, out[i].Used = engine.Fault(f), used
		}
	}
	return out, nil
}
