package detmath

import (
	"math"
	"strconv"
	"testing"
)

// TestSpecialValues pins the cases C99's libm (and so Lua 5.1) defines
// exactly, the NaN every domain error returns, and values near the edges
// where Go's own math is wrong on amd64 (true values from Python's decimal
// module at 60 digits).
func TestSpecialValues(t *testing.T) {
	inf, nan := math.Inf(1), math.NaN()
	negZero := math.Copysign(0, -1)
	minSub := math.SmallestNonzeroFloat64
	tests := []struct {
		name string
		got  float64
		want float64
	}{
		{"sin(+0)", Sin(0), 0},
		{"sin(-0)", Sin(negZero), negZero},
		{"sin(inf)", Sin(inf), nan},
		{"sin(-inf)", Sin(-inf), nan},
		{"sin(subnormal)", Sin(minSub), minSub},
		{"cos(0)", Cos(0), 1},
		{"cos(-inf)", Cos(-inf), nan},
		{"tan(-0)", Tan(negZero), negZero},
		{"tan(inf)", Tan(inf), nan},
		{"asin(1)", Asin(1), math.Pi / 2},
		{"asin(-1)", Asin(-1), -math.Pi / 2},
		{"asin(-0)", Asin(negZero), negZero},
		{"asin(1.5)", Asin(1.5), nan},
		{"acos(1)", Acos(1), 0},
		{"acos(-1)", Acos(-1), math.Pi},
		{"acos(-2)", Acos(-2), nan},
		{"atan(inf)", Atan(inf), math.Pi / 2},
		{"atan(-inf)", Atan(-inf), -math.Pi / 2},
		{"atan(-0)", Atan(negZero), negZero},
		{"atan2(0, -0)", Atan2(0, negZero), math.Pi},
		{"atan2(-0, -0)", Atan2(negZero, negZero), -math.Pi},
		{"atan2(-0, 0)", Atan2(negZero, 0), negZero},
		{"atan2(1, 0)", Atan2(1, 0), math.Pi / 2},
		{"atan2(inf, -inf)", Atan2(inf, -inf), 3 * math.Pi / 4},
		{"atan2(-1, -inf)", Atan2(-1, -inf), -math.Pi},
		{"atan2(nan, 1)", Atan2(nan, 1), nan},
		{"exp(0)", Exp(0), 1},
		{"exp(-inf)", Exp(-inf), 0},
		{"exp(inf)", Exp(inf), inf},
		{"exp(709.78)", Exp(709.78), 0x1.fe9ce5c4c52b4p+1023},
		{"exp(710)", Exp(710), inf},
		{"exp(-745.13)", Exp(-745.13), minSub},
		{"exp(-746)", Exp(-746), 0},
		{"log(0)", Log(0), -inf},
		{"log(-0)", Log(negZero), -inf},
		{"log(-1)", Log(-1), nan},
		{"log(1)", Log(1), 0},
		{"log(inf)", Log(inf), inf},
		{"log(-inf)", Log(-inf), nan},
		{"log(1.747267113643035e-309)", Log(1.747267113643035e-309), -710.9407408172168},
		{"log(min subnormal)", Log(minSub), -744.4400719213812},
		{"log10(1000)", Log10(1000), 3},
		{"log10(1e15)", Log10(1e15), 15},
		{"log10(1e22)", Log10(1e22), 22},
		{"log10(1e-5)", Log10(1e-5), -5},
		{"log10(1e-300)", Log10(1e-300), -300},
		{"log10(999999999999999)", Log10(999999999999999), 15}, // as glibc: 15 - 4.3e-16 rounds to 15
		{"log10(99999)", Log10(99999), 4.999995657033466},
		{"log10(min subnormal)", Log10(minSub), -323.3062153431158},
		{"log10(inf)", Log10(inf), inf},
		{"log10(0)", Log10(0), -inf},
		{"log10(-5)", Log10(-5), nan},
		{"pow(nan, 0)", Pow(nan, 0), 1},
		{"pow(1, nan)", Pow(1, nan), 1},
		{"pow(-1, inf)", Pow(-1, inf), 1},
		{"pow(-8, 1/3)", Pow(-8, 1.0/3), nan},
		{"pow(-4, 0.5)", Pow(-4, 0.5), nan},
		{"pow(-4, -0.5)", Pow(-4, -0.5), nan},
		{"pow(-2, 3)", Pow(-2, 3), -8},
		{"pow(2, 0.5)", Pow(2, 0.5), math.Sqrt2},
		{"pow(-0, -1)", Pow(negZero, -1), -inf},
		{"pow(-0, -2)", Pow(negZero, -2), inf},
		{"pow(-0, 3)", Pow(negZero, 3), negZero},
		{"pow(0, 0.5)", Pow(0, 0.5), 0},
		{"pow(0.5, inf)", Pow(0.5, inf), 0},
		{"pow(2, -inf)", Pow(2, -inf), 0},
		{"pow(-inf, 3)", Pow(-inf, 3), -inf},
		{"pow(-inf, -3)", Pow(-inf, -3), negZero},
		{"pow(inf, -1)", Pow(inf, -1), 0},
		{"pow(10, 309)", Pow(10, 309), inf},
		{"pow(2, -1074)", Pow(2, -1074), minSub},
		{"pow(-1, 2^64)", Pow(-1, 0x1p64), 1},
		{"pow(1.5, 2^64)", Pow(1.5, 0x1p64), inf},
		{"sinh(-0)", Sinh(negZero), negZero},
		{"sinh(-inf)", Sinh(-inf), -inf},
		{"cosh(-inf)", Cosh(-inf), inf},
		{"cosh(0)", Cosh(0), 1},
		{"tanh(-0)", Tanh(negZero), negZero},
		{"tanh(inf)", Tanh(inf), 1},
		{"tanh(-inf)", Tanh(-inf), -1},
		{"sqrt(-1)", Sqrt(-1), nan},
		{"sqrt(-0)", Sqrt(negZero), negZero},
		{"sqrt(inf)", Sqrt(inf), inf},
		{"fmod(5.5, -2)", Fmod(5.5, -2), 1.5},
		{"fmod(-5.5, 2)", Fmod(-5.5, 2), -1.5},
		{"fmod(1, 0)", Fmod(1, 0), nan},
		{"fmod(inf, 1)", Fmod(inf, 1), nan},
		{"fmod(1, inf)", Fmod(1, inf), 1},
	}
	for _, tt := range tests {
		if math.Float64bits(tt.got) != math.Float64bits(tt.want) {
			t.Errorf("%s = %v (%#x), want %v (%#x)", tt.name, tt.got, math.Float64bits(tt.got), tt.want, math.Float64bits(tt.want))
		}
	}
}

