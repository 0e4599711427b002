// Package luapattern implements Lua 5.1 string patterns (the language of
// string.find, string.match, string.gmatch and string.gsub, reference manual
// §5.4.1) with a deterministic step budget.
//
// # Why this package exists
//
// The game runs untrusted Lua scripts in a sandbox. Lua patterns are matched
// by backtracking, and a backtracking matcher can be made to do exponential
// work with a tiny input: ("a"):rep(25):find("a*a*a*a*a*a*a*a*b") keeps a
// classic matcher busy for seconds. Inside a single Go builtin the Lua VM's
// own instruction counting cannot interrupt that, so a hostile script could
// stall a server tick. Every matching function here therefore takes a
// caller-supplied step counter (*int64) and decrements it for each elementary
// step of work: each start position tried, each attempt to match one pattern
// item against one subject byte, each byte scanned by a repetition, %b or a
// back-reference, and each backtracking retry. The total CPU time of a call is
// thus O(steps consumed). When the counter would go below zero the matcher
// stops at once and returns ErrBudget. Counting is deterministic: the same
// pattern, subject and starting budget always consume the same number of steps
// on every platform, so a budget decision never depends on machine speed.
//
// The matcher is an explicit backtracking machine with its own choice stack,
// not a recursive function, so it uses no Go recursion at all. Its stack
// holds at most one entry per pattern item, independent of the subject
// length, so a megabyte subject with ".-" cannot exhaust memory; there is no
// need for Lua 5.2's "pattern too complex" recursion limit.
//
// Compiled patterns are immutable and safe for concurrent use.
//
// # Lua 5.1 semantics
//
// The pattern language, the capture rules and the results follow Lua 5.1
// exactly (character classes in the C locale: bytes >= 128 belong to no
// letter, digit, space or punctuation class), with these deliberate
// differences:
//
//   - Errors are reported by Compile, for every pattern, instead of only when
//     the matcher happens to reach the offending item. Lua 5.1 lets
//     ("x"):find("a%") return nil and only fails on subjects where the
//     matcher gets as far as the trailing '%'; here the pattern is always
//     rejected. The same holds for "unfinished capture" (Lua 5.1 raises it
//     only when a match succeeds and the captures are pushed), for
//     back-references to a capture that is not closed at that point
//     ("invalid capture index") and for "too many captures".
//   - A '\0' byte in a pattern is an ordinary character. Lua 5.1's matcher
//     reads patterns as C strings and stops at a '\0' (string.match("xa\0b",
//     "a\0o") is "a" there), while its string.find takes a pattern with no
//     special character before the first '\0' as plain text, as here. The
//     manual tells scripts to write %z instead; %z works here as well.
//
// # Costs outside the budget
//
// Compile is not charged: it takes time and memory linear in the pattern
// length (12 bytes per pattern byte, plus 32 per distinct set). The Lua
// binding should charge len(pattern) steps for it or cache compiled patterns.
// Result slices (Match.Captures) are allocated per match and hold at most 32
// entries. Gsub charges the bytes it appends; Expand, used on its own, is not
// charged.
package luapattern

import (
	"errors"
	"strconv"
	"unsafe"
)

// ErrBudget is returned when the step counter runs out.
var ErrBudget = errors.New("pattern matching step budget exhausted")

// MaxCaptures is the maximum number of captures in a pattern (Lua's
// LUA_MAXCAPTURES).
const MaxCaptures = 32

// Error is a malformed pattern (or, from Expand, a bad replacement string),
// with a message close to Lua 5.1's wording.
type Error struct {
	// Pattern is the offending pattern (for Expand: the replacement string).
	Pattern string
	// Msg is the Lua-style message, e.g. "malformed pattern (missing ']')".
	Msg string
}

func (e *Error) Error() string { return e.Msg }

// Error messages, worded as in Lua 5.1's lstrlib.c.
const (
	msgEndsWithPercent = "malformed pattern (ends with '%')"
	msgMissingBracket  = "malformed pattern (missing ']')"
	msgFrontierBracket = "missing '[' after '%f' in pattern"
	msgUnbalanced      = "unbalanced pattern"
	msgInvalidCapture  = "invalid pattern capture"
	msgCaptureIndex    = "invalid capture index"
	msgUnfinished      = "unfinished capture"
	msgTooManyCaptures = "too many captures"
)

// Capture is one capture of a match. Start and End are byte offsets into the
// subject (End exclusive). For a position capture "()" Position is true and
// Start == End is the offset where it matched; Lua reports it as the number
// Start+1.
type Capture struct {
	Start, End int
	Position   bool
}

