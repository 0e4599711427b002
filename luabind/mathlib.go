package luabind

import (
	"math"

	lua "github.com/yuin/gopher-lua"

	"github.com/squarebattle/squarebattle/luabind/detmath"
)

// The math library scripts see. gopher-lua's own calls Go's math package,
// whose results differ in the last bit between amd64, arm64 and GOAMD64=v3
// builds (assembly kernels, fused multiply-adds), reads arguments with a
// number parser of its own (uncharged, whatever the string's length) and
// converts ldexp's exponent with Go's machine-dependent float→int. Every
// function here is detmath's or exact, reads numbers as Lua 5.1 does with
// the string's bytes charged, and refuses exponents no int can hold.

// mathUnary are the one-argument functions, each a float64 → float64.
var mathUnary = map[string]func(float64) float64{
	"abs": math.Abs, "ceil": math.Ceil, "floor": math.Floor,
	"sqrt": detmath.Sqrt, "sin": detmath.Sin, "cos": detmath.Cos,
	"tan": detmath.Tan, "asin": detmath.Asin, "acos": detmath.Acos,
	"atan": detmath.Atan, "exp": detmath.Exp, "log": detmath.Log,
	"log10": detmath.Log10, "sinh": detmath.Sinh, "cosh": detmath.Cosh,
	"tanh": detmath.Tanh,
	// Lua 5.1's lmathlib.c: x / (π/180) and x * (π/180), one division or
	// one product each (nothing for a compiler to fuse), by the same
	// rounded constant, so every result has the same last bit as Lua's.
	"deg": func(x float64) float64 { return x / radiansPerDegree },
	"rad": func(x float64) float64 { return x * radiansPerDegree },
}

// radiansPerDegree is lmathlib.c's RADIANS_PER_DEGREE, PI/180.0: π rounded
// to a double, divided by 180 in double arithmetic (pi is a variable, so
// that the quotient is the rounded one C computes, not Go's exact constant
// arithmetic rounded once).
var radiansPerDegree = pi / 180

var pi = math.Pi

// mathBinary are the two-argument functions.
var mathBinary = map[string]func(x, y float64) float64{
	"atan2": detmath.Atan2, "pow": detmath.Pow, "fmod": detmath.Fmod,
}

// mathLibrary builds the math table, its entries set in safeMath's order
// so that pairs(math) walks it the same way in every run.
func (tm *Team) mathLibrary(L *lua.LState) *lua.LTable {
	lib := L.NewTable()
	for _, name := range safeMath {
		var v lua.LValue
		if f, ok := mathUnary[name]; ok {
			v = L.NewFunction(func(L *lua.LState) int {
				L.Push(lua.LNumber(unaryResult(name, f, tm.mathArg(L, 1))))
				return 1
			})
		} else if f, ok := mathBinary[name]; ok {
			v = L.NewFunction(func(L *lua.LState) int {
				y := tm.mathArg(L, 2) // first, as Lua 5.1 built by gcc reads them
				L.Push(lua.LNumber(binaryResult(f, tm.mathArg(L, 1), y)))
				return 1
			})
		} else {
			switch name {
			case "huge":
				v = lua.LNumber(math.Inf(1)) // HUGE_VAL, as in Lua 5.1
			case "pi":
				v = lua.LNumber(math.Pi)
			case "max":
				v = L.NewFunction(tm.mathMax)
			case "min":
				v = L.NewFunction(tm.mathMin)
			case "frexp":
				v = L.NewFunction(tm.mathFrexp)
			case "ldexp":
				v = L.NewFunction(tm.mathLdexp)
			case "modf":
				v = L.NewFunction(tm.mathModf)
			default:
				panic("luabind: math." + name + " has no implementation")
			}
		}
		lib.RawSetString(name, v)
	}
	lib.RawSetString("random", L.NewFunction(tm.luaRandom))
	lib.RawSetString("randomseed", L.NewFunction(tm.luaRandomSeed))
	return lib
}

// Argument order. lmathlib.c reads the two arguments of atan2, fmod, pow
// and ldexp inside one call, f(luaL_checknumber(L, 1),
// luaL_checknumber(L, 2)), an order C leaves open; gcc on amd64 and arm64
// evaluates the second first, so math.fmod() is "bad argument #2" in
// Debian's lua5.1. The functions here read argument 2 first too.

// mathArg reads argument n as luaL_checknumber does: a number, or a string
// Lua converts to one, whose parsing is charged by its length first, at
// numeralBytesPerInstruction (cost.go): strconv is slow on long numerals.
func (tm *Team) mathArg(L *lua.LState, n int) float64 {
	switch v := L.Get(n).(type) {
	case lua.LNumber:
		return float64(v)
	case lua.LString:
		tm.charge(L, int64(len(v))/numeralBytesPerInstruction)
	}
	return numberArg(L, n)
}

// mathIntArg reads argument n as luaL_checkint does, except that NaN,
// infinities and magnitudes beyond 2^53 are an argument error rather than
// whatever this machine's conversion makes of them.
func (tm *Team) mathIntArg(L *lua.LState, n int) int {
	f := tm.mathArg(L, n)
	i, ok := toWhole(f)
	if !ok {
		argError(L, n, "number has no integer representation ("+numberString(lua.LNumber(f))+" is not between -2^53 and 2^53)")
	}
	return i
}

// mathMax is Lua 5.1's math.max: the first argument, replaced by each
// later one that is greater (so NaNs fall where C's comparisons put them).
func (tm *Team) mathMax(L *lua.LState) int {
	top := L.GetTop()
	m := tm.mathArg(L, 1)
	for i := 2; i <= top; i++ {
		if v := tm.mathArg(L, i); v > m {
			m = v
		}
	}
	L.Push(lua.LNumber(m))
	return 1
}

// mathMin is Lua 5.1's math.min.
func (tm *Team) mathMin(L *lua.LState) int {
	top := L.GetTop()
	m := tm.mathArg(L, 1)
	for i := 2; i <= top; i++ {
		if v := tm.mathArg(L, i); v < m {
			m = v
		}
	}
	L.Push(lua.LNumber(m))
	return 1
}

// mathFrexp returns m and e with x = m·2^e, 0.5 ≤ |m| < 1 (exact).
func (tm *Team) mathFrexp(L *lua.LState) int {
	m, e := math.Frexp(tm.mathArg(L, 1))
	L.Push(lua.LNumber(m))
	L.Push(lua.LNumber(e))
	return 2
}

// mathLdexp returns m·2^e (exact, or rounded once when subnormal).
func (tm *Team) mathLdexp(L *lua.LState) int {
	e := tm.mathIntArg(L, 2) // first, as in lua5.1 (see mathArg)
	L.Push(lua.LNumber(math.Ldexp(tm.mathArg(L, 1), e)))
	return 1
}

// mathModf returns the whole part and the fraction, as C's modf.
func (tm *Team) mathModf(L *lua.LState) int {
	w, f := detmath.Modf(tm.mathArg(L, 1))
	L.Push(lua.LNumber(w))
	L.Push(lua.LNumber(f))
	return 2
}
