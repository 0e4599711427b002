package process

import (
	"bytes"
	"os"
	"strconv"
)

// proc is what the tree walks need of a process: its parent and its start
// time (in clock ticks since boot), which with the pid names it once and
// for all.
type proc struct {
	ppid  int
	start uint64
}

// procTable is every process of the machine (of this pid namespace) as
// /proc shows it now.
func procTable() map[int]proc {
	d, err := os.Open("/proc")
	if err != nil {
		return nil
	}
	defer d.Close()
	names, err := d.Readdirnames(-1)
	if err != nil {
		return nil
	}
	t := make(map[int]proc, len(names))
	for _, n := range names {
		if n[0] < '0' || n[0] > '9' {
			continue
		}
		pid, err := strconv.Atoi(n)
		if err != nil {
			continue
		}
		if p, ok := procStat(n); ok {
			t[pid] = p
		}
	}
	return t
}

// procStat reads /proc/PID/stat: the fields after the command, which is
// in parentheses and may hold anything, are state, ppid, ... and, 20th,
// the start time.
func procStat(pid string) (proc, bool) {
	b, err := os.ReadFile("/proc/" + pid + "/stat")
	if err != nil {
		return proc{}, false
	}
	i := bytes.LastIndexByte(b, ')')
	if i < 0 {
		return proc{}, false
	}
	f := bytes.Fields(b[i+1:])
	if len(f) < 20 {
		return proc{}, false
	}
	ppid, err1 := strconv.Atoi(string(f[1]))
	start, err2 := strconv.ParseUint(string(f[19]), 10, 64)
	if err1 != nil || err2 != nil {
		return proc{}, false
	}
	return proc{ppid: ppid, start: start}, true
}

// descendants are the processes of t below root (not root itself).
func descendants(t map[int]proc, root int) []int {
	children := make(map[int][]int, len(t))
	for pid, p := range t {
		if pid != root {
			children[p.ppid] = append(children[p.ppid], pid)
		}
	}
	var out []int
	next := []int{root}
	for len(next) > 0 {
		pid := next[len(next)-1]
		next = next[:len(next)-1]
		for _, c := range children[pid] {
			out = append(out, c)
			next = append(next, c)
		}
	}
	return out
}

// inTree says whether pid is root or one of its descendants in t.
func inTree(t map[int]proc, root, pid int) bool {
	for range len(t) + 1 {
		if pid == root {
			return true
		}
		p, ok := t[pid]
		if !ok || p.ppid == pid || p.ppid == 0 {
			return false
		}
		pid = p.ppid
	}
	return false
}
