//go:build unix

package process

import (
	"errors"
	"io"
	"syscall"
)

// readNow reads what r holds already, without waiting: one read(2) on its
// non-blocking descriptor. It returns errLate when nothing is there.
func readNow(r deadlineReader, p []byte) (int, error) {
	sc, ok := r.(syscall.Conn)
	if !ok {
		return 0, errLate
	}
	rc, err := sc.SyscallConn()
	if err != nil {
		return 0, err
	}
	var n int
	var rerr error
	err = rc.Read(func(fd uintptr) bool {
		n, rerr = syscall.Read(int(fd), p)
		return true // one attempt: never wait
	})
	switch {
	case err != nil:
		return 0, err
	case errors.Is(rerr, syscall.EAGAIN) || errors.Is(rerr, syscall.EINTR):
		return 0, errLate
	case rerr != nil:
		return 0, rerr
	case n <= 0 && len(p) > 0:
		return 0, io.EOF
	}
	return n, nil
}
