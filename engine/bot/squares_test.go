package bot

import (
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/squarebattle/squarebattle/engine"
)

// idle is a team that always waits.
type idle struct{}

func (idle) Turn(*engine.Turn)         {}
func (idle) Settle(*engine.Settlement) {}
func testTiming() Timing {
	return Timing{Init: 10 * time.Second, Round: 500 * time.Millisecond, Bank: 200 * time.Millisecond, MaxFaults: 3}
}

// squareBattle is what a test battle between the reference bot (team 0)
// and an idle team came to.
type squareBattle struct {
	stats     engine.Stats
	backstops []engine.Backstop
	problems  []engine.Problem
	greet     error
	name      string
	trip      RoundTrip // the last round trip
}

// playSquares plays rounds rounds of SquareBattle on an 8×8 wrapping
// arena between the reference bot started with args and an idle team.
func playSquares(t *testing.T, rounds int, timing Timing, args ...string) squareBattle {
	t.Helper()
	return playSquaresIn(t, Protocol, rounds, timing, args...)
}

// playSquaresIn is playSquares with the bot speaking protocol proto.
func playSquaresIn(t *testing.T, proto, rounds int, timing Timing, args ...string) squareBattle {
	t.Helper()
	if proto == Protocol2 {
		args = append(args, "-protocol", "2")
	}
	conn := startRefbot(t, args...)
	classes := []string{"idle", "refbot"}
	h := Hello{Game: "squarebattle", Kind: KindSquares, Seed: 7, Team: 0, Teams: 2, Size: 8, Wrap: true, Rounds: rounds,
		Players: []string{"refbot", "Idle"}, Class: "refbot", Classes: classes,
		Constants: map[string]any{"replicate_rounds": 2}}
	g, gerr := Handshake(conn, h, timing)
	if gerr == nil && g.Protocol != proto {
		t.Fatalf("the bot chose protocol %d, not %d", g.Protocol, proto)
	}
	name := g.Name
	ctrl := NewControllerProtocol(conn, "refbot", timing, g.Protocol, gerr)
	opts := func(c engine.Controller) engine.Options {
		return engine.Options{Size: 8, Wrap: true, Rounds: rounds, ReplicateRounds: 2, Seed: 7, Workers: 2,
			Classes: classes, Teams: []engine.TeamSetup{
				{Player: engine.Player{Class: 1, Name: "refbot"}, Controller: c, Outside: true},
				{Player: engine.Player{Class: 0, Name: "Idle"}, Controller: idle{}},
			}}
	}
	out := squareBattle{greet: gerr, name: name}
	var answers []engine.Answered
	var logs []engine.RoundLog
	b := playBattle(t, opts(ctrl), func(l engine.RoundLog) {
		out.backstops = append(out.backstops, l.Backstops...)
		out.problems = append(out.problems, l.Problems...)
		answers = append(answers, l.Answers...)
		logs = append(logs, l)
	})
	out.trip = ctrl.RoundTrip()
	ctrl.Finish(End{Round: b.Round(), Winner: b.Winner(), Reason: "test"})
	out.stats = b.Stats(0)
	// The record alone plays the battle again, round for round.
	checkRerun(t, logs, func(each func(engine.RoundLog)) {
		playBattle(t, opts(engine.ReplayBackstops(engine.ReplayAnswers(answers), out.backstops)), each)
	})
	return out
}

// checkRerun checks that play, a re-run of a battle from its record,
// plays exactly the rounds logs holds.
func checkRerun(t *testing.T, logs []engine.RoundLog, play func(each func(engine.RoundLog))) {
	t.Helper()
	i := 0
	play(func(l engine.RoundLog) {
		if i >= len(logs) || !reflect.DeepEqual(l, logs[i]) {
			t.Fatalf("the re-run from the record differs at round %d", l.Round)
		}
		i++
	})
	if i != len(logs) {
		t.Fatalf("the re-run played %d rounds, the battle %d", i, len(logs))
	}
}

// playBattle plays a SquareBattle to its end, handing each round's log
// to each.
func playBattle(t *testing.T, o engine.Options, each func(engine.RoundLog)) *engine.Battle {
	t.Helper()
	b, err := engine.NewBattle(o)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(b.Close)
	rec := engine.NewRecorder(b)
	for !b.Over() {
		b.Step()
		each(rec.Next())
	}
	return b
}

