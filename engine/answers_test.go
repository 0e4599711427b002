package engine

import (
	"encoding/json"
	"errors"
	"fmt"
	"math/rand/v2"
	"reflect"
	"strings"
	"testing"
)

// outsider decides like an external bot or a person: from a random
// source a re-run does not share (seeded here only so that a failure can
// be reproduced). It answers well and badly: invalid intents of every
// kind, faults, report counts beyond the bounds, more problems than a
// phase keeps, messages too long and unsafe, settlement reports, and now
// and then a wall event (a bot process that died).
type outsider struct {
	rng  *rand.Rand
	wall bool // report backstop events now and then
}

func newOutsider(seed uint64, wall bool) *outsider {
	return &outsider{rng: rand.New(rand.NewPCG(seed, 0x75)), wall: wall}
}

func (o *outsider) Turn(t *Turn) {
	if o.wall && o.rng.IntN(25) == 0 {
		t.Report.Backstops = append(t.Report.Backstops, Backstop{Kind: BackstopCrash, Class: NoClass, Message: "bot: the process died"})
		t.Intents[0] = intent(Move, N) // what it left behind does not count
		t.Report.Errors = 3
		return
	}
	switch o.rng.IntN(30) { // a slice of the wrong length: the engine makes it fit
	case 0:
		t.Intents = t.Intents[:len(t.Intents)/2]
	case 1:
		t.Intents = append(t.Intents, WaitIntent, WaitIntent)
	}
	for i := range t.Intents {
		in := Intent{Action: Action(o.rng.IntN(4)), Dir: Direction(o.rng.IntN(8)), Child: ClassID(o.rng.IntN(2)), Become: NoClass}
		switch o.rng.IntN(40) {
		case 0:
			in.Dir = Direction(8 + o.rng.IntN(200))
		case 1:
			in.Child = ClassID(o.rng.IntN(9) - 4)
		case 2:
			in.Become = ClassID(o.rng.IntN(9) - 4)
		case 3:
			in.Action = Action(4 + o.rng.IntN(250))
		case 4:
			in.Fault = Fault(o.rng.IntN(5))
		}
		t.Intents[i] = in
	}
	o.report(&t.Report)
}

func (o *outsider) Settle(s *Settlement) {
	if o.rng.IntN(3) == 0 {
		o.report(&s.Report)
	}
}

func (o *outsider) report(r *Report) {
	if o.rng.IntN(4) != 0 {
		return
	}
	r.Timeouts = o.rng.IntN(3)
	r.Errors = o.rng.IntN(3)
	if o.rng.IntN(10) == 0 {
		r.Errors, r.Timeouts = -5, 1<<40
	}
	for i := range o.rng.IntN(12) {
		msg := fmt.Sprintf("bot: problem %d \x1b[31m", i)
		if i == 3 {
			msg = strings.Repeat("é", MaxAnswerText)
		}
		r.Problems = append(r.Problems, Problem{Class: ClassID(o.rng.IntN(5) - 2), Square: SquareID(o.rng.IntN(9) - 4), Kind: Fault(o.rng.IntN(4)), Message: msg, Trace: "a trace"})
	}
}

// outsideBattle is wallBattle with teams 1 and 4 decided by ctrl.
func outsideBattle(t *testing.T, workers int, ctrl func(team int) Controller) *Battle {
	t.Helper()
	o := Options{Size: 16, Wrap: true, Rounds: 150, ReplicateRounds: 3, Seed: 11, Workers: workers, Classes: []string{"r", "s"}}
	for team := range 6 {
		ts := TeamSetup{Player: Player{Name: "R"}, Controller: &randomPlayer{rng: NewRand(11, TeamStream(team))}}
		if team == 1 || team == 4 {
			ts.Controller, ts.Outside = ctrl(team), true
		}
		o.Teams = append(o.Teams, ts)
	}
	b, err := NewBattle(o)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(b.Close)
	return b
}

