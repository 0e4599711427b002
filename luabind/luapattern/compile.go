package luapattern

// A compiled pattern is a flat list of items. Lua patterns have no
// alternation and no grouping under a quantifier, so the pattern is matched
// item by item from left to right; the only choices are how many bytes a
// quantified single-character class takes. Captures are therefore just
// "open" and "close" markers in the list, and because every capture's markers
// sit at fixed places in the list, the capture a marker refers to (and
// whether it is closed at any given point) is known at compile time.

type opcode uint8

const (
	opChar     opcode = iota // one literal byte x, optionally quantified
	opClass                  // one single-character class, optionally quantified
	opOpen                   // '(' : start capture n
	opPosition               // '()': position capture n
	opClose                  // ')' : close capture n
	opBackref                // %1-%9: the text of capture n again
	opBalance                // %bxy
	opFrontier               // %f[set]
	opEnd                    // '$' as the last pattern character
)

// item is kept small (12 bytes), so that a long pattern does not cost much
// more memory than its source text; character sets live in Pattern.sets,
// each distinct set once.
type item struct {
	op  opcode
	rep byte  // opChar, opClass: 0 (exactly once), '*', '+', '-' or '?'
	n   uint8 // capture index
	x   byte  // opChar: the byte; opBalance: the opening delimiter
	y   byte  // opBalance: the closing delimiter
	set int32 // opClass, opFrontier: index into Pattern.sets
}

// single reports whether byte b matches the single-character item it.
func single(sets []charset, it *item, b byte) bool {
	if it.op == opChar {
		return b == it.x
	}
	return sets[it.set].has(b)
}

// charset is a set of byte values.
type charset [4]uint64

func (c *charset) has(b byte) bool { return c[b>>6]&(1<<(b&63)) != 0 }
func (c *charset) add(b byte)      { c[b>>6] |= 1 << (b & 63) }

func (c *charset) addRange(lo, hi byte) {
	for b := int(lo); b <= int(hi); b++ {
		c.add(byte(b))
	}
}

func (c *charset) union(o *charset) {
	for i := range c {
		c[i] |= o[i]
	}
}

func (c *charset) invert() {
	for i := range c {
		c[i] = ^c[i]
	}
}

// The C-locale character classes of %a, %c, %d, %l, %p, %s, %u, %w, %x, %z.
var classSets [256]*charset

func init() {
	mk := func(letter byte, pred func(b byte) bool) {
		var s charset
		for b := 0; b < 256; b++ {
			if pred(byte(b)) {
				s.add(byte(b))
			}
		}
		classSets[letter] = &s
	}
	isUpper := func(b byte) bool { return 'A' <= b && b <= 'Z' }
	isLower := func(b byte) bool { return 'a' <= b && b <= 'z' }
	isDigit := func(b byte) bool { return '0' <= b && b <= '9' }
	isAlpha := func(b byte) bool { return isUpper(b) || isLower(b) }
	isSpace := func(b byte) bool { return b == ' ' || ('\t' <= b && b <= '\r') }
	isCntrl := func(b byte) bool { return b < 32 || b == 127 }
	mk('a', isAlpha)
	mk('c', isCntrl)
	mk('d', isDigit)
	mk('l', isLower)
	mk('p', func(b byte) bool { // printable, not space, not alphanumeric
		return b > 32 && b < 127 && !isAlpha(b) && !isDigit(b)
	})
	mk('s', isSpace)
	mk('u', isUpper)
	mk('w', func(b byte) bool { return isAlpha(b) || isDigit(b) })
	mk('x', func(b byte) bool {
		return isDigit(b) || ('a' <= b && b <= 'f') || ('A' <= b && b <= 'F')
	})
	mk('z', func(b byte) bool { return b == 0 })
}

