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
//   - A reaper process of its own between this program and the bot (the
//     launcher's first stage, LauncherMain): a child subreaper
//     (PR_SET_CHILD_SUBREAPER), so every process the bot starts stays its
//     descendant, also one that leaves the bot's process group or session
//     (setsid, setpgid) or whose parent exits (a double-forking daemon
//     comes back to the reaper, not to init). Close, a line too long, or
//     this program's death (the reaper's parent-death signal, and the end
//     of its control pipe) make the reaper kill its whole tree with
//     SIGKILL and wait until none of it is left; Close returns after.
//     The bot itself leads a process group of its own.
//   - A cgroup v2 of its own, below this program's cgroup, where one is
//     mounted and this program may write there (root, or a delegated
//     cgroup): the reaper joins it before the bot starts, so everything
//     the bot starts is in it and cannot leave it; Close kills what it
//     still holds (cgroup.kill) and removes it. It holds what escapes the
//     reaper: the descendants of a bot that killed its own reaper (one of
//     this program's user can). Where there is none, the reaper alone
//     contains the bot. Bot.Containment says which.
//   - Resource limits (Limits) the bot's process sets on itself before
//     its first instruction: the launcher's second stage (the reaper's
//     child, this program's hidden subcommand LauncherCommand again)
//     applies them and then execs the bot (LauncherMain); the code is engine/oslimit's, shared with the Lua
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
// What does not contain a bot: without a cgroup, a bot of this
// program's user can kill its reaper, and what it started then goes to
// init (as root with Options.RunAs, the reaper stays root and the bot
// cannot signal it); a bot run as root can leave its cgroup too.
// RLIMIT_NPROC counts all tasks of the user, so bots of one user share
// their allowance, and root is not bounded by it at all
// (Limits.Processes, Options.RunAs). Over TCP, where loopback is shared
// by all local users, the engine takes the bot's connection only (see
// fromBot): one made in the bot's cgroup, or held by a process of the
// bot's tree and of its user; others are refused and closed at once, up
// to a bound, until the bot's comes. A bot must therefore keep its
// connection open until answered: one whose socket is already closed when
// the engine looks is no one's. Off Linux any loopback peer is taken, and
// with Options.Connect the engine cannot tell who listens on the port.
//
// Platforms: everything above holds on Linux. Elsewhere a bot starts
// directly, without limits, process group, parent-death signal, reaper
// or cgroup (Close kills the bot's own process only), and on Windows, whose pipes take no
// deadlines, only the TCP transport works.
package process
