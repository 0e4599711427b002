// Command faultbot is a bot that misbehaves in one chosen way, for the
// tests of package process: faultbot MODE [ADDRESS PORT TEAM]. With an
// address it connects there (the TCP transport) and talks over the
// connection, else over stdin and stdout.
//
// The modes that start processes meant to escape the bot's process group
// (setsid, daemon, setpgid, termproof, spawner, killreaper) run them as
// "faultbot sleep TOKEN" (or "faultbot termproof TOKEN"), TOKEN being the
// environment's FAULTBOT_TOKEN, so that a test finds every one of them
// in /proc whatever became of their ancestry.
package main

import (
	"bufio"
	"fmt"
	"io"
	"net"
	"os"
	"os/exec"
	"os/signal"
	"runtime"
	"strings"
	"syscall"
	"time"
	"unsafe"
)

const maxLine = 1 << 20 // bot.MaxLine

// init keeps main on the process's first thread, whose parent-death
// signal is the one the kernel acts on (threads the runtime starts later
// have none), so that "report" reads that one.
func init() { runtime.LockOSThread() }

func main() {
	mode := os.Args[1]
	var in io.Reader = os.Stdin
	var out io.Writer = os.Stdout
	token := os.Getenv("FAULTBOT_TOKEN")
	switch mode {
	case "sleep":
		time.Sleep(time.Hour)
		return
	case "termproof": // a process that only SIGKILL ends
		signal.Ignore(syscall.SIGTERM, syscall.SIGHUP, syscall.SIGINT)
		time.Sleep(time.Hour)
		return
	case "daemonize": // faultbot daemonize CHILDMODE TOKEN: the middle of a double fork
		c := exec.Command(os.Args[0], os.Args[2], os.Args[3])
		c.SysProcAttr = &syscall.SysProcAttr{Setsid: true}
		if err := c.Start(); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		fmt.Println(c.Process.Pid)
		os.Exit(0) // the grandchild is an orphan now
	case "impostor": // faultbot impostor ADDRESS: connects, writes, stays until refused
		c, err := net.Dial("tcp", os.Args[2])
		if err != nil {
			fmt.Println(err)
			os.Exit(1)
		}
		c.Write([]byte("impostor\n"))
		fmt.Println("connected")
		c.SetReadDeadline(time.Now().Add(time.Minute))
		if _, err := c.Read(make([]byte, 10)); err != nil {
			fmt.Println("closed")
			os.Exit(0)
		}
		fmt.Println("read something")
		os.Exit(1)
	case "noconnect":
		time.Sleep(time.Hour)
		return
	case "exit":
		os.Exit(4)
	}
	if len(os.Args) >= 5 {
		c, err := net.Dial("tcp", net.JoinHostPort(os.Args[2], os.Args[3]))
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		in, out = c, c
	}
	r := bufio.NewReaderSize(in, 2<<20)
	w := bufio.NewWriterSize(out, 64<<10)
	say := func(s string) { w.WriteString(s); w.Flush() }
	read := func() string {
		l, err := r.ReadString('\n')
		if err != nil {
			os.Exit(0)
		}
		return strings.TrimSuffix(l, "\n")
	}
	switch mode {
	case "echo":
		for {
			say(read() + "\n")
		}
	case "hold": // answers a line only once "release" follows it: late on demand
		q := read()
		for read() != "release" {
		}
		say(q + "\n")
		for {
			say(read() + "\n")
		}
	case "garbage":
		say("garbage\x00\xff\x1b[2J\r\n{\"a\":1}\n")
		time.Sleep(time.Hour)
	case "huge":
		say(strings.Repeat("x", maxLine+1) + "\n")
		time.Sleep(time.Hour)
	case "exact":
		say(strings.Repeat("x", maxLine) + "\nafter\n")
		time.Sleep(time.Hour)
	case "nonewline":
		say("partial")
		if c, ok := out.(*net.TCPConn); ok {
			// Over TCP a bot holds its connection until the engine has
			// taken it (a closed socket is no one's): end the output,
			// wait for the end of the input.
			c.CloseWrite()
			io.Copy(io.Discard, c)
		}
		os.Exit(0)
	case "closeout":
		os.Stdout.Close()
		time.Sleep(time.Hour)
	case "crash":
		read()
		panic("faultbot crashes on purpose")
	case "midbattle":
		say(read() + "\n")
		say(read() + "\n")
		os.Exit(3)
	case "floodout":
		line := strings.Repeat("f", 1023) + "\n"
		for {
			say(line)
		}
	case "noread":
		time.Sleep(time.Hour)
	case "floodstderr":
		line := strings.Repeat("e", 100) + "\x1b[31m\n"
		for range 100 {
			os.Stderr.WriteString(line)
		}
		say("flooded\n")
		for {
			os.Stderr.WriteString(line)
		}
	case "fork": // children that outlive the bot, in its process group
		var pids []string
		for range 3 {
			c := exec.Command(os.Args[0], "sleep")
			if err := c.Start(); err != nil {
				fmt.Fprintln(os.Stderr, err)
				os.Exit(1)
			}
			pids = append(pids, fmt.Sprint(c.Process.Pid))
		}
		say(strings.Join(pids, " ") + "\n")
		os.Exit(0)
	case "setsid", "setpgid", "daemon", "termproof-daemon", "killreaper":
		// Starts a process that leaves the bot's process group (and for
		// all but setpgid its session), says its pid, then echoes.
		var pid int
		switch mode {
		case "setsid", "setpgid", "killreaper":
			c := exec.Command(os.Args[0], "sleep", token)
			c.SysProcAttr = &syscall.SysProcAttr{Setsid: mode != "setpgid", Setpgid: mode == "setpgid"}
			if err := c.Start(); err != nil {
				fmt.Fprintln(os.Stderr, err)
				os.Exit(1)
			}
			pid = c.Process.Pid
		default: // a double fork: the middle process exits
			child := "sleep"
			if mode == "termproof-daemon" {
				child = "termproof"
			}
			c := exec.Command(os.Args[0], "daemonize", child, token)
			c.SysProcAttr = &syscall.SysProcAttr{Setsid: true}
			out, err := c.Output()
			if err != nil {
				fmt.Fprintln(os.Stderr, err)
				os.Exit(1)
			}
			fmt.Sscan(string(out), &pid)
		}
		say(fmt.Sprintf("%d\n", pid))
		if mode == "killreaper" { // the bot's parent is its reaper
			syscall.Kill(os.Getppid(), syscall.SIGKILL)
		}
		for {
			say(read() + "\n")
		}
	case "spawner": // once its input ends, starts processes in new sessions until killed
		say("ready\n")
		r.ReadString('\n') // to the end
		for range 100 {
			c := exec.Command(os.Args[0], "sleep", token)
			c.SysProcAttr = &syscall.SysProcAttr{Setsid: true}
			c.Start()
			time.Sleep(time.Millisecond)
		}
		time.Sleep(time.Hour)
	case "exitfast": // says one line and exits at once, also over TCP
		say("hello\n")
		os.Exit(0)
	case "forkbomb": // starts children until the kernel refuses (or 500)
		n := 0
		for ; n < 500; n++ {
			_, err := syscall.ForkExec(os.Args[0], []string{os.Args[0], "sleep"}, &syscall.ProcAttr{})
			if err != nil {
				say(fmt.Sprintf("refused after %d: %v\n", n, err))
				time.Sleep(time.Hour)
			}
		}
		say(fmt.Sprintf("not refused after %d\n", n))
		time.Sleep(time.Hour)
	case "alloc": // maps memory (untouched) until the address space runs out
		var keep [][]byte
		for range 256 {
			keep = append(keep, make([]byte, 64<<20))
		}
		say(fmt.Sprintf("mapped %d MiB\n", 64*len(keep)))
		time.Sleep(time.Hour)
	case "report": // what the bot runs with
		var lims []string
		for _, l := range []struct {
			name string
			res  int
		}{{"as", syscall.RLIMIT_AS}, {"cpu", syscall.RLIMIT_CPU}, {"nproc", 6}, {"nofile", syscall.RLIMIT_NOFILE}, {"fsize", syscall.RLIMIT_FSIZE}, {"core", syscall.RLIMIT_CORE}} {
			var rl syscall.Rlimit
			syscall.Getrlimit(l.res, &rl)
			lims = append(lims, fmt.Sprintf("%s=%d", l.name, rl.Cur))
		}
		pgid, _ := syscall.Getpgid(0)
		wd, _ := os.Getwd()
		var sig int
		syscall.Syscall(syscall.SYS_PRCTL, 2 /* PR_GET_PDEATHSIG */, uintptr(unsafe.Pointer(&sig)), 0)
		say(fmt.Sprintf("own-group=%v pdeathsig=%d uid=%d\n", pgid == os.Getpid(), sig, os.Getuid()))
		say(strings.Join(lims, " ") + "\n")
		say("args=" + strings.Join(os.Args[1:], " ") + "\n")
		say("dir=" + wd + "\n")
		say("env=" + strings.Join(os.Environ(), "|") + "\n")
		time.Sleep(time.Hour)
	default:
		fmt.Fprintln(os.Stderr, "unknown mode", mode)
		os.Exit(2)
	}
}
