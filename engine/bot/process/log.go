package process

import (
	"bufio"
	"errors"
	"fmt"
	"io"

	"github.com/squarebattle/squarebattle/engine"
)

// copyLog reads what a bot writes on stderr (and, over TCP, stdout) until
// r ends, and writes it to w as lines made safe for a terminal, each cut
// at MaxLogLine bytes, at most limit bytes in all. What goes over is
// counted and dropped: one note when the cap is reached, one at the end
// saying how much. r is always read to its end, so a bot that floods its
// stderr never blocks on it; once the cap is reached the rest is only
// counted, without being looked at, so the flood costs the engine little (and the
// bot its own CPU time, which RLIMIT_CPU bounds). w may be nil: everything
// is dropped, silently.
func copyLog(r io.Reader, w io.Writer, limit int) {
	br := bufio.NewReaderSize(r, 4096)
	left := limit
	var dropped int64
	for w != nil {
		chunk, err := br.ReadSlice('\n')
		n := len(chunk)
		line, cut := chunk, false
		switch {
		case n > 0 && chunk[n-1] == '\n':
			line = chunk[:n-1]
		case errors.Is(err, bufio.ErrBufferFull):
			// The rest of the line, up to its newline, is dropped.
			cut = true
			for errors.Is(err, bufio.ErrBufferFull) {
				chunk, err = br.ReadSlice('\n')
				n += len(chunk)
			}
		}
		if n > 0 {
			if len(line) > MaxLogLine {
				line, cut = line[:MaxLogLine], true
			}
			text := engine.SafeLine(string(line))
			if cut {
				text += " …"
			}
			text += "\n"
			if len(text) > left {
				_, _ = fmt.Fprintf(w, "(the bot's output passed %d bytes: the rest is dropped)\n", limit)
				dropped = int64(n)
				break
			}
			left -= len(text)
			if _, werr := io.WriteString(w, text); werr != nil {
				w = nil // a log that fails stops receiving; the bot goes on
			}
		}
		if err != nil {
			return
		}
	}
	rest, _ := br.WriteTo(io.Discard)
	if dropped += rest; dropped > 0 && w != nil {
		_, _ = fmt.Fprintf(w, "(%d bytes of the bot's output dropped)\n", dropped)
	}
}
