// Package detmath is the math library scripts see, giving the same bits on
// every machine.
//
// Go's math package is not bit-reproducible across builds: Exp and Log run
// assembly kernels on amd64 and arm64 (different algorithms from the
// portable Go code), and the compiler may fuse a product and a sum into one
// FMA instruction (always available on arm64, on amd64 from GOAMD64=v3),
// which rounds once instead of twice. A battle whose player calls math.cos
// then plays differently on a Linux PC and an ARM Mac, and replays stop
// verifying.
//
// Here every function is plain Go following the classic published
// algorithms (Cephes for the trigonometric and hyperbolic functions,
// FreeBSD msun for exp and log, the binary-powering scheme for pow), and
// every product whose result feeds an addition or subtraction is wrapped
// in an explicit float64(...) conversion. The Go specification makes such
// a conversion round to float64, which forbids fusion; TestNoFusedOps
// checks the compiled code for arm64 and amd64/v3 holds no FMA
// instruction. From package math only bit-exact helpers are used (Abs,
// Frexp, Ldexp, Modf's parts, Sqrt, Float64bits and friends).
//
// NaN results of domain errors are always the one pattern math.NaN()
// returns: hardware-made NaNs differ in sign between amd64 and arm64. A NaN
// argument is returned unchanged.
//
// On amd64 without FMA (GOAMD64=v1 or v2) the functions whose Go versions
// are portable code (Sin, Cos, Tan, Asin, Acos, Atan, Atan2) give exactly
// math's bits, so battles recorded there before this package existed still
// replay the same.
package detmath
