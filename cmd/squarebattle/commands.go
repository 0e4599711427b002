package main

import (
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/spf13/pflag"

	"github.com/squarebattle/squarebattle/engine/bot/process"
	"github.com/squarebattle/squarebattle/luabind/battle"
)

// Exit codes.
const (
	exitOK       = 0
	exitFailure  = 1 // something went wrong that is not the user's input
	exitBadInput = 2 // unknown player, bad map, bad config key, bad flag
)

// errBadInput marks errors that are the user's to fix; they exit with 2.
var errBadInput = battle.ErrBadInput

// bad marks err as the user's to fix.
func bad(err error) error { return battle.Bad(err) }

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
		{"connect", "connect a bot that runs here to an arena: squarebattle connect HOST NAME -- COMMAND", connectCommand},
		{"serve", "run the SSH arena: ssh -p 2222 HOST to watch battles together and submit players", serveCommand},
		{"ladder", "play an arena's ladder battles on this host: squarebattle ladder work --db postgres://…", ladderCommand},
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
		writeExamples(stdout, helpKey(args))
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
	writeExamples(w, "")
}

// helpExamples are the command lines a command's help ends with (the key
// "" is the list of commands'), to copy and run as they are: in order, in
// a folder holding a scripts folder as squarebattle new makes it (the
// repository's own, or one new made). TestPrintedCommands (e2e/printed)
// runs every one of them so.
var helpExamples = map[string][]string{
	"": {
		"squarebattle new mine",
		"squarebattle check scripts/mine.lua",
		"squarebattle help check",
		"squarebattle --version",
	},
	"play": {
		"squarebattle play",
		"squarebattle play --seed 7 explorer wanderer borg",
		"squarebattle play --human explorer",
		"squarebattle play --game snake hungry cautious",
	},
	"run": {
		"squarebattle run --seed 7 explorer wanderer",
		"squarebattle run --json --size 32 --rounds 300 borg pinwheel",
		"squarebattle run --game paint --seed 7 greedy random",
	},
	"replay": {
		"squarebattle run --seed 7 --record fight.sbr explorer wanderer",
		"squarebattle replay --verify fight.sbr",
		"squarebattle replay fight.sbr",
	},
	"players": {
		"squarebattle players",
		"squarebattle players --game snake",
	},
	"new": {
		"squarebattle new mine",
		"squarebattle new --game snake slither",
	},
	"check": {
		"squarebattle check scripts/starter.lua",
		"squarebattle check --all --seed 7 scripts/wanderer.lua",
		"squarebattle check scripts/snake/hungry.lua",
	},
	"tournament": {
		"squarebattle tournament --games 2 --seed 7 explorer wanderer borg",
		"squarebattle tournament --format koth --games 8 --markdown --seed 7 explorer wanderer borg pinwheel",
	},
	"tournament merge": {
		"squarebattle tournament --format koth --games 8 --seed 7 --shard 0/2 --out a.json explorer wanderer borg",
		"squarebattle tournament --format koth --games 8 --seed 7 --shard 1/2 --out b.json explorer wanderer borg",
		"squarebattle tournament merge a.json b.json",
	},
	"tournament challenge": {
		"squarebattle tournament challenge --game paint --seed 7 greedy random",
	},
	"config": {
		"squarebattle config",
		"squarebattle config --game paint",
		"squarebattle config --defaults",
	},
	"serve": {
		"squarebattle serve --listen 127.0.0.1:2222",
		"squarebattle serve --db postgres://ladder@db.example/ladder",
	},
	"ladder": {
		"squarebattle ladder work --db postgres://ladder@db.example/ladder --workers 2",
	},
}

// helpKey is the command whose help args asked for: "tournament merge"
// for tournament merge --help and help tournament merge.
func helpKey(args []string) string {
	if len(args) > 0 && args[0] == "help" {
		args = args[1:]
	}
	if len(args) == 0 {
		return ""
	}
	if args[0] == "tournament" && len(args) > 1 && (args[1] == "merge" || args[1] == "challenge") {
		return "tournament " + args[1]
	}
	return args[0]
}

// writeExamples ends the help of the command key with its examples.
func writeExamples(w io.Writer, key string) {
	ex := helpExamples[key]
	if len(ex) == 0 {
		return
	}
	fmt.Fprintln(w, "\nexamples:")
	for _, e := range ex {
		fmt.Fprintf(w, "  %s\n", e)
	}
}
