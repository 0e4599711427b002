package worker

import (
	"flag"
	"fmt"
	"io"
	"os"
	"runtime/debug"
)

// osLimits are what a worker asks the kernel to enforce on itself.
type osLimits struct {
	addressSpace uint64 // bytes; 0 = none
	cpuSeconds   uint64 // 0 = none
}

// addressHeadroom is the address space a worker gets beyond its memory
// setting: the Go runtime reserves arenas, stacks and its own metadata
// ahead of use (an idle worker maps about 1.2 GiB of mostly untouched
// address space on linux/amd64; see the package tests).
const addressHeadroom = 2 << 30

// maxGoStack bounds a worker goroutine's stack, far below Go's 1 GB
// default: a Go recursion a hole lets a script drive ends in a fatal stack
// overflow quickly, before it costs much memory. Lua's own call depth is
// bounded by limits.call_depth long before this.
const maxGoStack = 64 << 20

// Main is the hidden worker subcommand: args are its flags (as the pool
// passes them), and it returns the exit code. It sets the OS limits,
// then serves stdin and stdout until the parent closes the pipe.
func Main(args []string, stderr io.Writer, o ServeOptions) int {
	fs := flag.NewFlagSet("__worker", flag.ContinueOnError)
	fs.SetOutput(stderr)
	mem := fs.Uint64("memory-mib", 0, "")
	cpu := fs.Uint64("cpu-seconds", 0, "")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	l := osLimits{cpuSeconds: *cpu}
	if *mem > 0 {
		l.addressSpace = *mem<<20 + addressHeadroom
	}
	if err := applyLimits(l); err != nil {
		fmt.Fprintln(stderr, "worker:", err)
		return 1
	}
	debug.SetMaxStack(maxGoStack)
	if o.Orphaned == nil {
		o.Orphaned = func() { os.Exit(0) }
	}
	in, out := pollable(0, "stdin"), pollable(1, "stdout")
	if err := Serve(in, out, o); err != nil {
		fmt.Fprintln(stderr, "worker:", err)
		return 1
	}
	return 0
}
