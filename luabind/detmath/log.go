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

// Log10 returns the decimal logarithm of x: Log10(0) = -Inf,
// Log10(x<0) = NaN, and Log10(10^n) = n exactly for every power of ten a
// float64 holds exactly (0 ≤ n ≤ 22), so that floor(log10(n)) + 1 counts
// digits. FreeBSD msun's (and glibc's) e_log10.c: x = 2^k·m with
// 1 ≤ m < 2 (or 1/2 ≤ m < 1 when k < 0, where the log is computed from
// 2^(k+1)·(m/2) instead), then
// log10(x) = k·log10(2)hi + (k·log10(2)lo + log(m)/ln 10), the first term
// exact. Log(x)·(1/ln 10) is off by an ulp at 1e15 (14.999999999999998).
func Log10(x float64) float64 {
	const (
		two54    = 0x1p54
		ivln10   = 4.34294481903251816668e-01 // 0x3FDBCB7B1526E50E
		log102Hi = 3.01029995663611771306e-01 // 0x3FD34413509F6000: k·log102Hi is exact
		log102Lo = 3.69423907715893078616e-13 // 0x3D59FEF311F12B36
	)
	switch {
	case x != x || math.IsInf(x, 1):
		return x
	case x < 0:
		return math.NaN()
	case x == 0:
		return math.Inf(-1)
	}
	bits := math.Float64bits(x)
	k := 0
	if bits < 0x0010000000000000 { // subnormal: scale into the normal range
		k -= 54
		x *= two54
		bits = math.Float64bits(x)
	}
	hx := uint32(bits >> 32)
	k += int(hx>>20) - 1023
	i := 0
	if k < 0 {
		i = 1
	}
	hx = hx&0x000fffff | uint32(0x3ff-i)<<20
	y := float64(k + i)
	m := math.Float64frombits(uint64(hx)<<32 | bits&0xffffffff)
	z := float64(y*log102Lo) + float64(ivln10*Log(m))
	return z + float64(y*log102Hi)
}
