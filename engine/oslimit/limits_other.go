//go:build !linux

package oslimit

import "os/exec"

// Enforced: off Linux nothing is enforced. A child still dies alone when
// it is killed, but memory, CPU, processes and files are not bounded and
// privileges are not dropped.
const Enforced = false

// Apply enforces nothing off Linux.
func Apply(Limits) error { return nil }

// Prepare does nothing off Linux.
func Prepare(*exec.Cmd) {}

// Kill kills the child alone: off Linux it has no group of its own.
func Kill(c *exec.Cmd) {
	if c.Process != nil {
		_ = c.Process.Kill()
	}
}
