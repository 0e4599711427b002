// Package harness runs the real squarebattle program for the end-to-end
// tests: it builds the program once per test binary, gives each run an
// isolated folder and environment, and drives it in a private tmux server.
//
// The end-to-end tests live in packages of their own beside this one
// (terminal, arena, kits, printed, slurm, crossarch), one per concern, so
// that no single test binary carries every slow test: go test runs the
// packages side by side and each stays far from Go's default timeout on a
// loaded machine.
//
// Nothing here sleeps for a fixed time to let something happen: every wait
// polls until what it waits for is there, or fails at a generous deadline
// with what it saw.
package harness
