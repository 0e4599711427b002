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

// LauncherMain is the bot launcher: it sets the limits its flags name on
// its own process (and, as root, the user to run as), then replaces itself
// with the bot's program, so the bot runs under limits from its first
// instruction; there is no moment in which it is unlimited, as there
// would be if the parent set them with prlimit after the start. It
// returns only when it fails (exit code 127 for a program it cannot run,
// 2 for bad flags).
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
	if err := fs.Parse(args); err != nil {
		return 2
	}
	argv := fs.Args()
	if len(argv) < 2 {
		fmt.Fprintln(stderr, "bot launcher: no program")
		return 2
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
	err := become(as, l, argv[0], argv[1:], env)
	fmt.Fprintf(stderr, "bot launcher: %s: %v\n", strconv.Quote(argv[0]), err)
	return 127
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
	if as != nil {
		a = append(a, "-uid", strconv.FormatUint(uint64(as.UID), 10), "-gid", strconv.FormatUint(uint64(as.GID), 10))
	}
	return a
}
