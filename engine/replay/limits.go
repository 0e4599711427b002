package replay

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"

	"github.com/squarebattle/squarebattle/engine"
)

// A replay may come from anyone: the SSH arena hands them out and people
// pass them around. The reader therefore holds every size and count a file
// states to the bounds a live battle obeys, and to what the bytes of the
// file can honestly hold, before it makes anything of that size; and it
// reads the file in lines of bounded length, so that what it holds grows
// with the file, never with a number the file names. docs/replay-format.md
// ("What a reader allocates") gives the figures.
const (
	// MaxSize bounds the arena's side: arena.size's bound.
	MaxSize = engine.MaxArenaSize
	// MaxRounds bounds the round limit: rules.rounds' bound. No round
	// line may pass the header's round limit, as no battle does.
	MaxRounds = 10_000_000
	// MaxTeams bounds the players of a battle. Live battles have no bound
	// of their own but the arena's cells (the SSH lobby allows 16 teams,
	// the ladder 64), and each team is a Lua state, a bot or a person;
	// the reader keeps a few numbers a team for every round, so a file
	// may not name more than this many.
	MaxTeams = 1024
	// MaxClasses bounds the classes the header lists (a scripts folder's
	// and the bots' own).
	MaxClasses = 4096
	// MaxColumns bounds a rule mod's score columns.
	MaxColumns = engine.MaxColumns
	// MaxText bounds each text of the header (names, speeches, class ids
	// and files, the program, the game, column names) in bytes, as
	// decoded: far above what the program writes (a name is at most 64
	// bytes, a speech 280, before escaping).
	MaxText = 8 << 10
	// MaxConfig bounds the header's config, as config files are bounded.
	MaxConfig = 1 << 20
	// MaxHeaderLine bounds the header line: the starting arena of the
	// largest arena, run-length encoded cell by cell, with its marks.
	MaxHeaderLine = 2 * MaxLine

	// A gzip stream can grow a thousandfold: a line's text may be at most
	// maxRatio times the compressed bytes read so far, plus a slack for
	// lines that honestly name every cell or every team (lineSlack). The
	// bound is a line's: the lines read before it were kept because they
	// fit the battle, however well they compressed.
	maxRatio = 16
	// recentProblems is how many problems a round's sample holds beyond
	// the first of each (team, class, kind): the engine's ring of recent
	// problems.
	recentProblems = 32
	// keyframeBudget bounds the keyframes a replay's timeline keeps, as
	// the terminal UI bounds a live battle's.
	keyframeBudget = 32 << 20
)

// lineSlack is how much longer than maxRatio times the file read so far a
// line of a replay of cells cells and teams teams may be: a round may name
// every cell (changes, births, deaths, marks, intents) and every team (its
// printed lines, its faults and score columns).
func lineSlack(cells, teams int) int64 {
	return 1<<20 + 128*int64(cells) + 128<<10*int64(teams)
}

// keyframeEvery spaces the timeline's keyframes so that a battle of rounds
// rounds keeps at most about keyframeBudget bytes of them (the terminal UI
// does the same for a live battle): a file that names a large arena and
// many rounds cannot make the reader copy the arena every 64 rounds.
func keyframeEvery(h *Header) int {
	cells := int64(h.Size) * int64(h.Size)
	perKey := 4*cells + 64*int64(len(h.Players))
	if h.Game != "" {
		perKey += 2*cells + 8*int64(len(h.Players))*int64(len(h.Columns)+3)
	}
	return int(max(engine.DefaultKeyframeEvery, int64(h.Rounds)*perKey/keyframeBudget+1))
}

// counter counts the bytes read from the file.
type counter struct {
	r io.Reader
	n int64
}

func (c *counter) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	c.n += int64(n)
	return n, err
}

// source is a replay's text, read a line at a time within bounds: a line
// may be at most max bytes long, and when the file is compressed at most
// maxRatio times the file's bytes read so far plus slack.
type source struct {
	r     *bufio.Reader // the text
	file  *counter      // the file's bytes
	gz    bool
	slack int64
	n     int    // lines begun
	buf   []byte // the last line, reused
}

