package replay

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"math/rand/v2"
	"reflect"
	"strconv"
	"strings"
	"testing"

	"github.com/squarebattle/squarebattle/engine"
)

// outsideWanderer decides like an external bot: at random from a source
// of its own, now and then an intent the engine cannot carry out or a
// problem with an unsafe message.
type outsideWanderer struct{ rng *rand.Rand }

func (w *outsideWanderer) Turn(t *engine.Turn) {
	for i := range t.Intents {
		in := engine.Intent{Action: engine.Action(w.rng.IntN(4)), Dir: engine.Direction(w.rng.IntN(8)), Become: engine.NoClass}
		switch w.rng.IntN(30) {
		case 0:
			in.Dir = 9
		case 1:
			in.Fault = engine.FaultTimeout
		case 2:
			t.Report.Errors++
			t.Report.Problems = append(t.Report.Problems, engine.Problem{Square: t.Squares[i].ID, Kind: engine.FaultError, Message: "bot: late \x1b[2J"})
		}
		t.Intents[i] = in
	}
}

func (w *outsideWanderer) Settle(*engine.Settlement) {}

// recordOutside records a battle of three wanderers, team 1 decided
// outside by a bot.
func recordOutside(t testing.TB) ([]byte, []engine.RoundLog) {
	t.Helper()
	b, h := wanderBattle(t, 5, 12, 3, 60)
	o := b.Options()
	o.Teams[1].Controller, o.Teams[1].Outside = &outsideWanderer{rand.New(rand.NewPCG(1, 2))}, true
	// h is left as a program that knows only the scripts builds it: the
	// writer takes who decides from the battle.
	b, err := engine.NewBattle(o)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(b.Close)
	return recordBattle(t, b, h)
}

// intCodec is an AnswerCodec for the stripe rules' answers: integers as
// JSON numbers, anything else as JSON too.
type intCodec struct{}

func (intCodec) EncodeAnswer(v any) ([]byte, error) { return json.Marshal(v) }

func (intCodec) DecodeAnswer(text []byte) (any, error) {
	if n, err := strconv.Atoi(string(text)); err == nil {
		return n, nil
	}
	var v any
	return v, json.Unmarshal(text, &v)
}

// outsideStepper answers like a person at the keys: directions, at times
// nothing, a fault, or a word.
type outsideStepper struct{ rng *rand.Rand }

func (s *outsideStepper) Call(t *engine.ModTurn) {
	for i := range t.Calls {
		switch s.rng.IntN(8) {
		case 0:
			t.Answers[i] = engine.Answer{}
		case 1:
			t.Answers[i] = engine.Answer{Fault: engine.FaultTimeout}
		case 2:
			t.Answers[i] = engine.Answer{Value: map[string]any{"go": "north <&>", "é": []int{1, 2}}}
		default:
			t.Answers[i] = engine.Answer{Value: s.rng.IntN(4)}
		}
	}
}

// recordOutsideMod records a stripe battle of three teams, team 1 played
// by a person.
func recordOutsideMod(t testing.TB) ([]byte, []engine.RoundLog) {
	t.Helper()
	data, _, logs := recordModOpts(t, 6, 3, func(team int, rng *engine.Rand) engine.Caller {
		if team == 1 {
			return &outsideStepper{rand.New(rand.NewPCG(3, 4))}
		}
		return &stepper{rng}
	}, func(o *engine.ModOptions) {
		o.Codec, o.Teams[1].Outside, o.Teams[1].Player.Outside = intCodec{}, true, engine.OutsideHuman
	})
	return data, logs
}

