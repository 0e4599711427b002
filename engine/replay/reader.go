package replay

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"slices"

	"github.com/squarebattle/squarebattle/engine"
)

// Replay is a replay read into memory.
type Replay struct {
	Header   Header
	Timeline *engine.Timeline
	// Result is the final line; nil when the battle was not finished (the
	// recording stopped early or the file is damaged).
	Result *Result
	// Damage, when not nil, says where the file stopped making sense (a
	// *FormatError with the line number). Every round before it is in
	// Timeline and plays.
	Damage error
}

// MaxLine bounds one round line of a replay, so a damaged file cannot make
// a reader allocate without end. A round of a 1000×1000 arena in which
// every cell changes fits.
const MaxLine = 64 << 20

// Open reads a replay file.
func Open(name string) (*Replay, error) {
	f, err := os.Open(name)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return Read(f, name)
}

// Read reads a replay from r; name is used in messages. It fails only when
// not even the header can be read. Damage after the header is reported in
// Replay.Damage and the rounds before it are kept.
//
// r may be hostile: what Read holds grows with the bytes of r (see
// limits.go), whatever the numbers in them say.
func Read(r io.Reader, name string) (*Replay, error) {
	file := &counter{r: r}
	br := bufio.NewReaderSize(file, 64<<10)
	src := &source{file: file, slack: lineSlack(0, 0)}
	text := io.Reader(br)
	if magic, _ := br.Peek(2); len(magic) == 2 && magic[0] == 0x1f && magic[1] == 0x8b {
		gz, err := gzip.NewReader(br)
		if err != nil {
			return nil, &FormatError{File: name, Reason: "not a gzip stream: " + err.Error(), Err: ErrCorrupt}
		}
		text, src.gz = gz, true
	}
	src.r = bufio.NewReaderSize(text, 64<<10)
	fail := func(line int, format string, args ...any) *FormatError {
		return &FormatError{File: name, Line: line, Reason: fmt.Sprintf(format, args...), Err: ErrCorrupt}
	}

	h, err := src.header()
	var ve *versionError
	switch {
	case err == io.EOF:
		return nil, fail(0, "empty file: not a replay")
	case errors.As(err, &ve):
		return nil, &FormatError{File: name, Line: 1, Reason: ve.Error(), Err: ErrVersion}
	case err != nil:
		return nil, fail(1, "%v", err)
	}
	rep := &Replay{Header: *h}
	h = &rep.Header
	h.safeText()
	for i, t := range h.Withheld {
		if t < 0 || t >= len(h.Players) || (i > 0 && t <= h.Withheld[i-1]) {
			return nil, fail(1, "withheld: team %d is not a team, or out of order", t)
		}
	}
	start := h.startSnapshot()
	rep.Timeline = engine.NewTimeline(start, keyframeEvery(h))
	start = nil
	kept := make([]int, len(h.Players)) // printed lines per team so far
	src.slack = lineSlack(h.Size*h.Size, len(h.Players))
	seen := map[[3]int]bool{} // the (team, class, kind) of every problem so far
	var rd round              // each line's, reused: decodeRound copies what it keeps

	for {
		line, err := src.next(MaxLine)
		if err == io.EOF {
			return rep, nil
		}
		n := src.n
		if err != nil {
			rep.Damage = fail(n, "%v; the battle plays up to round %d", err, rep.Timeline.Last())
			return rep, nil
		}
		if rep.Result != nil {
			rep.Damage = fail(n, "text after the result line")
			return rep, nil
		}
		if bytes.HasPrefix(line, []byte(`{"result"`)) {
			var rl resultLine
			if err := json.Unmarshal(line, &rl); err != nil || rl.Result == nil {
				rep.Damage = fail(n, "unreadable result line")
				return rep, nil
			}
			if err := rep.checkResult(rl.Result); err != nil {
				rep.Damage = fail(n, "%v", err)
				return rep, nil
			}
			rl.Result.Reason = engine.SafeText(rl.Result.Reason)
			rep.Result = rl.Result
			if h.Game != "" {
				rep.Timeline.EndWinner(rl.Result.Winner)
			} else {
				rep.Timeline.End()
			}
			continue
		}
		sh := scanShape(line)
		if err := h.roundBounds(&sh, rep.Timeline.Alive(), len(seen)); err != nil {
			rep.Damage = fail(n, "%v; the battle plays up to round %d", err, rep.Timeline.Last())
			return rep, nil
		}
		rd = sh.sized()
		if err := json.Unmarshal(line, &rd); err != nil {
			rep.Damage = fail(n, "unreadable round: %v; the battle plays up to round %d", err, rep.Timeline.Last())
			return rep, nil
		}
		if rd.R > h.Rounds && rd.R == rep.Timeline.Last()+1 {
			rep.Damage = fail(n, "round %d is past the battle's round limit, %d; the battle plays up to round %d", rd.R, h.Rounds, rep.Timeline.Last())
			return rep, nil
		}
		l, err := decodeRound(&rd, len(h.Columns), len(h.Players), h.Game != "")
		if err == nil {
			err = checkProblems(rd.P, len(rd.W), len(h.Players), seen)
		}
		for i := range l.Problems {
			l.Problems[i].Message = engine.SafeText(l.Problems[i].Message)
		}
		for i := range l.Answers { // the timeline refuses a message the engine would not have written
			for j := range l.Answers[i].Problems {
				p := &l.Answers[i].Problems[j]
				p.Message = engine.SafeText(p.Message)
			}
		}
		for _, p := range l.Printed {
			if kept[p.Team] += len(p.Lines); err == nil && kept[p.Team] > engine.MaxBattleLines {
				err = fmt.Errorf("team %d printed more than the %d lines a replay keeps", p.Team, engine.MaxBattleLines)
			}
		}
		if err == nil {
			err = rep.Timeline.Add(l)
		}
		if err != nil {
			rep.Damage = fail(n, "%v; the battle plays up to round %d", err, rep.Timeline.Last())
			return rep, nil
		}
	}
}