// eventsOf collects a battle's recorded answers and backstop events.
func eventsOf(logs []RoundLog) ([]Answered, map[int][]Backstop) {
	var answers []Answered
	events := map[int][]Backstop{}
	for _, l := range logs {
		answers = append(answers, l.Answers...)
		for _, e := range l.Backstops {
			events[e.Team] = append(events[e.Team], e)
		}
	}
	return answers, events
}

// TestAnswersReplayAsRecorded: a SquareBattle battle with two outside
// teams deciding at random (badly, at times, and with their process dying
// now and then) records their decisions; a re-run that hands the records
// back, and asks nobody else for those teams, gives the same round logs,
// whatever the workers of either.
func TestAnswersReplayAsRecorded(t *testing.T) {
	for _, workers := range []int{1, 3} {
		seed := uint64(workers)
		b := outsideBattle(t, workers, func(team int) Controller { return newOutsider(seed+uint64(team), true) })
		start := b.Snapshot()
		recorded := recordAll(b)
		timelineTakes(t, start, recorded)
		answers, events := eventsOf(recorded)
		var invalid, settle, problems int
		for _, a := range answers {
			if a.Team != 1 && a.Team != 4 {
				t.Fatalf("a record of team %d, which is not outside", a.Team)
			}
			settle += len(a.Problems) * btoi(a.Settle)
			for _, p := range a.Problems {
				if strings.HasPrefix(p.Message, "invalid intent") {
					invalid++
				}
				if len(p.Message) > MaxAnswerText || p.Trace != "" || strings.ContainsRune(p.Message, 0x1b) {
					t.Fatalf("problem %q kept as given", p.Message)
				}
			}
			problems = max(problems, len(a.Problems))
		}
		if invalid == 0 || settle == 0 || len(events) == 0 || problems != MaxAnswerProblems {
			t.Fatalf("the outsiders tried too little: %d invalid intents, %d settlement problems, %d teams with events, %d most problems",
				invalid, settle, len(events), problems)
		}
		for _, replayWorkers := range []int{1, 3} {
			again := recordAll(outsideBattle(t, replayWorkers, func(team int) Controller {
				return ReplayBackstops(ReplayAnswers(answers), events[team])
			}))
			if diff := firstDiff(again, recorded); diff != "" {
				t.Fatalf("workers %d/%d: %s", workers, replayWorkers, diff)
			}
		}
		// Another outsider, played live again, decides otherwise: the
		// test can tell a replayed decision from a new one.
		other := recordAll(outsideBattle(t, workers, func(team int) Controller { return newOutsider(seed+uint64(team)+100, true) }))
		if firstDiff(other, recorded) == "" {
			t.Fatal("two outsiders with different randomness played alike")
		}
	}
}

// timelineTakes checks that a timeline (what a replay reader and a live
// viewer use) takes every recorded round as the engine wrote it.
func timelineTakes(t *testing.T, start *Snapshot, logs []RoundLog) {
	t.Helper()
	tl := NewTimeline(start, 0)
	for _, l := range logs {
		if err := tl.Add(l); err != nil {
			t.Fatalf("the timeline refuses what the engine recorded: %v", err)
		}
	}
}

func btoi(b bool) int {
	if b {
		return 1
	}
	return 0
}

// firstDiff names the first round whose logs differ, or "".
func firstDiff(got, want []RoundLog) string {
	if len(got) != len(want) {
		return fmt.Sprintf("%d rounds, want %d", len(got), len(want))
	}
	for i := range got {
		if !reflect.DeepEqual(got[i], want[i]) {
			return fmt.Sprintf("round %d differs:\n got %+v\nwant %+v", want[i].Round, got[i], want[i])
		}
	}
	return ""
}

// TestAnswersMissingRecord: a re-run that reaches a phase without a
// record lets the team's squares wait and counts nothing.
func TestAnswersMissingRecord(t *testing.T) {
	recorded := recordAll(outsideBattle(t, 1, func(team int) Controller { return ReplayAnswers(nil) }))
	for _, l := range recorded {
		for _, a := range l.Answers {
			for _, in := range a.Intents {
				if in != WaitIntent {
					t.Fatalf("round %d: team %d did %+v from no record", l.Round, a.Team, in)
				}
			}
			if a.Timeouts+a.Errors+len(a.Problems) > 0 {
				t.Fatalf("round %d: team %d counted %+v from no record", l.Round, a.Team, a)
			}
		}
	}
}

