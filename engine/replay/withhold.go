package replay

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"slices"
)

// WithheldText replaces, in a copy made by Withhold, the message of each
// problem and backstop event of a withheld team.
const WithheldText = "(withheld)"

// Withhold copies the replay read from r to w (gzip, as every replay),
// leaving out, for each team that withhold (given the header) names,
// what its scripts said rather than did: its print log (the lines go;
// how many there were stays in each round's x) and the messages of its
// problems and backstop events (WithheldText stands in). Everything the
// battle is made of stays, so the copy reads as a valid replay and
// `replay --verify` says identical for it (it compares the withheld
// teams' problems without their messages); the header's withheld lists
// those teams. A copy of a copy withholds at least as much.
//
// It works line by line, so it holds at most one line (MaxLine) at a
// time, and stops at the first line it cannot read, returning its error:
// the copy then plays up to there. It returns the teams withheld.
func Withhold(w io.Writer, r io.Reader, name string, withhold func(h *Header) []int) ([]int, error) {
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
	fail := func(format string, args ...any) error {
		return &FormatError{File: name, Line: lr.n, Reason: fmt.Sprintf(format, args...), Err: ErrCorrupt}
	}
	line, err := lr.next()
	if err != nil {
		return nil, fail("%v", err)
	}
	var h Header
	if err := json.Unmarshal(line, &h); err != nil || h.Replay == 0 {
		return nil, fail("not a SquareBattle replay header")
	}
	if h.Replay > Version {
		return nil, fail("replay format %d is newer than this program reads (%d)", h.Replay, Version)
	}
	hidden := map[int]bool{}
	for _, t := range append(withhold(&h), h.Withheld...) {
		if t >= 0 && t < len(h.Players) {
			hidden[t] = true
		}
	}
	h.Withheld = nil
	for t := range hidden {
		h.Withheld = append(h.Withheld, t)
	}
	slices.Sort(h.Withheld)

	gz, _ := gzip.NewWriterLevel(w, gzip.DefaultCompression)
	out := bufio.NewWriterSize(gz, 64<<10)
	enc := json.NewEncoder(out)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(&h); err != nil {
		return nil, err
	}
	for {
		line, err := lr.next()
		if err == io.EOF {
			break
		}
		if err != nil {
			return h.Withheld, closeAll(out, gz, fail("%v", err))
		}
		if len(hidden) == 0 || bytes.HasPrefix(line, []byte(`{"result"`)) || !saysSomething(line) {
			if _, err := out.Write(line); err != nil {
				return h.Withheld, err
			}
			continue
		}
		var rd round
		if err := json.Unmarshal(line, &rd); err != nil {
			return h.Withheld, closeAll(out, gz, fail("unreadable round: %v", err))
		}
		rd.withhold(hidden)
		if err := enc.Encode(&rd); err != nil {
			return h.Withheld, err
		}
	}
	return h.Withheld, closeAll(out, gz, nil)
}

// saysSomething reports whether a round line may hold printed lines,
// problems or backstop events (a quick look before decoding it).
func saysSomething(line []byte) bool {
	return bytes.Contains(line, []byte(`"l":`)) || bytes.Contains(line, []byte(`"p":`)) || bytes.Contains(line, []byte(`"w":`))
}

func closeAll(out *bufio.Writer, gz *gzip.Writer, err error) error {
	if ferr := out.Flush(); err == nil {
		err = ferr
	}
	if cerr := gz.Close(); err == nil {
		err = cerr
	}
	return err
}

// withhold takes out of the round what the hidden teams' scripts said.
func (rd *round) withhold(hidden map[int]bool) {
	for i := range rd.L {
		if p := &rd.L[i]; hidden[p.Team] {
			p.Cut += len(p.Lines)
			p.Lines = nil
		}
	}
	for i := range rd.P {
		if hidden[rd.P[i].Team] {
			rd.P[i].Message = WithheldText
		}
	}
	for i := range rd.W {
		if hidden[rd.W[i].Team] {
			rd.W[i].Message = WithheldText
		}
	}
}

// lineReader reads a replay's lines one at a time, each at most MaxLine
// bytes, for Withhold's copy.
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
