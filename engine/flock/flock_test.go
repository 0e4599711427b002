//go:build unix && !aix

package flock

import (
	"bufio"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"testing"
	"time"
)

// holdEnv makes the test binary a process that locks the file named
// and sleeps (holdChild).
const holdEnv = "FLOCK_TEST_HOLD"

func TestMain(m *testing.M) {
	if file := os.Getenv(holdEnv); file != "" {
		holdChild(file)
		return
	}
	os.Exit(m.Run())
}

// holdChild locks file, says "locked" on stdout and sleeps until killed.
func holdChild(file string) {
	if _, err := TryLock(file); err != nil {
		os.Stdout.WriteString(err.Error() + "\n")
		os.Exit(1)
	}
	os.Stdout.WriteString("locked\n")
	time.Sleep(time.Minute)
	os.Exit(0)
}

// startHolder runs holdChild on file in a child process and waits for
// its lock.
func startHolder(t *testing.T, file string) *exec.Cmd {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), holdEnv+"="+file)
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })
	line, _ := bufio.NewReader(out).ReadString('\n')
	if line != "locked\n" {
		t.Fatalf("the holder says %q", line)
	}
	return cmd
}

func TestTryLock(t *testing.T) {
	tests := []struct {
		name    string
		content string // in the file before, when not ""
	}{
		{"no file", ""},
		{"a stale pid", "999999999\n"},
		{"junk", "not a pid at all, and longer than what is read of it\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			file := filepath.Join(t.TempDir(), "x.lock")
			if tt.content != "" {
				os.WriteFile(file, []byte(tt.content), 0o600)
			}
			l, err := TryLock(file)
			if err != nil {
				t.Fatal(err)
			}
			if b, _ := os.ReadFile(file); string(b) != strconv.Itoa(os.Getpid())+"\n" {
				t.Errorf("the file says %q, want this pid", b)
			}
			// Another open file is refused, in this process too.
			_, err = TryLock(file)
			var held *HeldError
			if !errors.As(err, &held) || !errors.Is(err, ErrHeld) || held.PID != os.Getpid() || held.File != file {
				t.Fatalf("second TryLock: %v (%#v)", err, held)
			}
			if want := file + ": held by process " + strconv.Itoa(os.Getpid()); err.Error() != want {
				t.Errorf("error %q, want %q", err, want)
			}
			if err := l.Release(); err != nil {
				t.Fatal(err)
			}
			if err := l.Release(); err != nil {
				t.Errorf("second Release: %v", err)
			}
			l2, err := TryLock(file)
			if err != nil {
				t.Fatalf("after Release: %v", err)
			}
			l2.Release()
		})
	}
	var none *Lock
	if err := none.Release(); err != nil {
		t.Errorf("nil Release: %v", err)
	}
}

// TestTryLockSymlink: a lock file that is a symbolic link is refused and
// what it points at is left as it was.
func TestTryLockSymlink(t *testing.T) {
	dir := t.TempDir()
	target := filepath.Join(dir, "precious")
	os.WriteFile(target, []byte("keep me\n"), 0o600)
	file := filepath.Join(dir, "x.lock")
	if err := os.Symlink(target, file); err != nil {
		t.Fatal(err)
	}
	if l, err := TryLock(file); err == nil {
		l.Release()
		t.Fatal("locked through a symbolic link")
	}
	if b, _ := os.ReadFile(target); string(b) != "keep me\n" {
		t.Errorf("the link's target now says %q", b)
	}
}

// TestTryLockOtherProcess: a lock another process holds is refused with
// its pid, and is free again once that process is killed with SIGKILL.
func TestTryLockOtherProcess(t *testing.T) {
	file := filepath.Join(t.TempDir(), "x.lock")
	holder := startHolder(t, file)
	_, err := TryLock(file)
	var held *HeldError
	if !errors.As(err, &held) || held.PID != holder.Process.Pid {
		t.Fatalf("TryLock while process %d holds it: %v", holder.Process.Pid, err)
	}
	holder.Process.Kill()
	holder.Wait()
	l, err := TryLock(file)
	if err != nil {
		t.Fatalf("after kill -9 of the holder: %v", err)
	}
	l.Release()
}

// TestTryLockNotInherited: a child the holder started does not keep the
// lock once the holder releases it.
func TestTryLockNotInherited(t *testing.T) {
	file := filepath.Join(t.TempDir(), "x.lock")
	l, err := TryLock(file)
	if err != nil {
		t.Fatal(err)
	}
	child := startHolder(t, filepath.Join(t.TempDir(), "other.lock")) // any process started while l is held
	if err := l.Release(); err != nil {
		t.Fatal(err)
	}
	l2, err := TryLock(file)
	if err != nil {
		t.Fatalf("with the child %d alive: %v", child.Process.Pid, err)
	}
	l2.Release()
}
