package luapattern

import (
	"errors"
	"strings"
	"testing"
	"time"
)

// The classic exponential backtracking case: 25 'a's against eight a* items
// and a 'b' that is never there.
var (
	expSubject = strings.Repeat("a", 25)
	expPattern = MustCompile("a*a*a*a*a*a*a*a*b")
)

func TestBudgetExponential(t *testing.T) {
	const budget = 1_000_000
	steps := int64(budget)
	start := time.Now()
	_, ok, err := expPattern.Find(expSubject, 0, &steps)
	elapsed := time.Since(start)
	if !errors.Is(err, ErrBudget) || ok {
		t.Fatalf("Find = %v, %v; want ErrBudget", ok, err)
	}
	if steps >= 0 {
		t.Errorf("counter after ErrBudget = %d, want negative", steps)
	}
	if steps < -1 {
		t.Errorf("counter overshot to %d: the matcher did not stop promptly", steps)
	}
	t.Logf("exponential case: ErrBudget after %d steps in %v (%.1f ns/step)",
		budget, elapsed, float64(elapsed.Nanoseconds())/budget)
	// How long stopping takes is the benchmark's figure (a few ms); the
	// counter above already shows the matcher stopped at the budget.

	// The same happens through every entry point.
	steps = budget
	if _, ok, err := expPattern.MatchAt(expSubject, 0, &steps); ok || !errors.Is(err, ErrBudget) {
		t.Errorf("MatchAt = %v, %v", ok, err)
	}
	gp, _ := CompileGmatch("a*a*a*a*a*a*a*a*b")
	steps = budget
	if _, _, ok, err := gp.GmatchNext(expSubject, 0, &steps); ok || !errors.Is(err, ErrBudget) {
		t.Errorf("GmatchNext = %v, %v", ok, err)
	}
	steps = budget
	_, _, err = expPattern.Gsub(nil, expSubject, -1, &steps, func(dst []byte, m Match) ([]byte, error) {
		return dst, nil
	})
	if !errors.Is(err, ErrBudget) {
		t.Errorf("Gsub = %v", err)
	}
}

// A small exponential case finishes with the right answer when the budget
// suffices, and the cost is exactly reproducible.
func TestBudgetDeterministic(t *testing.T) {
	p := MustCompile("a*a*a*b")
	subj := strings.Repeat("a", 12)
	var costs []int64
	for i := 0; i < 3; i++ {
		steps := int64(1_000_000)
		_, ok, err := p.Find(subj, 0, &steps)
		if ok || err != nil {
			t.Fatalf("Find = %v, %v", ok, err)
		}
		costs = append(costs, 1_000_000-steps)
	}
	if costs[0] != costs[1] || costs[1] != costs[2] {
		t.Errorf("costs differ between runs: %v", costs)
	}
	// With one step less than needed the budget runs out.
	steps := costs[0] - 1
	if _, _, err := p.Find(subj, 0, &steps); !errors.Is(err, ErrBudget) {
		t.Errorf("with %d steps: %v, want ErrBudget", costs[0]-1, err)
	}
	// Exactly enough is enough, and leaves zero.
	steps = costs[0]
	if _, _, err := p.Find(subj, 0, &steps); err != nil || steps != 0 {
		t.Errorf("with %d steps: %v, %d left", costs[0], err, steps)
	}
	t.Logf("a*a*a*b against 12 a's: %d steps", costs[0])
}

// Normal matches cost little: they never exhaust a small budget.
func TestBudgetNormalMatches(t *testing.T) {
	cases := []struct {
		pat, subj string
		max       int64 // the cost must stay at or below this
	}{
		{"^(%w+)%s*=%s*(%w+)$", "playerSpeedLimit = 123456789ab", 300}, // 30 bytes
		{"^(%w+)%s*=%s*(%w+)$", "spawnRadiusLimit    =    42000", 300}, // 30 bytes
		{"(%d+)-(%d+)", "tel 123-456 or 789", 100},
		{"%a+", "   hello", 100},
		{"^%s*(.-)%s*$", "   trim me please   ", 300},
		{"%f[%w]%w+", strings.Repeat(" ", 20) + "word", 200},
		{"%b()", "f(a, (b), c) + g(x)", 100},
	}
	for _, c := range cases {
		p := MustCompile(c.pat)
		steps := int64(1000)
		m, ok, err := p.Find(c.subj, 0, &steps)
		if err != nil || !ok {
			t.Errorf("find(%q, %q) = %v, %v", c.subj, c.pat, ok, err)
			continue
		}
		cost := 1000 - steps
		t.Logf("find(%q, %q) = %s in %d steps", c.subj, c.pat, formatMatch(c.subj, m, strings.Clone), cost)
		if cost > c.max {
			t.Errorf("find(%q, %q) cost %d steps, want <= %d", c.subj, c.pat, cost, c.max)
		}
	}
}

