package engine

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"unicode/utf8"
)

// A team whose decisions come from outside the battle's inputs (an
// external bot, a person at the keys) cannot be asked again: played twice,
// it need not answer alike. So the engine records what such a team
// decided, phase by phase, in the round's log (RoundLog.Answers), and a
// re-run that must agree with a recording (replay --verify, seeking in a
// replay) hands the recorded decisions back through ReplayAnswers or
// ReplayModAnswers instead of asking the team. Controllers and callers of
// outside teams need no recording code of their own: marking the team
// Outside (TeamSetup.Outside, ModTeam.Outside) is enough.
//
// What is recorded is exactly what the battle then used: the engine first
// makes an outside team's phase fit what a record can hold (admitAnswers
// below), then plays it and records it. An intent the engine could not
// carry out becomes a counted error, a report's problems are bounded and
// made safe, and a rule mod's answer is handed to the rules as the codec
// decodes it again, so that a re-run, which only has the JSON text, hands
// them the same value.

// The kinds of outside team, as Player.Outside names them.
const (
	OutsideBot   = "bot"   // an external program (engine/bot)
	OutsideHuman = "human" // a person at the keys
)

// AnswerCodec writes a rule mod answer's opaque Value as JSON text and
// reads it back. ModOptions.Codec is required when any team is Outside.
// DecodeAnswer(EncodeAnswer(v)) need not be v itself, but decoding the
// same text must always give equal values: that is what the rules see,
// live and in a re-run. Both are called from workers, concurrently for
// different teams.
type AnswerCodec interface {
	EncodeAnswer(v any) ([]byte, error)
	DecodeAnswer(text []byte) (any, error)
}

// RecordedAnswer is one answer of an outside rule mod team, as recorded.
type RecordedAnswer struct {
	Value []byte // the answer as JSON text; nil: no answer (or a fault)
	Fault Fault
	Used  int // instructions the call ran (0 for an outside team, normally)
}

// Answered is one outside team's decisions for one phase: in SquareBattle
// its turn (or its settlement, when that reported faults), in a rule mod
// one batch of a round's calls.
type Answered struct {
	Round, Team, Batch int // set by the engine
	// Settle is set by the engine for SquareBattle's settlement phase:
	// there the team decides nothing, but its report may count faults,
	// which a re-run must count again.
	Settle bool
	// Intents are SquareBattle's: one per Turn.Squares[i], as the
	// controller left Turn.Intents once the engine admitted them.
	Intents []Intent
	// Answers are a rule mod's: one per call of the team in the batch.
	Answers []RecordedAnswer
	// Timeouts, Errors and Problems are the phase's Report: its counts
	// and its problems, at most MaxAnswerProblems, their messages made
	// safe and at most MaxAnswerText bytes.
	Timeouts, Errors int
	Problems         []Problem
}

// Bounds on what one Answered holds, which a replay reader enforces too.
const (
	// MaxAnswerProblems bounds the problems an outside team's phase
	// reports; the engine drops the others.
	MaxAnswerProblems = 8
	// MaxAnswerText bounds a recorded problem's message in bytes.
	MaxAnswerText = MaxBackstopText
	// MaxAnswerFaults bounds the faults a report may count beyond those
	// of its intents or answers; more are counted as that many.
	MaxAnswerFaults = 1 << 16
	// MaxAnswerValue bounds one rule mod answer's JSON text in bytes: a
	// longer answer is a counted error, as one the codec cannot encode.
	MaxAnswerValue = 1 << 16
	// MaxAnswerUsed bounds an answer's instruction count.
	MaxAnswerUsed = math.MaxInt32
	// MaxRoundAnswered bounds the records of one round, and
	// MaxRoundAnswers the rule mod answers they hold together: a replay
	// reader refuses more, so a hostile line cannot make it allocate
	// without end.
	MaxRoundAnswered = 1 << 18
	MaxRoundAnswers  = 1 << 20
)

// admitIntent makes intent in, of a square of class class, one the
// engine can carry out, or turns it into a counted error; it returns the
// reason for an intent it refused. classes is the number of classes.
// resolve treats an admitted intent exactly as the original one, except
// that a refused one counts an error without any of its effects.
func admitIntent(in Intent, classes int) (Intent, string) {
	refuse := func(why string) (Intent, string) {
		return Intent{Action: Wait, Child: NoClass, Become: NoClass, Fault: FaultError}, why
	}
	switch in.Fault {
	case NoFault:
	case FaultTimeout, FaultError:
		return Intent{Action: Wait, Child: NoClass, Become: NoClass, Fault: in.Fault}, ""
	default:
		return refuse(fmt.Sprintf("unknown fault %d", in.Fault))
	}
	if in.Become != NoClass && (in.Become < 0 || int(in.Become) >= classes) {
		return refuse(fmt.Sprintf("cannot become class %d", in.Become))
	}
	out := Intent{Action: in.Action, Child: NoClass, Become: in.Become}
	switch in.Action {
	case Wait:
		return out, ""
	case Move, Attack, Replicate:
	default:
		return refuse(fmt.Sprintf("unknown action %d", in.Action))
	}
	if !in.Dir.Valid() {
		return refuse(fmt.Sprintf("%s in direction %d", in.Action, in.Dir))
	}
	out.Dir = in.Dir
	if in.Action == Replicate {
		if in.Child < 0 || int(in.Child) >= classes {
			return refuse(fmt.Sprintf("cannot replicate into class %d", in.Child))
		}
		out.Child = in.Child
	}
	return out, ""
}

