package replay

import (
	"bytes"
	"fmt"
	"reflect"
	"strings"
	"testing"

	"github.com/squarebattle/squarebattle/engine"
)

// walledWanderer is a wanderer behind a wall that fires on a schedule:
// kinds[round] while deciding, settle[round] while hearing of a round.
type walledWanderer struct {
	wanderer
	turn map[int][]engine.BackstopKind
}

func (w *walledWanderer) Turn(t *engine.Turn) {
	if !fireWall(&t.Report, w.turn[t.Facts.Round], "w.lua") {
		w.wanderer.Turn(t)
	}
}

// fireWall reports backstop events of the kinds given, as a wall around
// the team's scripts (file) would, and whether there were some.
func fireWall(r *engine.Report, kinds []engine.BackstopKind, file string) bool {
	for _, k := range kinds {
		r.Backstops = append(r.Backstops, engine.Backstop{Kind: k, Class: 0,
			Message: fmt.Sprintf("%s: the team's worker process %s \x1b[31m", file, k)})
	}
	return len(kinds) > 0
}

// recordWalled records a battle of three wanderers, team 1 behind a wall
// that times out in round 3 and crashes in rounds 5 and 6, retiring it.
func recordWalled(t testing.TB) ([]byte, []engine.RoundLog) {
	t.Helper()
	b, h := wanderBattle(t, 5, 12, 3, 60)
	o := b.Options()
	o.Teams[1].Controller = &walledWanderer{wanderer: wanderer{engine.NewRand(5, engine.TeamStream(1))},
		turn: map[int][]engine.BackstopKind{3: {engine.BackstopTimeout}, 5: {engine.BackstopCrash}, 6: {engine.BackstopCrash, engine.BackstopRetired}}}
	b, err := engine.NewBattle(o)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(b.Close)
	return recordBattle(t, b, h)
}