func kinds(events []engine.Backstop) string {
	var s []string
	for _, e := range events {
		s = append(s, e.Kind.String())
	}
	return strings.Join(s, ",")
}

func TestSquaresPlays(t *testing.T) {
	got := playSquares(t, 30, testTiming())
	if got.greet != nil {
		t.Fatalf("greet: %v", got.greet)
	}
	if got.name != "Ref Bot" {
		t.Errorf("name = %q, want Ref Bot", got.name)
	}
	if got.stats.Timeouts+got.stats.Errors != 0 || len(got.backstops) > 0 {
		t.Errorf("a well-behaved bot has faults: %+v, events %s, problems %v", got.stats, kinds(got.backstops), got.problems)
	}
	if got.stats.Births == 0 || got.stats.Kills == 0 {
		t.Errorf("the reference bot neither replicated nor killed the idle team: %+v", got.stats)
	}
}

// TestSquaresFaults plays a battle with a bot that breaks the protocol one
// way at round 3, and checks what the team is charged, whether it is
// retired, and that it plays on when it is not.
// TestRoundTrip: the last exchange's round trip is what it took, or late
// when the answer did not come in time.
func TestRoundTrip(t *testing.T) {
	t.Parallel()
	if got := playSquares(t, 4, testTiming()).trip; got.Late || got.D <= 0 || got.D > testTiming().Round+testTiming().Bank {
		t.Errorf("answered: %+v", got)
	}
	timing := faultTiming("late")
	if got := playSquares(t, 4, timing, "-fault", "late", "-at", "4").trip; !got.Late || got.D < timing.Round {
		t.Errorf("late in the last round: %+v", got)
	}
}

func TestSquaresFaults(t *testing.T) {
	squaresFaults(t, Protocol)
}

// TestSquares2Faults: the same faults of a protocol-2 bot cost the same,
// and a bot that asks for a full state gets it and plays on.
func TestSquares2Faults(t *testing.T) {
	squaresFaults(t, Protocol2, faultCase{fault: "resync"},
		faultCase{fault: "badorder", errors: 1, problem: `orders[1]: unknown order "mnorth"`})
}

func TestSquares2Plays(t *testing.T) {
	got := playSquaresIn(t, Protocol2, 30, testTiming())
	if got.greet != nil {
		t.Fatalf("greet: %v", got.greet)
	}
	if got.stats.Timeouts+got.stats.Errors != 0 || len(got.backstops) > 0 {
		t.Errorf("a well-behaved bot has faults: %+v, events %s, problems %v", got.stats, kinds(got.backstops), got.problems)
	}
	if got.stats.Births == 0 || got.stats.Kills == 0 {
		t.Errorf("the reference bot neither replicated nor killed the idle team: %+v", got.stats)
	}
}

func squaresFaults(t *testing.T, proto int, extra ...faultCase) {
	cases := []faultCase{
		{fault: "late", timeouts: 1, problem: "no answer within"},
		{fault: "stale"},
		{fault: "malformed", errors: 1, problem: "not a JSON object"},
		{fault: "badid", errors: 1, problem: "is not one of this round's squares"},
		{fault: "badorder", errors: 1, problem: `unknown direction "north"`},
		{fault: "huge", errors: 1, events: "crash,retired", problem: "too long"},
		{fault: "close", errors: 1, events: "crash,retired", problem: "closed"},
		{fault: "crash", errors: 1, events: "crash,retired", problem: "closed"},
		{fault: "exit", errors: 1, events: "crash,retired", problem: "closed"},
		{fault: "nonewline", timeouts: 3, events: "retired", problem: "faults in a row"},
		{fault: "noread", timeouts: 3, events: "retired", problem: "faults in a row"},
		{fault: "noready", errors: 1, events: "crash,retired", problem: "no ready within"},
		{fault: "badready", errors: 1, events: "crash,retired", problem: `not "ready"`},
	}
	for _, tc := range extra { // in place of a case of the same fault, or added
		if i := slices.IndexFunc(cases, func(c faultCase) bool { return c.fault == tc.fault }); i >= 0 {
			cases[i] = tc
		} else {
			cases = append(cases, tc)
		}
	}
	for _, tc := range cases {
		t.Run(tc.fault, func(t *testing.T) {
			t.Parallel()
			got := playSquaresIn(t, proto, 12, faultTiming(tc.fault), "-fault", tc.fault, "-at", "3")
			tc.check(t, got.stats, got.backstops, got.problems)
			if tc.events == "" && got.stats.Births == 0 {
				t.Errorf("the bot did not play on: %+v", got.stats)
			}
		})
	}
}

