package main

import (
	"fmt"
	"io"
)

const configHelp = `usage: squarebattle config [flags]

Prints the configuration in effect once the defaults, the configuration
file, the SQUAREBATTLE_* variables and the flags are applied (with
--game G, the game's game.yaml sits under all but the defaults).`

// configCommand prints the configuration in effect after file, environment
// and flags are applied.
func configCommand(args []string, stdout, stderr io.Writer) error {
	var c commonFlags
	fs := newFlagSet("config", &c)
	defaults := fs.Bool("defaults", false, "print the commented default configuration file instead")
	game := fs.String("game", "", "the configuration a battle of this rule mod plays under")
	helpOn(fs, stdout, configHelp)
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if err := noArgs(fs); err != nil {
		return err
	}
	if *defaults {
		_, err := stdout.Write(defaultYAML())
		return err
	}
	cfg, _, err := loadConfigOrGame(fs, &c, *game)
	if err != nil {
		return err
	}
	_, err = fmt.Fprintf(stdout, "%s", cfg.YAML())
	return err
}
