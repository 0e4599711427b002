package luabind

import (
	"math"
	"math/rand/v2"
	"testing"

	lua "github.com/yuin/gopher-lua"
)

// TestIntModMatchesLuaMod: the integer `%` of fastLoop gives the bits of
// luaMod for every pair it takes (whole numbers below 2^52, signs mixed,
// near the bound, zero and -0) and declines every other pair.
func TestIntModMatchesLuaMod(t *testing.T) {
	r := rand.New(rand.NewPCG(29, 1))
	edges := []float64{0, math.Copysign(0, -1), 1, -1, 2, -2, 3, 7, -7, 1000, 1 << 31, -(1 << 31), 1<<52 - 1, -(1<<52 - 1), 1 << 52, 1 << 53, 0.5, -2.5, math.Inf(1), math.NaN()}
	pick := func() float64 {
		switch r.IntN(4) {
		case 0:
			return edges[r.IntN(len(edges))]
		case 1:
			return float64(r.Int64N(2000) - 1000)
		case 2:
			return float64(r.Int64N(1<<53) - 1<<52)
		default:
			return float64(r.Int64N(1<<20) - 1<<19)
		}
	}
	taken := 0
	for range 200_000 {
		x, y := pick(), pick()
		got, ok := intMod(lua.OP_MOD, lua.LNumber(x), lua.LNumber(y))
		whole := x == math.Trunc(x) && y == math.Trunc(y) && math.Abs(x) < 1<<52 && math.Abs(y) < 1<<52 && y != 0
		if ok != whole {
			t.Fatalf("%v %% %v: taken %v, want %v", x, y, ok, whole)
		}
		if !ok {
			continue
		}
		taken++
		if want := luaMod(x, y); math.Float64bits(got) != math.Float64bits(want) {
			t.Fatalf("%v %% %v = %v (bits %x), luaMod says %v (bits %x)", x, y, got, math.Float64bits(got), want, math.Float64bits(want))
		}
	}
	if taken < 100_000 {
		t.Fatalf("only %d pairs took the integer path", taken)
	}
	if _, ok := intMod(lua.OP_ADD, 4, 2); ok {
		t.Fatal("intMod took an addition")
	}
}
