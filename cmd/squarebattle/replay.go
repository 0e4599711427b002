package main

import (
	"errors"
	"fmt"
	"io"

	"github.com/spf13/pflag"

	"github.com/squarebattle/squarebattle/config"
	"github.com/squarebattle/squarebattle/engine/replay"
	"github.com/squarebattle/squarebattle/tui"
)

// replayCommand shows a recorded battle on the battle screen: pause, step,
// rewind, jump to a round, change the speed. A file whose header cannot be
// read is bad input (exit 2); a file damaged further on plays up to the
// damage, and the screen says where it is.
func replayCommand(args []string, stdout, stderr io.Writer) error {
	var c commonFlags
	fs := pflag.NewFlagSet("replay", pflag.ContinueOnError)
	fs.SortFlags = false
	fs.StringVar(&c.config, "config", "", "configuration file (default: ./squarebattle.yaml, then the user config dir)")
	paused := fs.Bool("paused", false, "start paused at round 0")
	verify := fs.Bool("verify", false, "play the battle again from the file's header with the scripts found now and report the first round that differs, or \"identical\"")
	fs.String("scripts", "", "with --verify: folder of player scripts (default: ./scripts when present, else the shipped players)")
	fs.Int("workers", 0, "with --verify: teams run in parallel on this many goroutines (0 = one per CPU)")
	fs.String("isolation", "", "with --verify: where team VMs run, process (worker processes behind OS limits) or none (this process)")
	helpOn(fs, stdout, "usage: squarebattle replay [flags] FILE\n\nShows a battle recorded with --record or saved with w in the terminal UI.\nWith --verify, plays it again instead and compares every round; the exit\ncode is 0 when identical, 1 when it differs, 2 when the file is unreadable.")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if fs.NArg() != 1 {
		return bad(errors.New("replay needs one FILE (squarebattle replay [flags] FILE)"))
	}
	name := fs.Arg(0)
	cfg, err := loadConfig(fs, &c)
	if err != nil {
		return err
	}
	if *verify {
		return verifyReplay(cfg, name, stdout)
	}
	rep, err := replay.Open(name)
	if err != nil {
		return bad(err)
	}
	return watchReplay(cfg, name, rep, *paused, stderr)
}

// watchReplay opens the terminal on a replay. A damaged file's message is
// printed again when the UI closes, where it stays on the terminal.
func watchReplay(cfg config.Config, name string, rep *replay.Replay, paused bool, stderr io.Writer) error {
	screen, err := newScreen()
	if err != nil {
		return err
	}
	app := tui.New(tui.Options{Screen: screen, Settings: settingsOf(cfg), Replay: rep, ReplayFile: name, Paused: paused})
	if err := terminalError(app.Run()); err != nil {
		return err
	}
	if rep.Damage != nil {
		fmt.Fprintf(stderr, "squarebattle: %s\n", oneLine(rep.Damage))
	}
	return nil
}