// checkProblems holds a round's problems to what the engine records: the
// first problem of each (team, class, kind), which seen remembers, and at
// most recentProblems others, with the problems of the round's backstop
// events (backstops of them). A line of many problems is refused before
// the timeline keeps them.
func checkProblems(ps []problem, backstops, teams int, seen map[[3]int]bool) error {
	again := 0
	for _, p := range ps {
		if p.Team < 0 || p.Team >= teams || p.Kind < int(engine.FaultTimeout) || p.Kind > int(engine.FaultError) ||
			p.Class < int(engine.NoClass) || p.Class > math.MaxInt32 || p.Square < -1 || p.Square > math.MaxInt32 {
			return fmt.Errorf("a problem of team %d, class %d, square %d, kind %d is out of range", p.Team, p.Class, p.Square, p.Kind)
		}
		key := [3]int{p.Team, p.Class, p.Kind}
		if seen[key] {
			again++
		}
		seen[key] = true
	}
	if again > recentProblems+backstops {
		return fmt.Errorf("%d problems in a round, of which %d are not the first of their team, class and kind; a replay keeps at most %d such", len(ps), again, recentProblems+backstops)
	}
	return nil
}

// startSnapshot turns the header, checked (Header.check), into the picture
// before round 1.
func (h *Header) startSnapshot() *engine.Snapshot {
	cells := decodeCells(h.Start, h.Size*h.Size)
	s := &engine.Snapshot{Size: h.Size, Rounds: h.Rounds, Seed: h.Seed, Winner: -1, Cells: cells}
	for _, c := range h.Classes {
		s.Classes = append(s.Classes, c.ID)
	}
	s.Teams = make([]engine.TeamView, 0, len(h.Players))
	for i, p := range h.Players {
		s.Teams = append(s.Teams, engine.TeamView{Team: i, Player: engine.Player{Class: engine.ClassID(p.Class), Name: p.Name, Victory: p.Victory, Defeat: p.Defeat, Outside: p.Outside}})
	}
	if h.Game != "" {
		return h.modStart(s)
	}
	for _, c := range cells {
		if c >= 0 {
			s.Teams[c].Stats.Squares++
		}
	}
	return s
}

