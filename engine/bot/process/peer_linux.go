package process

import (
	"bytes"
	"fmt"
	"net"
	"os"
	"strconv"
)

// fromBot says whether the other end of c, a loopback connection
// accepted on this machine, may be the bot: any local user can connect to
// a loopback port, and the first to do so would otherwise be taken for
// it. The peer's socket, found in /proc/net/tcp (its local address is c's
// remote one), must belong to the bot's user uid, and no process outside
// the bot's process group pgid may hold it. A peer already gone (a bot
// that connected, wrote and exited) holds nothing and passes. When /proc
// cannot tell, it says yes: this is a second lock, not the only one.
func fromBot(c *net.TCPConn, uid uint32, pgid int) bool {
	owner, inode, ok := peerSocket(c)
	if !ok {
		return true
	}
	if owner != strconv.FormatUint(uint64(uid), 10) {
		return false
	}
	d, err := os.Open("/proc")
	if err != nil {
		return true
	}
	defer d.Close()
	names, err := d.Readdirnames(-1)
	if err != nil {
		return true
	}
	want := "socket:[" + inode + "]"
	for _, n := range names {
		if n[0] < '0' || n[0] > '9' || !holds(n, want) {
			continue
		}
		if !inGroup(n, pgid) {
			return false
		}
	}
	return true
}

// holds says whether process pid has a descriptor open on file (as
// /proc/PID/fd shows it); false when it cannot be read.
func holds(pid, file string) bool {
	fds, err := os.ReadDir("/proc/" + pid + "/fd")
	if err != nil {
		return false
	}
	for _, fd := range fds {
		if l, err := os.Readlink("/proc/" + pid + "/fd/" + fd.Name()); err == nil && l == file {
			return true
		}
	}
	return false
}

// inGroup says whether process pid is in process group pgid, from
// /proc/PID/stat (the fifth field, after the command in parentheses).
func inGroup(pid string, pgid int) bool {
	b, err := os.ReadFile("/proc/" + pid + "/stat")
	if err != nil {
		return false
	}
	i := bytes.LastIndexByte(b, ')')
	if i < 0 {
		return false
	}
	f := bytes.Fields(b[i+1:]) // state, ppid, pgrp, ...
	return len(f) > 2 && string(f[2]) == strconv.Itoa(pgid)
}

// peerSocket is the owner's user id and the inode of the socket at the
// other end of c, from /proc/net/tcp, whose addresses are hexadecimal,
// IPv4 in host byte order.
func peerSocket(c *net.TCPConn) (uid, inode string, ok bool) {
	local, ok1 := c.RemoteAddr().(*net.TCPAddr)
	remote, ok2 := c.LocalAddr().(*net.TCPAddr)
	if !ok1 || !ok2 || local.IP.To4() == nil || remote.IP.To4() == nil {
		return "", "", false
	}
	hex := func(a *net.TCPAddr) string {
		ip := a.IP.To4()
		return fmt.Sprintf("%02X%02X%02X%02X:%04X", ip[3], ip[2], ip[1], ip[0], a.Port)
	}
	b, err := os.ReadFile("/proc/net/tcp")
	if err != nil {
		return "", "", false
	}
	l, r := hex(local), hex(remote)
	for _, line := range bytes.Split(b, []byte{'\n'}) {
		// sl local rem st queues tr retrnsmt uid timeout inode
		f := bytes.Fields(line)
		if len(f) > 9 && string(f[1]) == l && string(f[2]) == r {
			return string(f[7]), string(f[9]), true
		}
	}
	return "", "", false
}
