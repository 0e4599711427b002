package replay

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"strings"

	"github.com/squarebattle/squarebattle/engine"
)

// errNotHeader is a first line that is no replay header.
var errNotHeader = errors.New("not a SquareBattle replay header")

// versionError is a header of a newer format.
type versionError struct{ version int }

func (e *versionError) Error() string {
	return fmt.Sprintf("replay format %d is newer than this program reads (%d); update squarebattle", e.version, Version)
}

// header reads line 1. It decodes the line as a stream of JSON values, a
// field at a time and a list element at a time, so that every size and
// count is held to its bound when it is read: a header naming two million
// players is refused at the 1025th, before the rest is read. The fields
// are those of Header, matched as encoding/json matches them.
func (s *source) header() (*Header, error) {
	b := s.body(MaxHeaderLine)
	d := &headerDecoder{dec: json.NewDecoder(b), s: s, h: &Header{}}
	err := d.object()
	if err == nil {
		if rest, _ := io.ReadAll(d.dec.Buffered()); len(bytes.TrimSpace(rest)) > 0 {
			err = errors.New("text after the header")
		} else {
			err = b.rest()
		}
	}
	var ve *versionError
	switch {
	case errors.As(err, &ve):
		return nil, err
	case b.err == io.EOF && b.n == 0:
		return nil, io.EOF
	case b.err != nil && b.err != io.EOF: // the line itself: too long, cut short, damaged
		return nil, b.err
	case d.h.Replay == 0:
		return nil, errNotHeader
	case err != nil:
		return nil, err
	}
	if err := d.h.check(); err != nil {
		return nil, err
	}
	return d.h, nil
}

type headerDecoder struct {
	dec *json.Decoder
	s   *source
	h   *Header
}

// headerFields are the JSON names of Header's fields.
var headerFields = []string{"squarebattle_replay", "program", "game", "seed", "size", "wrap", "rounds", "config",
	"classes", "players", "columns", "rules", "withheld", "from_map", "start", "start_marks", "start_values"}

// fieldName is the field a key names: an exact match, or else one that
// differs in case only, as encoding/json matches keys; "" for none.
func fieldName(key string) string {
	for _, f := range headerFields {
		if key == f {
			return f
		}
	}
	for _, f := range headerFields {
		if strings.EqualFold(key, f) {
			return f
		}
	}
	return ""
}

func (d *headerDecoder) object() error {
	tok, err := d.dec.Token()
	if err != nil {
		return err
	}
	if tok != json.Delim('{') {
		return errNotHeader
	}
	for d.dec.More() {
		tok, err := d.dec.Token()
		if err != nil {
			return err
		}
		key, _ := tok.(string)
		name := fieldName(key)
		if name == "" {
			if err := d.skip(); err != nil {
				return err
			}
			continue
		}
		if err := d.field(name); err != nil {
			if errors.Is(err, io.ErrUnexpectedEOF) || errors.As(err, new(*versionError)) {
				return err
			}
			return fmt.Errorf("%s: %w", name, err)
		}
	}
	_, err = d.dec.Token()
	return err
}

// skip reads past a value of a field no replay has, token by token, so
// that it is not held whole.
func (d *headerDecoder) skip() error {
	depth := 0
	for {
		tok, err := d.dec.Token()
		if err != nil {
			return err
		}
		switch tok {
		case json.Delim('{'), json.Delim('['):
			depth++
		case json.Delim('}'), json.Delim(']'):
			depth--
		}
		if depth == 0 {
			return nil
		}
	}
}

