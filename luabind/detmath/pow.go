package detmath

import "math"

// Pow returns x**y with C99's special cases, which Lua 5.1 inherits from
// libm: Pow(x, ±0) = 1 and Pow(1, y) = 1 for any x and y (NaN too),
// Pow(-1, ±Inf) = 1, a negative finite x with a non-whole y is NaN,
// Pow(±0, y<0) = ±Inf, and so on.
//
// The method: y = yi + yf with |yf| ≤ 1/2; x^yf = Exp(yf·Log(x)), and x^yi
// by binary powering of x's mantissa with its exponent kept apart, so no
// intermediate overflows before the final Ldexp.
func Pow(x, y float64) float64 {
	switch {
	case y == 0 || x == 1:
		return 1
	case y == 1:
		return x
	case x != x:
		return x
	case y != y:
		return y
	case x == 0:
		switch {
		case y < 0:
			if math.Signbit(x) && isOddInt(y) {
				return math.Inf(-1)
			}
			return math.Inf(1)
		case y > 0:
			if math.Signbit(x) && isOddInt(y) {
				return x
			}
			return 0
		}
	case math.IsInf(y, 0):
		switch {
		case x == -1:
			return 1
		case (math.Abs(x) < 1) == math.IsInf(y, 1):
			return 0
		default:
			return math.Inf(1)
		}
	case math.IsInf(x, 0):
		if math.IsInf(x, -1) {
			return Pow(1/x, -y) // Pow(-0, -y)
		}
		switch {
		case y < 0:
			return 0
		case y > 0:
			return math.Inf(1)
		}
	case x < 0 && (y == 0.5 || y == -0.5):
		return math.NaN() // not the hardware's NaN, whose sign varies
	case y == 0.5:
		return math.Sqrt(x)
	case y == -0.5:
		return 1 / math.Sqrt(x)
	}
	yi, yf := math.Modf(math.Abs(y))
	if yf != 0 && x < 0 {
		return math.NaN()
	}
	if yi >= 1<<63 {
		// y is a huge even whole number: x^y is 0, 1 or +Inf.
		switch {
		case x == -1:
			return 1
		case (math.Abs(x) < 1) == (y > 0):
			return 0
		default:
			return math.Inf(1)
		}
	}
	a1 := 1.0
	ae := 0
	if yf != 0 {
		if yf > 0.5 {
			yf--
			yi++
		}
		a1 = Exp(float64(yf * Log(x)))
	}
	x1, xe := math.Frexp(x)
	for i := int64(yi); i != 0; i >>= 1 {
		if xe < -1<<12 || 1<<12 < xe {
			// The exponent alone already over- or underflows: let
			// Ldexp saturate, as the mantissa product cannot undo it.
			ae += xe
			break
		}
		if i&1 == 1 {
			a1 = float64(a1 * x1)
			ae += xe
		}
		x1 = float64(x1 * x1)
		xe <<= 1
		if x1 < .5 {
			x1 += x1
			xe--
		}
	}
	if y < 0 {
		a1 = 1 / a1
		ae = -ae
	}
	return math.Ldexp(a1, ae)
}

// isOddInt reports whether x is an odd whole number.
func isOddInt(x float64) bool {
	if math.Abs(x) >= 1<<53 {
		return false // every float64 this large is even
	}
	xi, xf := math.Modf(x)
	return xf == 0 && int64(xi)&1 == 1
}
