package process

import (
	"fmt"

	"github.com/squarebattle/squarebattle/engine/oslimit"
)

// Limits bound a bot's process and everything it starts. A zero field
// takes the value of DefaultLimits; Unlimited (-1) sets no limit.
type Limits struct {
	// MemoryMiB bounds the bot's address space (RLIMIT_AS) to this plus
	// oslimit.AddressHeadroom (2 GiB), which language runtimes reserve
	// before they use it: a bot that allocates past it sees its
	// allocations fail and usually dies.
	MemoryMiB int
	// CPUSeconds is the CPU time each of the bot's processes may use
	// before the kernel kills it (RLIMIT_CPU).
	CPUSeconds int
	// Processes is how many more tasks (processes and threads) the bot's
	// user may have than it had when the bot started (RLIMIT_NPROC). The
	// kernel counts them per real user id over the whole system, and
	// checks the count against the limit of the process that forks. So:
	//   - a fork bomb in a bot is refused after this many tasks, and dies
	//     with its group at Close;
	//   - the program itself and the user's other programs keep their own
	//     limit, so the bomb does not stop them starting anything;
	//   - but everything the user starts after the bot eats into the bot's
	//     allowance (a bomb in one bot, or a worker pool growing, can leave
	//     another bot unable to start a thread), hence the generous
	//     default;
	//   - and the kernel does not enforce it at all for root.
	// Running bots as a user of their own (Options.RunAs) separates them
	// from everything else.
	Processes int
	// OpenFiles bounds the bot's file descriptors (RLIMIT_NOFILE).
	OpenFiles int
	// FileMiB bounds the size of any file the bot writes (RLIMIT_FSIZE).
	FileMiB int
}

// Unlimited in a Limits field sets no limit.
const Unlimited = -1

// DefaultLimits are the limits a bot gets for each zero field: room for a
// Python, Node or Go bot that keeps a battle's state, and little more.
func DefaultLimits() Limits {
	return Limits{MemoryMiB: 512, CPUSeconds: 600, Processes: 256, OpenFiles: 64, FileMiB: 16}
}

func (l Limits) check() error {
	for _, f := range []struct {
		name string
		v    int
	}{{"memory_mib", l.MemoryMiB}, {"cpu_seconds", l.CPUSeconds}, {"processes", l.Processes}, {"open_files", l.OpenFiles}, {"file_mib", l.FileMiB}} {
		if f.v < Unlimited || f.v > 1<<30 {
			return fmt.Errorf("limit %s = %d is not -1 (none) or 0..%d", f.name, f.v, 1<<30)
		}
	}
	return nil
}

// rlimits turns l into what the launcher applies, given how many tasks the
// bot's user has now.
func (l Limits) rlimits(tasks int) oslimit.Limits {
	d := DefaultLimits()
	pick := func(v, def int) uint64 {
		switch {
		case v == Unlimited:
			return 0
		case v == 0:
			return uint64(def)
		}
		return uint64(v)
	}
	o := oslimit.Limits{
		CPUSeconds: pick(l.CPUSeconds, d.CPUSeconds),
		OpenFiles:  pick(l.OpenFiles, d.OpenFiles),
		NoCore:     true,
	}
	if m := pick(l.MemoryMiB, d.MemoryMiB); m > 0 {
		o.AddressSpace = m<<20 + oslimit.AddressHeadroom
	}
	if f := pick(l.FileMiB, d.FileMiB); f > 0 {
		o.FileSize = f << 20
	}
	if p := pick(l.Processes, d.Processes); p > 0 {
		o.Processes = uint64(tasks) + p
	}
	return o
}
