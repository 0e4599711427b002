package luabind

import (
	"math"
	"testing"

	lua "github.com/yuin/gopher-lua"
)

// The strings are what Debian's lua5.1 prints for print(x) and tonumber(s).
func TestNumberString(t *testing.T) {
	tests := []struct {
		in   float64
		want string
	}{
		{0.1 + 0.2, "0.3"}, {(0.1 + 0.7) * 10, "8"}, {1e15, "1e+15"}, {1e14, "1e+14"}, {123456789012345, "1.2345678901234e+14"},
		{99999999999999, "99999999999999"}, {math.Inf(1), "inf"}, {math.Inf(-1), "-inf"}, {math.Copysign(0, -1), "-0"},
		{0, "0"}, {-7, "-7"}, {1e-5, "1e-05"}, {0.0001, "0.0001"}, {1 / 3.0, "0.33333333333333"}, {1e300, "1e+300"},
		{math.Ldexp(1, 63), "9.2233720368548e+18"}, {-math.Ldexp(1, 63), "-9.2233720368548e+18"}, {2.5, "2.5"}, {100, "100"},
		{math.NaN(), "nan"},
	}
	for _, tc := range tests {
		if got := numberString(lua.LNumber(tc.in)); got != tc.want {
			t.Errorf("numberString(%v) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

func TestParseNumber(t *testing.T) {
	tests := []struct {
		in   string
		want float64
		ok   bool
	}{
		{"1e5", 1e5, true}, {"-0x10", -16, true}, {"0x10", 16, true}, {"0X1F", 31, true}, {"0x1.8p1", 3, true}, {" 10 ", 10, true},
		{"010", 10, true}, {"1e-05", 1e-5, true}, {".5", 0.5, true}, {"5.", 5, true}, {"inf", math.Inf(1), true},
		{"-Infinity", math.Inf(-1), true}, {"1e", 0, false}, {"", 0, false}, {" ", 0, false}, {"0x", 0, false}, {"1_000", 0, false},
		{"abc", 0, false}, {"1 2", 0, false}, {"+.e1", 0, false}, {"0x1p", 0, false}, {"1e400", math.Inf(1), true}, {"\t\n-2.5\v", -2.5, true},
	}
	for _, tc := range tests {
		got, ok := parseNumber(tc.in)
		if ok != tc.ok || ok && got != tc.want {
			t.Errorf("parseNumber(%q) = %v, %v; want %v, %v", tc.in, got, ok, tc.want, tc.ok)
		}
	}
	if f, ok := parseNumber("nan"); !ok || f == f {
		t.Errorf("parseNumber(nan) = %v, %v", f, ok)
	}
}

func TestToWhole(t *testing.T) {
	for _, f := range []float64{math.NaN(), math.Inf(1), math.Inf(-1), 1e300, -1e300, math.Ldexp(1, 53) + 2, math.Ldexp(1, 63)} {
		if _, ok := toWhole(f); ok {
			t.Errorf("toWhole(%v) accepted", f)
		}
	}
	for f, want := range map[float64]int{2.9: 2, -2.9: -2, 0: 0, math.Ldexp(1, 53): 1 << 53} {
		if got, ok := toWhole(f); !ok || got != want {
			t.Errorf("toWhole(%v) = %d, %v", f, got, ok)
		}
	}
}
