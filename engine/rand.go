package engine

import "math/bits"

// Rand is a small, fast, seedable generator (xoshiro256**, seeded through
// splitmix64). The engine carries its own instead of math/rand so that a
// battle's random choices are fixed by this file alone, not by whatever the
// Go release decides its generators should produce.
//
// A Rand is not safe for concurrent use; each consumer gets its own stream.
type Rand struct {
	s [4]uint64
}

// Random streams split from one battle seed. Each consumer draws from its own
// stream so that, for example, a team calling math.random more often never
// shifts the placement of the starting squares or the killer picks.
const (
	StreamPlacement uint64 = 1
	StreamKillers   uint64 = 2
	streamTeamBase  uint64 = 1 << 32
)

// TeamStream is the stream of a team's script random numbers.
func TeamStream(team int) uint64 { return streamTeamBase + uint64(team) }

// NewRand returns the generator for one stream of a seed.
func NewRand(seed, stream uint64) *Rand {
	r := &Rand{}
	r.Seed(seed, stream)
	return r
}

// Seed resets r to the start of the given stream.
func (r *Rand) Seed(seed, stream uint64) {
	x := seed ^ splitmix(stream^0x5851f42d4c957f2d)
	for i := range r.s {
		x += 0x9e3779b97f4a7c15
		r.s[i] = splitmix(x)
	}
	if r.s == [4]uint64{} { // the one state xoshiro cannot leave
		r.s[0] = 1
	}
}

func splitmix(z uint64) uint64 {
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9
	z = (z ^ (z >> 27)) * 0x94d049bb133111eb
	return z ^ (z >> 31)
}

// Uint64 returns the next 64 random bits.
func (r *Rand) Uint64() uint64 {
	s := &r.s
	out := bits.RotateLeft64(s[1]*5, 7) * 9
	t := s[1] << 17
	s[2] ^= s[0]
	s[3] ^= s[1]
	s[1] ^= s[2]
	s[0] ^= s[3]
	s[2] ^= t
	s[3] = bits.RotateLeft64(s[3], 45)
	return out
}

// IntN returns a uniform integer in [0, n). It panics if n <= 0.
// Lemire's multiply-and-reject method: no modulo bias.
func (r *Rand) IntN(n int) int {
	if n <= 0 {
		panic("engine: Rand.IntN with n <= 0")
	}
	bound := uint64(n)
	hi, lo := bits.Mul64(r.Uint64(), bound)
	if lo < bound {
		threshold := -bound % bound
		for lo < threshold {
			hi, lo = bits.Mul64(r.Uint64(), bound)
		}
	}
	return int(hi)
}

// Float64 returns a uniform number in [0, 1).
func (r *Rand) Float64() float64 {
	return float64(r.Uint64()>>11) / (1 << 53)
}
