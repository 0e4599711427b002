// Package slurm runs the shipped Slurm script (docs/slurm-tournament.sh)
// on a real Slurm cluster — .ci/services starts a one-node one on this
// machine — and compares what it makes with the same tournament on one
// machine.
package slurm

import (
	"os"
	"testing"

	"github.com/squarebattle/squarebattle/cmd/squarebattle/e2e/harness"
)

func TestMain(m *testing.M) { os.Exit(harness.Main(m)) }
