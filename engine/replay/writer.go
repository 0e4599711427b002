package replay

import (
	"bufio"
	"compress/gzip"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/squarebattle/squarebattle/engine"
)

// Writer writes a replay round by round. Rounds are flushed through gzip
// every FlushEvery rounds, so a program killed mid-battle leaves a file
// that plays up to the last flush.
//
// Concurrency: a Writer belongs to one goroutine, normally the one that
// steps the battle.
type Writer struct {
	w      io.Writer
	buf    *bufio.Writer
	gz     *gzip.Writer
	enc    *json.Encoder
	round  []byte // the round line being written (appendRound), kept for the next
	rounds int
	size   int
	err    error
	done   bool
}

// FlushEvery is how many rounds a Writer buffers before flushing.
const FlushEvery = 32

// NewWriter writes the header (with the arena of start as the starting
// arena) to w. The caller closes w after Close.
func NewWriter(w io.Writer, h Header, start *engine.Snapshot) (*Writer, error) {
	h.Replay = Version
	h.Start = encodeCells(start.Cells)
	// Who decides a team outside the battle is the battle's to say: a
	// header built from the scripts alone does not know it.
	h.Players = append([]Player(nil), h.Players...)
	for i, t := range start.Teams {
		if i < len(h.Players) && h.Players[i].Outside == "" {
			h.Players[i].Outside = t.Player.Outside
		}
	}
	if start.Marks != nil { // a rule mod
		marks := make([]int32, len(start.Marks))
		for i, m := range start.Marks {
			marks[i] = int32(m)
		}
		h.StartMarks = encodeCells(marks)
		if h.Columns == nil {
			h.Columns = start.Columns
		}
		h.StartValues = nil
		for _, t := range start.Teams {
			h.StartValues = append(h.StartValues, t.Values)
		}
	}
	if h.Size == 0 {
		h.Size = start.Size
	}
	if h.Seed == 0 {
		h.Seed = start.Seed
	}
	if h.Rounds == 0 {
		h.Rounds = start.Rounds
	}
	gz, _ := gzip.NewWriterLevel(w, gzip.DefaultCompression)
	rw := &Writer{w: w, gz: gz, size: h.Size}
	rw.buf = bufio.NewWriterSize(gz, 64<<10)
	rw.enc = json.NewEncoder(rw.buf)
	rw.enc.SetEscapeHTML(false)
	rw.line(h)
	return rw, rw.flush()
}

func (w *Writer) line(v any) {
	if w.err == nil {
		w.err = w.enc.Encode(v)
	}
}

func (w *Writer) flush() error {
	if w.err == nil {
		w.err = w.buf.Flush()
	}
	if w.err == nil {
		w.err = w.gz.Flush()
	}
	return w.err
}

// Round writes the log of one round.
func (w *Writer) Round(l *engine.RoundLog) error {
	if w.err == nil {
		r := encodeRound(l)
		if w.round, w.err = appendRound(w.round[:0], &r); w.err == nil {
			_, w.err = w.buf.Write(w.round)
		}
	}
	w.rounds++
	if w.rounds%FlushEvery == 0 {
		return w.flush()
	}
	return w.err
}

// Checkpoint makes the bytes written so far a complete replay of the rounds
// so far, without a result line (it reads as a battle that stopped early),
// and lets writing go on. It closes the current gzip member and starts the
// next one on the same stream: gzip readers, this package's included, read
// concatenated members as one stream. A program that keeps a battle's
// replay in memory calls it to save the battle while it is still running.
// Each checkpoint costs a few bytes and restarts the compression window.
func (w *Writer) Checkpoint() error {
	if w.done {
		return w.Close() // the result is written: the replay is complete (Close may be called again)
	}
	if err := w.flush(); err != nil {
		return err
	}
	if w.err = w.gz.Close(); w.err != nil {
		return w.err
	}
	w.gz.Reset(w.w)
	return nil
}

// End writes the result line from the battle's final snapshot.
func (w *Writer) End(final *engine.Snapshot, reason string) error {
	res := &Result{Round: final.Round, Winner: final.Winner, Reason: reason}
	for _, t := range final.Teams {
		res.Stats = append(res.Stats, statsRow(t.Stats))
		if final.Marks != nil {
			res.Values = append(res.Values, t.Values)
		}
	}
	w.line(resultLine{res})
	w.done = true
	return w.flush()
}

// Close finishes the gzip stream. A replay closed without End has no result
// line: it reads as a battle that stopped early. Closing again does nothing.
func (w *Writer) Close() error {
	if err := w.flush(); err != nil {
		return err
	}
	return w.gz.Close()
}

// File is a replay being written to disk. It writes to a temporary file
// next to the final name and renames it into place on Close, so the final
// name only ever holds a complete replay; if the program dies, the
// temporary file is left behind and plays up to its last flush.
type File struct {
	*Writer
	f    *os.File
	name string
}

// Create starts a replay file.
func Create(name string, h Header, start *engine.Snapshot) (*File, error) {
	// The file is renamed over name at the end: that must never replace
	// a device (run as root, --record /dev/null would turn /dev/null into
	// a regular file), a pipe or a folder.
	if st, err := os.Stat(name); err == nil && !st.Mode().IsRegular() {
		return nil, fmt.Errorf("replay %s: not a regular file", name)
	}
	f, err := os.CreateTemp(filepath.Dir(name), TempPattern(name))
	if err != nil {
		return nil, fmt.Errorf("replay: %w", err)
	}
	_ = f.Chmod(0o644) // CreateTemp makes it private; a replay is meant to be shared
	w, err := NewWriter(f, h, start)
	if err != nil {
		f.Close()
		os.Remove(f.Name())
		return nil, fmt.Errorf("replay %s: %w", name, err)
	}
	return &File{Writer: w, f: f, name: name}, nil
}

// Name is the final name of the file.
func (f *File) Name() string { return f.name }

// Close completes the file and moves it to its final name.
func (f *File) Close() error {
	err := errors.Join(f.Writer.Close(), f.f.Sync())
	err = errors.Join(err, f.f.Close())
	if err == nil {
		err = os.Rename(f.f.Name(), f.name)
	}
	if err != nil {
		os.Remove(f.f.Name())
		return fmt.Errorf("replay %s: %w", f.name, err)
	}
	return nil
}

// Abort drops the file.
func (f *File) Abort() {
	f.f.Close()
	os.Remove(f.f.Name())
}
