package process

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

// faultBot is the path of testdata/faultbot, built once by TestMain.
var faultBot string

// TestMain runs this test binary as the bot launcher when Start asks it
// to (as the program's main does), and builds the fault bot the tests
// start. The fault bot is a Go program, so the tests need neither sh nor
// python3 on the machine.
func TestMain(m *testing.M) {
	if len(os.Args) > 1 && os.Args[1] == LauncherCommand {
		os.Exit(LauncherMain(os.Args[2:], os.Stderr))
	}
	os.Exit(run(m))
}

func run(m *testing.M) int {
	if p := os.Getenv("FAULTBOT_PATH"); p != "" { // a test's child (TestProgramDies)
		faultBot = p
		return m.Run()
	}
	dir, err := os.MkdirTemp("", "faultbot-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	defer os.RemoveAll(dir)
	// Other users (Options.RunAs in the fork-bomb test) must reach it.
	if err := os.Chmod(dir, 0o755); err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	faultBot = filepath.Join(dir, "faultbot")
	build := exec.Command("go", "build", "-o", faultBot, "./testdata/faultbot")
	build.Env = append(os.Environ(), "CGO_ENABLED=0")
	if out, err := build.CombinedOutput(); err != nil {
		fmt.Fprintf(os.Stderr, "building the fault bot: %v\n%s", err, out)
		return 1
	}
	return m.Run()
}