// jsonCodec is an AnswerCodec for the trail rules' answers: integers, as
// JSON numbers. A channel cannot be encoded.
type jsonCodec struct{}

func (jsonCodec) EncodeAnswer(v any) ([]byte, error) { return json.Marshal(v) }

func (jsonCodec) DecodeAnswer(text []byte) (any, error) {
	var v any
	if err := json.Unmarshal(text, &v); err != nil {
		return nil, err
	}
	if f, ok := v.(float64); ok && f == float64(int(f)) {
		return int(f), nil
	}
	return v, nil
}

// modOutsider answers a rule mod's calls like outsider: directions, and
// at times faults, nothing, an answer the codec cannot write, one too
// long, and a dead process.
type modOutsider struct{ outsider }

func (o *modOutsider) Call(t *ModTurn) {
	if o.wall && o.rng.IntN(30) == 0 {
		t.Report.Backstops = append(t.Report.Backstops, Backstop{Kind: BackstopTimeout, Class: NoClass, Message: "bot: too late"})
		t.Answers[0] = Answer{Value: 1}
		return
	}
	if o.rng.IntN(30) == 0 { // a slice of the wrong length: the engine makes it fit
		t.Answers = append(t.Answers, Answer{Value: 1})
	}
	for i := range t.Answers {
		a := Answer{Value: o.rng.IntN(4)}
		switch o.rng.IntN(20) {
		case 0:
			a = Answer{Fault: Fault(1 + o.rng.IntN(4)), Value: 2}
		case 1:
			a = Answer{}
		case 2:
			a.Value = make(chan int)
		case 3:
			a.Value = strings.Repeat("x", MaxAnswerValue)
		case 4:
			a.Used = -7
		}
		t.Answers[i] = a
	}
	o.report(&t.Report)
}

// outsideModBattle is a sequenced trail battle of three teams (each
// called twice a round), team 1 decided by ctrl.
func outsideModBattle(t *testing.T, workers int, ctrl Caller) *ModBattle {
	t.Helper()
	o := ModOptions{Size: 12, Wrap: true, Rounds: 60, Seed: 5, Workers: workers, Columns: []string{"painted"},
		Rules: &trailRules{sequenced: true, per: 2}, Classes: []string{"w"}, Codec: jsonCodec{}}
	for team := range 3 {
		mt := ModTeam{Player: Player{Name: "W"}, Caller: &walker{rng: NewRand(5, TeamStream(team))}}
		if team == 1 {
			mt.Caller, mt.Outside, mt.Player.Outside = ctrl, true, OutsideHuman
		}
		o.Teams = append(o.Teams, mt)
	}
	m, err := NewModBattle(o)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(m.Close)
	return m
}

// TestModAnswersReplayAsRecorded is TestAnswersReplayAsRecorded for a
// rule mod with a turn queue: answers are recorded batch by batch as JSON
// text and handed back decoded.
func TestModAnswersReplayAsRecorded(t *testing.T) {
	for _, workers := range []int{1, 3} {
		o := &modOutsider{*newOutsider(uint64(workers), true)}
		m := outsideModBattle(t, workers, o)
		start := m.Snapshot()
		recorded := recordMod(m)
		timelineTakes(t, start, recorded)
		answers, events := eventsOf(recorded)
		var values, faults, unrecordable int
		for _, a := range answers {
			if a.Team != 1 || a.Batch != 1 && a.Batch != 4 || len(a.Answers) != 1 {
				t.Fatalf("record %+v: want team 1 in batch 1 or 4, one answer", a)
			}
			for _, x := range a.Answers {
				if x.Value != nil {
					values++
				}
				if x.Fault != NoFault {
					faults++
				}
			}
			for _, p := range a.Problems {
				if strings.Contains(p.Message, "cannot be recorded") {
					unrecordable++
				}
			}
		}
		if values == 0 || faults == 0 || unrecordable == 0 || len(events[1]) == 0 {
			t.Fatalf("the outsider tried too little: %d values, %d faults, %d unrecordable, %d events", values, faults, unrecordable, len(events[1]))
		}
		for _, replayWorkers := range []int{1, 3} {
			again := recordMod(outsideModBattle(t, replayWorkers, ReplayModBackstops(ReplayModAnswers(answers, jsonCodec{}), events[1])))
			if diff := firstDiff(again, recorded); diff != "" {
				t.Fatalf("workers %d/%d: %s", workers, replayWorkers, diff)
			}
		}
	}
}

