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
// stderr never blocks on it (its flood costs its own CPU time, which
// RLIMIT_CPU bounds). w may be nil: everything is dropped, silently.
func copyLog(r io.Reader, w io.Writer, limit int) {
	br := bufio.NewReaderSize(r, 4096)
	left := limit
	var dropped int64
	for {
		chunk, err := br.ReadSlice('\n')
		if len(chunk) > 0 {
			line := chunk
			cut := false
			if line[len(line)-1] == '\n' {
				line = line[:len(line)-1]
			} else if errors.Is(err, bufio.ErrBufferFull) {
				cut = true
			}
			n := len(chunk)
			if cut {
				// The rest of the line, up to its newline, is dropped.
				for errors.Is(err, bufio.ErrBufferFull) {
					chunk, err = br.ReadSlice('\n')
					n += len(chunk)
				}
			}
			if len(line) > MaxLogLine {
				line, cut = line[:MaxLogLine], true
			}
			text := engine.SafeLine(string(line))
			if cut {
				text += " …"
			}
			text += "\n"
			switch {
			case w == nil:
			case len(text) <= left:
				left -= len(text)
				if _, werr := io.WriteString(w, text); werr != nil {
					w = nil // a log that fails stops receiving; the bot goes on
				}
			default:
				if dropped == 0 {
					_, _ = fmt.Fprintf(w, "(the bot's output passed %d bytes: the rest is dropped)\n", limit)
				}
				left = 0
				dropped += int64(n)
			}
		}
		if err != nil && !errors.Is(err, bufio.ErrBufferFull) {
			break
		}
	}
	if dropped > 0 && w != nil {
		_, _ = fmt.Fprintf(w, "(%d bytes of the bot's output dropped)\n", dropped)
	}
}
