//go:build unix

package kits

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/squarebattle/squarebattle/cmd/squarebattle/e2e/harness"
)

// The starter kits in docs/bots/ are real programs in Python, JavaScript
// and Go. These tests run them as the engine does: kits_test.go talks the
// protocol to them without the engine, over stdio and over TCP, with
// hand-drawn scenes whose answers can be judged exactly; kits_battle_test.go
// puts them in real battles.

// kitWait bounds how long a kit may take to answer one line before the
// test gives up on it (a bound on a hang, not a speed requirement).
const kitWait = 60 * time.Second

// kitGame names a kit's two bots.
type kitGame string

const (
	kitSquares kitGame = "squares"
	kitSnake   kitGame = "snake"
)

// kit is one language's starter kit.
type kit struct {
	lang string // the folder under docs/bots
	tool string // the program it needs on PATH
	pkg  string // the Debian package that has it (.ci/run installs it)
	// argv gives the command line that starts the kit's bot for a game.
	argv func(t *testing.T, game kitGame) []string
}

// kitsDir is docs/bots, from this package's folder (cmd/squarebattle/e2e/kits).
func kitsDir(t *testing.T) string {
	t.Helper()
	dir, err := filepath.Abs(filepath.Join("..", "..", "..", "..", "docs", "bots"))
	if err != nil {
		t.Fatal(err)
	}
	return dir
}

// scriptKit is a kit whose bots are scripts run by an interpreter, with
// flags before the script.
func scriptKit(lang, tool, pkg, ext string, flags ...string) kit {
	return kit{lang: lang, tool: tool, pkg: pkg, argv: func(t *testing.T, game kitGame) []string {
		argv := append([]string{tool}, flags...)
		return append(argv, filepath.Join(kitsDir(t), lang, string(game)+ext))
	}}
}

var kits = []kit{
	// -B: no __pycache__ written into the source tree.
	scriptKit("python", "python3", "python3", ".py", "-B"),
	scriptKit("node", "node", "nodejs", ".js"),
	{lang: "go", tool: "go", pkg: "golang", argv: goKitBot},
}

// goKitBot is the Go kit's bot for a game, built once per test binary.
func goKitBot(t *testing.T, game kitGame) []string {
	t.Helper()
	dir, err := goKitBuild()
	if err != nil {
		t.Fatal(err)
	}
	return []string{filepath.Join(dir, string(game))}
}

// goKitBuild vets the Go kit and builds both its bots into a temporary
// folder (the kit is a module of its own, so the repository's `go build
// ./...` and `go vet ./...` do not reach it). The folder outlives the
// tests, as refbot's does in engine/bot: nothing runs after the last test.
var goKitBuild = sync.OnceValues(func() (string, error) {
	out, err := os.MkdirTemp("", "kits")
	if err != nil {
		return "", err
	}
	kit, err := filepath.Abs(filepath.Join("..", "..", "..", "..", "docs", "bots", "go"))
	if err != nil {
		return "", err
	}
	for _, args := range [][]string{{"vet", "./..."}, {"build", "-o", out + "/", "./squares", "./snake"}} {
		cmd := exec.Command("go", args...)
		cmd.Dir = kit
		cmd.Env = append(cmd.Environ(), "GOWORK=off", "GOFLAGS=", "GOTOOLCHAIN=local")
		if b, err := cmd.CombinedOutput(); err != nil {
			return "", fmt.Errorf("go %s in docs/bots/go: %v\n%s", strings.Join(args, " "), err, b)
		}
	}
	return out, nil
})

// needKit skips (or, under TOOLS_REQUIRED, fails) a test whose kit's
// interpreter is not installed.
func needKit(t *testing.T, k kit) {
	t.Helper()
	if _, err := exec.LookPath(k.tool); err != nil {
		harness.SkipOrRequire(t, "the %s kit needs %s on PATH (apt-get install %s)", k.lang, k.tool, k.pkg)
	}
}

// kitSession is one running kit bot, talked to as the engine would.
type kitSession struct {
	t      *testing.T
	cmd    *exec.Cmd
	in     io.WriteCloser // the bot's input
	half   func() error   // closes the bot's input only
	lines  chan string    // the bot's protocol lines
	stdout bytes.Buffer   // under TCP: what the bot wrote to stdout (nothing, we hope)
	stderr harness.Log    // read while the bot may still write it
}

