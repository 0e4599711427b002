package worker

import (
	"flag"
	"fmt"
	"io"
	"os"
	"runtime/debug"

	"github.com/squarebattle/squarebattle/engine/oslimit"
)

// maxGoStack bounds a worker goroutine's stack, far below Go's 1 GB
// default: a Go recursion a hole lets a script drive ends in a fatal stack
// overflow quickly, before it costs much memory. Lua's own call depth is
// bounded by limits.call_depth long before this, and the Go nesting of
// metamethods, callbacks and protected calls by Lua 5.1's C stack limit
// (luabind/cstack.go: 200 levels of about ten Go frames).
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
	// The worker sets its limits on itself, first thing, before it reads
	// a request (see engine/oslimit). Past RLIMIT_AS the Go runtime's mmap
	// fails and the worker dies with "out of memory", which the parent
	// counts as a crash of that team only; past RLIMIT_CPU the kernel
	// kills it, though the pool retires workers well before that on their
	// own (see Pool.put). The race detector maps terabytes of shadow
	// memory, so a worker built with it runs without RLIMIT_AS.
	l := oslimit.Limits{CPUSeconds: *cpu}
	if *mem > 0 && !raceEnabled {
		l.AddressSpace = *mem<<20 + oslimit.AddressHeadroom
	}
	if err := oslimit.Apply(l); err != nil {
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
