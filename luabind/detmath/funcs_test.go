package detmath

import "math"

// unary and binary name every function under test with Go's math
// counterpart, which the property test measures against.
var unary = []struct {
	name string
	f    func(float64) float64
	ref  func(float64) float64
	gen  func(*rng) float64
	// portable: Go's math runs the same portable algorithm on amd64, so
	// without FMA the two must agree bit for bit.
	portable bool
}{
	{"sin", Sin, math.Sin, trigInput, true},
	{"cos", Cos, math.Cos, trigInput, true},
	{"tan", Tan, math.Tan, trigInput, true},
	{"asin", Asin, asinRef, unitInput, false},
	{"acos", Acos, acosRef, unitInput, false},
	{"atan", Atan, math.Atan, wideInput, true},
	{"exp", Exp, math.Exp, expInput, false},
	{"log", Log, logRef, positiveInput, false},
	{"log10", Log10, log10Ref, positiveInput, false},
	{"sinh", Sinh, math.Sinh, hyperInput, false},
	{"cosh", Cosh, math.Cosh, hyperInput, false},
	{"tanh", Tanh, math.Tanh, smallInput, false},
	{"sqrt", Sqrt, math.Sqrt, positiveInput, true},
}

var binary = []struct {
	name     string
	f        func(x, y float64) float64
	ref      func(x, y float64) float64
	gen      func(*rng) (float64, float64)
	portable bool
}{
	{"atan2", Atan2, math.Atan2, atan2Input, true},
	{"pow", Pow, math.Pow, powInput, false},
	{"fmod", Fmod, math.Mod, fmodInput, true},
}

// References where Go's math is known to be far from the true value.

// asinRef and acosRef use asin(x) = π/2 - 2·asin(√((1-x)/2)) near ±1,
// where math.Asin and math.Acos (π/2 - asin) lose most of their digits.
func asinRef(x float64) float64 {
	if math.Abs(x) <= 0.5 {
		return math.Asin(x)
	}
	return math.Copysign(math.Pi/2-2*math.Asin(math.Sqrt((1-math.Abs(x))/2)), x)
}

func acosRef(x float64) float64 {
	switch {
	case x > 0.5:
		return 2 * math.Asin(math.Sqrt((1-x)/2))
	case x < -0.5:
		return math.Pi - 2*math.Asin(math.Sqrt((1+x)/2))
	}
	return math.Acos(x)
}

// logRef scales subnormals up first: Go's amd64 Log is wrong below
// 2^-1022 (log(1.75e-309) = -709.01 instead of -710.94).
func logRef(x float64) float64 {
	if x > 0 && x < 0x1p-1022 {
		return math.Log(x*0x1p54) - 54*math.Ln2
	}
	return math.Log(x)
}

func log10Ref(x float64) float64 {
	if x > 0 && x < 0x1p-1022 {
		return logRef(x) * (1 / math.Ln10)
	}
	return math.Log10(x)
}

// rng is splitmix64: a seeded stream of inputs that is the same on every
// machine and Go version, so the golden inputs can be regenerated.
type rng struct{ s uint64 }

func (r *rng) next() uint64 {
	r.s += 0x9e3779b97f4a7c15
	z := r.s
	z = (z ^ z>>30) * 0xbf58476d1ce4e5b9
	z = (z ^ z>>27) * 0x94d049bb133111eb
	return z ^ z>>31
}

// unit is uniform in [0, 1).
func (r *rng) unit() float64 { return float64(r.next()>>11) / (1 << 53) }

// between is uniform in [lo, hi).
func (r *rng) between(lo, hi float64) float64 { return lo + float64(r.unit()*(hi-lo)) }

// anyFinite is a finite float64 of any magnitude, uniform in its bits.
func (r *rng) anyFinite() float64 {
	for {
		f := math.Float64frombits(r.next())
		if !math.IsInf(f, 0) && f == f {
			return f
		}
	}
}

// signed flips the sign of x half of the time.
func (r *rng) signed(x float64) float64 {
	if r.next()&1 == 1 {
		return -x
	}
	return x
}

func trigInput(r *rng) float64 {
	switch r.next() % 8 {
	case 0:
		return r.signed(r.anyFinite())
	case 1: // near a multiple of π/4, where the reduction matters
		k := float64(r.next() % 200)
		return math.Nextafter(k*math.Pi/4, r.signed(math.Inf(1)))
	case 2:
		return r.between(-1e6, 1e6)
	}
	return r.between(-10, 10)
}

func unitInput(r *rng) float64 {
	switch r.next() % 4 {
	case 0: // near ±1
		return r.signed(1 - math.Ldexp(r.unit(), -int(r.next()%50)))
	case 1:
		return r.signed(math.Ldexp(r.unit(), -int(r.next()%1000)))
	}
	return r.between(-1, 1)
}

func wideInput(r *rng) float64 {
	if r.next()%2 == 0 {
		return r.signed(r.anyFinite())
	}
	return r.between(-20, 20)
}

func expInput(r *rng) float64 {
	switch r.next() % 4 {
	case 0: // Go's amd64 Exp overflows early above 709.0 (see special_test.go)
		return r.between(-746, 709)
	case 1:
		return r.signed(math.Ldexp(r.unit(), -int(r.next()%60)))
	}
	return r.between(-20, 20)
}

func hyperInput(r *rng) float64 {
	if r.next()%2 == 0 {
		return r.between(-709, 709) // beyond, Go's amd64 Exp overflows early
	}
	return r.between(-20, 20)
}

func smallInput(r *rng) float64 {
	if r.next()%2 == 0 {
		return r.between(-0.7, 0.7)
	}
	return r.between(-50, 50)
}

func positiveInput(r *rng) float64 {
	switch r.next() % 4 {
	case 0:
		return math.Abs(r.anyFinite())
	case 1: // near 1, where log cancels
		return 1 + r.between(-1e-3, 1e-3)
	}
	return r.between(0, 100)
}

func atan2Input(r *rng) (float64, float64) {
	if r.next()%2 == 0 {
		return r.signed(r.anyFinite()), r.signed(r.anyFinite())
	}
	return r.between(-10, 10), r.between(-10, 10)
}

func powInput(r *rng) (float64, float64) {
	switch r.next() % 5 {
	case 0: // whole exponents, either sign of base
		return r.between(-10, 10), float64(int(r.next()%41) - 20)
	case 1: // halves and simple fractions
		return r.between(0, 100), float64(int(r.next()%21)-10) / 4
	case 2: // powers of ten and two, as scripts write them
		return float64(r.next()%11) - 0, r.between(-5, 5)
	}
	return r.between(0, 10), r.between(-30, 30)
}

func fmodInput(r *rng) (float64, float64) {
	if r.next()%2 == 0 {
		return r.signed(r.anyFinite()), r.signed(r.anyFinite())
	}
	return r.between(-1000, 1000), r.between(-10, 10)
}