func (d *headerDecoder) field(name string) error {
	h := d.h
	switch name {
	case "squarebattle_replay":
		if err := d.dec.Decode(&h.Replay); err != nil {
			return err
		}
		if h.Replay > Version {
			return &versionError{h.Replay}
		}
		if h.Replay < 0 {
			h.Replay = 0
		}
	case "program":
		return d.text(&h.Program)
	case "game":
		return d.text(&h.Game)
	case "seed":
		return d.dec.Decode(&h.Seed)
	case "size":
		if err := d.dec.Decode(&h.Size); err != nil {
			return err
		}
		if h.Size < 1 || h.Size > MaxSize {
			return fmt.Errorf("%d is out of range: an arena is 1 to %d cells a side (arena.size)", h.Size, MaxSize)
		}
		d.s.slack = lineSlack(h.Size*h.Size, 0)
	case "wrap":
		return d.dec.Decode(&h.Wrap)
	case "rounds":
		if err := d.dec.Decode(&h.Rounds); err != nil {
			return err
		}
		if h.Rounds < 0 || h.Rounds > MaxRounds {
			return fmt.Errorf("%d is out of range: a battle has 0 to %d rounds (rules.rounds)", h.Rounds, MaxRounds)
		}
	case "config":
		h.Config = nil
		if err := d.dec.Decode(&h.Config); err != nil {
			return err
		}
		if len(h.Config) > MaxConfig {
			return fmt.Errorf("%d bytes (at most %d)", len(h.Config), MaxConfig)
		}
	case "classes":
		h.Classes = nil
		return d.list(MaxClasses, "classes", func(i int) error {
			var c Class
			if err := d.dec.Decode(&c); err != nil {
				return err
			}
			if err := texts(c.ID, c.File, c.SHA256); err != nil {
				return fmt.Errorf("class %d: %v", i, err)
			}
			h.Classes = append(h.Classes, c)
			return nil
		})
	case "players":
		h.Players = nil
		return d.list(MaxTeams, fmt.Sprintf("players (a battle has at most %d teams)", MaxTeams), func(i int) error {
			var p Player
			if err := d.dec.Decode(&p); err != nil {
				return err
			}
			if p.Team != i {
				return fmt.Errorf("player %d is listed as team %d", i, p.Team)
			}
			if err := texts(p.Name, p.Victory, p.Defeat, p.Outside); err != nil {
				return fmt.Errorf("player %d: %v", i, err)
			}
			h.Players = append(h.Players, p)
			return nil
		})
	case "columns":
		h.Columns = nil
		return d.list(MaxColumns, "score columns", func(i int) error {
			var c string
			if err := d.text(&c); err != nil {
				return fmt.Errorf("column %d: %v", i, err)
			}
			h.Columns = append(h.Columns, c)
			return nil
		})
	case "rules":
		h.Rules = nil
		if err := d.dec.Decode(&h.Rules); err != nil {
			return err
		}
		if h.Rules != nil {
			return texts(h.Rules.Game, h.Rules.File, h.Rules.SHA256)
		}
	case "withheld":
		h.Withheld = nil
		return d.list(MaxTeams, fmt.Sprintf("withheld teams (a battle has at most %d teams)", MaxTeams), func(int) error {
			var t int
			if err := d.dec.Decode(&t); err != nil {
				return err
			}
			h.Withheld = append(h.Withheld, t)
			return nil
		})
	case "from_map":
		return d.dec.Decode(&h.FromMap)
	case "start":
		var err error
		h.Start, err = d.runs()
		return err
	case "start_marks":
		var err error
		h.StartMarks, err = d.runs()
		return err
	case "start_values":
		h.StartValues = nil
		return d.list(MaxTeams, "rows (one a team)", func(i int) error {
			row := []int{}
			if err := d.list(MaxColumns, "score columns", func(int) error {
				var v int
				if err := d.dec.Decode(&v); err != nil {
					return err
				}
				row = append(row, v)
				return nil
			}); err != nil {
				return fmt.Errorf("team %d: %v", i, err)
			}
			h.StartValues = append(h.StartValues, row)
			return nil
		})
	}
	return nil
}

// text decodes a text of the header, at most MaxText bytes.
func (d *headerDecoder) text(s *string) error {
	if err := d.dec.Decode(s); err != nil {
		return err
	}
	return texts(*s)
}

func texts(ss ...string) error {
	for _, s := range ss {
		if len(s) > MaxText {
			return fmt.Errorf("a text of %d bytes (at most %d)", len(s), MaxText)
		}
	}
	return nil
}

// list decodes a JSON list (or null) an element at a time, refusing it
// at element most+1 before that element is read.
func (d *headerDecoder) list(most int, what string, each func(i int) error) error {
	tok, err := d.dec.Token()
	if err != nil || tok == nil {
		return err
	}
	if tok != json.Delim('[') {
		return errors.New("not a list")
	}
	for i := 0; d.dec.More(); i++ {
		if i == most {
			return fmt.Errorf("more than %d %s", most, what)
		}
		if err := each(i); err != nil {
			return err
		}
	}
	_, err = d.dec.Token()
	return err
}

// runs decodes a run-length encoded arena: a list of at most two numbers
// a cell of the largest arena the header allows (each run covers at
// least one cell), each an int32.
func (d *headerDecoder) runs() ([]int32, error) {
	cells := MaxSize * MaxSize
	if d.h.Size > 0 {
		cells = d.h.Size * d.h.Size
	}
	var raw json.RawMessage
	if err := d.dec.Decode(&raw); err != nil {
		return nil, err
	}
	return parseRuns(raw, 2*cells)
}

