package replay

import (
	"bytes"
	"compress/gzip"
	"errors"
	"io"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/squarebattle/squarebattle/engine"
)

// recordPrinters records two teams that print (printed_test.go).
func recordPrinters(t testing.TB) ([]byte, []engine.RoundLog) {
	o := engine.Options{Size: 10, Wrap: true, Rounds: 60, ReplicateRounds: 1, Seed: 4, Classes: []string{"w"}}
	h := Header{Program: "test", Classes: []Class{{ID: "w", File: "w.lua", SHA256: "00"}}}
	for i := range 2 {
		o.Teams = append(o.Teams, engine.TeamSetup{Player: engine.Player{Name: "P"}, Controller: &printer{}})
		h.Players = append(h.Players, Player{Team: i, Name: "P"})
	}
	b, err := engine.NewBattle(o)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(b.Close)
	return recordBattle(t, b, h)
}

// TestWithhold: a copy that withholds some teams' words keeps, for them,
// how many lines they printed but not the lines, their problems and
// backstop events but not the messages, and everything else of every
// team as recorded; it reads as a valid replay that names the withheld
// teams; a copy of a copy withholds at least as much.
func TestWithhold(t *testing.T) {
	tests := []struct {
		name   string
		record func(testing.TB) ([]byte, []engine.RoundLog)
		hide   []int
		again  []int // withheld again from the copy
		want   []int // the copy's header says
	}{
		{"nothing", recordPrinters, nil, nil, nil},
		{"one printer", recordPrinters, []int{1}, nil, []int{1}},
		{"both printers", recordPrinters, []int{1, 0}, nil, []int{0, 1}},
		{"a team out of range is ignored", recordPrinters, []int{7, -1}, nil, nil},
		{"a walled team", recordWalled, []int{1}, nil, []int{1}},
		{"a copy of a copy", recordWalled, []int{0}, []int{2}, []int{0, 2}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			data, logs := tt.record(t)
			var out bytes.Buffer
			got, err := Withhold(&out, bytes.NewReader(data), "b.sbr", func(h *Header) []int { return tt.hide })
			if err != nil {
				t.Fatal(err)
			}
			if tt.again != nil {
				in := out.Bytes()
				out = bytes.Buffer{}
				if got, err = Withhold(&out, bytes.NewReader(in), "c.sbr", func(h *Header) []int { return tt.again }); err != nil {
					t.Fatal(err)
				}
			}
			if !slices.Equal(got, tt.want) {
				t.Fatalf("withheld %v, want %v", got, tt.want)
			}
			rep, err := Read(bytes.NewReader(out.Bytes()), "copy.sbr")
			if err != nil || rep.Damage != nil || rep.Result == nil {
				t.Fatalf("the copy reads: %v, damage %v", err, rep.Damage)
			}
			if !slices.Equal(rep.Header.Withheld, tt.want) {
				t.Fatalf("the copy's header withholds %v, want %v", rep.Header.Withheld, tt.want)
			}
			said := 0
			for _, want := range logs {
				copied, _ := rep.Timeline.Log(want.Round)
				w := withheldCopy(want, tt.want)
				if !reflect.DeepEqual(copied, w) {
					t.Fatalf("round %d: the copy has\n%+v\nwant\n%+v", want.Round, copied, w)
				}
				said += len(want.Printed) + len(want.Problems)
			}
			if said == 0 {
				t.Fatal("the battle said nothing: the test proves nothing")
			}
		})
	}
}

// withheldCopy is l as a copy withholding teams has it.
func withheldCopy(l engine.RoundLog, teams []int) engine.RoundLog {
	l.Printed = slices.Clone(l.Printed)
	for i, p := range l.Printed {
		if slices.Contains(teams, p.Team) {
			l.Printed[i] = engine.TeamLines{Team: p.Team, Cut: p.Cut + len(p.Lines)}
		}
	}
	l.Problems = slices.Clone(l.Problems)
	for i := range l.Problems {
		if slices.Contains(teams, l.Problems[i].Team) {
			l.Problems[i].Message = WithheldText
		}
	}
	l.Backstops = slices.Clone(l.Backstops)
	for i := range l.Backstops {
		if slices.Contains(teams, l.Backstops[i].Team) {
			l.Backstops[i].Message = WithheldText
		}
	}
	return l
}

// TestHostileWithheld: a header whose withheld names no team, or names
// teams out of order, is refused; Withhold refuses what is not a replay.
func TestHostileWithheld(t *testing.T) {
	data, _ := recordPrinters(t)
	for _, tt := range []struct{ name, field string }{
		{"no such team", `"withheld":[2],`},
		{"negative", `"withheld":[-1],`},
		{"out of order", `"withheld":[1,0],`},
		{"twice", `"withheld":[0,0],`},
	} {
		t.Run(tt.name, func(t *testing.T) {
			text := gunzip(t, data)
			text = bytes.Replace(text, []byte(`"squarebattle_replay":1,`), []byte(`"squarebattle_replay":1,`+tt.field), 1)
			_, err := Read(bytes.NewReader(text), "h.sbr")
			if !errors.Is(err, ErrCorrupt) || !strings.Contains(err.Error(), "withheld") {
				t.Fatalf("read: %v", err)
			}
		})
	}
	if _, err := Withhold(&bytes.Buffer{}, strings.NewReader("not a replay\n"), "x.sbr", func(*Header) []int { return nil }); !errors.Is(err, ErrCorrupt) {
		t.Fatalf("Withhold of text: %v", err)
	}
}

func gunzip(t *testing.T, data []byte) []byte {
	t.Helper()
	zr, err := gzip.NewReader(bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	text, err := io.ReadAll(zr)
	if err != nil {
		t.Fatal(err)
	}
	return text
}
