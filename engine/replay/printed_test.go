package replay

import (
	"bytes"
	"errors"
	"fmt"
	"reflect"
	"strings"
	"testing"

	"github.com/squarebattle/squarebattle/engine"
)

// printer is a team that waits and prints: round r prints r%25 lines, each
// with a control character, so rounds past engine.MaxRoundLines are cut
// and a long battle reaches engine.MaxBattleLines.
type printer struct{ all []string }

func (p *printer) Settle(*engine.Settlement) {}

func (p *printer) Turn(t *engine.Turn) {
	for i := range t.Facts.Round % 25 {
		p.all = append(p.all, fmt.Sprintf("team %d round %d line %d\x1b[2J", t.Team, t.Facts.Round, i))
	}
}

func (p *printer) Printed(since int64) ([]string, int64) {
	return p.all[since:], int64(len(p.all))
}

// TestPrintedRoundTrip: what the teams print goes into the replay bounded
// per round and per battle, escaped, and comes back as written; the
// timeline gives each team's last lines up to any round.
func TestPrintedRoundTrip(t *testing.T) {
	const teams, rounds = 2, 200
	o := engine.Options{Size: 10, Wrap: true, Rounds: rounds, ReplicateRounds: 1, Seed: 4, Classes: []string{"w"}}
	h := Header{Program: "test", Classes: []Class{{ID: "w", File: "w.lua", SHA256: "00"}}}
	for i := range teams {
		o.Teams = append(o.Teams, engine.TeamSetup{Player: engine.Player{Name: "P"}, Controller: &printer{}})
		h.Players = append(h.Players, Player{Team: i, Name: "P"})
	}
	b, err := engine.NewBattle(o)
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	data, want := recordBattle(t, b, h)
	rep, err := Read(bytes.NewReader(data), "p.sbr")
	if err != nil || rep.Damage != nil {
		t.Fatalf("read: %v, damage %v", err, rep.Damage)
	}
	kept := make([]int, teams)
	var last []string // team 0's kept lines, oldest first
	for _, l := range want {
		got, _ := rep.Timeline.Log(l.Round)
		if !reflect.DeepEqual(got.Printed, l.Printed) {
			t.Fatalf("round %d: read %+v, wrote %+v", l.Round, got.Printed, l.Printed)
		}
		for _, p := range l.Printed {
			if len(p.Lines) > engine.MaxRoundLines {
				t.Errorf("round %d team %d: %d lines", l.Round, p.Team, len(p.Lines))
			}
			printed := l.Round % 25
			if len(p.Lines)+p.Cut != printed {
				t.Errorf("round %d team %d: %d lines + %d cut, printed %d", l.Round, p.Team, len(p.Lines), p.Cut, printed)
			}
			for _, s := range p.Lines {
				if strings.ContainsRune(s, 0x1b) {
					t.Fatalf("an escape reached the replay: %q", s)
				}
			}
			kept[p.Team] += len(p.Lines)
			if p.Team == 0 {
				if p.Cut > 0 {
					last = append(last, fmt.Sprintf("(round %d: %d earlier lines not recorded)", l.Round, p.Cut))
				}
				last = append(last, p.Lines...)
			}
		}
	}
	for team, n := range kept {
		if n != engine.MaxBattleLines {
			t.Errorf("team %d: %d lines kept, want the battle's bound %d", team, n, engine.MaxBattleLines)
		}
	}
	logs := rep.Timeline.PrintedLogs(rep.Timeline.Last(), teams, 50)
	if !reflect.DeepEqual(logs[0], last[len(last)-50:]) {
		t.Errorf("PrintedLogs gives\n%q\nwant\n%q", logs[0], last[len(last)-50:])
	}
	early := rep.Timeline.PrintedLogs(3, teams, 50)
	if want := []string{`team 0 round 1 line 0\x1b[2J`, `team 0 round 2 line 0\x1b[2J`, `team 0 round 2 line 1\x1b[2J`, `team 0 round 3 line 0\x1b[2J`, `team 0 round 3 line 1\x1b[2J`, `team 0 round 3 line 2\x1b[2J`}; !reflect.DeepEqual(early[0], want) {
		t.Errorf("up to round 3: %q, want %q", early[0], want)
	}
}

// TestHostilePrinted: a replay whose printed lines break the bounds is
// refused from that line on, with one line naming it; the rounds before
// it play.
func TestHostilePrinted(t *testing.T) {
	data, _ := record(t, 3, 8, 2, 80)
	lines := bytes.SplitAfter(plain(t, data), []byte("\n"))
	many := make([]string, engine.MaxRoundLines+1)
	for i := range many {
		many[i] = fmt.Sprintf("%q", "x")
	}
	withPrinted := func(line []byte, l string) []byte {
		return bytes.Replace(line, []byte(`{"r":`), []byte(`{"l":`+l+`,"r":`), 1)
	}
	cases := []struct {
		name, l, want string
	}{
		{"too many lines", `[{"t":0,"l":[` + strings.Join(many, ",") + `]}]`, "a replay keeps at most 20"},
		{"line too long", `[{"t":1,"l":["` + strings.Repeat("y", engine.MaxPrintedBytes+1) + `"]}]`, "a line of 2049 bytes"},
		{"escapes past the bound", `[{"t":1,"l":["` + strings.Repeat(`\u001b`, engine.MaxPrintedBytes/4+1) + `"]}]`, "a replay keeps at most 2048"},
		{"no such team", `[{"t":2,"l":["z"]}]`, "team 2: no such team"},
		{"negative team", `[{"t":-1,"l":["z"]}]`, "no such team"},
		{"teams out of order", `[{"t":1,"l":["z"]},{"t":0,"l":["z"]}]`, "out of order"},
		{"negative cut", `[{"t":0,"x":-5}]`, "cut"},
		{"not lines", `[{"t":0,"l":[1,2]}]`, "unreadable round"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			text := bytes.Join([][]byte{lines[0], lines[1], withPrinted(lines[2], c.l), lines[3]}, nil)
			checkRefused(t, text, 3, 1, c.want)
		})
	}
	t.Run("past the battle's bound", func(t *testing.T) {
		twenty := `[{"t":0,"l":[` + strings.Join(many[:engine.MaxRoundLines], ",") + `]}]`
		text := append([]byte(nil), lines[0]...)
		rounds := engine.MaxBattleLines/engine.MaxRoundLines + 1
		for r := 1; r <= rounds; r++ { // rounds in which nothing moves
			text = fmt.Appendf(text, "{\"l\":%s,\"r\":%d}\n", twenty, r)
		}
		checkRefused(t, text, rounds+1, rounds-1, "more than the 1000 lines")
	})
}

func checkRefused(t *testing.T, text []byte, line, last int, want string) {
	t.Helper()
	rep, err := Read(bytes.NewReader(text), "h.sbr")
	if err != nil {
		t.Fatal(err)
	}
	var fe *FormatError
	if !errors.As(rep.Damage, &fe) {
		t.Fatalf("damage %v, want a FormatError", rep.Damage)
	}
	if msg := fe.Error(); fe.Line != line || !strings.Contains(msg, want) || strings.Contains(msg, "\n") {
		t.Errorf("damage %q on line %d; want one line on line %d saying %q", msg, fe.Line, line, want)
	}
	if got := rep.Timeline.Last(); got != last {
		t.Errorf("plays up to round %d, want %d", got, last)
	}
}
