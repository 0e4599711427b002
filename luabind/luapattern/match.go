package luapattern

import "math"

// The matcher walks the item list with an explicit stack of choice points
// instead of recursing like Lua's C matcher. It explores the alternatives in
// exactly Lua 5.1's order:
//
//   - x?  first tries to take one byte, then to take none;
//   - x* and x+ first take as many bytes as possible, then give them back one
//     at a time;
//   - x-  first takes none, then one more byte at a time.
//
// A choice point records the item it belongs to and the subject position to
// resume from. When an item fails, the newest choice point is resumed with
// its next alternative and matching continues at the item after it.
//
// Captures need no undo log on backtracking: the path through the item list
// only moves forward, so after resuming at item k+1 every capture marker
// after k is executed again before anything reads that capture, and markers
// before k were not touched by the abandoned path. The stack holds at most
// one choice point per item (its items increase strictly from bottom to top).

type choice struct {
	pc int // the quantified item
	s  int // '?': position to resume at; '-': bytes taken so far end here; '*'/'+': base position
	k  int // '*'/'+': resume at s+k next, then s+k-1, ... down to s
}

type capPos struct{ start, end int }

// machine is the state of one call; it lives on the caller's stack.
type machine struct {
	p    *Pattern
	subj string
	left int64
	caps [MaxCaptures]capPos
}

// smallStack is the number of choice points run keeps in a local array.
const smallStack = 16

func newMachine(p *Pattern, subj string, steps *int64) machine {
	m := machine{p: p, subj: subj, left: math.MaxInt64}
	if steps != nil {
		m.left = *steps
	}
	return m
}

// finish writes the remaining budget back to the caller's counter. After
// ErrBudget the counter is negative.
func (m *machine) finish(steps *int64) {
	if steps != nil {
		*steps = m.left
	}
}

// charge takes n steps from the budget and reports whether the budget held.
func (m *machine) charge(n int64) bool {
	m.left -= n
	return m.left >= 0
}

func (m *machine) result(start, end int) Match {
	r := Match{Start: start, End: end}
	if m.p.ncap > 0 {
		r.Captures = make([]Capture, m.p.ncap)
		for i := range r.Captures {
			c := m.caps[i]
			if m.p.posCap[i] {
				r.Captures[i] = Capture{Start: c.start, End: c.start, Position: true}
			} else {
				r.Captures[i] = Capture{Start: c.start, End: c.end}
			}
		}
	}
	return r
}

// run matches the whole item list starting at subject offset s. It returns
// the end of the match, or ok == false, or ErrBudget.
func (m *machine) run(s int) (end int, ok bool, err error) {
	items := m.p.items
	subj := m.subj
	n := len(subj)
	// The stack starts in a local array and grows by append only when a
	// match really stacks that many choice points; every push has been paid
	// for with a step, so the memory is O(steps) as well as O(items).
	var local [smallStack]choice
	stack := local[:0]
	sets := m.p.sets
	left := m.left
	pc := 0

	for {
		if pc == len(items) {
			m.left = left
			return s, true, nil
		}
		it := &items[pc]
		left--
		if left < 0 {
			goto budget
		}
		switch it.op {
		case opChar, opClass:
			switch it.rep {
			case 0:
				if s < n && single(sets, it, subj[s]) {
					s++
					pc++
					continue
				}
				goto fail
			case '?':
				if s < n && single(sets, it, subj[s]) {
					stack = append(stack, choice{pc: pc, s: s})
					s++
				}
				pc++
				continue
			case '-':
				stack = append(stack, choice{pc: pc, s: s})
				pc++
				continue
			default: // '*', '+'
				if it.rep == '+' {
					if s >= n || !single(sets, it, subj[s]) {
						goto fail
					}
					s++
				}
				base := s
				for s < n && single(sets, it, subj[s]) {
					left--
					if left < 0 {
						goto budget
					}
					s++
				}
				if s > base {
					stack = append(stack, choice{pc: pc, s: base, k: s - base - 1})
				}
				pc++
				continue
			}
		case opOpen, opPosition:
			m.caps[it.n].start = s
			pc++
			continue
		case opClose:
			m.caps[it.n].end = s
			pc++
			continue
		case opBackref:
			if m.p.posCap[it.n] {
				// Lua 5.1 compares with a length of (size_t)CAP_POSITION,
				// which never fits: a back-reference to a position capture
				// always fails.
				goto fail
			}
			c := m.caps[it.n]
			l := c.end - c.start
			if n-s < l {
				goto fail
			}
			left -= int64(l)
			if left < 0 {
				goto budget
			}
			if subj[s:s+l] != subj[c.start:c.end] {
				goto fail
			}
			s += l
			pc++
			continue
		case opBalance:
			if s >= n || subj[s] != it.x {
				goto fail
			}
			depth := 1
			for i := s + 1; i < n; i++ {
				left--
				if left < 0 {
					goto budget
				}
				// The closing delimiter is tested first, so %bxx pairs
				// each x with the next one.
				if c := subj[i]; c == it.y {
					depth--
					if depth == 0 {
						s = i + 1
						pc++
						goto next
					}
				} else if c == it.x {
					depth++
				}
			}
			goto fail
		case opFrontier:
			// Before the subject and at its end the byte is taken as '\0'.
			var prev, cur byte
			if s > 0 {
				prev = subj[s-1]
			}
			if s < n {
				cur = subj[s]
			}
			if set := &sets[it.set]; set.has(prev) || !set.has(cur) {
				goto fail
			}
			pc++
			continue
		case opEnd:
			if s != n {
				goto fail
			}
			pc++
			continue
		}
	next:
		continue

	fail:
		for {
			left--
			if left < 0 {
				goto budget
			}
			if len(stack) == 0 {
				m.left = left
				return 0, false, nil
			}
			top := &stack[len(stack)-1]
			it := &items[top.pc]
			switch it.rep {
			case '?':
				s = top.s
				pc = top.pc + 1
				stack = stack[:len(stack)-1]
			case '-':
				if top.s >= n || !single(sets, it, subj[top.s]) {
					stack = stack[:len(stack)-1]
					continue
				}
				top.s++
				s = top.s
				pc = top.pc + 1
			default: // '*', '+'
				s = top.s + top.k
				pc = top.pc + 1
				if top.k == 0 {
					stack = stack[:len(stack)-1]
				} else {
					top.k--
				}
			}
			break
		}
	}
budget:
	m.left = left
	return 0, false, ErrBudget
}