func TestGreetRejects(t *testing.T) {
	for _, tc := range []struct {
		fault, want string
	}{
		{"noready", "no ready within"},
		{"badready", `not "ready"`},
		{"crash", ""},
	} {
		t.Run(tc.fault, func(t *testing.T) {
			conn := startRefbot(t, "-fault", tc.fault, "-at", "0")
			timing := testTiming()
			timing.Init = 200 * time.Millisecond
			_, err := Greet(conn, Hello{Game: "squarebattle", Kind: KindSquares}, timing)
			if tc.fault == "crash" {
				if err != nil {
					t.Fatalf("refbot crashes at its first round, not before ready: %v", err)
				}
				return
			}
			if !errors.Is(err, ErrNotReady) || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("err = %v, want ErrNotReady saying %q", err, tc.want)
			}
		})
	}
}

// TestRoundMessage checks the round message field by field, births and
// deaths included, against the spec in docs/bots.md.
func TestRoundMessage(t *testing.T) {
	c := NewController(nil, "refbot", testTiming(), nil)
	c.Settle(&engine.Settlement{Births: []engine.Birth{{Parent: 3, Child: 9, Class: 1, Row: 2, Col: 5}},
		Deaths: []engine.Death{{Square: 4, Class: 1, Row: 0, Col: 7, Killer: 0, Collision: true}}})
	turn := &engine.Turn{Team: 1, Facts: &engine.Facts{Round: 12, Size: 8, Players: []string{"A", "B\x1b"},
		Stats: []engine.Stats{{Squares: 3}, {Squares: 2, Births: 1, Deaths: 1}}, Classes: []string{"a", "refbot"}},
		Squares: []engine.Ready{{ID: 3, Class: 1, Row: 2, Col: 4, View: [8]int32{-1, -1, -1, 1, -1, -1, -2, 0}}}}
	var got map[string]any
	if err := json.Unmarshal(c.encodeRound(nil, turn), &got); err != nil {
		t.Fatal(err)
	}
	var want map[string]any
	json.Unmarshal([]byte(`{"type":"round","round":12,
		"stats":[{"player":"A","squares":3,"births":0,"kills":0,"deaths":0,"collisions":0,"timeouts":0,"errors":0},
		         {"player":"B\u001b","squares":2,"births":1,"kills":0,"deaths":1,"collisions":0,"timeouts":0,"errors":0}],
		"born":[{"id":9,"parent":3,"class":"refbot","row":2,"col":5}],
		"died":[{"id":4,"class":"refbot","row":0,"col":7,"killer":0,"collision":true}],
		"squares":[{"id":3,"class":"refbot","row":2,"col":4,"view":[-1,-1,-1,1,-1,-1,-2,0]}]}`), &want)
	gb, _ := json.Marshal(got)
	wb, _ := json.Marshal(want)
	if string(gb) != string(wb) {
		t.Errorf("round message\n got %s\nwant %s", gb, wb)
	}
	var again map[string]any
	json.Unmarshal(c.encodeRound(nil, turn), &again)
	if len(again["born"].([]any))+len(again["died"].([]any)) != 0 {
		t.Errorf("births and deaths sent twice: %v", again)
	}
}

// faultCase is what a bot breaking the protocol one way should cost its
// team.
type faultCase struct {
	fault            string // refbot's -fault
	timeouts, errors int
	events           string // backstop kinds
	problem          string // in some problem's message
}

func faultTiming(fault string) Timing {
	timing := testTiming()
	if fault == "noready" {
		timing.Init = 300 * time.Millisecond
	}
	return timing
}

