//go:build !unix

package luabind

import "time"

// cpuNow falls back to the wall clock where no process CPU clock is read.
func cpuNow() time.Duration { return time.Duration(time.Now().UnixNano()) }