// Value returns what Lua 5.1 pushes for the capture: the captured substring,
// or for a position capture its 1-based position as a decimal string. (The
// Lua binding should push a position capture as a number instead.)
func (c Capture) Value(subject string) string {
	if c.Position {
		return strconv.Itoa(c.Start + 1)
	}
	return subject[c.Start:c.End]
}

// Match is a successful match: the whole match is subject[Start:End].
// Captures holds one entry per capture of the pattern, in the order of their
// opening parentheses; it is empty when the pattern has no captures (Lua then
// uses the whole match where a first capture is expected).
type Match struct {
	Start, End int
	Captures   []Capture
}

// Pattern is a compiled Lua pattern.
type Pattern struct {
	src      string
	anchored bool
	items    []item
	ncap     int
	posCap   [MaxCaptures]bool
	sets     []charset
}

// String returns the source text of the pattern.
func (p *Pattern) String() string { return p.src }

// Anchored reports whether the pattern began with a '^' anchor (always false
// for a pattern from CompileGmatch).
func (p *Pattern) Anchored() bool { return p.anchored }

// NumCaptures returns the number of captures in the pattern (position
// captures included).
func (p *Pattern) NumCaptures() int { return p.ncap }

// clampInit limits a 0-based start offset to [0, n] like Lua 5.1's find does
// after translating a negative init.
func clampInit(init, n int) int {
	if init < 0 {
		return 0
	}
	if init > n {
		return n
	}
	return init
}

// Find looks for the first match starting at byte offset init (0-based,
// 0 <= init <= len(subject); values outside are clamped), honouring a leading
// '^' anchor: an anchored pattern is tried at init only. It is the search of
// Lua 5.1's string.find and string.match: every start position from init up
// to and including len(subject) is tried in turn. steps is decremented as
// work is done; when it would go below zero Find returns ErrBudget. A nil
// steps means no limit (only for trusted patterns).
func (p *Pattern) Find(subject string, init int, steps *int64) (m Match, ok bool, err error) {
	init = clampInit(init, len(subject))
	mt := newMachine(p, subject, steps)
	defer mt.finish(steps)
	for s := init; s <= len(subject); s++ {
		if !mt.charge(1) {
			return Match{}, false, ErrBudget
		}
		end, ok, err := mt.run(s)
		if err != nil {
			return Match{}, false, err
		}
		if ok {
			return mt.result(s, end), true, nil
		}
		if p.anchored {
			break
		}
	}
	return Match{}, false, nil
}

// MatchAt tries to match the pattern only at byte offset pos (clamped to
// [0, len(subject)]), as Lua 5.1's gmatch and gsub do while they walk the
// subject themselves. A leading '^' anchor of a pattern from Compile is
// simply satisfied (the match is at pos by definition); gsub must stop after
// its first attempt when Anchored() is true. Lua 5.1's gmatch does not treat
// '^' as an anchor at all but as a literal character: compile gmatch patterns
// with CompileGmatch.
func (p *Pattern) MatchAt(subject string, pos int, steps *int64) (m Match, ok bool, err error) {
	pos = clampInit(pos, len(subject))
	mt := newMachine(p, subject, steps)
	defer mt.finish(steps)
	if !mt.charge(1) {
		return Match{}, false, ErrBudget
	}
	end, ok, err := mt.run(pos)
	if err != nil || !ok {
		return Match{}, false, err
	}
	return mt.result(pos, end), true, nil
}

// GmatchNext performs one step of Lua 5.1's string.gmatch iterator: it looks
// for the first match at or after byte offset pos (every start position is
// tried, there is no anchor; use a pattern from CompileGmatch) and returns it
// together with the offset where the next call must continue: the match end,
// or one past it for an empty match. ok is false when there is no further
// match.
func (p *Pattern) GmatchNext(subject string, pos int, steps *int64) (m Match, next int, ok bool, err error) {
	if pos > len(subject) {
		return Match{}, pos, false, nil
	}
	pos = clampInit(pos, len(subject))
	mt := newMachine(p, subject, steps)
	defer mt.finish(steps)
	for s := pos; s <= len(subject); s++ {
		if !mt.charge(1) {
			return Match{}, pos, false, ErrBudget
		}
		end, ok, err := mt.run(s)
		if err != nil {
			return Match{}, pos, false, err
		}
		if ok {
			next = end
			if end == s {
				next++
			}
			return mt.result(s, end), next, true, nil
		}
	}
	return Match{}, len(subject) + 1, false, nil
}

