package detmath

import "math"

// The functions below are exact (or correctly rounded by IEEE 754) on
// every machine; they are here only to make their NaN and infinity cases
// agree with C's libm and with each other across architectures.

// Sqrt returns the square root of x, correctly rounded (the hardware
// instruction on amd64 and arm64). A negative x gives math.NaN(), not the
// hardware's NaN, whose sign bit differs between amd64 and arm64.
func Sqrt(x float64) float64 {
	if x < 0 {
		return math.NaN()
	}
	return math.Sqrt(x)
}

// Modf splits x into a whole part and a fraction with x's sign, as C's
// modf: Modf(±Inf) = ±Inf, ±0 (Go's math.Modf makes the fraction a NaN
// by computing Inf - Inf).
func Modf(x float64) (whole, frac float64) {
	if math.IsInf(x, 0) {
		return x, math.Copysign(0, x)
	}
	if x != x {
		return x, x
	}
	return math.Modf(x)
}

// Fmod returns the remainder of x/y with x's sign, as C's fmod. It is
// exact: math.Mod only subtracts scaled copies of y.
func Fmod(x, y float64) float64 {
	return math.Mod(x, y)
}