// classOf returns the set of the class letter e (%a, %d, ...) without its
// complement for an upper-case letter, or nil when "%e" is the plain
// character e.
func classOf(e byte) (cls *charset, upper bool) {
	if 'A' <= e && e <= 'Z' {
		return classSets[e+('a'-'A')], true
	}
	return classSets[e], false
}

func isClassLetter(e byte) bool {
	cls, _ := classOf(e)
	return cls != nil
}

// addEscape adds to the set what "%e" stands for: a class for the class
// letters (upper case: its complement), otherwise the character e itself.
func (c *charset) addEscape(e byte) {
	if cls, upper := classOf(e); cls != nil {
		s := *cls
		if upper {
			s.invert()
		}
		c.union(&s)
		return
	}
	c.add(e)
}

// Compile compiles a Lua 5.1 pattern as string.find, string.match and
// string.gsub see it: a leading '^' anchors the match. All syntax errors are
// reported here (see the package documentation).
func Compile(pattern string) (*Pattern, error) {
	return compile(pattern, true)
}

// CompileGmatch compiles a pattern as Lua 5.1's string.gmatch sees it: there
// is no anchor, a leading '^' is an ordinary character.
func CompileGmatch(pattern string) (*Pattern, error) {
	return compile(pattern, false)
}

// MustCompile is like Compile but panics on error. For patterns in Go code.
func MustCompile(pattern string) *Pattern {
	p, err := Compile(pattern)
	if err != nil {
		panic(err)
	}
	return p
}

type compiler struct {
	p      *Pattern
	open   []uint8 // unfinished captures, innermost last
	closed [MaxCaptures]bool
	setIDs map[charset]int32
}

// intern returns the index of s in p.sets, adding it if it is new.
func (c *compiler) intern(s *charset) int32 {
	if id, ok := c.setIDs[*s]; ok {
		return id
	}
	if c.setIDs == nil {
		c.setIDs = make(map[charset]int32)
	}
	id := int32(len(c.p.sets))
	c.p.sets = append(c.p.sets, *s)
	c.setIDs[*s] = id
	return id
}

func compile(pattern string, anchorAllowed bool) (*Pattern, error) {
	// One item per pattern byte at most: allocate that once instead of
	// letting append overshoot on long patterns.
	p := &Pattern{src: pattern, items: make([]item, 0, len(pattern))}
	c := compiler{p: p}
	i := 0
	if anchorAllowed && len(pattern) > 0 && pattern[0] == '^' {
		p.anchored = true
		i = 1
	}
	fail := func(msg string) (*Pattern, error) {
		return nil, &Error{Pattern: pattern, Msg: msg}
	}
	for i < len(pattern) {
		switch ch := pattern[i]; ch {
		case '(':
			if p.ncap >= MaxCaptures {
				return fail(msgTooManyCaptures)
			}
			n := uint8(p.ncap)
			p.ncap++
			if i+1 < len(pattern) && pattern[i+1] == ')' {
				p.posCap[n] = true
				c.closed[n] = true
				p.items = append(p.items, item{op: opPosition, n: n})
				i += 2
				continue
			}
			c.open = append(c.open, n)
			p.items = append(p.items, item{op: opOpen, n: n})
			i++
			continue
		case ')':
			if len(c.open) == 0 {
				return fail(msgInvalidCapture)
			}
			n := c.open[len(c.open)-1]
			c.open = c.open[:len(c.open)-1]
			c.closed[n] = true
			p.items = append(p.items, item{op: opClose, n: n})
			i++
			continue
		case '$':
			if i+1 == len(pattern) {
				p.items = append(p.items, item{op: opEnd})
				i++
				continue
			}
		case '%':
			if i+1 >= len(pattern) {
				return fail(msgEndsWithPercent)
			}
			switch e := pattern[i+1]; {
			case e == 'b':
				if i+3 >= len(pattern) {
					return fail(msgUnbalanced)
				}
				p.items = append(p.items, item{op: opBalance, x: pattern[i+2], y: pattern[i+3]})
				i += 4
				continue
			case e == 'f':
				i += 2
				if i >= len(pattern) || pattern[i] != '[' {
					return fail(msgFrontierBracket)
				}
				var set charset
				next, ok := parseSet(pattern, i, &set)
				if !ok {
					return fail(msgMissingBracket)
				}
				p.items = append(p.items, item{op: opFrontier, set: c.intern(&set)})
				i = next
				continue
			case '0' <= e && e <= '9':
				k := int(e) - '1'
				if k < 0 || k >= p.ncap || !c.closed[k] {
					return fail(msgCaptureIndex)
				}
				p.items = append(p.items, item{op: opBackref, n: uint8(k)})
				i += 2
				continue
			}
		}
		// A single-character class, possibly followed by a quantifier.
		var it item
		switch ch := pattern[i]; {
		case ch == '%' && i+1 < len(pattern) && !isClassLetter(pattern[i+1]):
			it = item{op: opChar, x: pattern[i+1]} // an escaped plain character
			i += 2
		case ch == '.' || ch == '%' || ch == '[':
			var set charset
			next, msg := parseSingle(pattern, i, &set)
			if msg != "" {
				return fail(msg)
			}
			it = item{op: opClass, set: c.intern(&set)}
			i = next
		default:
			it = item{op: opChar, x: ch}
			i++
		}
		next := i
		if next < len(pattern) {
			switch q := pattern[next]; q {
			case '*', '+', '-', '?':
				it.rep = q
				next++
			}
		}
		p.items = append(p.items, it)
		i = next
	}
	if len(c.open) > 0 {
		return fail(msgUnfinished)
	}
	return p, nil
}

