// Command faultbot is a bot that misbehaves in one chosen way, for the
// tests of package process: faultbot MODE [ADDRESS PORT TEAM]. With an
// address it connects there (the TCP transport) and talks over the
// connection, else over stdin and stdout.
package main

import (
	"bufio"
	"fmt"
	"io"
	"net"
	"os"
	"os/exec"
	"strings"
	"syscall"
	"time"
	"unsafe"
)

const maxLine = 1 << 20 // bot.MaxLine

func main() {
	mode := os.Args[1]
	var in io.Reader = os.Stdin
	var out io.Writer = os.Stdout
	switch mode {
	case "sleep":
		time.Sleep(time.Hour)
		return
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
