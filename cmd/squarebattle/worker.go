package main

import (
	"io"
	"sync"
	"time"

	"github.com/squarebattle/squarebattle/config"
	"github.com/squarebattle/squarebattle/luabind"
	"github.com/squarebattle/squarebattle/luabind/worker"
)

// workerCommand is the hidden subcommand a worker process runs (see
// luabind/worker): the same binary, so there is no second one to install.
// It is not listed in the help: people never run it.
const workerCommand = "__worker"

func runWorker(args []string, stderr io.Writer) int {
	return worker.Main(args, stderr, worker.ServeOptions{})
}

// pools holds the worker pools of this run of the program, one per set of
// worker settings (in practice one): a tournament or the lobby reuses its
// workers across battles. Main closes them when the command ends.
var pools struct {
	mu  sync.Mutex
	all map[poolKey]*worker.Pool
}

// seaterOf returns how the battles of cfg seat their teams: nil for
// in-process teams (isolation.mode none), or the seats of a worker pool.
func seaterOf(cfg config.Config) (luabind.Seater, error) {
	p, err := poolOf(cfg)
	if p == nil {
		return nil, err
	}
	return p.Seat, nil
}

// rulesSeaterOf returns where the battles of cfg run a game's rules.lua:
// nil for this process (isolation.mode none), or a worker of the pool.
func rulesSeaterOf(cfg config.Config) (luabind.RulesSeater, error) {
	p, err := poolOf(cfg)
	if p == nil {
		return nil, err
	}
	return p, nil
}

// poolOf returns the worker pool of cfg, started on first use; nil for
// isolation.mode none.
func poolOf(cfg config.Config) (*worker.Pool, error) { return poolAt(cfg, 0) }

// poolKey tells the pools apart: their settings and their nice value.
type poolKey struct {
	iso  config.Isolation
	nice int
}

// ladderNice is the nice value of the ladder's workers: the battles
// people watch come first.
const ladderNice = 10

// poolAt is poolOf for workers at nice value nice.
func poolAt(cfg config.Config, nice int) (*worker.Pool, error) {
	iso := cfg.Isolation
	if iso.Mode != config.IsolationProcess {
		return nil, nil
	}
	key := poolKey{iso, nice}
	pools.mu.Lock()
	defer pools.mu.Unlock()
	if p := pools.all[key]; p != nil {
		return p, nil
	}
	p, err := worker.NewPool(worker.Options{
		Size:        iso.PoolSize,
		MemoryMiB:   iso.MemoryMiB,
		CPUSeconds:  iso.CPUSeconds,
		CallTimeout: time.Duration(iso.CallTimeout) * time.Second,
		MaxCrashes:  iso.MaxCrashes,
		Nice:        nice,
	})
	if err != nil {
		return nil, err
	}
	if pools.all == nil {
		pools.all = map[poolKey]*worker.Pool{}
	}
	pools.all[key] = p
	return p, nil
}

// reserveWorkers has the worker pool of cfg keep n idle workers between
// battles: what a run that plays n seats at once needs. It does nothing
// without process isolation.
func reserveWorkers(cfg config.Config, n int) {
	pools.mu.Lock()
	defer pools.mu.Unlock()
	if p := pools.all[poolKey{cfg.Isolation, 0}]; p != nil {
		p.Reserve(n)
	}
}

// closePools stops every worker this run started.
func closePools() {
	pools.mu.Lock()
	all := pools.all
	pools.all = nil
	pools.mu.Unlock()
	for _, p := range all {
		p.Close()
	}
}

// topLevelsOf returns where catalogs of cfg run their scripts' top
// levels: nil for this process (isolation.mode none), or a worker.
func topLevelsOf(cfg config.Config) (luabind.TopLevelReader, error) {
	p, err := poolOf(cfg)
	if p == nil {
		return nil, err
	}
	return p.ReadTopLevels, nil
}

// wallsOf returns both: where teams sit and where rules run.
func wallsOf(cfg config.Config) (luabind.Seater, luabind.RulesSeater, error) {
	seat, err := seaterOf(cfg)
	if err != nil {
		return nil, nil, err
	}
	rs, err := rulesSeaterOf(cfg)
	return seat, rs, err
}
