package detmath

import "math"

// ln 2 split so that k·ln2Hi is exact for the k exp meets.
const (
	ln2Hi = 6.93147180369123816490e-01
	ln2Lo = 1.90821492927058770002e-10
	log2e = 1.44269504088896338700e+00
)

// Exp returns e**x: +Inf above ~709.78, 0 below ~-745.13. FreeBSD msun's
// e_exp.c: x = k·ln2 + r with |r| ≤ ln2/2, then a Remez polynomial for
// exp(r), scaled by 2^k.
func Exp(x float64) float64 {
	const (
		overflow  = 7.09782712893383973096e+02
		underflow = -7.45133219101941108420e+02
		nearZero  = 1.0 / (1 << 28)
	)
	switch {
	case x != x:
		return x
	case x > overflow:
		return math.Inf(1)
	case x < underflow:
		return 0
	case -nearZero < x && x < nearZero:
		return 1 + x
	}
	// |x| < 746, so k fits an int and the conversion is exact.
	var k int
	switch {
	case x < 0:
		k = int(float64(log2e*x) - 0.5)
	case x > 0:
		k = int(float64(log2e*x) + 0.5)
	}
	fk := float64(k)
	hi := x - float64(fk*ln2Hi)
	lo := float64(fk * ln2Lo)
	return expScaled(hi, lo, k)
}

// expScaled is exp(hi-lo)·2^k for |hi-lo| ≤ ln2/2.
func expScaled(hi, lo float64, k int) float64 {
	const (
		p1 = 1.66666666666666657415e-01
		p2 = -2.77777777770155933842e-03
		p3 = 6.61375632143793436117e-05
		p4 = -1.65339022054652515390e-06
		p5 = 4.13813679705723846039e-08
	)
	r := hi - lo
	t := float64(r * r)
	p := p4 + float64(t*p5)
	p = p3 + float64(t*p)
	p = p2 + float64(t*p)
	p = p1 + float64(t*p)
	c := r - float64(t*p)
	y := 1 - ((lo - float64(r*c)/(2-c)) - hi)
	return math.Ldexp(y, k)
}

// Sinh returns the hyperbolic sine of x (Cephes sinh.c).
func Sinh(x float64) float64 {
	const (
		p0 = -0.6307673640497716991184787251e+6
		p1 = -0.8991272022039509355398013511e+5
		p2 = -0.2894211355989563807284660366e+4
		p3 = -0.2630563213397497062819489e+2
		q0 = -0.6307673640497716991212077277e+6
		q1 = 0.1521517378790019070696485176e+5
		q2 = -0.173678953558233699533450911e+3
	)
	if x != x {
		return x
	}
	neg := false
	if x < 0 {
		x, neg = -x, true
	}
	var t float64
	switch {
	case x > 709:
		t = expHalfHuge(x)
	case x > 21:
		t = Exp(x) * 0.5
	case x > 0.5:
		ex := Exp(x)
		t = (ex - 1/ex) * 0.5
	default:
		sq := float64(x * x)
		num := float64(p3*sq) + p2
		num = float64(num*sq) + p1
		num = float64(num*sq) + p0
		den := float64((sq+q2)*sq) + q1
		den = float64(den*sq) + q0
		t = float64(num*x) / den
	}
	if neg {
		t = -t
	}
	return t
}

// Cosh returns the hyperbolic cosine of x.
func Cosh(x float64) float64 {
	if x != x {
		return x
	}
	x = math.Abs(x)
	if x > 709 {
		return expHalfHuge(x)
	}
	if x > 21 {
		return Exp(x) * 0.5
	}
	ex := Exp(x)
	return (ex + 1/ex) * 0.5
}

// expHalfHuge is e^x/2 for x near the overflow threshold of Exp, where
// e^x alone overflows but e^x/2 may not: (e^(x/2)/2)·e^(x/2).
func expHalfHuge(x float64) float64 {
	w := Exp(0.5 * x)
	return (0.5 * w) * w
}

// Tanh returns the hyperbolic tangent of x (Cephes tanh.c).
func Tanh(x float64) float64 {
	const (
		maxlog = 8.8029691931113054295988e+01 // log(2^127)
		p0     = -9.64399179425052238628e-1
		p1     = -9.92877231001918586564e1
		p2     = -1.61468768441708447952e3
		q0     = 1.12811678491632931402e2
		q1     = 2.23548839060100448583e3
		q2     = 4.84406305325125486048e3
	)
	if x != x {
		return x
	}
	z := math.Abs(x)
	switch {
	case z > 0.5*maxlog:
		if x < 0 {
			return -1
		}
		return 1
	case z >= 0.625:
		s := Exp(2 * z)
		z = 1 - 2/(s+1)
		if x < 0 {
			z = -z
		}
		return z
	case x == 0:
		return x
	}
	s := float64(x * x)
	num := float64(float64(float64(p0*s)+p1)*s) + p2
	den := float64((s+q0)*s) + q1
	den = float64(den*s) + q2
	return x + float64(float64(x*s)*num)/den
}
