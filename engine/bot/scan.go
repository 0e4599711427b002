package bot

import (
	"strings"
	"unicode/utf8"
)

// A hand-written reader for the lines of a protocol-2 bot: one pass over
// the line, no reflection, no allocation. It reads a JSON object's
// top-level members and keeps the raw text of the values it knows, as
// parseLine does, and checks the rest is JSON as it goes. It gives up
// (ok false) on anything it does not read quickly — invalid JSON, escapes
// in a key, nesting deeper than maxDepth — and the caller then asks
// parseLine, whose encoding/json says precisely what is wrong: the slow
// path is for the faulty lines only.

// maxDepth bounds nesting in the values the scanner skips.
const maxDepth = 64

// scanLine reads line as a bot's message quickly. ok is false when it
// could not: the line may still be good (parseLine decides).
func scanLine(line []byte) (m inbound, ok bool) {
	s := scanner{b: line}
	s.space()
	if !s.eat('{') {
		return m, false
	}
	s.space()
	if s.eat('}') {
		return m, false // no "type": parseLine says so
	}
	var typ []byte
	for {
		s.space()
		key, plain := s.key()
		if !plain {
			return m, false
		}
		s.space()
		if !s.eat(':') {
			return m, false
		}
		s.space()
		start := s.i
		if !s.value(0) {
			return m, false
		}
		raw := line[start:s.i]
		switch string(key) { // no allocation: the compiler compares in place
		case "type":
			typ = raw
		case "name":
			m.Name = raw
		case "round":
			m.Round = raw
		case "batch":
			m.Batch = raw
		case "actions":
			m.Actions = raw
		case "answers":
			m.Answers = raw
		case "orders":
			m.Orders = raw
		case "protocol":
			m.Protocol = raw
		default:
			if foldsToKnown(key) { // encoding/json matches keys in any case
				return m, false
			}
		}
		s.space()
		if s.eat(',') {
			continue
		}
		if !s.eat('}') {
			return m, false
		}
		break
	}
	s.space()
	if s.i != len(s.b) {
		return m, false
	}
	// The type must be a plain string the engine knows; anything else is
	// for parseLine to name.
	if len(typ) < 2 || typ[0] != '"' {
		return m, false
	}
	switch string(typ[1 : len(typ)-1]) {
	case "ready":
		m.Type = "ready"
	case "actions":
		m.Type = "actions"
	case "resync":
		m.Type = "resync"
	default:
		return m, false
	}
	return m, true
}

// knownKeys are the members scanLine keeps.
var knownKeys = [...]string{"type", "name", "round", "batch", "actions", "answers", "orders", "protocol"}

// foldsToKnown reports whether key is not ASCII or is one of knownKeys in
// another case: parseLine (encoding/json) would read it as that member.
func foldsToKnown(key []byte) bool {
	for _, c := range key {
		if c >= utf8.RuneSelf {
			return true
		}
	}
	for _, k := range knownKeys {
		if len(k) == len(key) && strings.EqualFold(k, string(key)) {
			return true
		}
	}
	return false
}

// scanner walks a line of JSON.
type scanner struct {
	b []byte
	i int
}

func (s *scanner) space() {
	for s.i < len(s.b) {
		switch s.b[s.i] {
		case ' ', '\t', '\n', '\r':
			s.i++
		default:
			return
		}
	}
}

func (s *scanner) eat(c byte) bool {
	if s.i < len(s.b) && s.b[s.i] == c {
		s.i++
		return true
	}
	return false
}

// key reads an object key without escapes; plain is false for any other
// key (or for what is not a string).
func (s *scanner) key() (key []byte, plain bool) {
	if !s.eat('"') {
		return nil, false
	}
	start := s.i
	for s.i < len(s.b) {
		c := s.b[s.i]
		switch {
		case c == '"':
			s.i++
			return s.b[start : s.i-1], true
		case c == '\\' || c < 0x20:
			return nil, false
		}
		s.i++
	}
	return nil, false
}

// value skips one JSON value, checking it.
func (s *scanner) value(depth int) bool {
	if s.i >= len(s.b) || depth > maxDepth {
		return false
	}
	switch c := s.b[s.i]; {
	case c == '"':
		return s.str()
	case c == '-' || c >= '0' && c <= '9':
		return s.number()
	case c == '[':
		s.i++
		s.space()
		if s.eat(']') {
			return true
		}
		for {
			s.space()
			if !s.value(depth + 1) {
				return false
			}
			s.space()
			if s.eat(',') {
				continue
			}
			return s.eat(']')
		}
	case c == '{':
		s.i++
		s.space()
		if s.eat('}') {
			return true
		}
		for {
			s.space()
			if s.i >= len(s.b) || s.b[s.i] != '"' || !s.str() {
				return false
			}
			s.space()
			if !s.eat(':') {
				return false
			}
			s.space()
			if !s.value(depth + 1) {
				return false
			}
			s.space()
			if s.eat(',') {
				continue
			}
			return s.eat('}')
		}
	case c == 't':
		return s.word("true")
	case c == 'f':
		return s.word("false")
	case c == 'n':
		return s.word("null")
	}
	return false
}

func (s *scanner) word(w string) bool {
	if len(s.b)-s.i >= len(w) && string(s.b[s.i:s.i+len(w)]) == w {
		s.i += len(w)
		return true
	}
	return false
}

// str skips a JSON string, checking its escapes; text that is not UTF-8
// is left to the slow path (encoding/json replaces it).
func (s *scanner) str() bool {
	s.i++ // the opening quote
	for s.i < len(s.b) {
		c := s.b[s.i]
		switch {
		case c == '"':
			s.i++
			return true
		case c == '\\':
			s.i++
			if s.i >= len(s.b) {
				return false
			}
			switch s.b[s.i] {
			case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
				s.i++
			case 'u':
				if len(s.b)-s.i < 5 {
					return false
				}
				for _, h := range s.b[s.i+1 : s.i+5] {
					if !(h >= '0' && h <= '9' || h >= 'a' && h <= 'f' || h >= 'A' && h <= 'F') {
						return false
					}
				}
				s.i += 5
			default:
				return false
			}
		case c < 0x20:
			return false
		case c < utf8.RuneSelf:
			s.i++
		default:
			r, n := utf8.DecodeRune(s.b[s.i:])
			if r == utf8.RuneError && n == 1 {
				return false
			}
			s.i += n
		}
	}
	return false
}

// number skips a JSON number: -?(0|[1-9][0-9]*)(.[0-9]+)?([eE][+-]?[0-9]+)?
func (s *scanner) number() bool {
	s.eat('-')
	switch {
	case s.eat('0'):
	case s.i < len(s.b) && s.b[s.i] >= '1' && s.b[s.i] <= '9':
		s.digits()
	default:
		return false
	}
	if s.eat('.') && !s.digits() {
		return false
	}
	if s.i < len(s.b) && (s.b[s.i] == 'e' || s.b[s.i] == 'E') {
		s.i++
		if !s.eat('+') {
			s.eat('-')
		}
		if !s.digits() {
			return false
		}
	}
	return true
}

// digits skips one or more digits.
func (s *scanner) digits() bool {
	start := s.i
	for s.i < len(s.b) && s.b[s.i] >= '0' && s.b[s.i] <= '9' {
		s.i++
	}
	return s.i > start
}
