//go:build !amd64 || amd64.v3

package detmath

// strictMath is false where Go's math may fuse products into sums.
const strictMath = false
