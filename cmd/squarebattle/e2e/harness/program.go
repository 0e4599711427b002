package harness

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
)

// ProgramPackage is the import path of the program the tests build.
const ProgramPackage = "github.com/squarebattle/squarebattle/cmd/squarebattle"

// SkipOrRequire skips a test whose tool is missing, or fails it when
// TOOLS_REQUIRED is set (.ci/run installs every tool and sets it, so a
// missing one there is a broken CI, not a reason to skip).
func SkipOrRequire(t testing.TB, format string, args ...any) {
	t.Helper()
	if os.Getenv("TOOLS_REQUIRED") != "" {
		t.Fatalf(format+" (TOOLS_REQUIRED is set)", args...)
	}
	t.Skipf(format, args...)
}

// NeedTmux skips an end-to-end test under -short or without tmux.
func NeedTmux(t testing.TB) {
	t.Helper()
	if testing.Short() {
		t.Skip("end-to-end test runs the binary in tmux; skipped under -short")
	}
	if _, err := exec.LookPath("tmux"); err != nil {
		SkipOrRequire(t, "end-to-end test needs tmux on PATH (apt-get install tmux)")
	}
}

// Isolated returns an empty folder to run the program in, so it plays its
// embedded players, and the whole environment to run it with: no
// SQUAREBATTLE_* settings or user configuration leak in. TERM is the
// caller's to add.
func Isolated(tb testing.TB) (work string, env []string) {
	tb.Helper()
	work = tb.TempDir()
	return work, []string{"HOME=" + work, "XDG_CONFIG_HOME=" + filepath.Join(work, ".config"), "LANG=C.UTF-8"}
}

// built is the program the tests run, built once per test binary (each
// build links a fresh copy: seconds of CPU the tests share with every
// other package's); Main removes it.
var built struct {
	once     sync.Once
	dir, bin string
	err      error
}

// Program builds the program into a temporary folder (once per test
// binary) and returns its path; without go on PATH the test is skipped.
func Program(tb testing.TB) string {
	tb.Helper()
	goTool, err := exec.LookPath("go")
	if err != nil {
		tb.Skip("this test builds the program and needs go on PATH")
	}
	built.once.Do(func() {
		dir, err := os.MkdirTemp("", "squarebattle-test-bin-")
		if err != nil {
			built.err = err
			return
		}
		built.dir = dir
		bin := filepath.Join(dir, "squarebattle")
		build := exec.Command(goTool, "build", "-o", bin, ProgramPackage)
		if out, err := build.CombinedOutput(); err != nil {
			built.err = fmt.Errorf("go build: %v\n%s", err, out)
			return
		}
		built.bin = bin
	})
	if built.err != nil {
		tb.Fatal(built.err)
	}
	return built.bin
}

// Main runs the tests and removes the built program; a package's TestMain
// calls it: func TestMain(m *testing.M) { os.Exit(harness.Main(m)) }.
func Main(m *testing.M) int {
	code := m.Run()
	if built.dir != "" {
		os.RemoveAll(built.dir)
	}
	return code
}

// Exec runs the program with args in the test's folder and environment, as
// a user at a shell would, and returns its exit status and output.
func Exec(tb testing.TB, args ...string) (code int, stdout, stderr string) {
	tb.Helper()
	var out, errOut strings.Builder
	cmd := exec.Command(Program(tb), args...)
	cmd.Stdout, cmd.Stderr = &out, &errOut
	err := cmd.Run()
	var exit *exec.ExitError
	switch {
	case err == nil:
	case errors.As(err, &exit):
		code = exit.ExitCode()
	default:
		tb.Fatalf("squarebattle %s: %v", strings.Join(args, " "), err)
	}
	return code, out.String(), errOut.String()
}