// TestOutsideOptions: a rule mod with an outside team needs a codec; a
// player said to be decided outside must be on an Outside team, of a
// known kind; an Outside team of no kind is a bot.
func TestOutsideOptions(t *testing.T) {
	mod := ModOptions{Size: 8, Rounds: 1, Rules: &trailRules{}, Teams: []ModTeam{{Caller: &walker{}, Outside: true}}}
	var oe *OptionError
	if _, err := NewModBattle(mod); !errors.As(err, &oe) || !strings.Contains(err.Error(), "Codec") {
		t.Errorf("an outside rule mod team without a codec: %v", err)
	}
	for _, c := range []struct {
		outside bool
		kind    string
		want    string // "" accepted
	}{
		{true, "", ""},
		{true, OutsideHuman, ""},
		{false, OutsideBot, "not marked Outside"},
		{true, "robot\x1b", "neither"},
	} {
		o := Options{Size: 4, Rounds: 1, Classes: []string{"r"}, Teams: []TeamSetup{{Player: Player{Outside: c.kind}, Controller: &scripted{}, Outside: c.outside}}}
		b, err := NewBattle(o)
		switch {
		case c.want == "" && err != nil:
			t.Errorf("%+v: %v", c, err)
		case c.want == "":
			if want := cmpOr(c.kind, OutsideBot); b.Snapshot().Teams[0].Player.Outside != want || o.Teams[0].Player.Outside != c.kind {
				t.Errorf("%+v: the battle's player says %q (want %q), the caller's %q", c, b.Snapshot().Teams[0].Player.Outside, want, o.Teams[0].Player.Outside)
			}
			b.Close()
		case !errors.As(err, &oe) || !strings.Contains(err.Error(), c.want) || strings.ContainsRune(err.Error(), 0x1b):
			t.Errorf("%+v: %v, want an OptionError saying %q", c, err, c.want)
		}
	}
}

func cmpOr(a, b string) string {
	if a != "" {
		return a
	}
	return b
}

// BenchmarkOutsideRecording is what the engine adds per round for
// recording outside teams: a full 64×64 arena of two teams of waiting
// squares, recorded, the teams of scripts ("lua") or decided outside
// ("outside"). Compare the two with benchstat.
func BenchmarkOutsideRecording(b *testing.B) {
	const size = 64
	var sb strings.Builder
	for r := range size {
		for c := range size {
			sb.WriteString([]string{"0 ", "1 "}[(r+c)%2])
		}
		sb.WriteByte('\n')
	}
	m, err := ParseMap("bench", []byte(sb.String()))
	if err != nil {
		b.Fatal(err)
	}
	for _, outside := range []bool{false, true} {
		name := map[bool]string{false: "lua", true: "outside"}[outside]
		b.Run(name, func(b *testing.B) {
			bt, err := NewBattle(Options{Size: size, Wrap: true, Rounds: 1 << 30, Seed: 1, Map: m, Classes: []string{"w"},
				Teams: []TeamSetup{{Controller: waiter{}, Outside: outside}, {Controller: waiter{}, Outside: outside}}})
			if err != nil {
				b.Fatal(err)
			}
			defer bt.Close()
			rec := NewRecorder(bt)
			b.ReportAllocs()
			for b.Loop() {
				bt.Step()
				rec.Next()
			}
		})
	}
}
