// Package process starts external bots and talks to them: it implements
// bot.Conn over a bot program's stdin and stdout (Stdio) or over one TCP
// connection on loopback (TCP), with lines of at most Options.MaxLine
// bytes. The protocol spoken over those lines is package bot's.
//
// An external bot is a program the operator chose to run, not code the
// engine sandboxes: it can do whatever its user may do on the machine,
// within the limits below. The SSH arena accepts Lua players only.
//
// What contains a bot:
//   - Its own process group, killed as a whole by Close (after a short
//     grace once its input closes) or at once when it sends a line that
//     is too long. Pdeathsig kills it if this program dies first.
//   - Resource limits (Limits) the bot's process sets on itself before
//     its first instruction: Start runs this program's hidden subcommand
//     LauncherCommand, which applies them and then execs the bot
//     (LauncherMain); the code is engine/oslimit's, shared with the Lua
//     worker processes. Address space, CPU seconds, tasks of its user,
//     open files, file size, no core dumps, no new privileges.
//   - A minimal environment (PATH, LANG and what Options.Env adds) and
//     the working directory Options.Dir.
//   - Bounded reading: a line is read into a buffer of at most MaxLine
//     bytes plus one read; Receive waits until a deadline without a
//     goroutine (the pipe or socket waits in the runtime's poller) and a
//     late line stays buffered for the next Receive. Send has a deadline
//     too, so a bot that never reads cannot block the engine.
//   - Its stderr (and its stdout over TCP) is drained by one goroutine
//     into Options.Log: lines made safe for a terminal, capped in bytes,
//     the rest counted and dropped.
//
// What does not contain a bot: a process it starts that leaves the
// process group (setsid) is not killed by Close; RLIMIT_NPROC counts all
// tasks of the user, so bots of one user share their allowance, and root
// is not bounded by it at all (Limits.Processes, Options.RunAs); over TCP,
// where loopback is shared by all local users, a connection is refused
// when its socket belongs to another user or is held by a process outside
// the bot's group, but one whose process has already exited (or, off
// Linux, any) is taken for the bot; and with Options.Connect the engine
// cannot tell who listens on the port.
//
// Platforms: everything above holds on Linux. Elsewhere a bot starts
// directly, without limits, process group or parent-death signal (Close
// kills the bot's own process only), and on Windows, whose pipes take no
// deadlines, only the TCP transport works.
package process
