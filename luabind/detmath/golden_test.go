package detmath

import (
	"bufio"
	"flag"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite testdata/*.golden from this machine's results")

// goldenInputs is how many seeded inputs each golden file holds, after
// the edge values every function gets.
const goldenInputs = 2000

// edges are arguments every golden file includes: zeros, infinities,
// subnormals, the largest floats, and points where algorithms switch.
var edges = []float64{
	0, math.Copysign(0, -1), math.Inf(1), math.Inf(-1), math.NaN(),
	math.SmallestNonzeroFloat64, -math.SmallestNonzeroFloat64, 0x1p-1022, 0x1p-1023,
	math.MaxFloat64, -math.MaxFloat64, 1, -1, 0.5, -0.5, 0.7, 0.66, 2.414, 0.625, 21, 22,
	1 << 29, -(1 << 29), 1e300, math.Pi, math.Pi / 2, math.Pi / 4, 709.78, 709.79, -745.13, -746,
	1e-8, 0x1p-28, 1 - 0x1p-53, 44.0, 710,
}

// TestGolden recomputes every golden file's results bit for bit. The
// files were written on one machine; CI runs this test compiled for
// arm64 under qemu and for amd64 at GOAMD64=v3, so any machine-dependent
// rounding fails here.
func TestGolden(t *testing.T) {
	for _, fn := range unary {
		t.Run(fn.name, func(t *testing.T) {
			golden(t, fn.name, 1, func(a []float64) float64 { return fn.f(a[0]) }, func(r *rng) []float64 { return []float64{fn.gen(r)} })
		})
	}
	for _, fn := range binary {
		t.Run(fn.name, func(t *testing.T) {
			golden(t, fn.name, 2, func(a []float64) float64 { return fn.f(a[0], a[1]) }, func(r *rng) []float64 {
				x, y := fn.gen(r)
				return []float64{x, y}
			})
		})
	}
}

// golden checks (or with -update writes) testdata/NAME.golden: one line
// per call, the arguments' bits then the result's bits, in hex.
func golden(t *testing.T, name string, arity int, f func([]float64) float64, gen func(*rng) []float64) {
	path := filepath.Join("testdata", name+".golden")
	if *update {
		var b strings.Builder
		fmt.Fprintf(&b, "# detmath.%s: argument bits, then result bits (go test -run Golden -update)\n", name)
		var calls [][]float64
		for _, x := range edges {
			if arity == 1 {
				calls = append(calls, []float64{x})
				continue
			}
			for _, y := range edges {
				calls = append(calls, []float64{x, y})
			}
		}
		r := &rng{s: 42}
		for range goldenInputs {
			calls = append(calls, gen(r))
		}
		for _, args := range calls {
			for _, a := range args {
				fmt.Fprintf(&b, "%016x ", math.Float64bits(a))
			}
			fmt.Fprintf(&b, "%016x\n", math.Float64bits(f(args)))
		}
		if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	file, err := os.Open(path)
	if err != nil {
		t.Fatalf("%v (run go test -run Golden -update to create it)", err)
	}
	defer file.Close()
	sc := bufio.NewScanner(file)
	lines, bad := 0, 0
	for sc.Scan() {
		line := sc.Text()
		if strings.HasPrefix(line, "#") {
			continue
		}
		fields := strings.Fields(line)
		if len(fields) != arity+1 {
			t.Fatalf("%s: malformed line %q", path, line)
		}
		vals := make([]float64, len(fields))
		for i, field := range fields {
			u, err := strconv.ParseUint(field, 16, 64)
			if err != nil {
				t.Fatalf("%s: %v", path, err)
			}
			vals[i] = math.Float64frombits(u)
		}
		lines++
		got := f(vals[:arity])
		if math.Float64bits(got) != math.Float64bits(vals[arity]) {
			bad++
			if bad <= 5 {
				t.Errorf("%s%v = %#016x, golden %#016x", name, vals[:arity], math.Float64bits(got), math.Float64bits(vals[arity]))
			}
		}
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	if bad > 0 {
		t.Errorf("%s: %d of %d results differ from %s", name, bad, lines, path)
	}
	if lines < goldenInputs {
		t.Errorf("%s holds %d calls, want at least %d", path, lines, goldenInputs)
	}
}