// TestNearTrueValue: results within a few ulps of the true value (from
// Python's decimal module at 60 digits, or by series for acos near 1),
// at the edges where Go's math overflows early or cancels.
func TestNearTrueValue(t *testing.T) {
	tests := []struct {
		name      string
		got, want float64
		ulp       uint64
	}{
		{"exp(709.7508547492016)", Exp(709.7508547492016), 0x1.eff21a9024943p+1023, 1},
		{"exp(709.5)", Exp(709.5), 0x1.81e9b4b52d0c9p+1023, 1},
		{"sinh(710)", Sinh(710), 0x1.3e21a464507f9p+1023, 2},
		{"cosh(-710.4)", Cosh(-710.4), 0x1.da98a7371610bp+1023, 2},
		{"acos(1-2^-52)", Acos(1 - 0x1p-52), 0x1.6a09e667f3bcdp-26, 1},
		{"pow(10, 308)", Pow(10, 308), 1e308, 4},
	}
	for _, tt := range tests {
		if d := ulps(tt.got, tt.want); d > tt.ulp {
			t.Errorf("%s = %v, %d ulp from the true %v (allowed %d)", tt.name, tt.got, d, tt.want, tt.ulp)
		}
	}
}

// TestNaNArgument: a NaN argument comes back unchanged, payload and sign
// included, so no function invents a NaN of its own for it.
func TestNaNArgument(t *testing.T) {
	for _, bits := range []uint64{0x7ff8000000000001, 0xfff8000000000000, 0x7ff0000000000123} {
		x := math.Float64frombits(bits)
		for _, fn := range unary {
			if got := math.Float64bits(fn.f(x)); got != bits && fn.name != "sqrt" {
				t.Errorf("%s(NaN %#x) = %#x", fn.name, bits, got)
			}
		}
	}
}

// TestModf: C's modf, not Go's (whose fraction of ±Inf is a NaN whose
// sign depends on the machine).
func TestModf(t *testing.T) {
	negZero := math.Copysign(0, -1)
	tests := []struct{ x, whole, frac float64 }{
		{3.75, 3, 0.75},
		{-3.75, -3, -0.75},
		{-0.5, negZero, -0.5},
		{math.Inf(1), math.Inf(1), 0},
		{math.Inf(-1), math.Inf(-1), negZero},
	}
	for _, tt := range tests {
		w, f := Modf(tt.x)
		if math.Float64bits(w) != math.Float64bits(tt.whole) || math.Float64bits(f) != math.Float64bits(tt.frac) {
			t.Errorf("Modf(%v) = %v, %v; want %v, %v", tt.x, w, f, tt.whole, tt.frac)
		}
	}
}

// TestLog10PowersOfTen: log10 of a power of ten is its exponent, as glibc
// gives it, so that floor(log10(n)) + 1 counts the digits of n.
func TestLog10PowersOfTen(t *testing.T) {
	p := 1.0
	for n := 0; n <= 22; n++ {
		if got := Log10(p); got != float64(n) {
			t.Errorf("log10(1e%d) = %v (%#x)", n, got, math.Float64bits(got))
		}
		if n > 0 && n < 15 { // 1e15-1 is 15 - 4.3e-16: 15 once rounded, in glibc too
			if got := Log10(p - 1); math.Floor(got)+1 != float64(n) {
				t.Errorf("floor(log10(1e%d - 1)) + 1 = %v, want %d", n, math.Floor(got)+1, n)
			}
		}
		p *= 10
	}
	for n := -30; n <= 300; n++ {
		x, _ := strconv.ParseFloat("1e"+strconv.Itoa(n), 64)
		if got := Log10(x); got != float64(n) {
			t.Errorf("log10(1e%d) = %v (%#x)", n, got, math.Float64bits(got))
		}
	}
}