// Gsub runs the loop of Lua 5.1's string.gsub: it appends to dst the subject
// with at most max matches (max < 0: no limit) replaced by whatever repl
// appends for each of them, and returns the result and the number of matches.
// (Lua's default limit is unlimited; a negative limit given by a script means
// no replacement at all in Lua 5.1, so the binding must pass 0 for it.)
// After an empty match one subject byte is copied and the search moves on;
// an anchored pattern is tried once, at offset 0. For a string replacement
// pass a repl that calls Expand; table and function replacements are the Lua
// binding's business (Lua 5.1 keeps the original match text when they give
// nil or false).
//
// Besides the matching work, Gsub charges one step per byte it appends
// (copied subject bytes and replacement output alike), so that one call
// cannot build an arbitrarily large string.
func (p *Pattern) Gsub(dst []byte, subject string, max int, steps *int64,
	repl func(dst []byte, m Match) ([]byte, error)) (out []byte, n int, err error) {
	mt := newMachine(p, subject, steps)
	defer mt.finish(steps)
	src := 0
	for max < 0 || n < max {
		if !mt.charge(1) {
			return dst, n, ErrBudget
		}
		end, ok, err := mt.run(src)
		if err != nil {
			return dst, n, err
		}
		if ok {
			n++
			before := len(dst)
			dst, err = repl(dst, mt.result(src, end))
			if err != nil {
				return dst, n, err
			}
			if !mt.charge(int64(len(dst) - before)) {
				return dst, n, ErrBudget
			}
		}
		switch {
		case ok && end > src:
			src = end
		case src < len(subject):
			if !mt.charge(1) {
				return dst, n, ErrBudget
			}
			dst = append(dst, subject[src])
			src++
		default:
			return dst, n, nil
		}
		if p.anchored {
			break
		}
	}
	if !mt.charge(int64(len(subject) - src)) {
		return dst, n, ErrBudget
	}
	return append(dst, subject[src:]...), n, nil
}

// Expand builds a gsub replacement from the replacement string repl, as Lua
// 5.1's gsub does for a string argument, appending to dst: %0 is the whole
// match, %1-%9 the captures (a position capture gives its 1-based position in
// decimal), and when the pattern has no captures %1 means the whole match; a
// %N beyond the captures is the error "invalid capture index". Any other %x
// appends x, so %% is a literal '%'. (Lua 5.1 does not reject an unknown
// escape such as "%a"; that error only came with Lua 5.2.) A '%' at the very
// end of repl appends a '\0' byte, which is what Lua 5.1 does because it reads
// the string's terminating NUL there.
func Expand(dst []byte, repl string, subject string, m Match) ([]byte, error) {
	for i := 0; i < len(repl); i++ {
		c := repl[i]
		if c != '%' {
			dst = append(dst, c)
			continue
		}
		i++
		if i == len(repl) {
			dst = append(dst, 0)
			break
		}
		c = repl[i]
		switch {
		case c == '0':
			dst = append(dst, subject[m.Start:m.End]...)
		case '1' <= c && c <= '9':
			k := int(c - '1')
			switch {
			case k < len(m.Captures):
				cp := m.Captures[k]
				if cp.Position {
					dst = strconv.AppendInt(dst, int64(cp.Start)+1, 10)
				} else {
					dst = append(dst, subject[cp.Start:cp.End]...)
				}
			case k == 0 && len(m.Captures) == 0:
				dst = append(dst, subject[m.Start:m.End]...)
			default:
				return dst, &Error{Pattern: repl, Msg: msgCaptureIndex}
			}
		default:
			dst = append(dst, c)
		}
	}
	return dst, nil
}

// ExpandSize returns the length of what Expand would append for repl and
// the match m, or Expand's error, in time linear in len(repl) (not in the
// result): a caller checks and charges a replacement before building it.
func ExpandSize(repl string, subject string, m Match) (int, error) {
	n := 0
	for i := 0; i < len(repl); i++ {
		if repl[i] != '%' {
			n++
			continue
		}
		i++
		if i == len(repl) {
			n++
			break
		}
		c := repl[i]
		switch {
		case c == '0':
			n += m.End - m.Start
		case '1' <= c && c <= '9':
			k := int(c - '1')
			switch {
			case k < len(m.Captures):
				cp := m.Captures[k]
				if cp.Position {
					n += len(strconv.Itoa(cp.Start + 1))
				} else {
					n += cp.End - cp.Start
				}
			case k == 0 && len(m.Captures) == 0:
				n += m.End - m.Start
			default:
				return 0, &Error{Pattern: repl, Msg: msgCaptureIndex}
			}
		default:
			n++
		}
	}
	return n, nil
}

// Size estimates the bytes a compiled pattern holds (its items, sets and
// fixed part; the source text is the caller's), for callers that cache
// compiled patterns and bound the cache by memory.
func (p *Pattern) Size() int {
	return int(unsafe.Sizeof(*p)) + cap(p.items)*int(unsafe.Sizeof(item{})) + cap(p.sets)*int(unsafe.Sizeof(charset{}))
}