// parseRuns reads a JSON list of at most most integers (null: none).
// The text is valid JSON (the decoder checked it).
func parseRuns(raw []byte, most int) ([]int32, error) {
	raw = bytes.TrimSpace(raw)
	if string(raw) == "null" {
		return nil, nil
	}
	if len(raw) < 2 || raw[0] != '[' || raw[len(raw)-1] != ']' {
		return nil, errors.New("not a list of numbers")
	}
	raw = raw[1 : len(raw)-1]
	// A count first, so that the list is made once, at its size.
	n := 0
	if len(bytes.TrimSpace(raw)) > 0 {
		n = bytes.Count(raw, []byte(",")) + 1
	}
	if n > most {
		return nil, fmt.Errorf("%d numbers: a run-length encoded arena has at most %d, two a cell", n, most)
	}
	out := make([]int32, 0, n)
	for len(out) < n {
		f := raw
		if i := bytes.IndexByte(raw, ','); i >= 0 {
			f, raw = raw[:i], raw[i+1:]
		}
		f = bytes.TrimSpace(f)
		v, ok := parseInt32(f)
		if !ok {
			return nil, fmt.Errorf("%.24q is not a whole number of 32 bits", f)
		}
		out = append(out, v)
	}
	return out, nil
}

// parseInt32 reads a JSON integer (no fraction or exponent) in int32's range.
func parseInt32(f []byte) (int32, bool) {
	neg := len(f) > 0 && f[0] == '-'
	if neg {
		f = f[1:]
	}
	if len(f) == 0 || len(f) > 10 {
		return 0, false
	}
	var v int64
	for _, c := range f {
		if c < '0' || c > '9' {
			return 0, false
		}
		v = v*10 + int64(c-'0')
	}
	if neg {
		v = -v
	}
	if v < math.MinInt32 || v > math.MaxInt32 {
		return 0, false
	}
	return int32(v), true
}

// check holds the header as a whole to what a battle can be, before any
// of it is built: the starting arena covers the arena, names only teams
// that play, and a rule mod's marks and score columns fit.
func (h *Header) check() error {
	if h.Size < 1 {
		return fmt.Errorf("size %d is out of range: an arena is 1 to %d cells a side (arena.size)", h.Size, MaxSize)
	}
	if len(h.Players) == 0 {
		return errors.New("no players")
	}
	for i, p := range h.Players {
		if p.Outside != "" && p.Outside != engine.OutsideBot && p.Outside != engine.OutsideHuman {
			return fmt.Errorf("player %d is decided outside by %q, neither %q nor %q", i, clip(p.Outside), engine.OutsideBot, engine.OutsideHuman)
		}
	}
	cells := h.Size * h.Size
	if err := checkRuns(h.Start, cells, "team", func(team int32) bool { return team >= engine.Empty && int(team) < len(h.Players) }); err != nil {
		return fmt.Errorf("start: %v", err)
	}
	if h.Game == "" {
		return nil
	}
	if h.StartMarks != nil {
		if err := checkRuns(h.StartMarks, cells, "mark", func(m int32) bool { return m >= 0 && m <= 0xffff && engine.Mark(m).Valid() }); err != nil {
			return fmt.Errorf("start_marks: %v", err)
		}
	}
	if h.StartValues != nil && len(h.StartValues) != len(h.Players) {
		return fmt.Errorf("start_values: %d rows for %d teams", len(h.StartValues), len(h.Players))
	}
	for t, row := range h.StartValues {
		if len(row) != len(h.Columns) {
			return fmt.Errorf("start_values: team %d has %d columns, the game %d", t, len(row), len(h.Columns))
		}
	}
	return nil
}

// checkRuns checks (value, count) pairs: counts that are not negative
// and add up to cells, values that ok accepts.
func checkRuns(rle []int32, cells int, what string, ok func(int32) bool) error {
	if len(rle)%2 != 0 {
		return errors.New("odd number of values")
	}
	total := 0
	for i := 0; i < len(rle); i += 2 {
		if rle[i+1] < 0 || total+int(rle[i+1]) > cells {
			return fmt.Errorf("more than %d cells", cells)
		}
		total += int(rle[i+1])
		if rle[i+1] > 0 && !ok(rle[i]) {
			return fmt.Errorf("%s %d is out of range", what, rle[i])
		}
	}
	if total != cells {
		return fmt.Errorf("%d cells for a %d-cell arena", total, cells)
	}
	return nil
}
