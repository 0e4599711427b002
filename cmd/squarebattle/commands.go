package main

import (
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/spf13/pflag"

	"github.com/squarebattle/squarebattle/engine/bot/process"
)

// Exit codes.
const (
	exitOK       = 0
	exitFailure  = 1 // something went wrong that is not the user's input
	exitBadInput = 2 // unknown player, bad map, bad config key, bad flag
)

// errBadInput marks errors that are the user's to fix; they exit with 2.
var errBadInput = errors.New("bad input")

type badInput struct{ err error }

func (e badInput) Error() string   { return e.err.Error() }
func (e badInput) Unwrap() []error { return []error{e.err, errBadInput} }

func bad(err error) error { return badInput{err} }

type command struct {
	name    string
	summary string
	run     func(args []string, stdout, stderr io.Writer) error
}

func commands() []command {
	return []command{
		{"play", "open the terminal UI: the lobby, or a battle of the PLAYERs named", playCommand},
		{"run", "play a battle without the terminal UI and print the standings", runCommand},
		{"replay", "watch a recorded battle: pause, step, rewind, jump to a round", replayCommand},
		{"players", "list the player classes found in the scripts folder", playersCommand},
		{"new", "write a commented starter player, scripts/NAME.lua (or scripts/GAME/NAME.lua)", newCommand},
		{"check", "load one player script, report every kind of problem and play a trial battle", checkCommand},
		{"tournament", "play many battles in parallel and rank the players", tournamentCommand},
		{"config", "print the effective configuration", configCommand},
		{"serve", "run the SSH arena: ssh -p 2222 HOST to watch battles together and submit players", serveCommand},
	}
}

// Main runs the command line and returns the exit code.
func Main(args []string, stdout, stderr io.Writer) int {
	var err error
	if len(args) > 0 && args[0] == workerCommand {
		return runWorker(args[1:], stderr)
	}
	if len(args) > 0 && args[0] == process.LauncherCommand {
		// An external bot starting: set its limits, become it.
		return process.LauncherMain(args[1:], stderr)
	}
	defer closePools()
	switch {
	case len(args) == 0:
		err = playCommand(nil, stdout, stderr)
	case args[0] == "-h" || args[0] == "--help" || args[0] == "help" && len(args) == 1:
		usage(stdout)
		return exitOK
	case args[0] == "help":
		// help COMMAND is COMMAND --help (help tournament merge too).
		c, ok := findCommand(args[1])
		switch {
		case !ok:
			err = unknownCommand(args[1])
		case len(args) > 3 || len(args) == 3 && (c.name != "tournament" || args[2] != "merge" && args[2] != "challenge"):
			err = bad(errors.New("help takes one COMMAND (or tournament merge, tournament challenge)"))
		default:
			err = c.run(append(args[2:], "--help"), stdout, stderr)
		}
	case args[0] == "version" || args[0] == "--version":
		if len(args) > 1 {
			err = bad(fmt.Errorf("%s takes no arguments", args[0]))
			break
		}
		version(stdout)
		return exitOK
	default:
		if c, ok := findCommand(args[0]); ok {
			err = c.run(args[1:], stdout, stderr)
		} else {
			err = unknownCommand(args[0])
		}
	}
	switch {
	case err == nil:
		return exitOK
	case errors.Is(err, pflag.ErrHelp):
		return exitOK
	case errors.Is(err, errBadInput):
		fmt.Fprintf(stderr, "squarebattle: %s\n", oneLine(err))
		return exitBadInput
	default:
		fmt.Fprintf(stderr, "squarebattle: %s\n", oneLine(err))
		return exitFailure
	}
}

func findCommand(name string) (command, bool) {
	for _, c := range commands() {
		if c.name == name {
			return c, true
		}
	}
	return command{}, false
}

// unknownCommand is the one-line error for a command that does not exist.
func unknownCommand(name string) error {
	var names []string
	for _, c := range commands() {
		names = append(names, c.name)
	}
	return bad(fmt.Errorf("unknown command %q (commands: %s, help, version)", name, strings.Join(names, ", ")))
}

// oneLine keeps multi-error messages readable: one problem per line,
// indented, each made safe to print (an error may quote a script).
func oneLine(err error) string {
	lines := strings.Split(strings.TrimSpace(err.Error()), "\n")
	for i, l := range lines {
		lines[i] = safe(l)
	}
	return strings.Join(lines, "\n  ")
}

func usage(w io.Writer) {
	fmt.Fprintln(w, "usage: squarebattle [command] [flags]")
	fmt.Fprintln(w, "\nWith no command, opens the terminal UI (the lobby).")
	fmt.Fprintln(w, "\ncommands:")
	width := 0
	for _, c := range commands() {
		width = max(width, len(c.name))
	}
	for _, c := range commands() {
		fmt.Fprintf(w, "  %-*s  %s\n", width, c.name, c.summary)
	}
	fmt.Fprintln(w, "\nRun 'squarebattle help COMMAND' (or COMMAND --help) for a command's flags,\n'squarebattle --version' for the version.")
}
