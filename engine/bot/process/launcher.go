package process

import (
	"flag"
	"fmt"
	"io"
	"os"
	"strconv"

	"github.com/squarebattle/squarebattle/engine/oslimit"
)

// LauncherCommand is the hidden subcommand that runs LauncherMain: the
// program's main must hand it to LauncherMain before anything else, as it
// does "__worker" to luabind/worker.
const LauncherCommand = "__bot"

// launcherEnv marks the launcher's environment. Start refuses to run in a
// process that has it: a binary that did not hand LauncherCommand to
// LauncherMain (a test binary without the TestMain hook) would otherwise
// run its own main as the launcher, start bots in turn, and so on.
const launcherEnv = "SQUAREBATTLE_BOT_LAUNCHER"

// The launcher's descriptors beyond stdin, stdout and stderr, which Start
// passes it (exec.Cmd.ExtraFiles): the reaper reports on the first and
// ends the bot's whole tree when the second reaches its end (Start closes
// its end, or this program died).
const (
	statusFD  = 3
	controlFD = 4
)

// LauncherMain is the bot launcher. It runs in two stages, both this
// program's hidden subcommand:
//
//   - The reaper (what Start runs): it becomes a child subreaper, moves
//     itself into the bot's cgroup when Start made one, starts the second
//     stage as its child, and then stays between this program and the bot
//     until the bot's whole tree of processes has ended: every process the
//     bot starts, also one that leaves its process group or session or
//     whose parent exits, remains its descendant, and it kills them all
//     when told to (its control descriptor ends: Close, or this program
//     died) or by SIGTERM (this program's death signal to it). It exits as
//     the bot did. See reap.
//   - The exec stage (-exec): it sets the limits its flags name on its own
//     process (and, as root, the user to run as), then replaces itself with
//     the bot's program, so the bot runs under limits from its first
//     instruction; there is no moment in which it is unlimited, as there
//     would be if the parent set them with prlimit after the start.
//
// It returns only when it fails (exit code 127 for a program it cannot
// run, 2 for bad flags); the reaper ends its process itself, as the bot
// ended.
func LauncherMain(args []string, stderr io.Writer) int {
	fs := flag.NewFlagSet(LauncherCommand, flag.ContinueOnError)
	fs.SetOutput(stderr)
	var l oslimit.Limits
	fs.Uint64Var(&l.AddressSpace, "as", 0, "")
	fs.Uint64Var(&l.CPUSeconds, "cpu", 0, "")
	fs.Uint64Var(&l.Processes, "nproc", 0, "")
	fs.Uint64Var(&l.OpenFiles, "nofile", 0, "")
	fs.Uint64Var(&l.FileSize, "fsize", 0, "")
	fs.BoolVar(&l.NoCore, "nocore", false, "")
	uid := fs.Int64("uid", -1, "")
	gid := fs.Int64("gid", -1, "")
	parent := fs.Int("parent", 0, "")
	exec := fs.Bool("exec", false, "")
	cgroup := fs.String("cgroup", "", "")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	argv := fs.Args()
	if len(argv) < 2 {
		fmt.Fprintln(stderr, "bot launcher: no program")
		return 2
	}
	if !*exec {
		flags := args[:len(args)-len(argv)]
		if n := len(flags); n > 0 && flags[n-1] == "--" {
			flags = flags[:n-1]
		}
		return reap(launcherPrefix(args), flags, argv, *parent, *cgroup, stderr)
	}
	env := make([]string, 0, len(os.Environ()))
	for _, e := range os.Environ() {
		if len(e) <= len(launcherEnv) || e[:len(launcherEnv)+1] != launcherEnv+"=" {
			env = append(env, e)
		}
	}
	var as *User
	if *uid >= 0 && *gid >= 0 {
		as = &User{UID: uint32(*uid), GID: uint32(*gid)}
	}
	err := become(as, l, *parent, argv[0], argv[1:], env)
	fmt.Fprintf(stderr, "bot launcher: %s: %v\n", strconv.Quote(argv[0]), err)
	return 127
}

// launcherPrefix is the part of this process's arguments before args, the
// launcher's own: the words that run LauncherMain again (this program and
// LauncherCommand, or a test binary's equivalent).
func launcherPrefix(args []string) []string {
	n := len(os.Args) - len(args)
	if n >= 1 {
		same := true
		for i, a := range args {
			if os.Args[n+i] != a {
				same = false
				break
			}
		}
		if same {
			return append([]string(nil), os.Args[:n]...)
		}
	}
	return []string{os.Args[0], LauncherCommand}
}

// launcherArgs are the flags LauncherMain reads for l and as.
func launcherArgs(l oslimit.Limits, as *User) []string {
	var a []string
	add := func(name string, v uint64) {
		if v > 0 {
			a = append(a, "-"+name, strconv.FormatUint(v, 10))
		}
	}
	add("as", l.AddressSpace)
	add("cpu", l.CPUSeconds)
	add("nproc", l.Processes)
	add("nofile", l.OpenFiles)
	add("fsize", l.FileSize)
	if l.NoCore {
		a = append(a, "-nocore")
	}
	a = append(a, "-parent", strconv.Itoa(os.Getpid()))
	if as != nil {
		a = append(a, "-uid", strconv.FormatUint(uint64(as.UID), 10), "-gid", strconv.FormatUint(uint64(as.GID), 10))
	}
	return a
}
