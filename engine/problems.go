package engine

// problemLog keeps what people need to see about script faults without
// growing with the length of a battle: the first problem of each kind
// (error, timeout) of every (team, class) pair, and the most recent ones
// in a ring.
type problemLog struct {
	first  []Problem
	seen   map[[3]int]bool // (team, class, kind) with a first problem
	recent [recentProblems]Problem
	n      int // problems ever added
}

const recentProblems = 32

func (l *problemLog) add(p Problem) {
	// Every problem people may see passes here, whoever raised it: its
	// text is made safe to print once, at the source.
	p.Message = SafeText(p.Message)
	p.Trace = SafeLines(p.Trace)
	// the first of each kind: a class that erred and then ran out of
	// time shows its first timeout too
	key := [3]int{p.Team, int(p.Class), int(p.Kind)}
	if !l.seen[key] {
		if l.seen == nil {
			l.seen = map[[3]int]bool{}
		}
		l.seen[key] = true
		l.first = append(l.first, p)
	}
	l.recent[l.n%recentProblems] = p
	l.n++
}

// latest returns up to recentProblems problems, oldest first.
func (l *problemLog) latest() []Problem {
	k := min(l.n, recentProblems)
	out := make([]Problem, 0, k)
	for i := l.n - k; i < l.n; i++ {
		out = append(out, l.recent[i%recentProblems])
	}
	return out
}
