package luabind

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
	"unsafe"

	lua "github.com/yuin/gopher-lua"
)

// TestIntModMatchesLuaMod: the integer `%` of fastLoop gives the bits of
// luaMod for every pair it takes (whole numbers below 2^52, signs mixed,
// near the bound, powers of two, zero and -0) and declines every other
// pair.
func TestIntModMatchesLuaMod(t *testing.T) {
	r := rand.New(rand.NewPCG(29, 1))
	edges := []float64{0, math.Copysign(0, -1), 1, -1, 2, -2, 3, 7, -7, 1000, 1 << 31, -(1 << 31), 1<<52 - 1, -(1<<52 - 1), 1 << 52, 1 << 53, 0.5, -2.5, math.Inf(1), math.NaN()}
	pick := func() float64 {
		switch r.IntN(5) {
		case 4:
			// Powers of two, either sign: the low-bits path's divisors.
			return float64(int64(1)<<r.IntN(52)) * float64(1-2*r.IntN(2))
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

// TestSetStringMatchesRawSetString: a table written by setString is the
// table RawSetString makes, key order included, through stores, updates,
// deletions (nil) and re-insertions of the same keys, in tables made empty,
// made with room for strings, and with an array part.
func TestSetStringMatchesRawSetString(t *testing.T) {
	r := rand.New(rand.NewPCG(29, 2))
	keys := []string{"a", "b", "last", "x", "y", "", "a long key of some length", "é"}
	L := lua.NewState(lua.Options{SkipOpenLibs: true})
	defer L.Close()
	for trial := range 300 {
		var want, got *lua.LTable
		switch trial % 3 {
		case 0:
			want, got = L.NewTable(), L.NewTable()
		case 1:
			want, got = L.CreateTable(0, 4), L.CreateTable(0, 4)
		default:
			want, got = L.CreateTable(4, 0), L.CreateTable(4, 0)
			want.RawSetInt(1, lua.LTrue)
			got.RawSetInt(1, lua.LTrue)
		}
		for range r.IntN(40) {
			k := keys[r.IntN(len(keys))]
			var v lua.LValue = lua.LNumber(r.IntN(5))
			if r.IntN(4) == 0 {
				v = lua.LNil
			}
			want.RawSetString(k, v)
			setString(got, k, v)
		}
		order := func(tb *lua.LTable) (out []string) {
			// ForEach walks the string part in Go's map order: sorted
			// here. The key order is what next follows.
			tb.ForEach(func(k, v lua.LValue) { out = append(out, k.String()+"="+v.String()) })
			slices.Sort(out)
			w := (*lTable)(unsafe.Pointer(tb))
			for _, k := range w.keys {
				out = append(out, fmt.Sprintf("key %q at %d", k.String(), w.k2i[k]))
			}
			return out
		}
		if a, b := order(want), order(got); !slices.Equal(a, b) {
			t.Fatalf("trial %d: setString left %q, RawSetString %q", trial, b, a)
		}
	}
}

// TestQuickCompareMatchesGopherLua: whenever quickCompare decides a
// comparison, it decides it as plain gopher-lua does, for every pair of a
// mix of values (nils, booleans, numbers, short and long strings, tables
// with and without __eq, functions, userdata) and each of EQ, LT and LE;
// and it leaves alone what a metamethod or a charge may decide.
func TestQuickCompareMatchesGopherLua(t *testing.T) {
	L := lua.NewState()
	defer L.Close()
	if err := L.DoString(`
		local mt = {__eq = function() return true end, __lt = function() return true end, __le = function() return true end}
		eqa, eqb = setmetatable({}, mt), setmetatable({}, mt)
		plain = {}
		f, g = function() end, print`); err != nil {
		t.Fatal(err)
	}
	long := strings.Repeat("x", 4*bytesPerInstruction)
	ud := L.NewUserData()
	vals := []lua.LValue{lua.LNil, lua.LTrue, lua.LFalse, lua.LNumber(0), lua.LNumber(1), lua.LNumber(math.NaN()),
		lua.LString(""), lua.LString("a"), lua.LString("b"), lua.LString("ab"), lua.LString(long), lua.LString(long + "y"),
		L.GetGlobal("eqa"), L.GetGlobal("eqb"), L.GetGlobal("plain"), L.GetGlobal("f"), L.GetGlobal("g"), ud, L}
	ops := []struct {
		op   int
		expr string
	}{{lua.OP_EQ, "a == b"}, {lua.OP_LT, "a < b"}, {lua.OP_LE, "a <= b"}}
	decided := 0
	for _, o := range ops {
		fn, err := L.LoadString("return " + o.expr)
		if err != nil {
			t.Fatal(err)
		}
		for _, x := range vals {
			for _, y := range vals {
				holds, ok := quickCompare(o.op, x, y)
				if !ok {
					continue
				}
				decided++
				L.SetGlobal("a", x)
				L.SetGlobal("b", y)
				L.Push(fn)
				if err := L.PCall(0, 1, nil); err != nil {
					t.Errorf("%s with a=%v, b=%v: quickCompare says %v, gopher-lua raises %v", o.expr, x, y, holds, err)
					continue
				}
				if want := lua.LVAsBool(L.Get(-1)); holds != want {
					t.Errorf("%s with a=%v, b=%v: quickCompare says %v, gopher-lua %v", o.expr, x, y, holds, want)
				}
				L.Pop(1)
			}
		}
	}
	if decided < 300 {
		t.Errorf("quickCompare decided only %d comparisons", decided)
	}
	// What a metamethod or a charge decides is left to the team's table.
	for _, c := range []struct {
		op   int
		x, y lua.LValue
	}{{lua.OP_EQ, L.GetGlobal("eqa"), L.GetGlobal("eqb")}, {lua.OP_LT, L.GetGlobal("eqa"), L.GetGlobal("eqb")},
		{lua.OP_EQ, lua.LString(long), lua.LString(long)}, {lua.OP_LE, lua.LString(long), lua.LString(long + "y")},
		{lua.OP_LT, lua.LNumber(1), lua.LString("a")}} {
		if _, ok := quickCompare(c.op, c.x, c.y); ok {
			t.Errorf("op %d on %v and %v: decided, should be left to the table", c.op, c.x, c.y)
		}
	}
}
