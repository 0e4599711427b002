package bot

import (
	"encoding/json"
	"fmt"
	"reflect"
	"testing"

	"github.com/squarebattle/squarebattle/engine"
)

// echoRules is the protocol tests' rule mod: every round each team's
// units 1 and 2 (unit 2 until round 3, when it is forgotten) are asked at
// once, then team 0's unit 1 alone in a second batch; a call scores a
// point when its answer is the text its view wants.
type echoRules struct{ batch int }

func (r *echoRules) Setup(*engine.Board) error { return nil }

func (r *echoRules) Next(b *engine.Board) ([]engine.Call, error) {
	defer func() { r.batch++ }()
	var calls []engine.Call
	switch r.batch % 3 {
	case 0:
		for t := 0; t < b.Teams(); t++ {
			if b.Round() == 3 {
				b.Forget(t, 2)
			}
			for u := 1; u <= 2; u++ {
				if u == 2 && b.Round() >= 3 {
					continue
				}
				calls = append(calls, engine.Call{Team: t, Unit: u, Class: engine.NoClass,
					View: map[string]any{"want": fmt.Sprintf("r%d t%d u%d", b.Round(), t, u), "list": []any{1.0, "two", true}}})
			}
		}
	case 1:
		calls = []engine.Call{{Team: 0, Unit: 1, Class: engine.NoClass, View: map[string]any{"want": fmt.Sprintf("r%d second", b.Round())}}}
	}
	return calls, nil
}

func (r *echoRules) Resolve(b *engine.Board, calls []engine.Call, answers []engine.Answer) error {
	for i, c := range calls {
		if answers[i].Value == c.View.(map[string]any)["want"] {
			b.SetValue(c.Team, 0, b.Value(c.Team, 0)+1)
		}
	}
	return nil
}

func (r *echoRules) Close() {}

// jsonCodec stands in for luabind's plain-value codec: the test's views
// and answers are Go's JSON values.
type jsonCodec struct{}

func (jsonCodec) EncodeAnswer(v any) ([]byte, error) { return json.Marshal(v) }
func (jsonCodec) DecodeAnswer(b []byte) (any, error) {
	var v any
	err := json.Unmarshal(b, &v)
	return v, err
}

var testCodec = Codec{ToJSON: jsonCodec{}.EncodeAnswer, FromJSON: jsonCodec{}.DecodeAnswer}

type modResult struct {
	stats     []engine.Stats
	values    [][]int
	backstops []engine.Backstop
	problems  []engine.Problem
}

