package detmath

import "math"

// Log returns the natural logarithm of x: Log(0) = -Inf, Log(x<0) = NaN,
// Log(+Inf) = +Inf. FreeBSD msun's e_log.c: x = 2^k·(1+f) with
// √2/2 ≤ 1+f < √2, then log(1+f) = f - f²/2 + s·(f²/2 + R(s²)),
// s = f/(2+f).
func Log(x float64) float64 {
	const (
		l1 = 6.666666666666735130e-01
		l2 = 3.999999999940941908e-01
		l3 = 2.857142874366239149e-01
		l4 = 2.222219843214978396e-01
		l5 = 1.818357216161805012e-01
		l6 = 1.531383769920937332e-01
		l7 = 1.479819860511658591e-01
	)
	switch {
	case x != x || math.IsInf(x, 1):
		return x
	case x < 0:
		return math.NaN()
	case x == 0:
		return math.Inf(-1)
	}
	f1, ki := math.Frexp(x)
	if f1 < math.Sqrt2/2 {
		f1 *= 2
		ki--
	}
	f := f1 - 1
	k := float64(ki)
	s := f / (2 + f)
	s2 := s * s
	s4 := s2 * s2
	t1 := l5 + float64(s4*l7)
	t1 = l3 + float64(s4*t1)
	t1 = l1 + float64(s4*t1)
	t1 = float64(s2 * t1)
	t2 := l4 + float64(s4*l6)
	t2 = l2 + float64(s4*t2)
	t2 = float64(s4 * t2)
	r := t1 + t2
	hfsq := float64(0.5 * f * f)
	return float64(k*ln2Hi) - ((hfsq - (float64(s*(hfsq+r)) + float64(k*ln2Lo))) - f)
}

// Log10 returns the decimal logarithm of x, as Log(x)·(1/ln 10).
func Log10(x float64) float64 {
	if x != x {
		return x
	}
	return Log(x) * (1 / math.Ln10)
}
