package luabind

import (
	"strconv"
	"strings"
	"testing"

	"github.com/squarebattle/squarebattle/engine"
	"github.com/squarebattle/squarebattle/luabind/detmath"
)

// TestMathLibrary runs the math table through a real battle: detmath's
// bits, C's special cases, Lua 5.1's math.huge, numeric strings, and
// arguments no machine-independent integer can hold refused.
func TestMathLibrary(t *testing.T) {
	lit := func(f float64) string { return strconv.FormatFloat(f, 'g', 17, 64) }
	tests := []struct{ code, want string }{
		{`print(math.sin(1) == ` + lit(detmath.Sin(1)) + `, math.cos(1e6) == ` + lit(detmath.Cos(1e6)) + `)`, "true\ttrue"},
		{`print(math.exp(709.75) == ` + lit(detmath.Exp(709.75)) + `, math.log(7) == ` + lit(detmath.Log(7)) + `)`, "true\ttrue"},
		{`print(math.pow(2.5, 3.7) == ` + lit(detmath.Pow(2.5, 3.7)) + `, math.asin(0.9999) == ` + lit(detmath.Asin(0.9999)) + `)`, "true\ttrue"},
		{`print(math.tan(2) == ` + lit(detmath.Tan(2)) + `, math.atan2(1, -3) == ` + lit(detmath.Atan2(1, -3)) + `)`, "true\ttrue"},
		{`print(math.huge == 1/0, -math.huge == -1/0)`, "true\ttrue"},
		{`local function nan(x) return x ~= x end print(nan(math.pow(-8, 1/3)), math.log(0) == -1/0, nan(math.log(-1)), nan(math.sqrt(-1)))`, "true\ttrue\ttrue\ttrue"},
		{`print(math.pow(0, 0), math.pow(1, 0/0), math.fmod(7, -3), math.fmod(-7, 3))`, "1\t1\t1\t-1"},
		{`local w, f = math.modf(-3.5) print(w, f) w, f = math.modf(1/0) print(w == 1/0, f)`, "-3\t-0.5\ntrue\t0"},
		{`print(math.ldexp(0.75, 4), math.ldexp(1, "3"), math.frexp(12))`, "12\t8\t0.75\t4"},
		{`print(math.floor("2.5"), math.max("10", 9), math.min(3, "0x10"), math.abs(-0))`, "2\t10\t3\t0"},
		{`print(math.deg(math.pi), math.rad(180) == math.pi)`, "180\ttrue"},
		{`print(pcall(math.ldexp, 1, 1e300))`, "(number has no integer representation (1e+300"},
		{`print(pcall(math.randomseed, 1e300))`, "(number has no integer representation (1e+300"},
		{`print(pcall(math.randomseed, 0/0))`, "(-nan is not between"},
		{`print(pcall(math.sin, {}))`, "(number expected, got table)"},
		{`math.randomseed(7) local a = math.random(1, 1000) math.randomseed(7.9) print(a == math.random(1, 1000))`, "true"},
	}
	var sb strings.Builder
	sb.WriteString("return { name = \"M\", run = function()\n")
	for _, tc := range tests {
		sb.WriteString("do " + tc.code + " end\n")
	}
	sb.WriteString("end }")
	cat := catalogOf(t, map[string]string{"m.lua": sb.String(), "z.lua": idle}, DefaultLimits())
	m, _ := engine.ParseMap("t", []byte("0 -1\n-1 1"))
	b, teams := battle(t, cat, []string{"m", "z"}, engine.Options{Size: 2, Wrap: true, Rounds: 1, Seed: 1, Map: m})
	s := b.Run()
	if len(s.FirstProblems) > 0 {
		t.Fatalf("problem: %s", s.FirstProblems[0].Message)
	}
	got := strings.Join(teams[0].Log(), "\n")
	var want []string
	for _, tc := range tests {
		want = append(want, tc.want)
	}
	gotLines := strings.Split(got, "\n")
	wantLines := strings.Split(strings.Join(want, "\n"), "\n")
	if len(gotLines) != len(wantLines) {
		t.Fatalf("printed %d lines, want %d:\n%s", len(gotLines), len(wantLines), got)
	}
	for i := range wantLines {
		if !strings.Contains(gotLines[i], wantLines[i]) {
			t.Errorf("line %d: got %q, want %q", i+1, gotLines[i], wantLines[i])
		}
	}
}
