//go:build !linux

package process

import (
	"errors"

	"github.com/squarebattle/squarebattle/engine/oslimit"
)

// become is never called off Linux: bots start directly, without limits
// (see launched).
func become(*User, oslimit.Limits, string, []string, []string) error {
	return errors.New("the bot launcher runs on Linux only")
}

// launched: off Linux no limit can be set, so bots start directly.
const launched = false