// TestAnswersRoundTrip: an outside team's decisions, SquareBattle's
// intents or a rule mod's answers, are written on their rounds' lines and
// read back as recorded; the header says who decided.
func TestAnswersRoundTrip(t *testing.T) {
	for _, c := range []struct {
		name, kind string
		record     func(testing.TB) ([]byte, []engine.RoundLog)
	}{{"squarebattle", engine.OutsideBot, recordOutside}, {"rule mod", engine.OutsideHuman, recordOutsideMod}} {
		t.Run(c.name, func(t *testing.T) {
			data, logs := c.record(t)
			text := plain(t, data)
			if n := bytes.Count(text, []byte(`"a":[{"t":1,`)); n < len(logs)/2 {
				t.Errorf("%d of %d round lines hold team 1's decisions", n, len(logs))
			}
			if !bytes.Contains(text, []byte(`"outside":"`+c.kind+`"`)) {
				t.Errorf("the header does not say team 1 is decided by a %s", c.kind)
			}
			rep, err := Read(bytes.NewReader(data), "outside.sbr")
			if err != nil || rep.Damage != nil || rep.Result == nil {
				t.Fatalf("read: %v, damage %v", err, rep.Damage)
			}
			if got := rep.Header.Players[1].Outside; got != c.kind {
				t.Errorf("header player 1 outside %q, want %q", got, c.kind)
			}
			records := 0
			for r := 1; r <= rep.Timeline.Last(); r++ {
				got, _ := rep.Timeline.Log(r)
				if !reflect.DeepEqual(got.Answers, logs[r-1].Answers) {
					t.Fatalf("round %d: read %+v, recorded %+v", r, got.Answers, logs[r-1].Answers)
				}
				records += len(got.Answers)
			}
			if records == 0 {
				t.Fatal("nothing recorded")
			}
		})
	}
}

// TestModBytes pins the bytes of a rule mod replay of teams of scripts:
// the fields of outside teams are optional and leave it as it was (the
// sum is that of the program before they existed).
func TestModBytes(t *testing.T) {
	data, _ := recordMod(t, 3, 3)
	sum := sha256.Sum256(plain(t, data))
	if got := hex.EncodeToString(sum[:]); got != wantModSHA {
		t.Errorf("a rule mod replay's text changed: sha256 %s, want %s", got, wantModSHA)
	}
}

const wantModSHA = "91527fdc7aa02a4561b52396fe9b9367c5dd05f4510af5e6dffd86e275e9d4f7" // as written by d780343, before outside teams