// Work on a long subject is charged per byte and never recurses: a 1 MiB
// subject with ".-", ".*" and "%b" completes or stops on the budget without
// growing the Go stack.
func TestLongSubject(t *testing.T) {
	subj := strings.Repeat("a", 1<<20)
	cases := []struct {
		pat  string
		want string // luaFind-style result of the first match, or "budget"
	}{
		{"^(.-)$", `1 1048576`},
		{"^.-b", `nil`},
		{".*", `1 1048576`},
		{"^(a*)b", `nil`},
		{"^(a*)(a*)b", `budget`}, // O(n^2) ways to split
		{"a-b", `budget`},        // O(n^2): every start scans to the end
		{"()$", `1048577 1048576 1048577`},
	}
	for _, c := range cases {
		steps := int64(20_000_000)
		m, ok, err := MustCompile(c.pat).Find(subj, 0, &steps)
		var got string
		switch {
		case errors.Is(err, ErrBudget):
			got = "budget"
		case err != nil:
			got = err.Error()
		case !ok:
			got = "nil"
		default:
			got = formatMatch(subj, m, func(s string) string { return "" })
			got = strings.TrimRight(got, " ")
		}
		if got != c.want {
			t.Errorf("%q on 1 MiB: %s, want %s", c.pat, got, c.want)
		}
	}
}

// A budget that is already spent stops before any work; nil means no limit.
func TestBudgetEdges(t *testing.T) {
	p := MustCompile("a")
	steps := int64(0)
	if _, _, err := p.Find("a", 0, &steps); !errors.Is(err, ErrBudget) {
		t.Errorf("zero budget: %v", err)
	}
	steps = -5
	if _, _, err := p.Find("a", 0, &steps); !errors.Is(err, ErrBudget) {
		t.Errorf("negative budget: %v", err)
	}
	if m, ok, err := p.Find("ba", 0, nil); err != nil || !ok || m.Start != 1 {
		t.Errorf("nil budget: %+v %v %v", m, ok, err)
	}
	// Gsub charges the bytes it appends: a huge output needs a huge budget.
	steps = 100_000
	_, _, err := MustCompile("").Gsub(nil, strings.Repeat("x", 1000), -1, &steps,
		func(dst []byte, m Match) ([]byte, error) {
			return append(dst, strings.Repeat("y", 1000)...), nil
		})
	if !errors.Is(err, ErrBudget) {
		t.Errorf("Gsub with a 1 MB output on 100k steps: %v", err)
	}
}

func BenchmarkExponentialBudget1e6(b *testing.B) {
	for b.Loop() {
		steps := int64(1_000_000)
		if _, _, err := expPattern.Find(expSubject, 0, &steps); !errors.Is(err, ErrBudget) {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/1e6, "ns/step")
}

func BenchmarkKeyValue(b *testing.B) {
	p := MustCompile("^(%w+)%s*=%s*(%w+)$")
	subj := "playerSpeedLimit = 123456789ab"
	var cost int64
	for b.Loop() {
		steps := int64(1000)
		if _, ok, err := p.Find(subj, 0, &steps); !ok || err != nil {
			b.Fatal(ok, err)
		}
		cost = 1000 - steps
	}
	b.ReportMetric(float64(cost), "steps/op")
}

func BenchmarkGsubWords(b *testing.B) {
	p := MustCompile("(%w+)")
	subj := strings.Repeat("hello world, ", 100)
	var dst []byte
	var cost int64
	for b.Loop() {
		steps := int64(1_000_000)
		var err error
		dst, _, err = p.Gsub(dst[:0], subj, -1, &steps, func(dst []byte, m Match) ([]byte, error) {
			return Expand(dst, "<%1>", subj, m)
		})
		if err != nil {
			b.Fatal(err)
		}
		cost = 1_000_000 - steps
	}
	b.ReportMetric(float64(cost), "steps/op")
}

func BenchmarkLongSubjectMinExpand(b *testing.B) {
	p := MustCompile("^(.-)$")
	subj := strings.Repeat("a", 1<<20)
	var cost int64
	for b.Loop() {
		steps := int64(10_000_000)
		if _, ok, err := p.Find(subj, 0, &steps); !ok || err != nil {
			b.Fatal(ok, err)
		}
		cost = 10_000_000 - steps
	}
	b.ReportMetric(float64(cost), "steps/op")
}
