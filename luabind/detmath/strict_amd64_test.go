//go:build amd64 && !amd64.v3

package detmath

// strictMath: on amd64 below v3 the compiler has no FMA to fuse with, so
// Go's portable math code rounds every operation as detmath does.
const strictMath = true