// playEcho plays rounds rounds of the echo game between two reference
// bots, team 0 started with args, and replays it from the record.
func playEcho(t *testing.T, rounds int, timing Timing, args ...string) modResult {
	t.Helper()
	classes := []string{"refbot0", "refbot1"}
	var callers []*Caller
	for team := 0; team < 2; team++ {
		var conn Conn
		if team == 0 {
			conn = startRefbot(t, args...)
		} else {
			conn = startRefbot(t)
		}
		h := Hello{Game: "echo", Kind: KindCalls, Seed: 1, Team: team, Teams: 2, Size: 4, Rounds: rounds,
			Players: []string{"a", "b"}, Classes: classes, Constants: map[string]any{}, Columns: []string{"score"}}
		tm := timing
		if team == 1 {
			// The honest team starts with the usual time to say ready:
			// a short Init meant for team 0's fault ("noready") would
			// fault it too on a loaded machine, where starting a process
			// can take longer.
			tm.Init = max(tm.Init, testTiming().Init)
		}
		_, gerr := Greet(conn, h, tm)
		callers = append(callers, NewCaller(conn, classes[team], testCodec, tm, gerr))
	}
	opts := func(c0, c1 engine.Caller) engine.ModOptions {
		return engine.ModOptions{Size: 4, Rounds: rounds, Seed: 1, Workers: 2, Columns: []string{"score"}, Classes: classes,
			Codec: jsonCodec{}, Rules: &echoRules{},
			Teams: []engine.ModTeam{{Player: engine.Player{Class: 0, Name: "a"}, Caller: c0, Outside: true},
				{Player: engine.Player{Class: 1, Name: "b"}, Caller: c1, Outside: true}}}
	}
	var out modResult
	var answers []engine.Answered
	var logs []engine.RoundLog
	m := playMod(t, opts(callers[0], callers[1]), func(l engine.RoundLog) {
		out.backstops = append(out.backstops, l.Backstops...)
		out.problems = append(out.problems, l.Problems...)
		answers = append(answers, l.Answers...)
		logs = append(logs, l)
	})
	for _, c := range callers {
		c.Finish(End{Round: m.Round(), Winner: m.Winner(), Reason: "test"})
	}
	for _, tv := range m.Snapshot().Teams {
		out.stats = append(out.stats, tv.Stats)
		out.values = append(out.values, tv.Values)
	}
	replay := func(team int) engine.Caller {
		var events []engine.Backstop
		for _, e := range out.backstops {
			if e.Team == team {
				events = append(events, e)
			}
		}
		return engine.ReplayModBackstops(engine.ReplayModAnswers(answers, jsonCodec{}), events)
	}
	checkRerun(t, logs, func(each func(engine.RoundLog)) { playMod(t, opts(replay(0), replay(1)), each) })
	return out
}

func playMod(t *testing.T, o engine.ModOptions, each func(engine.RoundLog)) *engine.ModBattle {
	t.Helper()
	m, err := engine.NewModBattle(o)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(m.Close)
	rec := engine.NewModRecorder(m)
	for m.Step() {
		each(rec.Next())
	}
	if m.Err() != nil {
		t.Fatal(m.Err())
	}
	return m
}

func TestCallsPlay(t *testing.T) {
	got := playEcho(t, 6, testTiming())
	// Team 0: 2+2 calls in rounds 1 and 2, 1 from round 3 on, plus the
	// second batch every round; team 1 the same without the second batch.
	want := [][]int{{2*2 + 4*1 + 6}, {2*2 + 4*1}}
	if !reflect.DeepEqual(got.values, want) {
		t.Errorf("scores %v, want %v (problems %v)", got.values, want, got.problems)
	}
	for team, s := range got.stats {
		if s.Timeouts+s.Errors != 0 {
			t.Errorf("team %d has faults: %+v", team, s)
		}
	}
}

func TestCallsFaults(t *testing.T) {
	for _, tc := range []faultCase{
		{fault: "late", timeouts: 1, problem: "no answer within"},
		{fault: "stale"},
		{fault: "malformed", errors: 1, problem: "not a JSON object"},
		{fault: "toomany", errors: 1, problem: "answers for"},
		{fault: "badid", errors: 1, problem: `no "answers"`},
		{fault: "huge", errors: 1, events: "crash,retired", problem: "too long"},
		{fault: "close", errors: 1, events: "crash,retired", problem: "closed"},
		{fault: "crash", errors: 1, events: "crash,retired", problem: "closed"},
		{fault: "exit", errors: 1, events: "crash,retired", problem: "closed"},
		{fault: "nonewline", timeouts: 3, events: "retired", problem: "faults in a row"},
		{fault: "noready", errors: 1, events: "crash,retired", problem: "no ready within"},
	} {
		t.Run(tc.fault, func(t *testing.T) {
			t.Parallel()
			got := playEcho(t, 8, faultTiming(tc.fault), "-fault", tc.fault, "-at", "3")
			tc.check(t, got.stats[0], got.backstops, got.problems)
			if got.values[1][0] != 2*2+6*1 || got.stats[1].Timeouts+got.stats[1].Errors != 0 {
				t.Errorf("the other team suffered: score %v, %+v", got.values[1], got.stats[1])
			}
		})
	}
}