// TestHostileAnswers: a replay whose recorded decisions no battle makes
// is damaged at that line, with one line saying why.
func TestHostileAnswers(t *testing.T) {
	sb, _ := recordOutside(t)
	mod, _ := recordOutsideMod(t)
	huge := strings.Repeat(`{"t":1,"i":[0,0,-1,-1,0]},`, engine.MaxRoundAnswered+1)
	long := `"` + strings.Repeat("x", engine.MaxAnswerValue) + `"`
	nested := strings.Repeat("[", 100) + strings.Repeat("]", 100)
	var problems []string
	for range engine.MaxAnswerProblems + 1 {
		problems = append(problems, `{"team":1,"class":-1,"square":-1,"kind":2,"msg":"m"}`)
	}
	cases := []struct {
		name string
		mod  bool
		a    string // the round's records
		want string
	}{
		{"team out of range", false, `{"t":3,"i":[0,0,-1,-1,0]}`, "team 3, which does not exist"},
		{"team of scripts", false, `{"t":0,"i":[0,0,-1,-1,0]}`, "team 0 is not decided outside"},
		{"intents cut", false, `{"t":1,"i":[0,0,-1,-1]}`, "wrong length"},
		{"action", false, `{"t":1,"i":[4,0,-1,-1,0]}`, "out of range"},
		{"direction", false, `{"t":1,"i":[1,8,-1,-1,0]}`, "out of range"},
		{"fault", false, `{"t":1,"i":[0,0,-1,-1,3]}`, "out of range"},
		{"class", false, `{"t":1,"i":[3,0,1,-1,0]}`, "not one the engine records"},
		{"huge class", false, `{"t":1,"i":[0,0,-1,4294967296,0]}`, "out of range"},
		{"wait with a direction", false, `{"t":1,"i":[0,3,-1,-1,0]}`, "not one the engine records"},
		{"more intents than squares", false, `{"t":1,"i":[` + strings.TrimSuffix(strings.Repeat("0,0,-1,-1,0,", 200), ",") + `]}`, "intents for team 1's"},
		{"negative count", false, `{"t":1,"e":[-1,0]}`, "counts -1 timeouts"},
		{"counts cut", false, `{"t":1,"e":[1]}`, "not (timeouts, errors)"},
		{"too many problems", false, `{"t":1,"p":[` + strings.Join(problems, ",") + `]}`, "problems in one phase"},
		{"long problem", false, `{"t":1,"p":[{"team":1,"class":-1,"square":-1,"kind":2,"msg":"` + strings.Repeat("y", engine.MaxAnswerText+1) + `"}]}`, "a problem of"},
		{"problem of another team", false, `{"t":1,"p":[{"team":0,"class":-1,"square":-1,"kind":2,"msg":"m"}]}`, "a problem the engine would not record"},
		{"twice in a phase", false, `{"t":1},{"t":1}`, "out of order"},
		{"settle before turn", false, `{"t":1,"s":true},{"t":1}`, "out of order"},
		{"settle with intents", false, `{"t":1,"s":true,"i":[0,0,-1,-1,0]}`, "decided in its settlement"},
		{"answers in squarebattle", false, `{"t":1,"v":[1]}`, "no batches of calls"},
		{"batch in squarebattle", false, `{"t":1,"b":2}`, "no batches of calls"},
		{"too many records", false, strings.TrimSuffix(huge, ","), "records of answers in one round"},
		{"intents in a rule mod", true, `{"t":1,"i":[0,0,-1,-1,0]}`, "no turn of squares"},
		{"spaced JSON", true, `{"t":1,"v":[[1, 2]]}`, "compact JSON text"},
		{"invalid UTF-8", true, "{\"t\":1,\"v\":[\"\xff\"]}", "compact JSON text"},
		{"answer too long", true, `{"t":1,"v":[` + long + `]}`, "compact JSON text of at most"},
		{"value with a fault", true, `{"t":1,"v":[1],"u":[2,0]}`, "both a value and a fault"},
		{"faults cut", true, `{"t":1,"v":[1,2],"u":[0,0]}`, "2 answers"},
		{"unknown fault", true, `{"t":1,"v":[null],"u":[7,0]}`, "fault 7"},
		{"negative instructions", true, `{"t":1,"v":[null],"u":[0,-3]}`, "-3 instructions"},
		{"batch out of range", true, `{"t":1,"b":1048576,"v":[1]}`, "batch 1048576 is out of range"},
		{"batches out of order", true, `{"t":1,"b":2,"v":[1]},{"t":1,"b":1,"v":[1]}`, "out of order"},
		{"deep answer", true, `{"t":1,"v":[` + nested + `]}`, ""}, // bounded by its bytes; nesting is the codec's concern
		{"settle in a rule mod", true, `{"t":1,"s":true}`, "no turn of squares"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			data := sb
			if c.mod {
				data = mod
			}
			lines := bytes.SplitAfter(plain(t, data), []byte("\n"))
			line := withoutAnswers(lines[2])
			line = bytes.Replace(line, []byte(`{"r":2`), []byte(`{"r":2,"a":[`+c.a+`]`), 1)
			text := bytes.Join([][]byte{lines[0], lines[1], line, lines[3]}, nil)
			if c.want == "" {
				rep, err := Read(bytes.NewReader(text), "h.sbr")
				if err != nil || rep.Damage != nil || rep.Timeline.Last() != 3 {
					t.Errorf("read: %v, damage %v, want round 2 read", err, rep.Damage)
				}
				return
			}
			checkRefused(t, text, 3, 1, c.want)
		})
	}
}

// TestOutsideHeader: a header naming an unknown kind of outside player is
// refused on line 1.
func TestOutsideHeader(t *testing.T) {
	data, _ := recordOutside(t)
	text := bytes.Replace(plain(t, data), []byte(`"outside":"bot"`), []byte(`"outside":"robot\u001b"`), 1)
	_, err := Read(bytes.NewReader(text), "h.sbr")
	if err == nil || !strings.Contains(err.Error(), "h.sbr: line 1: player 1 is decided outside by") || strings.ContainsRune(err.Error(), 0x1b) {
		t.Errorf("read: %v", err)
	}
}

// withoutAnswers drops a round line's records (the last field).
func withoutAnswers(line []byte) []byte {
	i := bytes.Index(line, []byte(`,"a":[`))
	if i < 0 {
		return line
	}
	return append(append([]byte(nil), line[:i]...), "}\n"...)
}
