package bot

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"strconv"
	"unicode/utf8"
)

// ErrMalformed is what every rejected line of a bot wraps: not JSON, not a
// message, not the message expected, or an answer whose structure is
// wrong. The team is charged one error.
var ErrMalformed = errors.New("bot message malformed")

// MalformedError says what was wrong with one line of a bot, in one line
// for people. It wraps ErrMalformed.
type MalformedError struct {
	Reason string
}

func (e *MalformedError) Error() string { return e.Reason }

func (e *MalformedError) Unwrap() error { return ErrMalformed }

func malformed(format string, args ...any) error {
	return &MalformedError{Reason: fmt.Sprintf(format, args...)}
}

// inbound is one line of a bot, parsed as far as every message type
// shares: the fields are kept raw so that each is checked, and named, by
// the code that knows what it must be.
type inbound struct {
	Type     string
	Name     json.RawMessage // ready
	Protocol json.RawMessage // ready: the protocol the bot chose
	Round    json.RawMessage // actions
	Batch    json.RawMessage
	Actions  json.RawMessage // SquareBattle, protocol 1
	Orders   json.RawMessage // SquareBattle, protocol 2
	Answers  json.RawMessage // a rule mod
}

// at is where an answer belongs in a battle: a round and, in a rule mod,
// a batch of its calls.
type at struct{ round, batch int }

func (p at) before(q at) bool {
	if p.round != q.round {
		return p.round < q.round
	}
	return p.batch < q.batch
}

// parseLine parses one line of a bot as a message. It checks only what
// every message shares: a JSON object with a known "type" ("ready" or
// "actions").
func parseLine(line []byte) (inbound, error) { return parseKinds(line, false) }

// parseLine2 parses one line of a protocol-2 bot, which may also ask for
// a full state ("resync"): quickly when the line is good (scanLine),
// through encoding/json when it is not, to say why.
func parseLine2(line []byte) (inbound, error) {
	if m, ok := scanLine(line); ok {
		return m, nil
	}
	return parseKinds(line, true)
}

// parseKinds is parseLine, taking "resync" too when resync is set.
func parseKinds(line []byte, resync bool) (inbound, error) {
	var raw struct {
		Type     json.RawMessage `json:"type"`
		Name     json.RawMessage `json:"name"`
		Protocol json.RawMessage `json:"protocol"`
		Round    json.RawMessage `json:"round"`
		Batch    json.RawMessage `json:"batch"`
		Actions  json.RawMessage `json:"actions"`
		Orders   json.RawMessage `json:"orders"`
		Answers  json.RawMessage `json:"answers"`
	}
	trimmed := bytes.TrimSpace(line)
	if len(trimmed) == 0 {
		return inbound{}, malformed("an empty line")
	}
	if trimmed[0] != '{' {
		return inbound{}, malformed("not a JSON object: %s", clip(trimmed))
	}
	if nestedOver(trimmed, MaxNesting) {
		return inbound{}, malformed("JSON nested more than %d deep", MaxNesting)
	}
	if err := json.Unmarshal(trimmed, &raw); err != nil {
		return inbound{}, malformed("not JSON: %s", jsonReason(err))
	}
	var m inbound
	if len(raw.Type) == 0 {
		return inbound{}, malformed(`no "type"`)
	}
	if err := json.Unmarshal(raw.Type, &m.Type); err != nil {
		return inbound{}, malformed(`"type" is %s, not a string`, clip(raw.Type))
	}
	switch {
	case m.Type == "ready", m.Type == "actions", m.Type == "resync" && resync:
	default:
		return inbound{}, malformed("unknown message type %s", clip(raw.Type))
	}
	m.Name, m.Protocol, m.Round, m.Batch = raw.Name, raw.Protocol, raw.Round, raw.Batch
	m.Actions, m.Orders, m.Answers = raw.Actions, raw.Orders, raw.Answers
	return m, nil
}

// MaxNesting bounds how deep a bot's line may nest objects and lists: far
// over what any message needs (a rule mod's answer values, the deepest,
// nest 32 at most), and checked in one pass before encoding/json decodes
// anything, so that a line of a million brackets costs one scan.
const MaxNesting = 128

// nestedOver reports whether JSON text b nests objects and lists more
// than max deep; brackets inside strings do not count. It does not check
// that b is JSON.
func nestedOver(b []byte, max int) bool {
	depth, inString := 0, false
	for i := 0; i < len(b); i++ {
		c := b[i]
		switch {
		case inString:
			if c == '\\' {
				i++ // the escaped character, a quote included
			} else if c == '"' {
				inString = false
			}
		case c == '"':
			inString = true
		case c == '[' || c == '{':
			if depth++; depth > max {
				return true
			}
		case c == ']' || c == '}':
			depth--
		}
	}
	return false
}

// where reads an answer's round and batch (a missing batch is 0).
func (m *inbound) where() (at, error) {
	if len(m.Round) == 0 {
		return at{}, malformed(`no "round"`)
	}
	r, ok := wholeNumber(m.Round)
	if !ok || r < 0 || r > math.MaxInt32 {
		return at{}, malformed(`"round" is %s, not a round`, clip(m.Round))
	}
	b := int64(0)
	if len(m.Batch) > 0 && string(m.Batch) != "null" {
		b, ok = wholeNumber(m.Batch)
		if !ok || b < 0 || b > math.MaxInt32 {
			return at{}, malformed(`"batch" is %s, not a batch`, clip(m.Batch))
		}
	}
	return at{int(r), int(b)}, nil
}

// wholeNumber reads a JSON number that is a whole number (12, or 12.0,
// or 1.2e1), within ±2⁵³.
func wholeNumber(raw json.RawMessage) (int64, bool) {
	s := string(bytes.TrimSpace(raw))
	if v, err := strconv.ParseInt(s, 10, 64); err == nil {
		return v, v >= -1<<53 && v <= 1<<53
	}
	if s == "" || !(s[0] == '-' || s[0] >= '0' && s[0] <= '9') {
		return 0, false
	}
	f, err := strconv.ParseFloat(s, 64)
	if err != nil || f != math.Trunc(f) || math.Abs(f) > 1<<53 {
		return 0, false
	}
	return int64(f), true
}

// clip shows at most 40 bytes of a bot's text in a message, quoted when
// it is a string so that nothing it holds can pass for the message around
// it (the engine escapes what remains when it shows a problem).
func clip(b []byte) string {
	const n = 40
	if len(b) <= n {
		return string(b)
	}
	cut := n
	for cut > 0 && !utf8.RuneStart(b[cut]) {
		cut--
	}
	return string(b[:cut]) + "…"
}

// jsonReason is encoding/json's complaint without its package prefix.
func jsonReason(err error) string {
	var se *json.SyntaxError
	if errors.As(err, &se) {
		return fmt.Sprintf("%s (at byte %d)", trimJSON(se.Error()), se.Offset)
	}
	return trimJSON(err.Error())
}

func trimJSON(s string) string {
	const p = "json: "
	if len(s) > len(p) && s[:len(p)] == p {
		return s[len(p):]
	}
	return s
}
