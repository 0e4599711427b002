package oslimit

// Limits are resource limits a process sets on itself with setrlimit(2)
// (soft = hard, so it cannot raise them again). A zero field sets nothing.
type Limits struct {
	// AddressSpace bounds the bytes the process may map (RLIMIT_AS). Past
	// it mmap fails: a Go program dies with "out of memory", others see
	// malloc fail. Runtimes reserve address space far ahead of use, so a
	// memory setting needs AddressHeadroom on top.
	AddressSpace uint64
	// CPUSeconds bounds the CPU time (RLIMIT_CPU): the kernel kills the
	// process past it. Each process has its own: children start at zero.
	CPUSeconds uint64
	// Processes bounds the tasks (processes and threads) of the process's
	// real user id, counted over the whole system, not per process
	// (RLIMIT_NPROC); fork and clone fail with EAGAIN past it. The kernel
	// does not enforce it for root (real uid 0) or a process with
	// CAP_SYS_RESOURCE or CAP_SYS_ADMIN.
	Processes uint64
	// OpenFiles bounds the descriptors (RLIMIT_NOFILE).
	OpenFiles uint64
	// FileSize bounds the bytes of any file the process writes
	// (RLIMIT_FSIZE): past it the write fails and SIGXFSZ kills it.
	FileSize uint64
	// NoCore forbids core dumps (RLIMIT_CORE = 0): a crash writes no
	// file of the size of the process's memory.
	NoCore bool
}

// AddressHeadroom is the address space a process gets beyond its memory
// setting: the Go runtime reserves arenas, stacks and its own metadata
// ahead of use (an idle worker maps about 1.2 GiB of mostly untouched
// address space on linux/amd64; see luabind/worker's tests), and Node's V8
// reserves about 0.7 GiB before it runs a line.
const AddressHeadroom = 2 << 30
