package process

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"time"
)

// cgroup is a bot's cgroup v2: a directory of its own below this
// program's cgroup, holding the reaper and so, from the bot's first
// instruction, everything the bot starts. No process of the bot's can
// leave it (that takes write access to a cgroup.procs the bot's user does
// not have, unless it is root), whatever becomes of the reaper, and the
// kernel kills all its processes at once (cgroup.kill). No controller is
// enabled in it: it bounds nothing, it only holds.
type cgroup struct {
	dir string // e.g. /sys/fs/cgroup/user.slice/.../squarebattle-bot-PID-START-N
	rel string // the same as /proc/PID/cgroup names it: /user.slice/.../squarebattle-bot-...
	id  uint64 // its inode number, the id the kernel gives sockets made in it
}

// cgroupsOff turns the cgroups off (tests of the subreaper alone).
var cgroupsOff atomic.Bool

var (
	cgroupSeq   atomic.Uint64
	cgroupSweep sync.Once
)

// newCgroup makes a cgroup for one bot, or says why it cannot: no cgroup
// v2 hierarchy mounted, or this program may not write to its own cgroup
// (not root and not delegated one, as by systemd's Delegate=).
func newCgroup() (*cgroup, error) {
	if cgroupsOff.Load() {
		return nil, errors.New("off")
	}
	mount, rel, err := ownCgroup()
	if err != nil {
		return nil, err
	}
	base := filepath.Join(mount, rel)
	cgroupSweep.Do(func() { sweepCgroups(base) })
	name := fmt.Sprintf("%s%d-%d-%d", cgroupPrefix, os.Getpid(), selfStart(), cgroupSeq.Add(1))
	dir := filepath.Join(base, name)
	if err := os.Mkdir(dir, 0o755); err != nil {
		return nil, err
	}
	var st syscall.Stat_t
	if err := syscall.Stat(dir, &st); err != nil {
		_ = os.Remove(dir)
		return nil, err
	}
	return &cgroup{dir: dir, rel: filepath.Join(rel, name), id: st.Ino}, nil
}

const cgroupPrefix = "squarebattle-bot-"

// ownCgroup is where the cgroup v2 hierarchy is mounted and this
// process's cgroup in it, from /proc/self/mountinfo and /proc/self/cgroup.
func ownCgroup() (mount, rel string, err error) {
	b, err := os.ReadFile("/proc/self/cgroup")
	if err != nil {
		return "", "", err
	}
	for _, line := range strings.Split(string(b), "\n") {
		if r, ok := strings.CutPrefix(line, "0::"); ok {
			rel = r
		}
	}
	if rel == "" || strings.HasSuffix(rel, " (deleted)") {
		return "", "", errors.New("this process is in no cgroup v2")
	}
	f, err := os.Open("/proc/self/mountinfo")
	if err != nil {
		return "", "", err
	}
	defer f.Close()
	s := bufio.NewScanner(f)
	s.Buffer(nil, 1<<20)
	for s.Scan() {
		// ID PARENT MAJ:MIN ROOT MOUNTPOINT OPTIONS... - FSTYPE SOURCE SUPER
		f := strings.Fields(s.Text())
		for i, w := range f {
			if w == "-" && i+1 < len(f) && i >= 5 && f[i+1] == "cgroup2" && f[3] == "/" {
				return unescapeMount(f[4]), rel, nil
			}
		}
	}
	return "", "", errors.New("no cgroup v2 hierarchy is mounted")
}

// unescapeMount undoes mountinfo's octal escapes (\040 for a space).
func unescapeMount(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] == '\\' && i+3 < len(s) {
			if n, err := strconv.ParseUint(s[i+1:i+4], 8, 8); err == nil {
				b.WriteByte(byte(n))
				i += 3
				continue
			}
		}
		b.WriteByte(s[i])
	}
	return b.String()
}

// selfStart is this process's start time, which names its cgroups with
// its pid: a later process with the same pid is not taken for it.
func selfStart() uint64 {
	p, _ := procStat(strconv.Itoa(os.Getpid()))
	return p.start
}

// sweepCgroups removes the bots' cgroups that a program which died
// without its reapers left below base, killing what they still hold.
func sweepCgroups(base string) {
	entries, err := os.ReadDir(base)
	if err != nil {
		return
	}
	for _, e := range entries {
		rest, ok := strings.CutPrefix(e.Name(), cgroupPrefix)
		if !ok || !e.IsDir() {
			continue
		}
		f := strings.Split(rest, "-")
		if len(f) != 3 {
			continue
		}
		if p, ok := procStat(f[0]); ok && strconv.FormatUint(p.start, 10) == f[1] {
			continue // its program runs
		}
		g := &cgroup{dir: filepath.Join(base, e.Name())}
		g.kill()
		_ = g.remove(time.Second)
	}
}

// kill kills every process in g at once (cgroup.kill, Linux 5.14), or,
// before that, each process cgroup.procs lists until none is left.
func (g *cgroup) kill() {
	if err := os.WriteFile(g.dir+"/cgroup.kill", []byte("1"), 0); err == nil {
		return
	}
	for range 1000 {
		b, err := os.ReadFile(g.dir + "/cgroup.procs")
		if err != nil || len(bytes.TrimSpace(b)) == 0 {
			return
		}
		for _, f := range bytes.Fields(b) {
			if pid, err := strconv.Atoi(string(f)); err == nil && pid > 0 {
				_ = syscall.Kill(pid, syscall.SIGKILL)
			}
		}
		time.Sleep(time.Millisecond)
	}
}

// remove waits up to wait for g to be empty and removes it.
func (g *cgroup) remove(wait time.Duration) error {
	deadline := time.Now().Add(wait)
	for {
		err := os.Remove(g.dir)
		if err == nil || errors.Is(err, os.ErrNotExist) {
			return nil
		}
		if time.Now().After(deadline) {
			return err
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// holds says whether process pid is in g, from /proc/PID/cgroup.
func (g *cgroup) holds(pid string) bool {
	b, err := os.ReadFile("/proc/" + pid + "/cgroup")
	if err != nil {
		return false
	}
	for _, line := range strings.Split(string(b), "\n") {
		if r, ok := strings.CutPrefix(line, "0::"); ok {
			return r == g.rel || strings.HasPrefix(r, g.rel+"/")
		}
	}
	return false
}
