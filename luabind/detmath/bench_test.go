package detmath

import (
	"math"
	"testing"
)

var sink float64

// goMath is Go's own version of each function, for the benchmarks (the
// property test's references differ where math is known to be wrong).
var goMath = map[string]func(float64) float64{
	"sin": math.Sin, "cos": math.Cos, "tan": math.Tan, "asin": math.Asin,
	"acos": math.Acos, "atan": math.Atan, "exp": math.Exp, "log": math.Log,
	"log10": math.Log10, "sinh": math.Sinh, "cosh": math.Cosh,
	"tanh": math.Tanh, "sqrt": math.Sqrt,
}

// BenchmarkMath times each function against Go's math on the same 1,024
// inputs: go test -run '^$' -bench Math ./luabind/detmath/
func BenchmarkMath(b *testing.B) {
	for _, fn := range unary {
		r := &rng{s: 7}
		xs := make([]float64, 1024)
		for i := range xs {
			xs[i] = fn.gen(r)
		}
		for _, impl := range []struct {
			name string
			f    func(float64) float64
		}{{"detmath", fn.f}, {"math", goMath[fn.name]}} {
			b.Run(fn.name+"/"+impl.name, func(b *testing.B) {
				s := 0.0
				for i := 0; b.Loop(); i++ {
					s += impl.f(xs[i&1023])
				}
				sink = s
			})
		}
	}
	for _, fn := range binary {
		r := &rng{s: 7}
		xs, ys := make([]float64, 1024), make([]float64, 1024)
		for i := range xs {
			xs[i], ys[i] = fn.gen(r)
		}
		for _, impl := range []struct {
			name string
			f    func(x, y float64) float64
		}{{"detmath", fn.f}, {"math", fn.ref}} {
			b.Run(fn.name+"/"+impl.name, func(b *testing.B) {
				s := 0.0
				for i := 0; b.Loop(); i++ {
					s += impl.f(xs[i&1023], ys[i&1023])
				}
				sink = s
			})
		}
	}
}