// recordBattle plays b to its end, writing its replay with header h, and
// returns the replay's bytes and the round logs written.
func recordBattle(t testing.TB, b *engine.Battle, h Header) ([]byte, []engine.RoundLog) {
	t.Helper()
	var buf bytes.Buffer
	w, err := NewWriter(&buf, h, b.Snapshot())
	if err != nil {
		t.Fatal(err)
	}
	rec := engine.NewRecorder(b)
	var logs []engine.RoundLog
	for b.Step() {
		l := rec.Next()
		logs = append(logs, l)
		if err := w.Round(&l); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.End(b.Snapshot(), "test"); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes(), logs
}

// TestBackstopEventsRoundTrip: a battle's backstop events, SquareBattle's
// or a rule mod's, are written on their rounds' lines and read back as
// they were recorded, counted, with the problems that explain them for the
// viewer.
func TestBackstopEventsRoundTrip(t *testing.T) {
	for _, c := range []struct {
		name   string
		record func(testing.TB) ([]byte, []engine.RoundLog)
	}{{"squarebattle", recordWalled}, {"rule mod", recordWalledMod}} {
		t.Run(c.name, func(t *testing.T) { roundTrip(t, c.record) })
	}
}

func roundTrip(t *testing.T, record func(testing.TB) ([]byte, []engine.RoundLog)) {
	data, logs := record(t)
	if n := bytes.Count(plain(t, data), []byte(`"w":[{"team":1,"phase":"turn","class":0`)); n != 3 {
		t.Errorf("%d lines with team 1's events, want 3", n)
	}
	rep, err := Read(bytes.NewReader(data), "walled.sbr")
	if err != nil || rep.Damage != nil || rep.Result == nil {
		t.Fatalf("read: %v, damage %v", err, rep.Damage)
	}
	var kinds []string
	for r := 1; r <= rep.Timeline.Last(); r++ {
		got, _ := rep.Timeline.Log(r)
		if !reflect.DeepEqual(got.Backstops, logs[r-1].Backstops) {
			t.Errorf("round %d: read %+v, recorded %+v", r, got.Backstops, logs[r-1].Backstops)
		}
		for _, e := range got.Backstops {
			kinds = append(kinds, fmt.Sprintf("%d:%s", e.Round, e.Kind))
			if strings.ContainsRune(e.Message, 0x1b) {
				t.Errorf("message %q reached the reader unescaped", e.Message)
			}
		}
	}
	if want := []string{"3:timeout", "5:crash", "6:crash", "6:retired"}; !reflect.DeepEqual(kinds, want) {
		t.Errorf("events %v, want %v", kinds, want)
	}
	s := rep.Timeline.At(6)
	if st := s.Teams[1].Stats; st.Timeouts < 1 || st.Errors < 2 {
		t.Errorf("team 1 after round 6: %+v, want the timeout and both crashes counted", st)
	}
	shown := 0
	for _, p := range s.Problems {
		if p.Team == 1 && strings.Contains(p.Message, "worker process") {
			shown++
		}
	}
	if shown != 4 {
		t.Errorf("%d of team 1's backstop events among the viewer's problems, want 4: %+v", shown, s.Problems)
	}
}

// TestHostileBackstopEvents: a replay whose events no battle makes is
// damaged at that line, and a line crammed with events is refused without
// keeping them.
func TestHostileBackstopEvents(t *testing.T) {
	data, _ := recordWalled(t)
	lines := bytes.SplitAfter(plain(t, data), []byte("\n"))
	event := func(team int, phase, kind string, class int, msg string) string {
		return fmt.Sprintf(`{"team":%d,"phase":%q,"class":%d,"kind":%q,"msg":%q}`, team, phase, class, kind, msg)
	}
	many := make([]string, 5000)
	for i := range many {
		many[i] = event(0, "turn", "crash", 0, strings.Repeat("x", 1000))
	}
	cases := []struct {
		name, events, want string
	}{
		{"unknown kind", event(0, "turn", "meltdown", 0, "m"), "unknown backstop event"},
		{"unknown phase", event(0, "lunch", "crash", 0, "m"), "unknown backstop phase"},
		{"team out of range", event(3, "turn", "crash", 0, "m"), "team 3"},
		{"class out of range", event(0, "turn", "crash", 1<<40, "m"), "class"},
		{"long message", event(0, "turn", "crash", 0, strings.Repeat("x", engine.MaxBackstopText+1)), "bytes"},
		{"too many", strings.Join(many, ","), "5000 backstop events for 3 teams"},
		{"after retirement", event(0, "turn", "retired", 0, "r") + "," + event(0, "settle", "crash", 0, "c"), "retired already"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			line := bytes.Replace(lines[2], []byte(`{"r":2`), []byte(`{"r":2,"w":[`+c.events+`]`), 1)
			text := bytes.Join([][]byte{lines[0], lines[1], line, lines[3]}, nil)
			rep, err := Read(bytes.NewReader(text), "bad.sbr")
			if err != nil {
				t.Fatal(err)
			}
			if rep.Damage == nil || !strings.Contains(rep.Damage.Error(), "bad.sbr: line 3: ") || !strings.Contains(rep.Damage.Error(), c.want) {
				t.Errorf("damage %v, want line 3 saying %q", rep.Damage, c.want)
			}
			if rep.Timeline.Last() != 1 {
				t.Errorf("plays up to round %d, want 1", rep.Timeline.Last())
			}
		})
	}
}

// walledStepper is a stepper behind a wall that fires on a schedule.
type walledStepper struct {
	stepper
	fire map[int][]engine.BackstopKind
}

func (w *walledStepper) Call(t *engine.ModTurn) {
	if !fireWall(&t.Report, w.fire[t.Facts.Round], "stripe/s.lua") {
		w.stepper.Call(t)
	}
}

// recordWalledMod records a stripe battle of three teams, team 1 behind a
// wall that times out in round 3 and crashes in rounds 5 and 6, retiring
// it, and returns the replay's bytes and the logs.
func recordWalledMod(t testing.TB) ([]byte, []engine.RoundLog) {
	t.Helper()
	data, _, logs := recordModWith(t, 6, 3, func(team int, rng *engine.Rand) engine.Caller {
		if team != 1 {
			return &stepper{rng}
		}
		return &walledStepper{stepper: stepper{rng},
			fire: map[int][]engine.BackstopKind{3: {engine.BackstopTimeout}, 5: {engine.BackstopCrash}, 6: {engine.BackstopCrash, engine.BackstopRetired}}}
	})
	return data, logs
}

