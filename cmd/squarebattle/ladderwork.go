package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"os/signal"
	"runtime"
	"slices"
	"syscall"

	"github.com/spf13/pflag"

	"github.com/squarebattle/squarebattle/config"
	"github.com/squarebattle/squarebattle/engine/ladder"
	"github.com/squarebattle/squarebattle/luabind/battle/ranked"
	"github.com/squarebattle/squarebattle/luabind/battle/ranked/river"
)

const ladderUsage = `usage: squarebattle ladder work --db postgres://USER@HOST/DB [flags]

Plays the ladder battles of an arena whose ladder is in PostgreSQL
(squarebattle serve --db postgres://…), on this host, until SIGINT or
SIGTERM; start it on as many hosts as you like, and stop them when you
like: a battle a host was playing is played again elsewhere and counted
once. Its results and replays go to the database. See docs/ladder.md.`

// ladderCommand is `squarebattle ladder work`: a ladder worker host. (Over
// SSH, inside serve, "ladder" is the arena's own command; this one runs
// here.)
func ladderCommand(args []string, stdout, stderr io.Writer) error {
	switch {
	case len(args) > 0 && (args[0] == "-h" || args[0] == "--help"):
		args = []string{"work", "--help"} // the one subcommand's help
	case len(args) == 0 || args[0] != "work":
		return bad(errors.New("ladder: the command is `squarebattle ladder work --db postgres://…`"))
	}
	var c commonFlags
	// A battle brings its own seed, arena size and round limit from the
	// server's plan: flags for them would do nothing here.
	fs := withoutFlags(newFlagSet("ladder work", &c), "seed", "size", "rounds")
	fs.String("db", "", "the arena's ladder database, postgres://… (default serve.ladder.db)")
	fs.Lookup("workers").Usage = "battles played at once on this host (0 = one per CPU)"
	helpOn(fs, stdout, ladderUsage)
	if err := parseFlags(fs, args[1:]); err != nil {
		return err
	}
	if err := noArgs(fs); err != nil {
		return err
	}
	cfg, err := loadConfig(fs, &c)
	if err != nil {
		return err
	}
	lc := cfg.Serve.Ladder
	if !lc.IsPostgres() {
		return bad(fmt.Errorf("serve.ladder.db: ladder work needs the arena's PostgreSQL database, postgres://… (got %q)", lc.DB))
	}
	if cfg.Isolation.Mode != config.IsolationProcess {
		return bad(errors.New("isolation.mode: ladder work runs players from strangers and needs process (got none)"))
	}
	log := slog.New(slog.NewTextHandler(stderr, nil))
	ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGINT, syscall.SIGTERM)
	defer stop()
	d, err := openPGLadder(ctx, cfg, log)
	if err != nil {
		return err
	}
	defer d.Close()
	// The battles' own settings come with each battle; this host's
	// configuration gives the rest (limits of its machine, isolation).
	cfg.Arena.Size, cfg.Rules.Rounds = lc.Size, lc.Rounds
	game := ranked.Game{Config: cfg, Teams: lc.Teams}
	lg, err := game.Ladder()
	if err != nil {
		return err
	}
	l, err := ladder.New(ladder.Options{Store: d.Store, Games: []ladder.Game{lg}})
	if err != nil {
		return err
	}
	tmp, err := os.MkdirTemp("", "squarebattle-ladder-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(tmp)
	reps, err := ranked.OpenReplays(tmp, 1<<62, 0)
	if err != nil {
		return err
	}
	workers := cfg.Workers
	if workers <= 0 {
		workers = runtime.NumCPU()
	}
	walls := func() (ranked.Walls, error) { return ladderWalls(cfg) }
	log.Info("ladder worker host playing", "event", "ladder_work", "workers", workers)
	err = d.Work(ctx, river.WorkOptions{Runner: ranked.Options{Ladder: l, Games: []ranked.Game{game}, Replays: reps, Walls: walls, Logger: log},
		Workers: workers, RescueAfter: rescueAfter(lc)})
	log.Info("ladder worker host stopped", "event", "ladder_work_stop")
	return err
}

// withoutFlags is fs less the flags named.
func withoutFlags(fs *pflag.FlagSet, names ...string) *pflag.FlagSet {
	out := pflag.NewFlagSet(fs.Name(), pflag.ContinueOnError)
	out.SortFlags = fs.SortFlags
	fs.VisitAll(func(f *pflag.Flag) {
		if !slices.Contains(names, f.Name) {
			out.AddFlag(f)
		}
	})
	return out
}