// ValidIntent reports whether in is an intent as the engine records it
// for an outside team (admitIntent's result) in a battle of classes
// classes: what a replay reader accepts.
func ValidIntent(in Intent, classes int) bool {
	out, _ := admitIntent(in, classes)
	return out == in
}

// admitReport bounds an outside team's report of a phase: counts between
// 0 and MaxAnswerFaults, at most MaxAnswerProblems problems, each stamped
// with the round and team, its class in range, its kind a fault, its
// message safe and clipped, without a trace (a re-run has none). Backstop
// events are left to takeBackstops.
func admitReport(r *Report, round, team, classes int) {
	r.Timeouts = min(max(r.Timeouts, 0), MaxAnswerFaults)
	r.Errors = min(max(r.Errors, 0), MaxAnswerFaults)
	if len(r.Problems) > MaxAnswerProblems {
		r.Problems = r.Problems[:MaxAnswerProblems]
	}
	for i := range r.Problems {
		admitProblem(&r.Problems[i], round, team, classes)
	}
}

// admitProblem makes p a problem a record can hold.
func admitProblem(p *Problem, round, team, classes int) {
	p.Round, p.Team, p.Trace = round, team, ""
	if p.Class < NoClass || int(p.Class) >= classes {
		p.Class = NoClass
	}
	if p.Square < -1 {
		p.Square = -1
	}
	if p.Kind != FaultTimeout && p.Kind != FaultError {
		p.Kind = FaultError
	}
	p.Message = ClipText(SafeText(p.Message), MaxAnswerText)
}

// addProblem adds p to r unless r holds MaxAnswerProblems already.
func addProblem(r *Report, p Problem) {
	if len(r.Problems) < MaxAnswerProblems {
		r.Problems = append(r.Problems, p)
	}
}

// quiet reports whether a report counts nothing and says nothing.
func (r *Report) quiet() bool { return r.Timeouts == 0 && r.Errors == 0 && len(r.Problems) == 0 }

// answered is the record of report r for round, team and batch.
func answered(round, team, batch int, settle bool, r *Report) Answered {
	return Answered{Round: round, Team: team, Batch: batch, Settle: settle,
		Timeouts: r.Timeouts, Errors: r.Errors, Problems: append([]Problem(nil), r.Problems...)}
}

// silence makes an outside team's phase in which the wall around it fired
// (r has backstop events) what a re-run makes of it: ReplayBackstops
// reports the events and asks nothing, so the squares wait, the calls go
// unanswered and nothing else is counted. Nothing is recorded for such a
// phase but its events.
func silence(r *Report, intents []Intent, answers []Answer) {
	r.Timeouts, r.Errors, r.Problems = 0, 0, r.Problems[:0]
	for i := range intents {
		intents[i] = WaitIntent
	}
	for i := range answers {
		answers[i] = Answer{}
	}
}

// takeAnswers admits and records outside team t's phase (its turn, or
// with settle its settlement) before the engine counts it. It runs on the
// battle's goroutine after the phase.
func (b *Battle) takeAnswers(t int, settle bool) {
	ts := &b.teams[t]
	classes := len(b.opts.Classes)
	if settle {
		r := &ts.settlement.Report
		if len(r.Backstops) > 0 {
			silence(r, nil, nil)
			return
		}
		admitReport(r, b.round, t, classes)
		if !r.quiet() {
			b.answers = append(b.answers, answered(b.round, t, 0, true, r))
		}
		return
	}
	tt := &ts.turn
	r := &tt.Report
	if len(r.Backstops) > 0 {
		silence(r, tt.Intents, nil)
		return
	}
	if (len(tt.Squares) == 0 || ts.retired) && r.quiet() {
		return // not asked
	}
	admitReport(r, b.round, t, classes)
	for len(tt.Intents) < len(tt.Squares) { // a controller that cut the slice: the rest wait
		tt.Intents = append(tt.Intents, WaitIntent)
	}
	tt.Intents = tt.Intents[:len(tt.Squares)]
	for i, in := range tt.Intents {
		out, why := admitIntent(in, classes)
		if why != "" {
			sq := tt.Squares[i]
			p := Problem{Class: sq.Class, Square: sq.ID, Kind: FaultError, Message: "invalid intent: " + why}
			admitProblem(&p, b.round, t, classes)
			addProblem(r, p)
		}
		tt.Intents[i] = out
	}
	a := answered(b.round, t, 0, false, r)
	a.Intents = append([]Intent(nil), tt.Intents...)
	b.answers = append(b.answers, a)
}

