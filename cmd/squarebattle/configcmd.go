package main

import (
	"fmt"
	"io"
)

// configCommand prints the configuration in effect after file, environment
// and flags are applied.
func configCommand(args []string, stdout, stderr io.Writer) error {
	var c commonFlags
	fs := newFlagSet("config", &c)
	defaults := fs.Bool("defaults", false, "print the commented default configuration file instead")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if *defaults {
		_, err := stdout.Write(defaultYAML())
		return err
	}
	cfg, err := loadConfig(fs, &c)
	if err != nil {
		return err
	}
	_, err = fmt.Fprintf(stdout, "%s", cfg.YAML())
	return err
}
