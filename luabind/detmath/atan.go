package detmath

import "math"

// xatan is atan(x) for 0 ≤ x ≤ 0.66, Cephes' rational approximation
// (atan.c).
func xatan(x float64) float64 {
	const (
		p0 = -8.750608600031904122785e-01
		p1 = -1.615753718733365076637e+01
		p2 = -7.500855792314704667340e+01
		p3 = -1.228866684490136173410e+02
		p4 = -6.485021904942025371773e+01
		q0 = +2.485846490142306297962e+01
		q1 = +1.650270098316988542046e+02
		q2 = +4.328810604912902668951e+02
		q3 = +4.853903996359136964868e+02
		q4 = +1.945506571482613964425e+02
	)
	z := float64(x * x)
	num := float64(p0*z) + p1
	num = float64(num*z) + p2
	num = float64(num*z) + p3
	num = float64(num*z) + p4
	den := float64((z+q0)*z) + q1
	den = float64(den*z) + q2
	den = float64(den*z) + q3
	den = float64(den*z) + q4
	z = z * num / den
	return float64(x*z) + x
}

// satan is atan(x) for x ≥ 0: it maps x into xatan's range with
// atan(x) = π/2 - atan(1/x) or π/4 + atan((x-1)/(x+1)).
func satan(x float64) float64 {
	const (
		morebits = 6.123233995736765886130e-17 // π/2 - float64(π/2)
		tan3pio8 = 2.41421356237309504880      // tan(3π/8)
	)
	if x <= 0.66 {
		return xatan(x)
	}
	if x > tan3pio8 {
		return math.Pi/2 - xatan(1/x) + morebits
	}
	return math.Pi/4 + xatan((x-1)/(x+1)) + 0.5*morebits
}

// Atan returns the arctangent of x in [-π/2, π/2]. Atan(±0) = ±0.
func Atan(x float64) float64 {
	switch {
	case x == 0 || x != x:
		return x
	case x > 0:
		return satan(x)
	}
	return -satan(-x)
}

// Asin returns the arcsine of x in [-π/2, π/2]; NaN when |x| > 1.
// asin(x) = atan(x/√(1-x²)), with 1-x² formed as (1-x)(1+x): 1-x is exact
// for x ≥ 1/2, where x² would lose the digits that matter near ±1.
func Asin(x float64) float64 {
	if x == 0 || x != x {
		return x
	}
	neg := false
	if x < 0 {
		x, neg = -x, true
	}
	if x > 1 {
		return math.NaN()
	}
	t := cosOfAsin(x)
	if x > 0.7 {
		t = math.Pi/2 - satan(t/x)
	} else {
		t = satan(x / t)
	}
	if neg {
		t = -t
	}
	return t
}

// cosOfAsin is √(1-x²) for 0 ≤ x ≤ 1.
func cosOfAsin(x float64) float64 {
	if x < 0.5 {
		return math.Sqrt(1 - float64(x*x))
	}
	return math.Sqrt(float64((1 - x) * (1 + x)))
}

// Acos returns the arccosine of x in [0, π]; NaN when |x| > 1. Near ±1
// it is atan(√(1-x²)/|x|) directly: π/2 - asin(x) would cancel there.
func Acos(x float64) float64 {
	switch {
	case x != x:
		return x
	case x > 1 || x < -1:
		return math.NaN()
	case x > 0.7:
		return satan(cosOfAsin(x) / x)
	case x < -0.7:
		return math.Pi - satan(cosOfAsin(-x)/-x)
	}
	return math.Pi/2 - Asin(x)
}

// Atan2 returns the arctangent of y/x, using the signs of both to choose
// the quadrant, with C99's special cases for zeros and infinities.
func Atan2(y, x float64) float64 {
	switch {
	case y != y:
		return y
	case x != x:
		return x
	case y == 0:
		if x >= 0 && !math.Signbit(x) {
			return math.Copysign(0, y)
		}
		return math.Copysign(math.Pi, y)
	case x == 0:
		return math.Copysign(math.Pi/2, y)
	case math.IsInf(x, 1):
		if math.IsInf(y, 0) {
			return math.Copysign(math.Pi/4, y)
		}
		return math.Copysign(0, y)
	case math.IsInf(x, -1):
		if math.IsInf(y, 0) {
			return math.Copysign(3*math.Pi/4, y)
		}
		return math.Copysign(math.Pi, y)
	case math.IsInf(y, 0):
		return math.Copysign(math.Pi/2, y)
	}
	q := Atan(y / x)
	if x < 0 {
		if q <= 0 {
			return q + math.Pi
		}
		return q - math.Pi
	}
	return q
}