// takeAnswers admits and records outside team t's answers to the batch
// of calls it was just asked: each answer is encoded with the codec (one
// that cannot be, or is longer than MaxAnswerValue, is a counted error)
// and decoded again for the rules, so that they see what a re-run will
// hand them. It runs on the battle's goroutine after the batch.
func (m *ModBattle) takeAnswers(t, batch int) {
	tt := &m.turns[t]
	r := &tt.Report
	if len(r.Backstops) > 0 {
		silence(r, nil, tt.Answers)
		return
	}
	classes := len(m.opts.Classes)
	round := m.board.round
	admitReport(r, round, t, classes)
	for len(tt.Answers) < len(tt.Calls) { // a caller that cut the slice: the rest go unanswered
		tt.Answers = append(tt.Answers, Answer{})
	}
	tt.Answers = tt.Answers[:len(tt.Calls)]
	recorded := make([]RecordedAnswer, len(tt.Answers))
	for i := range tt.Answers {
		recorded[i] = m.admitAnswer(&tt.Answers[i], r, tt.Calls[i], round, t)
	}
	a := answered(round, t, batch, false, r)
	a.Answers = recorded
	m.answers = append(m.answers, a)
}

// admitAnswer makes one answer of an outside team what a record holds and
// returns its record; a failure to encode it counts as the call's error,
// explained among r's problems.
func (m *ModBattle) admitAnswer(ans *Answer, r *Report, c Call, round, team int) RecordedAnswer {
	ans.Used = min(max(ans.Used, 0), MaxAnswerUsed)
	switch ans.Fault {
	case NoFault:
	case FaultTimeout, FaultError:
		ans.Value = nil
		return RecordedAnswer{Fault: ans.Fault, Used: ans.Used}
	default:
		ans.Fault, ans.Value = FaultError, nil
		return RecordedAnswer{Fault: FaultError, Used: ans.Used}
	}
	if ans.Value == nil {
		return RecordedAnswer{Used: ans.Used}
	}
	codec := m.opts.Codec
	text, err := codec.EncodeAnswer(ans.Value)
	if err == nil {
		text, err = compactAnswer(text)
	}
	if err == nil && string(text) == "null" { // no answer, as a record holds it
		ans.Value = nil
		return RecordedAnswer{Used: ans.Used}
	}
	var v any
	if err == nil {
		v, err = codec.DecodeAnswer(text)
	}
	if err != nil {
		ans.Value, ans.Fault = nil, FaultError
		p := Problem{Class: c.Class, Square: -1, Kind: FaultError, Message: fmt.Sprintf("unit %d: the answer cannot be recorded: %v", c.Unit, err)}
		admitProblem(&p, round, team, len(m.opts.Classes))
		addProblem(r, p)
		return RecordedAnswer{Fault: FaultError, Used: ans.Used}
	}
	ans.Value = v
	return RecordedAnswer{Value: text, Used: ans.Used}
}

// checkOutside checks team i's Outside mark against its player's
// Outside, naming an outside team of no kind a bot.
func checkOutside(i int, p *Player, outside bool) error {
	switch {
	case outside && p.Outside == "":
		p.Outside = OutsideBot
	case !outside && p.Outside != "":
		return &OptionError{fmt.Sprintf("team %d", i), fmt.Sprintf("its player is decided outside (%q) but the team is not marked Outside", SafeText(p.Outside))}
	case outside && p.Outside != OutsideBot && p.Outside != OutsideHuman:
		return &OptionError{fmt.Sprintf("team %d", i), fmt.Sprintf("outside kind %q is neither %q nor %q", SafeText(p.Outside), OutsideBot, OutsideHuman)}
	}
	return nil
}

// cloneAnswers copies a round's records for its log (nil for none). The
// records' slices are their own already: only the list is reused.
func cloneAnswers(as []Answered) []Answered {
	if len(as) == 0 {
		return nil
	}
	return append([]Answered(nil), as...)
}

// compactAnswer checks an answer's JSON text (valid JSON, valid UTF-8, at
// most MaxAnswerValue bytes once compact) and returns it compact: the
// bytes a replay holds, so that a recorded answer and one read back are
// the same bytes.
func compactAnswer(text []byte) ([]byte, error) {
	if len(text) > 4*MaxAnswerValue {
		return nil, fmt.Errorf("%d bytes of JSON, at most %d", len(text), MaxAnswerValue)
	}
	if !utf8.Valid(text) {
		return nil, errors.New("JSON text that is not UTF-8")
	}
	var buf bytes.Buffer
	if err := json.Compact(&buf, text); err != nil {
		return nil, fmt.Errorf("invalid JSON: %v", err)
	}
	if buf.Len() > MaxAnswerValue {
		return nil, fmt.Errorf("%d bytes of JSON, at most %d", buf.Len(), MaxAnswerValue)
	}
	return buf.Bytes(), nil
}

// ValidAnswer reports whether text is a recorded answer's JSON text as
// the engine writes it (compactAnswer), for a replay reader.
func ValidAnswer(text []byte) bool {
	c, err := compactAnswer(text)
	return err == nil && bytes.Equal(c, text) && string(text) != "null"
}
