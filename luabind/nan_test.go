package luabind

import (
	"math"
	"testing"
)

// TestNaNSigns: NaNs print with the sign Debian's lua5.1 gives them on a PC
// (the expected column is its output), whether made at run time, folded
// by the compiler or returned by the math library; the one documented
// difference is arithmetic on a NaN operand (last case). The rule is the
// same on every machine: nothing here depends on the hardware's NaN.
func TestNaNSigns(t *testing.T) {
	cases := []struct{ code, want string }{
		{`tostring(0/0)`, "-nan"},
		{`tostring(-(0/0))`, "nan"},
		{`(function() local z = 0 return z/z, -(z/z) end)()`, "n:-nan\tn:nan"},
		{`(1/0) - (1/0), (1/0) * 0, 1 % 0, (-8)^(1/3)`, "n:-nan\tn:-nan\tn:-nan\tn:-nan"},
		{`(function() local a, b = -8, 1/3 return a^b end)()`, "n:-nan"},
		{`math.sqrt(-1), math.log(-1), math.log10(-1), math.acos(2), math.asin(2), math.sin(1/0)`, "n:-nan\tn:-nan\tn:nan\tn:nan\tn:nan\tn:-nan"},
		{`math.abs(0/0), math.floor(0/0), math.ceil(-(0/0)), math.fmod(1, 0), math.mod(1, 0)`, "n:nan\tn:-nan\tn:nan\tn:-nan\tn:-nan"},
		{`math.modf(0/0), math.frexp(-(0/0))`, "n:-nan\tn:nan\tn:0"},
		{`tonumber("nan"), tonumber("-nan"), tonumber(" NaN ")`, "n:nan\tn:-nan\tn:nan"},
		{`string.format("%f %e %g %5.1f %+f %E", 0/0, -(0/0), 0/0, -(0/0), -(0/0), 0/0)`, "-nan nan -nan   nan +nan -NAN"},
		{`(0/0) .. "", -(0/0) .. ""`, "-nan\tnan"},
		// Deviation: Lua keeps a NaN operand's sign (nan); the sandbox
		// gives arithmetic's NaN results one sign (nan.go).
		{`(function() local n = -(0/0) return n + 1 end)()`, "n:-nan"},
	}
	codes := make([]string, len(cases))
	for i, c := range cases {
		codes[i] = c.code
	}
	got := luaResults(t, codes)
	for i, c := range cases {
		if got[i] != c.want {
			t.Errorf("%s\n got %q\nwant %q", c.code, got[i], c.want)
		}
	}
	if math.Float64bits(negNaN)<<1 != math.Float64bits(posNaN)<<1 || !math.Signbit(negNaN) || math.Signbit(posNaN) {
		t.Error("negNaN and posNaN are not one NaN with two signs")
	}
}
