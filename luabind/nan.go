package luabind

import (
	"math"

	lua "github.com/yuin/gopher-lua"
)

// NaNs with a sign that is the same on every machine.
//
// Lua 5.1 prints a NaN's sign ("-nan" for 0/0 on a PC), and the sign of a
// NaN that hardware makes from numbers differs by architecture: amd64's is
// negative, arm64's positive. So every place where the sandbox can make a
// NaN from numbers sets it to negNaN, the one an amd64 PC makes (and that
// Debian's lua5.1 prints): arithmetic results as they are boxed (arith.go),
// constants folded by the compiler (canonicalConstants), and the math
// library's domain errors, each with the sign glibc gives on a PC. A NaN
// read from a string ("nan", "-nan") has the sign written; negation flips
// the sign on every machine. The one difference left from Lua on a PC is
// that arithmetic on a NaN operand yields negNaN whatever that operand's
// sign, where a PC keeps the operand's: which operand a PC keeps when both
// are NaNs depends on how the compiler ordered the instruction, and the
// sandbox must not.

var (
	negNaN = math.Float64frombits(0xfff8000000000000)
	posNaN = math.Float64frombits(0x7ff8000000000000)
)

// zero is a variable so that machineNaN is computed by the hardware.
var zero = 0.0

// machineNaN is the NaN this machine's division makes of 0/0.
var machineNaN = zero / zero

// canonicalConstants sets the NaN constants of p and its nested functions
// to the sandbox's: gopher-lua's compiler folds 0/0 (which numberExpr in
// fold.go writes for any NaN) with this machine's division, and -(0/0)
// with a negation of that. A constant with machineNaN's sign is 0/0,
// negNaN; the other is its negation, posNaN.
func canonicalConstants(p *lua.FunctionProto) {
	for i, c := range p.Constants {
		if n, ok := c.(lua.LNumber); ok && n != n {
			if bits := math.Float64bits(float64(n)); bits<<1 != 0xfff0000000000000 {
				// Not a NaN the hardware made (gopher-lua's reading of
				// a numeral it cannot parse): the same on every machine.
				p.Constants[i] = lua.LNumber(negNaN)
			} else if math.Signbit(float64(n)) == math.Signbit(machineNaN) {
				p.Constants[i] = lua.LNumber(negNaN)
			} else {
				p.Constants[i] = lua.LNumber(posNaN)
			}
		}
	}
	for _, q := range p.FunctionPrototypes {
		canonicalConstants(q)
	}
}

// freshNaN is the NaN glibc returns on a PC for a domain error of the math
// function, when no argument was a NaN: negative for most, positive for
// asin, acos and log10.
func freshNaN(name string) float64 {
	switch name {
	case "asin", "acos", "log10":
		return posNaN
	}
	return negNaN
}

// unaryResult is f(x) with a NaN result made the same on every machine:
// a NaN argument comes back as it was (abs clears its sign, as fabs
// does), another NaN is the function's freshNaN.
func unaryResult(name string, f func(float64) float64, x float64) float64 {
	r := f(x)
	if r == r {
		return r
	}
	switch {
	case x != x && name == "abs":
		return math.Abs(x)
	case x != x:
		return x
	}
	return freshNaN(name)
}

// binaryResult is f(x, y) with a NaN result made the same on every
// machine: the first NaN argument, or negNaN (fmod, pow and atan2 of
// numbers all give the negative NaN on a PC).
func binaryResult(f func(x, y float64) float64, x, y float64) float64 {
	r := f(x, y)
	switch {
	case r == r:
		return r
	case x != x:
		return x
	case y != y:
		return y
	}
	return negNaN
}
