package battle

import (
	"crypto/rand"
	"encoding/binary"
	"runtime"
	"time"

	"github.com/squarebattle/squarebattle/config"
	"github.com/squarebattle/squarebattle/engine"
	"github.com/squarebattle/squarebattle/engine/bot"
	"github.com/squarebattle/squarebattle/engine/bot/process"
	"github.com/squarebattle/squarebattle/luabind"
)

// Limits are the sandbox limits of cfg.
func Limits(cfg config.Config) luabind.Limits {
	return luabind.Limits{
		Instructions: cfg.Limits.Instructions,
		MemoryBytes:  cfg.Limits.MemoryMiB << 20,
		StringBytes:  cfg.Limits.StringBytes,
		ScriptBytes:  cfg.Limits.ScriptBytes,
		CallDepth:    cfg.Limits.CallDepth,
	}
}

// Seed returns the configured seed, or a fresh random one that fits a
// JSON number exactly.
func Seed(cfg config.Config) uint64 {
	if cfg.Seed != 0 {
		return uint64(cfg.Seed)
	}
	return RandomSeed()
}

// RandomSeed is a fresh seed from the operating system's randomness, in
// 1 to 2⁵³−1 (a JSON number holds it exactly).
func RandomSeed() uint64 {
	var b [8]byte
	_, _ = rand.Read(b[:])
	s := binary.LittleEndian.Uint64(b[:]) & (1<<53 - 1)
	if s == 0 {
		s = 1
	}
	return s
}

// Workers is how many goroutines run a battle's teams: the configured
// number, or one per CPU.
func Workers(cfg config.Config) int {
	if cfg.Workers > 0 {
		return cfg.Workers
	}
	return runtime.GOMAXPROCS(0)
}

// Options are the engine options of a SquareBattle battle of cfg; the
// caller adds the seed, the workers and a map.
func Options(cfg config.Config) engine.Options {
	return engine.Options{
		Size:            cfg.Arena.Size,
		Wrap:            cfg.Arena.Wrap,
		Rounds:          cfg.Rules.Rounds,
		ReplicateRounds: cfg.Rules.ReplicateRounds,
	}
}

// Timing is the clock bots play under; noTimeout gives them no deadlines
// (for debugging a bot).
func Timing(cfg config.Config, noTimeout bool) bot.Timing {
	b := cfg.Bots
	return bot.Timing{Init: time.Duration(b.InitMS) * time.Millisecond, Round: time.Duration(b.RoundMS) * time.Millisecond,
		Bank: time.Duration(b.BankMS) * time.Millisecond, MaxFaults: b.MaxFaults, NoTimeout: noTimeout}
}

// BotLimits are the resource limits of a bot's processes: the worker
// processes' memory and CPU time, the process package's bounds on
// processes, open files and file size.
func BotLimits(cfg config.Config) process.Limits {
	l := process.DefaultLimits()
	l.MemoryMiB, l.CPUSeconds = cfg.Isolation.MemoryMiB, cfg.Isolation.CPUSeconds
	return l
}
