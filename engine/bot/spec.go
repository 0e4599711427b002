package bot

import (
	"bytes"
	"errors"
	"fmt"
	"net"
	"path"
	"strings"
	"unicode/utf8"

	"github.com/squarebattle/squarebattle/engine"
)

// Spec is a bot as an operator names it: a .bot file of the scripts folder
// or a --bot flag.
type Spec struct {
	ID        string   // the file name without .bot, or bot1, bot2, … for flags
	File      string   // where it was named, for messages: the file, or "--bot"
	Name      string   // the name listed before it runs ("" = ID)
	Command   []string // argv, run without a shell
	Dir       string   // the folder holding the .bot file ("" for a flag: the current one)
	Transport string   // "stdio" or "tcp"
	Connect   string   // tcp: HOST:PORT of a bot already listening (loopback)
	// Dial, when set, reaches a bot that already runs elsewhere and came
	// to the server (engine/bot/remote): no process is started.
	Dial func() (Conn, error)
	// Timing, when set, is the clock this bot plays under in place of the
	// battle's (a remote bot's round trip crosses a network: the server
	// gives it serve.bots); hello states it to the bot.
	Timing *Timing
}

// TimingIn is the clock the bot plays under in a battle whose bots play
// under t: its own Timing when it has one (t's NoTimeout still holds).
func (s *Spec) TimingIn(t Timing) Timing {
	if s.Timing == nil {
		return t
	}
	own := *s.Timing
	own.NoTimeout = own.NoTimeout || t.NoTimeout
	return own
}

// DisplayName is the name listed for the bot before it says its own.
func (s *Spec) DisplayName() string {
	if s.Name != "" {
		return s.Name
	}
	return s.ID
}

// MaxSpecBytes bounds a .bot file: a few lines naming a command.
const MaxSpecBytes = 4096

// ErrSpec is wrapped by every error about a .bot file or a --bot flag.
var ErrSpec = errors.New("bad bot")

// SpecError says what is wrong with a .bot file and on which line (0:
// the file as a whole). It wraps ErrSpec.
type SpecError struct {
	File   string
	Line   int
	Reason string
}

func (e *SpecError) Error() string {
	if e.Line > 0 {
		return fmt.Sprintf("%s:%d: %s", e.File, e.Line, e.Reason)
	}
	return e.File + ": " + e.Reason
}

func (e *SpecError) Unwrap() error { return ErrSpec }

// ParseSpec reads a .bot file: one "key: value" a line (command, name,
// transport, connect), blank lines and # comments ignored. file is its
// path as shown in messages; the bot's id is its base name without .bot
// and its folder is where the command runs.
func ParseSpec(file string, data []byte) (Spec, error) {
	s := Spec{ID: strings.TrimSuffix(path.Base(file), ".bot"), File: file, Dir: path.Dir(file), Transport: "stdio"}
	fail := func(line int, format string, args ...any) (Spec, error) {
		return Spec{}, &SpecError{File: file, Line: line, Reason: fmt.Sprintf(format, args...)}
	}
	if len(data) > MaxSpecBytes {
		return fail(0, "%d bytes; a .bot file is at most %d", len(data), MaxSpecBytes)
	}
	if !utf8.Valid(data) {
		return fail(0, "not UTF-8 text")
	}
	seen := map[string]bool{}
	for n, raw := range bytes.Split(data, []byte("\n")) {
		line := strings.TrimSpace(string(raw))
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		key, value, ok := strings.Cut(line, ":")
		if !ok {
			return fail(n+1, "%q is not key: value", clipText(line))
		}
		key, value = strings.TrimSpace(key), strings.TrimSpace(value)
		if seen[key] {
			return fail(n+1, "%s is given twice", clipText(key))
		}
		seen[key] = true
		switch key {
		case "command":
			argv, err := SplitCommand(value)
			if err != nil {
				return fail(n+1, "command: %v", err)
			}
			s.Command = argv
		case "name":
			if len(value) > MaxNameBytes {
				return fail(n+1, "name is %d bytes long; at most %d", len(value), MaxNameBytes)
			}
			s.Name = engine.SafeText(value)
		case "transport":
			if value != "stdio" && value != "tcp" {
				return fail(n+1, "transport %q is neither stdio nor tcp", clipText(value))
			}
			s.Transport = value
		case "connect":
			if err := loopback(value); err != nil {
				return fail(n+1, "connect: %v", err)
			}
			s.Connect = value
		default:
			return fail(n+1, "unknown key %q (keys: command, name, transport, connect)", clipText(key))
		}
	}
	switch {
	case s.Connect != "" && s.Transport != "tcp":
		return fail(0, "connect needs transport: tcp")
	case s.Connect != "" && s.Command != nil:
		return fail(0, "give command or connect, not both")
	case s.Connect == "" && s.Command == nil:
		return fail(0, "no command")
	}
	return s, nil
}

// loopback checks that addr is HOST:PORT on this machine.
func loopback(addr string) error {
	host, port, err := net.SplitHostPort(addr)
	if err != nil || port == "" {
		return fmt.Errorf("%q is not HOST:PORT", clipText(addr))
	}
	if host == "localhost" {
		return nil
	}
	if ip := net.ParseIP(host); ip == nil || !ip.IsLoopback() {
		return fmt.Errorf("%q is not a loopback address (127.0.0.1, ::1, localhost)", clipText(host))
	}
	return nil
}

// SplitCommand splits a command line into words as a shell would, without
// running one: white space separates words, single quotes keep everything
// up to the next single quote, double quotes keep everything up to the
// next unescaped double quote, and a backslash outside single quotes
// keeps the next character. Nothing is expanded.
func SplitCommand(s string) ([]string, error) {
	var words []string
	var w strings.Builder
	in, quote, escaped := false, byte(0), false
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case escaped:
			w.WriteByte(c)
			escaped = false
		case c == '\\' && quote != '\'':
			escaped, in = true, true
		case quote != 0 && c == quote:
			quote = 0
		case quote != 0:
			w.WriteByte(c)
		case c == '\'' || c == '"':
			quote, in = c, true
		case c == ' ' || c == '\t':
			if in {
				words = append(words, w.String())
				w.Reset()
				in = false
			}
		case c < 0x20 || c == 0x7f:
			return nil, fmt.Errorf("a control character (byte %#x)", c)
		default:
			w.WriteByte(c)
			in = true
		}
	}
	switch {
	case escaped:
		return nil, errors.New("ends with a backslash")
	case quote != 0:
		return nil, fmt.Errorf("an unclosed %c quote", quote)
	}
	if in {
		words = append(words, w.String())
	}
	if len(words) == 0 {
		return nil, errors.New("empty")
	}
	return words, nil
}

// clipText shows at most 40 bytes of an operator's text in a message.
func clipText(s string) string { return clip([]byte(engine.SafeText(s))) }
