package bot

import (
	"bufio"
	"bytes"
	"errors"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"sync"
	"testing"
	"time"
)

// refbotPath builds testdata/refbot once per test binary.
var refbotPath = sync.OnceValues(func() (string, error) {
	dir, err := os.MkdirTemp("", "refbot")
	if err != nil {
		return "", err
	}
	out := filepath.Join(dir, "refbot")
	cmd := exec.Command("go", "build", "-o", out, "./testdata/refbot")
	if b, err := cmd.CombinedOutput(); err != nil {
		return "", errors.New(string(b))
	}
	return out, nil
})

// pipeConn is a minimal Conn over a program's standard input and output,
// for these tests only: the real one, with process groups, limits and
// TCP, is package bot/process.
type pipeConn struct {
	cmd    *exec.Cmd
	stdin  io.WriteCloser
	lines  chan lineOrErr
	stderr *bytes.Buffer
	once   sync.Once
	last   []byte
}

type lineOrErr struct {
	line []byte
	err  error
}

// startRefbot starts the reference bot with args; it is stopped when the
// test ends.
func startRefbot(t *testing.T, args ...string) *pipeConn {
	t.Helper()
	path, err := refbotPath()
	if err != nil {
		t.Fatalf("building refbot: %v", err)
	}
	cmd := exec.Command(path, args...)
	stdin, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	c := &pipeConn{cmd: cmd, stdin: stdin, lines: make(chan lineOrErr, 64), stderr: &bytes.Buffer{}}
	cmd.Stderr = &lockedWriter{w: c.stderr}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	go c.read(stdout)
	t.Cleanup(func() { c.Close() })
	return c
}

func (c *pipeConn) read(r io.Reader) {
	br := bufio.NewReaderSize(r, 1<<16)
	for {
		var line []byte
		for {
			chunk, err := br.ReadSlice('\n')
			line = append(line, chunk...)
			if len(line) > MaxLine+1 {
				c.lines <- lineOrErr{err: ErrLineTooLong}
				return
			}
			if err == bufio.ErrBufferFull {
				continue
			}
			if err != nil {
				c.lines <- lineOrErr{err: ErrClosed}
				return
			}
			break
		}
		c.lines <- lineOrErr{line: bytes.TrimRight(line, "\r\n")}
	}
}

func (c *pipeConn) Send(line []byte) error {
	if _, err := c.stdin.Write(append(line, '\n')); err != nil {
		return ErrClosed
	}
	return nil
}

func (c *pipeConn) Receive(deadline time.Time) ([]byte, error) {
	var timeout <-chan time.Time
	if !deadline.IsZero() {
		timer := time.NewTimer(time.Until(deadline))
		defer timer.Stop()
		timeout = timer.C
	}
	select {
	case l, ok := <-c.lines:
		if !ok {
			return nil, ErrClosed
		}
		if l.err != nil {
			c.lines <- l // every later Receive fails alike
			return nil, l.err
		}
		return l.line, nil
	case <-timeout:
		return nil, ErrLate
	}
}

func (c *pipeConn) Close() error {
	c.once.Do(func() {
		c.stdin.Close()
		c.cmd.Process.Kill()
		c.cmd.Wait()
	})
	return nil
}

type lockedWriter struct {
	mu sync.Mutex
	w  io.Writer
}

func (w *lockedWriter) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.w.Write(p)
}