// TestHostileModBackstopEvents: a rule mod replay whose events no battle
// makes is damaged at that line with one line saying why; events in later
// batches of a round, in the engine's order, are read.
func TestHostileModBackstopEvents(t *testing.T) {
	data, _ := recordWalledMod(t)
	lines := bytes.SplitAfter(plain(t, data), []byte("\n"))
	event := func(team, batch int, phase, kind string) string {
		return fmt.Sprintf(`{"team":%d,"phase":%q,"batch":%d,"class":0,"kind":%q,"msg":"m"}`, team, phase, batch, kind)
	}
	repeat := func(n int, e string) string { return strings.TrimSuffix(strings.Repeat(e+",", n), ",") }
	var spread []string // one crash of team 0 in each of many batches
	for b := range engine.MaxModBackstopsPerRound + 1 {
		spread = append(spread, event(0, b, "turn", "crash"))
	}
	cases := []struct {
		name, events, want string
	}{
		{"later batches", event(2, 0, "turn", "crash") + "," + event(0, 3, "turn", "timeout") + "," + event(2, 3, "turn", "crash"), ""},
		{"settle phase", event(0, 0, "settle", "crash"), "no settle phase"},
		{"negative batch", event(0, -1, "turn", "crash"), "batch -1"},
		{"huge batch", event(0, 1<<40, "turn", "crash"), "batch"},
		{"batch past the engine's", event(0, 1<<20, "turn", "crash"), "batch 1048576 is out of range"},
		{"batches out of order", event(0, 3, "turn", "crash") + "," + event(2, 1, "turn", "crash"), "out of order"},
		{"three in one batch", repeat(3, event(0, 2, "turn", "crash")), "more than 2 for team 0 in one phase"},
		{"too many in a round", strings.Join(spread, ","), fmt.Sprintf("more than %d for team 0 in one round", engine.MaxModBackstopsPerRound)},
		{"too many in a line", repeat(3*engine.MaxModBackstopsPerRound+1, event(0, 0, "turn", "crash")), fmt.Sprintf("%d backstop events for 3 teams", 3*engine.MaxModBackstopsPerRound+1)},
		{"after retirement", event(0, 0, "turn", "retired") + "," + event(0, 4, "turn", "crash"), "retired already"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			line := bytes.Replace(lines[2], []byte(`{"r":2`), []byte(`{"r":2,"w":[`+c.events+`]`), 1)
			text := bytes.Join([][]byte{lines[0], lines[1], line, lines[3]}, nil)
			rep, err := Read(bytes.NewReader(text), "bad.sbr")
			if err != nil {
				t.Fatal(err)
			}
			if c.want == "" {
				got, _ := rep.Timeline.Log(2)
				if rep.Damage != nil || len(got.Backstops) != 3 || got.Backstops[2].Batch != 3 {
					t.Errorf("damage %v, events %+v: want the three events read", rep.Damage, got.Backstops)
				}
				return
			}
			if rep.Damage == nil || !strings.Contains(rep.Damage.Error(), "bad.sbr: line 3: ") || !strings.Contains(rep.Damage.Error(), c.want) ||
				strings.Contains(rep.Damage.Error(), "\n") {
				t.Errorf("damage %v, want one line 3 saying %q", rep.Damage, c.want)
			}
			if rep.Timeline.Last() != 1 {
				t.Errorf("plays up to round %d, want 1", rep.Timeline.Last())
			}
		})
	}
}

// TestBatchInSquareBattleReplay: a SquareBattle round has no batches.
func TestBatchInSquareBattleReplay(t *testing.T) {
	data, _ := recordWalled(t)
	lines := bytes.SplitAfter(plain(t, data), []byte("\n"))
	line := bytes.Replace(lines[2], []byte(`{"r":2`), []byte(`{"r":2,"w":[{"team":0,"phase":"turn","batch":1,"class":0,"kind":"crash","msg":"m"}]`), 1)
	rep, err := Read(bytes.NewReader(bytes.Join([][]byte{lines[0], lines[1], line, lines[3]}, nil)), "bad.sbr")
	if err != nil {
		t.Fatal(err)
	}
	if rep.Damage == nil || !strings.Contains(rep.Damage.Error(), "line 3: round 2: backstop event: batch 1 in a SquareBattle round") {
		t.Errorf("damage %v", rep.Damage)
	}
}