func (tc faultCase) check(t *testing.T, s engine.Stats, events []engine.Backstop, problems []engine.Problem) {
	t.Helper()
	if s.Timeouts != tc.timeouts || s.Errors != tc.errors {
		t.Errorf("timeouts %d, errors %d; want %d, %d (problems %v)", s.Timeouts, s.Errors, tc.timeouts, tc.errors, problems)
	}
	if k := kinds(events); k != tc.events {
		t.Errorf("backstop events %q, want %q", k, tc.events)
	}
	found := tc.problem == ""
	for _, p := range problems {
		found = found || strings.Contains(p.Message, tc.problem)
	}
	if !found {
		t.Errorf("no problem says %q: %v", tc.problem, problems)
	}
	// A retirement says it is one, and why, by itself: the run's
	// standings and the team table show its message alone.
	for _, e := range events {
		if e.Kind == engine.BackstopRetired && (!strings.HasPrefix(e.Message, "bot: retired") || !strings.Contains(e.Message, tc.problem)) {
			t.Errorf("the retirement says %q; want it to say it is one, and %q", e.Message, tc.problem)
		}
	}
	if tc.fault == "noready" && !strings.Contains(fmt.Sprint(problems), "may not have flushed its output") {
		t.Errorf("no ready: the problems do not say the bot may not have flushed its output: %v", problems)
	}
}

// TestDecodeActions: what an actions list makes of a turn, and the one
// line that says why a list is rejected whole.
func TestDecodeActions(t *testing.T) {
	for _, tc := range []struct {
		actions string
		want    []engine.Intent // nil: rejected
		err     string
	}{
		{actions: `[]`, want: []engine.Intent{engine.WaitIntent, engine.WaitIntent}},
		{actions: `[{"id":5,"do":"MOVE","dir":"ne"},{"id":9,"do":"replicate","dir":7}]`, want: []engine.Intent{
			{Action: engine.Move, Dir: engine.NE, Child: engine.NoClass, Become: engine.NoClass},
			{Action: engine.Replicate, Dir: engine.W, Child: 1, Become: engine.NoClass}}},
		{actions: `[{"id":9.0,"do":"attack","dir":"\u0073","become":"refbot"}]`, want: []engine.Intent{
			engine.WaitIntent, {Action: engine.Attack, Dir: engine.S, Child: engine.NoClass, Become: 1}}},
		{actions: `[{"id":5,"do":"move"},{"id":9,"do":"fly","dir":"n"}]`, want: []engine.Intent{
			{Action: engine.Wait, Child: engine.NoClass, Become: engine.NoClass, Fault: engine.FaultError},
			{Action: engine.Wait, Child: engine.NoClass, Become: engine.NoClass, Fault: engine.FaultError}}},
		{actions: `[{"id":5,"do":"replicate","dir":"n","child":"explorer"}]`, want: []engine.Intent{
			{Action: engine.Wait, Child: engine.NoClass, Become: engine.NoClass, Fault: engine.FaultError}, engine.WaitIntent}},
		{actions: `{"id":5}`, err: `"actions" is not a list`},
		{actions: `[null]`, err: "actions[0] is not an object"},
		{actions: `[{"id":5},3]`, err: "actions[1] is not an object"},
		{actions: `[{"id":"5"}]`, err: `actions[0]: "id" is "5", not a square id`},
		{actions: `[{"id":6}]`, err: "square 6 is not one of this round's squares"},
		{actions: `[{"id":5},{"id":5}]`, err: "square 5 has two actions"},
		{actions: `[{},{},{}]`, err: "3 actions for 2 squares"},
	} {
		c := NewController(nil, "refbot", testTiming(), nil)
		c.class = 1
		turn := &engine.Turn{Facts: &engine.Facts{Classes: []string{"explorer", "refbot"}},
			Squares: []engine.Ready{{ID: 5, Class: 1}, {ID: 9, Class: 1}}, Intents: []engine.Intent{engine.WaitIntent, engine.WaitIntent}}
		err := c.decode([]byte(tc.actions), turn)
		if tc.want == nil {
			if !errors.Is(err, ErrMalformed) || !strings.Contains(err.Error(), tc.err) {
				t.Errorf("%s: err %v, want %q", tc.actions, err, tc.err)
			}
			continue
		}
		if err != nil || !reflect.DeepEqual(turn.Intents, tc.want) {
			t.Errorf("%s: intents %+v, err %v; want %+v", tc.actions, turn.Intents, err, tc.want)
		}
	}
}