// modStart adds a rule mod's marks and score columns to the picture
// before round 1; a team's squares are its units.
func (h *Header) modStart(s *engine.Snapshot) *engine.Snapshot {
	s.Columns = h.Columns
	s.Marks = make([]engine.Mark, len(s.Cells))
	for i, j := 0, 0; i < len(h.StartMarks); i += 2 {
		for k := int32(0); k < h.StartMarks[i+1]; k++ {
			s.Marks[j] = engine.Mark(h.StartMarks[i])
			j++
		}
	}
	for t := range s.Teams {
		s.Teams[t].Values = make([]int, len(h.Columns))
		if h.StartValues != nil {
			copy(s.Teams[t].Values, h.StartValues[t])
		}
	}
	for i, c := range s.Cells {
		if c >= 0 && s.Marks[i].Style() == engine.StyleUnit {
			s.Teams[c].Stats.Squares++
		}
	}
	return s
}

// checkResult compares the result line with what the rounds add up to, so
// a file whose middle was altered is not shown with a wrong ending.
func (r *Replay) checkResult(res *Result) error {
	tl := r.Timeline
	if res.Round != tl.Last() {
		return fmt.Errorf("the result is for round %d but the last round is %d", res.Round, tl.Last())
	}
	s := tl.At(tl.Last())
	if len(res.Stats) != len(s.Teams) {
		return fmt.Errorf("the result has %d teams, the battle %d", len(res.Stats), len(s.Teams))
	}
	for i, t := range s.Teams {
		if statsRow(t.Stats) != res.Stats[i] {
			return fmt.Errorf("team %d's totals in the result %v differ from its events %v", i, res.Stats[i], statsRow(t.Stats))
		}
	}
	if r.Header.Game == "" {
		return nil
	}
	if res.Winner < -1 || res.Winner >= len(s.Teams) {
		return fmt.Errorf("the winner, team %d, is not a team", res.Winner)
	}
	if len(res.Values) != len(s.Teams) {
		return fmt.Errorf("the result has score columns for %d teams, the battle %d", len(res.Values), len(s.Teams))
	}
	for i, t := range s.Teams {
		if !slices.Equal(t.Values, res.Values[i]) {
			return fmt.Errorf("team %d's score columns in the result %v differ from its rounds %v", i, res.Values[i], t.Values)
		}
	}
	return nil
}

// safeText escapes every text of a header that is shown to people. A
// replay is a file anyone can hand over: whatever wrote it, its names,
// speeches and titles reach the terminal of whoever opens it as text that
// only shows itself (engine.SafeText). A replay written by this program
// holds safe text already and reads back unchanged.
func (h *Header) safeText() {
	for _, p := range []*string{&h.Program, &h.Game} {
		*p = engine.SafeText(*p)
	}
	for i := range h.Classes {
		c := &h.Classes[i]
		c.ID, c.File = engine.SafeText(c.ID), engine.SafeText(c.File)
	}
	for i := range h.Players {
		p := &h.Players[i]
		p.Name, p.Victory, p.Defeat, p.Outside = engine.SafeText(p.Name), engine.SafeText(p.Victory), engine.SafeText(p.Defeat), engine.SafeText(p.Outside)
	}
	for i, c := range h.Columns {
		h.Columns[i] = engine.SafeText(c)
	}
	if h.Rules != nil {
		h.Rules.Game, h.Rules.File = engine.SafeText(h.Rules.Game), engine.SafeText(h.Rules.File)
	}
}
