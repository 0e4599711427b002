package replay

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"encoding/json"
	"errors"
	"fmt"
	"io"
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

// MaxLine bounds one line of a replay, so a damaged file cannot make a
// reader allocate without end. A round of a 1000×1000 arena in which every
// cell changes fits.
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
func Read(r io.Reader, name string) (*Replay, error) {
	br := bufio.NewReaderSize(r, 64<<10)
	src := io.Reader(br)
	if magic, _ := br.Peek(2); len(magic) == 2 && magic[0] == 0x1f && magic[1] == 0x8b {
		gz, err := gzip.NewReader(br)
		if err != nil {
			return nil, &FormatError{File: name, Reason: "not a gzip stream: " + err.Error(), Err: ErrCorrupt}
		}
		src = gz
	}
	lr := &lineReader{r: bufio.NewReaderSize(src, 64<<10)}
	fail := func(line int, format string, args ...any) *FormatError {
		return &FormatError{File: name, Line: line, Reason: fmt.Sprintf(format, args...), Err: ErrCorrupt}
	}

	line, err := lr.next()
	if err != nil {
		if err == io.EOF {
			return nil, fail(0, "empty file: not a replay")
		}
		return nil, fail(1, "%v", err)
	}
	rep := &Replay{}
	h := &rep.Header
	if err := json.Unmarshal(line, h); err != nil || h.Replay == 0 {
		return nil, fail(1, "not a SquareBattle replay header")
	}
	h.safeText()
	if h.Replay > Version {
		return nil, &FormatError{File: name, Line: 1, Reason: fmt.Sprintf("replay format %d is newer than this program reads (%d); update squarebattle", h.Replay, Version), Err: ErrVersion}
	}
	start, err := h.startSnapshot()
	if err != nil {
		return nil, fail(1, "%v", err)
	}
	for i, t := range h.Withheld {
		if t < 0 || t >= len(h.Players) || (i > 0 && t <= h.Withheld[i-1]) {
			return nil, fail(1, "withheld: team %d is not a team, or out of order", t)
		}
	}
	rep.Timeline = engine.NewTimeline(start, 0)
	kept := make([]int, len(h.Players)) // printed lines per team so far

	for {
		line, err := lr.next()
		if err == io.EOF {
			return rep, nil
		}
		n := lr.n
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
		var rd round
		if err := json.Unmarshal(line, &rd); err != nil {
			rep.Damage = fail(n, "unreadable round: %v; the battle plays up to round %d", err, rep.Timeline.Last())
			return rep, nil
		}
		l, err := decodeRound(&rd, len(h.Columns), len(h.Players), h.Game != "")
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

// startSnapshot turns the header into the picture before round 1.
func (h *Header) startSnapshot() (*engine.Snapshot, error) {
	if h.Size < 1 || h.Size > 1<<14 {
		return nil, fmt.Errorf("size %d is out of range", h.Size)
	}
	if len(h.Players) == 0 {
		return nil, errors.New("no players")
	}
	cells, err := decodeCells(h.Start, h.Size*h.Size)
	if err != nil {
		return nil, err
	}
	s := &engine.Snapshot{Size: h.Size, Rounds: h.Rounds, Seed: h.Seed, Winner: -1, Cells: cells}
	for _, c := range h.Classes {
		s.Classes = append(s.Classes, c.ID)
	}
	for i, p := range h.Players {
		if p.Team != i {
			return nil, fmt.Errorf("player %d is listed as team %d", i, p.Team)
		}
		if p.Outside != "" && p.Outside != engine.OutsideBot && p.Outside != engine.OutsideHuman {
			return nil, fmt.Errorf("player %d is decided outside by %q, neither %q nor %q", i, clip(p.Outside), engine.OutsideBot, engine.OutsideHuman)
		}
		s.Teams = append(s.Teams, engine.TeamView{Team: i, Player: engine.Player{Class: engine.ClassID(p.Class), Name: p.Name, Victory: p.Victory, Defeat: p.Defeat, Outside: p.Outside}})
	}
	for _, c := range cells {
		if c < engine.Empty || int(c) >= len(s.Teams) {
			return nil, fmt.Errorf("start: team %d is not a player", c)
		}
	}
	if h.Game != "" {
		return h.modStart(s)
	}
	for _, c := range cells {
		if c >= 0 {
			s.Teams[c].Stats.Squares++
		}
	}
	return s, nil
}

// modStart adds a rule mod's marks and score columns to the picture
// before round 1; a team's squares are its units.
func (h *Header) modStart(s *engine.Snapshot) (*engine.Snapshot, error) {
	s.Columns = h.Columns
	s.Marks = make([]engine.Mark, len(s.Cells))
	if h.StartMarks != nil {
		marks, err := decodeCells(h.StartMarks, len(s.Cells))
		if err != nil {
			return nil, fmt.Errorf("start_marks: %v", err)
		}
		for i, m := range marks {
			s.Marks[i] = engine.Mark(m)
			if m < 0 || m > 0xffff || !s.Marks[i].Valid() {
				return nil, fmt.Errorf("start_marks: mark %d is not a mark", m)
			}
		}
	}
	if h.StartValues != nil && len(h.StartValues) != len(s.Teams) {
		return nil, fmt.Errorf("start_values: %d rows for %d teams", len(h.StartValues), len(s.Teams))
	}
	for t := range s.Teams {
		s.Teams[t].Values = make([]int, len(h.Columns))
		if h.StartValues != nil {
			if len(h.StartValues[t]) != len(h.Columns) {
				return nil, fmt.Errorf("start_values: team %d has %d columns, the game %d", t, len(h.StartValues[t]), len(h.Columns))
			}
			copy(s.Teams[t].Values, h.StartValues[t])
		}
	}
	for i, c := range s.Cells {
		if c >= 0 && s.Marks[i].Style() == engine.StyleUnit {
			s.Teams[c].Stats.Squares++
		}
	}
	return s, nil
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

// lineReader reads newline-terminated lines and counts them. A last line
// without its newline is damage: the writer ends every line.
type lineReader struct {
	r *bufio.Reader
	n int
}

func (l *lineReader) next() ([]byte, error) {
	var line []byte
	for {
		chunk, err := l.r.ReadSlice('\n')
		line = append(line, chunk...)
		if len(line) > MaxLine {
			l.n++
			return nil, fmt.Errorf("line longer than %d bytes", MaxLine)
		}
		switch {
		case err == bufio.ErrBufferFull:
			continue
		case err == nil:
			l.n++
			return line, nil
		case err == io.EOF && len(line) == 0:
			return nil, io.EOF
		case err == io.EOF:
			l.n++
			return nil, errors.New("the file ends in the middle of a line (cut short?)")
		case errors.Is(err, io.ErrUnexpectedEOF):
			l.n++
			return nil, errors.New("the file ends early (cut short?)")
		default:
			l.n++
			return nil, fmt.Errorf("damaged data (%v)", err)
		}
	}
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