// tooLong says whether a line of n bytes breaks the bounds.
func (s *source) tooLong(n, most int64) error {
	if n > most {
		return fmt.Errorf("a line longer than %d bytes", most)
	}
	if s.gz && n > maxRatio*s.file.n+s.slack {
		return fmt.Errorf("a line longer than %d bytes after %d compressed bytes (a line holds at most %d times the compressed bytes before its end, and %d more)", maxRatio*s.file.n+s.slack, s.file.n, maxRatio, s.slack)
	}
	return nil
}

// readErr turns an error of the text's reader into the reason a line ends.
func readErr(err error, inLine bool) error {
	switch {
	case err == io.EOF && inLine:
		return errors.New("the file ends in the middle of a line (cut short?)")
	case err == io.EOF:
		return io.EOF
	case errors.Is(err, io.ErrUnexpectedEOF):
		return errors.New("the file ends early (cut short?)")
	}
	return fmt.Errorf("damaged data (%v)", err)
}

// next reads the next line, newline included, of at most most bytes. The
// line is valid until the next call. A last line without its newline is
// damage: the writer ends every line.
func (s *source) next(most int64) ([]byte, error) {
	line := s.buf[:0]
	for {
		chunk, err := s.r.ReadSlice('\n')
		if len(chunk) > 0 && len(line) == 0 {
			s.n++
		}
		if err := s.tooLong(int64(len(line)+len(chunk)), most); err != nil {
			s.buf = nil
			return nil, err
		}
		if len(line)+len(chunk) > cap(line) { // doubling: append grows a long line by a quarter at a time
			line = append(make([]byte, 0, max(2*cap(line), len(line)+len(chunk), 512)), line...)
		}
		line = append(line, chunk...)
		switch {
		case err == bufio.ErrBufferFull:
			continue
		case err == nil:
			if cap(line) <= 1<<20 { // a long line's buffer is not kept
				s.buf = line
			} else {
				s.buf = nil
			}
			return line, nil
		case err == io.EOF && len(line) == 0:
			return nil, io.EOF
		}
		if len(line) == 0 {
			s.n++
		}
		s.buf = nil
		return nil, readErr(err, len(line) > 0)
	}
}

// body reads one line, newline included, as a stream: the header is
// decoded from it as it comes, so that a count or size is refused when it
// is read, not after the whole line is in memory.
type body struct {
	s    *source
	most int64
	n    int64
	done bool  // the newline was read
	err  error // why the line stopped
}

func (s *source) body(most int64) *body {
	s.n++
	return &body{s: s, most: most}
}

func (b *body) Read(p []byte) (int, error) {
	if b.done {
		return 0, io.EOF
	}
	if b.err != nil {
		return 0, b.err
	}
	if len(p) == 0 {
		return 0, nil
	}
	if b.s.r.Buffered() == 0 {
		if _, err := b.s.r.Peek(1); err != nil {
			if err == io.EOF && b.n == 0 {
				b.err = io.EOF
			} else {
				b.err = readErr(err, true)
			}
			return 0, b.err
		}
	}
	chunk, _ := b.s.r.Peek(min(len(p), b.s.r.Buffered()))
	if i := bytes.IndexByte(chunk, '\n'); i >= 0 {
		chunk, b.done = chunk[:i+1], true
	}
	n := copy(p, chunk)
	b.s.r.Discard(n)
	b.n += int64(n)
	if err := b.s.tooLong(b.n, b.most); err != nil {
		b.err = err
		return 0, err
	}
	return n, nil
}

// rest reads what is left of the line, which must be blank.
func (b *body) rest() error {
	var p [512]byte
	for {
		n, err := b.Read(p[:])
		if len(bytes.TrimSpace(p[:n])) > 0 {
			return errors.New("text after the header")
		}
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return err
		}
	}
}
