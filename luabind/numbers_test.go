package luabind

import (
	"math"
	"strings"
	"testing"

	lua "github.com/yuin/gopher-lua"

	"github.com/squarebattle/squarebattle/engine"
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
		{math.NaN(), "nan"}, {negNaN, "-nan"},
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

// TestMessagesNameNumbersAlike: numbers a script hands back reach problem
// messages through numberString, never through Go's float→int conversion or
// gopher-lua's String, which print 2^63 differently on amd64 and arm64.
func TestMessagesNameNumbersAlike(t *testing.T) {
	tests := []struct{ src, want string }{
		{`return { name = "P", run = function() return MOVE, 2^63 end }`, "direction 9.2233720368548e+18"},
		{`return { name = "P", run = function() return MOVE, 0/0 end }`, "direction -nan"},
		{`return { name = "P", run = function() error(2^63) end }`, "9.2233720368548e+18"},
	}
	for _, tc := range tests {
		cat := catalogOf(t, map[string]string{"p.lua": tc.src}, DefaultLimits())
		b, _ := battle(t, cat, []string{"p"}, engine.Options{Size: 4, Wrap: true, Rounds: 2, Seed: 1, Workers: 1})
		got := b.Run()
		if len(got.FirstProblems) == 0 || !strings.Contains(got.FirstProblems[0].Message, tc.want) {
			t.Errorf("%s: problems %+v, want one containing %q", tc.src, got.FirstProblems, tc.want)
		}
	}
}
