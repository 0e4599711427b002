package luapattern

import (
	"errors"
	"math/rand/v2"
	"reflect"
	"testing"
)

// FuzzFind feeds arbitrary patterns and subjects to every entry point and
// checks: no panic; a malformed pattern gives an *Error; matching ends with a
// result or ErrBudget and nothing else; every offset is within bounds; an
// anchored match starts at init; and the budget only decides whether an
// answer comes, never which: a call that finishes within a small budget gives
// the same answer, for the same number of steps, with a larger one.
//
//	go test -run '^$' -fuzz FuzzFind -fuzztime 60s ./luabind/luapattern/
func FuzzFind(f *testing.F) {
	for _, c := range findCases {
		f.Add(c.pat, c.subj)
	}
	f.Add("a*a*a*a*a*a*a*a*b", "aaaaaaaaaaaaaaaaaaaaaaaaa")
	f.Add("(%b())(%f[%w]%w+)%2", "(x) ab ab")
	f.Fuzz(fuzzFind)
}

func fuzzFind(t *testing.T, pattern, subject string) {
	// Long inputs add nothing the budget tests do not cover, and make the
	// fuzzer's minimisation of new inputs crawl.
	if len(pattern) > 128 || len(subject) > 256 {
		return
	}
	p, err := Compile(pattern)
	if err != nil {
		var pe *Error
		if !errors.As(err, &pe) || pe.Msg == "" || pe.Pattern != pattern {
			t.Fatalf("Compile(%q) = %#v", pattern, err)
		}
		return
	}
	if p.NumCaptures() > MaxCaptures {
		t.Fatalf("%d captures", p.NumCaptures())
	}
	for _, init := range []int{0, len(subject) / 2, len(subject)} {
		const small, large = 5_000, 50_000
		s1 := int64(small)
		m1, ok1, err1 := p.Find(subject, init, &s1)
		if err1 != nil && !errors.Is(err1, ErrBudget) {
			t.Fatalf("Find(%q, %q, %d): unexpected error %v", pattern, subject, init, err1)
		}
		if err1 != nil {
			if s1 >= 0 {
				t.Fatalf("ErrBudget with %d steps left", s1)
			}
			continue
		}
		if s1 < 0 || s1 > small {
			t.Fatalf("budget left %d out of range", s1)
		}
		if ok1 {
			checkMatch(t, pattern, subject, init, p, m1)
		}
		s2 := int64(large)
		m2, ok2, err2 := p.Find(subject, init, &s2)
		if err2 != nil || ok1 != ok2 || !reflect.DeepEqual(m1, m2) || small-s1 != large-s2 {
			t.Fatalf("Find(%q, %q, %d): budget changed the answer: %v %+v (%d steps) vs %v %+v %v (%d steps)",
				pattern, subject, init, ok1, m1, small-s1, ok2, m2, err2, large-s2)
		}
	}
	// MatchAt at every position agrees with Find for an anchored
	// pattern and stays in bounds for any pattern.
	for pos := 0; pos <= len(subject) && pos < 64; pos++ {
		steps := int64(5_000)
		m, ok, err := p.MatchAt(subject, pos, &steps)
		if err != nil && !errors.Is(err, ErrBudget) {
			t.Fatalf("MatchAt: %v", err)
		}
		if ok {
			if m.Start != pos {
				t.Fatalf("MatchAt(%d) started at %d", pos, m.Start)
			}
			checkMatch(t, pattern, subject, pos, p, m)
		}
	}
	// A whole gsub with a capture-heavy replacement.
	steps := int64(20_000)
	out, n, err := p.Gsub(nil, subject, -1, &steps, func(dst []byte, m Match) ([]byte, error) {
		checkMatch(t, pattern, subject, m.Start, p, m)
		return Expand(dst, "[%0%1]", subject, m)
	})
	if err != nil && !errors.Is(err, ErrBudget) && err.Error() != msgCaptureIndex {
		t.Fatalf("Gsub: %v", err)
	}
	if err == nil && (n < 0 || n > len(subject)+1 || len(out) < len(subject)-n) {
		t.Fatalf("Gsub: %d matches, %d bytes out", n, len(out))
	}
	// gmatch walks forward and ends.
	gp, err := CompileGmatch(pattern)
	if err != nil {
		t.Fatalf("CompileGmatch(%q) failed after Compile succeeded: %v", pattern, err)
	}
	steps = 20_000
	for pos, iter := 0, 0; ; iter++ {
		m, next, ok, err := gp.GmatchNext(subject, pos, &steps)
		if err != nil || !ok {
			if err != nil && !errors.Is(err, ErrBudget) {
				t.Fatalf("GmatchNext: %v", err)
			}
			break
		}
		if next <= pos || m.Start < pos || iter > len(subject)+1 {
			t.Fatalf("GmatchNext does not advance: pos %d next %d match %+v", pos, next, m)
		}
		checkMatch(t, pattern, subject, m.Start, gp, m)
		pos = next
	}
}

// checkMatch asserts the invariants of a successful match found from init.
func checkMatch(t *testing.T, pattern, subject string, init int, p *Pattern, m Match) {
	t.Helper()
	if m.Start < init || m.Start > m.End || m.End > len(subject) {
		t.Fatalf("%q on %q from %d: match [%d,%d) out of bounds", pattern, subject, init, m.Start, m.End)
	}
	if p.Anchored() && m.Start != init {
		t.Fatalf("%q on %q: anchored match at %d, not %d", pattern, subject, m.Start, init)
	}
	if len(m.Captures) != p.NumCaptures() {
		t.Fatalf("%q: %d captures, want %d", pattern, len(m.Captures), p.NumCaptures())
	}
	for i, c := range m.Captures {
		if c.Start < 0 || c.Start > c.End || c.End > len(subject) || (c.Position && c.Start != c.End) {
			t.Fatalf("%q on %q: capture %d = %+v out of bounds", pattern, subject, i+1, c)
		}
		_ = c.Value(subject)
	}
}

// TestFuzzInvariants runs the FuzzFind checks on pseudo-random inputs from an
// alphabet rich in pattern syntax, so that plain "go test" exercises them too.
func TestFuzzInvariants(t *testing.T) {
	n := 30000
	if testing.Short() {
		n = 3000
	}
	r := rand.New(rand.NewPCG(3, 3))
	const alphabet = "ab1 ()[]%^$*+-?.bfz\x00\xff"
	for i := 0; i < n; i++ {
		fuzzFind(t, genSubject(r, alphabet, 12), genSubject(r, alphabet, 24))
	}
	for i := 0; i < n; i++ {
		fuzzFind(t, genPattern(r, patternAtoms, 8), genSubject(r, "abc1 ()", 24))
	}
}
