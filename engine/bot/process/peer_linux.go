package process

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"net"
	"os"
	"strconv"
	"syscall"
	"time"
	"unsafe"

	"golang.org/x/sys/unix"
)

// botID is what ties a connection to the bot: its user, the root of its
// tree of processes (the reaper) and, when it has one, its cgroup's id.
type botID struct {
	uid    uint32
	root   int
	cgroup uint64
}

// fromBot says whether the other end of c, a loopback connection accepted
// on this machine, is the bot, and if not why: any local process can
// connect to a loopback port, and the first to do so would otherwise be
// taken for it. The kernel is asked about the peer's socket (sock_diag,
// else /proc/net/tcp):
//   - a socket its process has closed (an impostor that connected and hung
//     up; the kernel keeps only a remnant of it, without owner) is
//     refused: nothing ties it to the bot any more. So is a bot's that
//     connected, wrote and exited before the engine looked: a bot must
//     keep its connection open until it has been answered;
//   - it must belong to the bot's user;
//   - when the bot has a cgroup and the kernel names the cgroup the socket
//     was made in (Linux 5.7), that must be the bot's;
//   - else a process of the bot's tree (the reaper's descendants) must
//     hold it.
func fromBot(c *net.TCPConn, id botID) (bool, string) {
	p, err := peerOf(c)
	if err != nil {
		return false, err.Error()
	}
	if p.inode == 0 && !p.hasCgroup {
		return false, "its socket is closed: nothing ties it to the bot"
	}
	if p.uid != id.uid {
		return false, fmt.Sprintf("its socket belongs to user %d", p.uid)
	}
	if id.cgroup != 0 && p.hasCgroup {
		if p.cgroup != id.cgroup {
			return false, "its socket was made outside the bot's cgroup"
		}
		return true, ""
	}
	if p.inode == 0 {
		return false, "no process holds its socket"
	}
	t := procTable()
	want := "socket:[" + strconv.FormatUint(p.inode, 10) + "]"
	for pid := range t {
		if inTree(t, id.root, pid) && holds(strconv.Itoa(pid), want) {
			return true, ""
		}
	}
	return false, "no process of the bot's holds its socket"
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

// peer is what the kernel says of a socket.
type peer struct {
	uid       uint32
	inode     uint64 // 0: no process holds it
	cgroup    uint64 // the id of the cgroup v2 its maker was in
	hasCgroup bool
}

var errPeerGone = errors.New("its socket is gone")

// peerOf describes the socket at the other end of c.
func peerOf(c *net.TCPConn) (peer, error) {
	local, ok1 := c.RemoteAddr().(*net.TCPAddr)
	remote, ok2 := c.LocalAddr().(*net.TCPAddr)
	if !ok1 || !ok2 || local.IP.To4() == nil || remote.IP.To4() == nil {
		return peer{}, errors.New("not an IPv4 connection")
	}
	p, err := sockDiag(local, remote)
	if err == nil || errors.Is(err, errPeerGone) {
		return p, err
	}
	return procNetTCP(local, remote)
}

// The parts of linux/inet_diag.h that sockDiag uses.
type inetDiagSockID struct {
	Sport, Dport [2]byte // network byte order
	Src, Dst     [16]byte
	If           uint32
	Cookie       [2]uint32
}

type inetDiagReqV2 struct {
	Family, Protocol, Ext, Pad uint8
	States                     uint32
	ID                         inetDiagSockID
}

const (
	inetDiagMsgSize  = 72 // family .. inode
	inetDiagCgroupID = 21 // INET_DIAG_CGROUP_ID
)

// sockDiag asks the kernel (NETLINK_SOCK_DIAG) about the one TCP socket
// whose local address is local and remote address remote.
func sockDiag(local, remote *net.TCPAddr) (peer, error) {
	fd, err := unix.Socket(unix.AF_NETLINK, unix.SOCK_DGRAM|unix.SOCK_CLOEXEC, unix.NETLINK_SOCK_DIAG)
	if err != nil {
		return peer{}, err
	}
	defer unix.Close(fd)
	tv := unix.NsecToTimeval(int64(time.Second))
	_ = unix.SetsockoptTimeval(fd, unix.SOL_SOCKET, unix.SO_RCVTIMEO, &tv)
	r := inetDiagReqV2{Family: unix.AF_INET, Protocol: unix.IPPROTO_TCP, States: ^uint32(0)}
	binary.BigEndian.PutUint16(r.ID.Sport[:], uint16(local.Port))
	binary.BigEndian.PutUint16(r.ID.Dport[:], uint16(remote.Port))
	copy(r.ID.Src[:], local.IP.To4())
	copy(r.ID.Dst[:], remote.IP.To4())
	r.ID.Cookie = [2]uint32{^uint32(0), ^uint32(0)} // INET_DIAG_NOCOOKIE
	h := unix.NlMsghdr{Len: uint32(unix.SizeofNlMsghdr + unsafe.Sizeof(r)), Type: unix.SOCK_DIAG_BY_FAMILY, Flags: unix.NLM_F_REQUEST, Seq: 1}
	msg := append(unsafe.Slice((*byte)(unsafe.Pointer(&h)), unix.SizeofNlMsghdr), unsafe.Slice((*byte)(unsafe.Pointer(&r)), unsafe.Sizeof(r))...)
	if err := unix.Sendto(fd, msg, 0, &unix.SockaddrNetlink{Family: unix.AF_NETLINK}); err != nil {
		return peer{}, err
	}
	buf := make([]byte, 8192)
	n, _, err := unix.Recvfrom(fd, buf, 0)
	if err != nil {
		return peer{}, err
	}
	msgs, err := syscall.ParseNetlinkMessage(buf[:n])
	if err != nil {
		return peer{}, err
	}
	for _, m := range msgs {
		switch m.Header.Type {
		case unix.NLMSG_ERROR:
			if len(m.Data) >= 4 {
				if e := syscall.Errno(-int32(binary.NativeEndian.Uint32(m.Data))); e == syscall.ENOENT {
					return peer{}, errPeerGone
				} else if e != 0 {
					return peer{}, e
				}
			}
		case unix.SOCK_DIAG_BY_FAMILY:
			d := m.Data
			if len(d) < inetDiagMsgSize {
				continue
			}
			p := peer{uid: binary.NativeEndian.Uint32(d[64:]), inode: uint64(binary.NativeEndian.Uint32(d[68:]))}
			for a := d[inetDiagMsgSize:]; len(a) >= 4; {
				l, t := int(binary.NativeEndian.Uint16(a)), binary.NativeEndian.Uint16(a[2:])&0x3fff
				if l < 4 || l > len(a) {
					break
				}
				if t == inetDiagCgroupID && l >= 12 {
					p.cgroup, p.hasCgroup = binary.NativeEndian.Uint64(a[4:]), true
				}
				a = a[min((l+3)&^3, len(a)):]
			}
			return p, nil
		}
	}
	return peer{}, errors.New("sock_diag gave no answer")
}

// procNetTCP finds the socket in /proc/net/tcp, whose addresses are
// hexadecimal, IPv4 in host byte order: what sockDiag falls back to.
func procNetTCP(local, remote *net.TCPAddr) (peer, error) {
	hex := func(a *net.TCPAddr) string {
		ip := a.IP.To4()
		return fmt.Sprintf("%02X%02X%02X%02X:%04X", ip[3], ip[2], ip[1], ip[0], a.Port)
	}
	b, err := os.ReadFile("/proc/net/tcp")
	if err != nil {
		return peer{}, err
	}
	l, r := hex(local), hex(remote)
	for _, line := range bytes.Split(b, []byte{'\n'}) {
		// sl local rem st queues tr retrnsmt uid timeout inode
		f := bytes.Fields(line)
		if len(f) > 9 && string(f[1]) == l && string(f[2]) == r {
			uid, err1 := strconv.ParseUint(string(f[7]), 10, 32)
			inode, err2 := strconv.ParseUint(string(f[9]), 10, 64)
			if err1 != nil || err2 != nil {
				return peer{}, errors.New("/proc/net/tcp: a line not understood")
			}
			return peer{uid: uint32(uid), inode: inode}, nil
		}
	}
	return peer{}, errPeerGone
}