// startKit starts argv speaking the protocol over stdio, or over TCP to a
// listener of the test's as team `team` (ADDRESS PORT TEAM appended).
func startKit(t *testing.T, argv []string, tcp bool, team int) *kitSession {
	t.Helper()
	s := &kitSession{t: t, lines: make(chan string, 64)}
	var ln *net.TCPListener
	if tcp {
		l, err := net.ListenTCP("tcp", &net.TCPAddr{IP: net.IPv4(127, 0, 0, 1)})
		if err != nil {
			t.Fatal(err)
		}
		defer l.Close()
		ln = l
		addr := l.Addr().(*net.TCPAddr)
		argv = append(append([]string(nil), argv...), addr.IP.String(), strconv.Itoa(addr.Port), strconv.Itoa(team))
	}
	s.cmd = exec.Command(argv[0], argv[1:]...)
	s.cmd.Stderr = &s.stderr
	var out io.Reader
	if tcp {
		s.cmd.Stdout = &s.stdout
		if err := s.cmd.Start(); err != nil {
			t.Fatal(err)
		}
		ln.SetDeadline(time.Now().Add(kitWait))
		conn, err := ln.AcceptTCP()
		if err != nil {
			s.cmd.Process.Kill()
			s.cmd.Wait()
			t.Fatalf("%v never connected: %v\nstderr: %s", argv, err, s.stderr.String())
		}
		s.in, s.half, out = conn, conn.CloseWrite, conn
	} else {
		in, err := s.cmd.StdinPipe()
		if err != nil {
			t.Fatal(err)
		}
		pipe, err := s.cmd.StdoutPipe()
		if err != nil {
			t.Fatal(err)
		}
		if err := s.cmd.Start(); err != nil {
			t.Fatal(err)
		}
		s.in, s.half, out = in, in.Close, pipe
	}
	t.Cleanup(func() {
		s.in.Close()
		s.cmd.Process.Kill()
	})
	go func() {
		defer close(s.lines)
		in := bufio.NewScanner(out)
		in.Buffer(nil, 1<<20)
		for in.Scan() {
			s.lines <- in.Text()
		}
	}()
	return s
}

// send writes one message as a line.
func (s *kitSession) send(msg any) {
	s.t.Helper()
	b, err := json.Marshal(msg)
	if err != nil {
		s.t.Fatal(err)
	}
	if _, err := s.in.Write(append(b, '\n')); err != nil {
		s.t.Fatalf("writing to the bot: %v\nstderr: %s", err, s.stderr.String())
	}
}

// receive reads the bot's next line.
func (s *kitSession) receive(what string) []byte {
	s.t.Helper()
	select {
	case line, ok := <-s.lines:
		if !ok {
			s.cmd.Wait()
			s.t.Fatalf("the bot closed its output instead of answering %s\nstderr: %s", what, s.stderr.String())
		}
		return []byte(line)
	case <-time.After(kitWait):
		s.t.Fatalf("no answer to %s in %v\nstderr: %s", what, kitWait, s.stderr.String())
	}
	return nil
}

// finish sends end, closes the bot's input as the engine does, and
// requires the bot to exit cleanly without writing anything more.
func (s *kitSession) finish(end any) {
	s.t.Helper()
	s.send(end)
	s.half()
	if line, ok := <-s.lines; ok {
		s.t.Errorf("the bot wrote after end: %.200s", line)
	}
	done := make(chan error, 1)
	go func() { done <- s.cmd.Wait() }()
	select {
	case err := <-done:
		if err != nil {
			s.t.Errorf("the bot did not exit cleanly after end: %v\nstderr: %s", err, s.stderr.String())
		}
	case <-time.After(kitWait):
		s.t.Errorf("the bot still runs %v after end", kitWait)
	}
	if s.stdout.Len() > 0 {
		s.t.Errorf("under TCP the bot wrote to its standard output: %.200q", s.stdout.String())
	}
}

// handshake sends hello and checks the ready answer.
func (s *kitSession) handshake(hello any) {
	s.t.Helper()
	line := s.receiveAfter(hello, "hello")
	var ready struct {
		Type, Name string
	}
	if err := strictJSON(line, &ready); err != nil || ready.Type != "ready" || ready.Name == "" || len(ready.Name) > 64 {
		s.t.Fatalf("hello: want a ready line with a name of at most 64 bytes, got %s (%v)", line, err)
	}
	if !strings.HasPrefix(string(line), `{"type":`) {
		s.t.Errorf("ready: type is not the first field: %s", line)
	}
}

// receiveAfter sends msg and returns the answer.
func (s *kitSession) receiveAfter(msg any, what string) []byte {
	s.t.Helper()
	s.send(msg)
	return s.receive(what)
}

// strictJSON decodes one JSON object, refusing anything after it.
func strictJSON(line []byte, v any) error {
	d := json.NewDecoder(bytes.NewReader(line))
	if err := d.Decode(v); err != nil {
		return err
	}
	if d.More() {
		return fmt.Errorf("more after the object")
	}
	return nil
}

// forEachKit runs f with every kit's bot for a game, over each transport.
func forEachKit(t *testing.T, game kitGame, f func(t *testing.T, argv []string, tcp bool)) {
	for _, k := range kits {
		t.Run(k.lang, func(t *testing.T) {
			needKit(t, k)
			argv := k.argv(t, game)
			for _, tcp := range []bool{false, true} {
				name := "stdio"
				if tcp {
					name = "tcp"
				}
				t.Run(name, func(t *testing.T) { f(t, argv, tcp) })
			}
		})
	}
}
