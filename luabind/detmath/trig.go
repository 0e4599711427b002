package detmath

import "math"

// Cephes sin/cos kernels on [-π/4, π/4] (coefficients from Cephes'
// sin.c, as in Go's portable math.Sin).
var (
	sinCoef = [...]float64{
		1.58962301576546568060e-10,
		-2.50507477628578072866e-8,
		2.75573136213857245213e-6,
		-1.98412698295895385996e-4,
		8.33333333332211858878e-3,
		-1.66666666666666307295e-1,
	}
	cosCoef = [...]float64{
		-1.13585365213876817300e-11,
		2.08757008419747316778e-9,
		-2.75573141792967388112e-7,
		2.48015872888517045348e-5,
		-1.38888888888730564116e-3,
		4.16666666666665929218e-2,
	}
)

// π/4 in three pieces whose products with a small whole number are exact
// (Cody–Waite), for arguments below reduceThreshold.
const (
	pi4a = 7.85398125648498535156e-1
	pi4b = 3.77489470793079817668e-8
	pi4c = 2.69515142907905952645e-15
)

// octant returns j, the octant x (≥ 0, finite) lies in rounded up to an
// even one, and z = x - j·π/4, the reduced argument in [-π/4, π/4].
func octant(x float64) (uint64, float64) {
	if x >= reduceThreshold {
		return payneHanek(x)
	}
	j := uint64(x * (4 / math.Pi)) // x < 2^29: the conversion is exact
	y := float64(j)
	if j&1 == 1 {
		j++
		y++
	}
	z := ((x - float64(y*pi4a)) - float64(y*pi4b)) - float64(y*pi4c)
	return j & 7, z
}

// sinKernel is sin(z) for |z| ≤ π/4, given zz = z².
func sinKernel(z, zz float64) float64 {
	p := float64(sinCoef[0]*zz) + sinCoef[1]
	p = float64(p*zz) + sinCoef[2]
	p = float64(p*zz) + sinCoef[3]
	p = float64(p*zz) + sinCoef[4]
	p = float64(p*zz) + sinCoef[5]
	return z + float64(float64(z*zz)*p)
}

// cosKernel is cos(z) for |z| ≤ π/4, given zz = z².
func cosKernel(zz float64) float64 {
	p := float64(cosCoef[0]*zz) + cosCoef[1]
	p = float64(p*zz) + cosCoef[2]
	p = float64(p*zz) + cosCoef[3]
	p = float64(p*zz) + cosCoef[4]
	p = float64(p*zz) + cosCoef[5]
	return (1.0 - float64(0.5*zz)) + float64(float64(zz*zz)*p)
}

// Sin returns the sine of x (radians). Sin(±0) = ±0, Sin(±Inf) = NaN.
func Sin(x float64) float64 {
	switch {
	case x == 0 || x != x:
		return x
	case math.IsInf(x, 0):
		return math.NaN()
	}
	neg := false
	if x < 0 {
		x, neg = -x, true
	}
	j, z := octant(x)
	if j > 3 {
		neg = !neg
		j -= 4
	}
	zz := float64(z * z)
	var y float64
	if j == 1 || j == 2 {
		y = cosKernel(zz)
	} else {
		y = sinKernel(z, zz)
	}
	if neg {
		y = -y
	}
	return y
}

// Cos returns the cosine of x (radians). Cos(±Inf) = NaN.
func Cos(x float64) float64 {
	switch {
	case x != x:
		return x
	case math.IsInf(x, 0):
		return math.NaN()
	}
	j, z := octant(math.Abs(x))
	neg := false
	if j > 3 {
		j -= 4
		neg = true
	}
	if j > 1 {
		neg = !neg
	}
	zz := float64(z * z)
	var y float64
	if j == 1 || j == 2 {
		y = sinKernel(z, zz)
	} else {
		y = cosKernel(zz)
	}
	if neg {
		y = -y
	}
	return y
}

// Cephes tan.c rational approximation on [-π/4, π/4].
var (
	tanP = [...]float64{
		-1.30936939181383777646e4,
		1.15351664838587416140e6,
		-1.79565251976484877988e7,
	}
	tanQ = [...]float64{
		1.36812963470692954678e4,
		-1.32089234440210967447e6,
		2.50083801823357915839e7,
		-5.38695755929454629881e7,
	}
)

// Tan returns the tangent of x (radians). Tan(±0) = ±0, Tan(±Inf) = NaN.
func Tan(x float64) float64 {
	switch {
	case x == 0 || x != x:
		return x
	case math.IsInf(x, 0):
		return math.NaN()
	}
	neg := false
	if x < 0 {
		x, neg = -x, true
	}
	j, z := octant(x)
	zz := float64(z * z)
	y := z
	if zz > 1e-14 {
		num := float64(float64(float64(tanP[0]*zz)+tanP[1])*zz) + tanP[2]
		num = zz * num
		den := float64((zz+tanQ[0])*zz) + tanQ[1]
		den = float64(den*zz) + tanQ[2]
		den = float64(den*zz) + tanQ[3]
		y = z + float64(z*(num/den))
	}
	if j&2 == 2 {
		y = -1 / y
	}
	if neg {
		y = -y
	}
	return y
}
