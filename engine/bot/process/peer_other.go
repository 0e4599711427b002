//go:build !linux

package process

import "net"

// fromBot cannot tell off Linux: any loopback peer is taken.
func fromBot(*net.TCPConn, uint32, int) bool { return true }