// parseSingle parses the single-character class starting at pattern[i] into s
// and returns the index just after it, or an error message.
func parseSingle(pattern string, i int, s *charset) (next int, msg string) {
	switch pattern[i] {
	case '.':
		s.invert() // every byte
		return i + 1, ""
	case '%':
		if i+1 >= len(pattern) {
			return 0, msgEndsWithPercent
		}
		s.addEscape(pattern[i+1])
		return i + 2, ""
	case '[':
		next, ok := parseSet(pattern, i, s)
		if !ok {
			return 0, msgMissingBracket
		}
		return next, ""
	default:
		s.add(pattern[i])
		return i + 1, ""
	}
}

// parseSet parses the set starting with the '[' at pattern[i] into s and
// returns the index after its closing ']'; ok is false if there is none.
//
// Lua 5.1 finds the end of a set and interprets its contents in two separate
// scans, and the two do not always agree; both are reproduced here. The end
// scan takes the first element unconditionally (so "[]" and "[^]" start with
// a literal ']') and skips the byte after every '%'. The contents scan reads
// "%x" as an escape, "x-y" as a range when y is not the closing ']', and
// anything else as a literal, so in "[a-%]]" the '%' ends a range and the
// first ']' becomes a literal member.
func parseSet(pattern string, i int, s *charset) (next int, ok bool) {
	k := i + 1
	negate := false
	if k < len(pattern) && pattern[k] == '^' {
		negate = true
		k++
	}
	first := k
	// End scan.
	for {
		if k >= len(pattern) {
			return 0, false
		}
		c := pattern[k]
		k++
		if c == '%' && k < len(pattern) {
			k++
		}
		if k < len(pattern) && pattern[k] == ']' {
			break
		}
	}
	closing := k
	// Contents scan over pattern[first:closing].
	for q := first; q < closing; {
		c := pattern[q]
		switch {
		case c == '%':
			// The escaped byte exists: at worst it is the closing ']'.
			s.addEscape(pattern[q+1])
			q += 2
		case pattern[q+1] == '-' && q+2 < closing:
			s.addRange(c, pattern[q+2])
			q += 3
		default:
			s.add(c)
			q++
		}
	}
	if negate {
		s.invert()
	}
	return closing + 1, true
}
