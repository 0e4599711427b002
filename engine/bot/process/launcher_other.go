//go:build !linux

package process

import (
	"bufio"
	"errors"
	"io"
	"os"
	"os/exec"

	"github.com/squarebattle/squarebattle/engine/oslimit"
)

// become is never called off Linux: bots start directly, without limits
// (see launched).
func become(*User, oslimit.Limits, int, string, []string, []string) error {
	return errors.New("the bot launcher runs on Linux only")
}

// launched: off Linux no limit can be set, so bots start directly.
const launched = false

// reap is never called off Linux.
func reap(_, _, _ []string, _ int, _ string, _ io.Writer) int { return 127 }

func reaperDeathSignal(*exec.Cmd)   {}
func wake(*os.Process)              {}
func waitExit(*bufio.Reader) string { return "" }
