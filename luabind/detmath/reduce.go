package detmath

import (
	"math"
	"math/bits"
)

// reduceThreshold is where the Cody–Waite reduction in octant stops being
// exact enough: beyond it x·4/π no longer fits the pieces of π/4.
const reduceThreshold = 1 << 29

// payneHanek reduces a large x (≥ reduceThreshold, finite) modulo π/4
// with integer arithmetic on the bits of 4/π (Payne and Hanek's method):
// it returns the even octant j (mod 8) and x - j·π/4. All of the work is
// on integers, and the single float multiply at the end cannot fuse.
func payneHanek(x float64) (uint64, float64) {
	const (
		shift = 52
		mask  = 0x7ff
		bias  = 1023
	)
	ix := math.Float64bits(x)
	exp := int(ix>>shift&mask) - bias - shift
	ix &^= mask << shift
	ix |= 1 << shift
	// The 192 bits of 4/π that matter for x's exponent, starting at bit
	// exp+61 (the integer bits beyond the octant do not change x mod 2π).
	digit, bitshift := uint(exp+61)/64, uint(exp+61)%64
	z0 := (fourOverPi[digit] << bitshift) | (fourOverPi[digit+1] >> (64 - bitshift))
	z1 := (fourOverPi[digit+1] << bitshift) | (fourOverPi[digit+2] >> (64 - bitshift))
	z2 := (fourOverPi[digit+2] << bitshift) | (fourOverPi[digit+3] >> (64 - bitshift))
	z2hi, _ := bits.Mul64(z2, ix)
	z1hi, z1lo := bits.Mul64(z1, ix)
	z0lo := z0 * ix
	lo, c := bits.Add64(z1lo, z2hi, 0)
	hi, _ := bits.Add64(z0lo, z1hi, c)
	// The top three bits are the octant; the rest is the fraction, which
	// becomes a float in [0, 1) by normalising it by hand.
	j := hi >> 61
	hi = hi<<3 | lo>>61
	lz := uint(bits.LeadingZeros64(hi))
	e := uint64(bias - (lz + 1))
	hi = (hi << (lz + 1)) | (lo >> (64 - (lz + 1)))
	hi >>= 64 - shift
	hi |= e << shift
	z := math.Float64frombits(hi)
	if j&1 == 1 {
		j++
		j &= 7
		z--
	}
	return j, z * (math.Pi / 4)
}

// fourOverPi holds the binary digits of 4/π, 64 to an element, enough
// for the largest float64.
var fourOverPi = [...]uint64{
	0x0000000000000001,
	0x45f306dc9c882a53,
	0xf84eafa3ea69bb81,
	0xb6c52b3278872083,
	0xfca2c757bd778ac3,
	0x6e48dc74849ba5c0,
	0x0c925dd413a32439,
	0xfc3bd63962534e7d,
	0xd1046bea5d768909,
	0xd338e04d68befc82,
	0x7323ac7306a673e9,
	0x3908bf177bf25076,
	0x3ff12fffbc0b301f,
	0xde5e2316b414da3e,
	0xda6cfd9e4f96136e,
	0x9e8c7ecd3cbfd45a,
	0xea4f758fd7cbe2f6,
	0x7a0e73ef14a525d4,
	0xd7f6bf623f1aba10,
	0xac06608df8f6d757,
}
