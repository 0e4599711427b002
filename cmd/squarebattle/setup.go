package main

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/spf13/pflag"

	"github.com/squarebattle/squarebattle/config"
	"github.com/squarebattle/squarebattle/luabind"
	"github.com/squarebattle/squarebattle/luabind/battle"
	"github.com/squarebattle/squarebattle/scripts"
)

// commonFlags are the flags every battle-playing command shares.
type commonFlags struct {
	config string
}

func newFlagSet(name string, c *commonFlags) *pflag.FlagSet {
	fs := pflag.NewFlagSet(name, pflag.ContinueOnError)
	fs.SortFlags = false
	fs.StringVar(&c.config, "config", "", "configuration file (default: ./squarebattle.yaml, then the user config dir)")
	fs.String("scripts", "", "folder of player scripts (default: ./scripts when present, else the shipped players)")
	fs.Int64("seed", 0, "battle seed; 0 picks a random one and prints it")
	fs.Int("size", 0, "arena size N for an N×N arena")
	fs.Int("rounds", 0, "round limit")
	fs.Int("workers", 0, "teams run in parallel on this many goroutines (0 = one per CPU)")
	fs.String("isolation", "", "where team VMs run: process (worker processes behind OS limits) or none (this process)")
	fs.StringArray("option", nil, "a rule mod's option, NAME=VALUE (repeat for more); see the game's rules.lua")
	return fs
}

// helpOn makes --help (and -h) print text, the command's usage and what
// it does, then its flags, to out: one format for every command, on
// standard output, since asking for help is not an error.
func helpOn(fs *pflag.FlagSet, out io.Writer, text string) {
	fs.Usage = func() {
		fmt.Fprintf(out, "%s\n\nflags:\n%s", strings.TrimSpace(text), fs.FlagUsages())
	}
}

// outputPath checks, before any work is done, that the file a flag names
// can be written: its folder exists and it is not a folder itself. A
// mistake there is bad input, found before a long battle or tournament
// is played for nothing. An empty name is no file.
func outputPath(flag, name string) error {
	if name == "" {
		return nil
	}
	if st, err := os.Stat(name); err == nil && st.IsDir() {
		return bad(fmt.Errorf("%s %s: is a folder; name a file", flag, name))
	} else if err == nil && !st.Mode().IsRegular() {
		// It is replaced by a rename: never a device or a pipe.
		return bad(fmt.Errorf("%s %s: not a regular file; name a file", flag, name))
	}
	dir := filepath.Dir(name)
	st, err := os.Stat(dir)
	switch {
	case err != nil:
		return bad(fmt.Errorf("%s %s: no folder %s", flag, name, dir))
	case !st.IsDir():
		return bad(fmt.Errorf("%s %s: %s is not a folder", flag, name, dir))
	}
	return nil
}

// noArgs refuses arguments left after the flags of a command that takes
// none.
func noArgs(fs *pflag.FlagSet) error {
	if fs.NArg() > 0 {
		return bad(fmt.Errorf("%s takes no arguments, only flags (got %q)", fs.Name(), fs.Arg(0)))
	}
	return nil
}

// parseFlags parses args; flag errors are bad input.
func parseFlags(fs *pflag.FlagSet, args []string) error {
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, pflag.ErrHelp) {
			return err
		}
		return bad(plainFlagError(err))
	}
	return nil
}

// plainFlagError says a number flag's bad value in the user's words, not
// strconv's: `invalid argument "abc" for "--seed": not a number`.
func plainFlagError(err error) error {
	msg := err.Error()
	i := strings.Index(msg, " flag: strconv.")
	if i < 0 {
		return err
	}
	why := "not a number"
	if strings.HasSuffix(msg, "value out of range") {
		why = "out of range"
	}
	return errors.New(msg[:i] + ": " + why)
}

// loadConfig layers defaults, file, environment and the flags that were set.
func loadConfig(flags *pflag.FlagSet, c *commonFlags) (config.Config, error) {
	return loadConfigFrom(configOptions(flags, c))
}

// configOptions are the layers every command reads.
func configOptions(flags *pflag.FlagSet, c *commonFlags) config.LoadOptions {
	return config.LoadOptions{File: c.config, Flags: flags, Environ: os.Environ(), Dir: "."}
}

// loadConfigFrom loads the configuration; mistakes in it are bad input.
func loadConfigFrom(o config.LoadOptions) (config.Config, error) {
	cfg, _, err := config.Load(o)
	if err == nil && o.Flags != nil {
		err = optionFlags(o.Flags, &cfg)
	}
	if err != nil {
		// A file the user named that cannot be read (missing, a folder,
		// not readable) is theirs to fix, as is a wrong value.
		if errors.Is(err, config.ErrInvalid) || errors.Is(err, config.ErrFile) || errors.Is(err, fs.ErrNotExist) {
			return cfg, bad(err)
		}
		return cfg, err
	}
	return cfg, nil
}

// scriptsFS picks the scripts folder: the configured one, ./scripts when it
// exists, or the players embedded in the binary.
func scriptsFS(cfg config.Config) (fs.FS, string, error) {
	if cfg.Scripts != "" {
		st, err := os.Stat(cfg.Scripts)
		if err != nil {
			return nil, "", bad(fmt.Errorf("scripts folder: %w", err))
		}
		if !st.IsDir() {
			return nil, "", bad(fmt.Errorf("scripts folder %s is not a folder", cfg.Scripts))
		}
		return os.DirFS(cfg.Scripts), cfg.Scripts, nil
	}
	if dir := diskScripts(cfg); dir != "" {
		return os.DirFS(dir), dir, nil
	}
	return scripts.FS, "scripts", nil
}

// parseAndLoad is what every battle command starts with: parse the flags,
// layer the configuration, load the scripts.
func parseAndLoad(flags *pflag.FlagSet, c *commonFlags, args []string) (config.Config, *luabind.Catalog, error) {
	if err := parseFlags(flags, args); err != nil {
		return config.Config{}, nil, err
	}
	cfg, err := loadConfig(flags, c)
	if err != nil {
		return cfg, nil, err
	}
	cat, err := loadCatalog(cfg)
	return cfg, cat, err
}

// loadCatalog loads the scripts folder of cfg. Behind the wall
// (isolation.mode process) the scripts' top levels run in a worker
// process: only compiling happens here.
func loadCatalog(cfg config.Config) (*luabind.Catalog, error) {
	fsys, dir, err := scriptsFS(cfg)
	if err != nil {
		return nil, err
	}
	read, err := topLevelsOf(cfg)
	if err != nil {
		return nil, err
	}
	return luabind.LoadCatalog(luabind.CatalogOptions{FS: fsys, Dir: dir, Limits: battle.Limits(cfg), TopLevels: read})
}

func defaultYAML() []byte { return config.DefaultYAML() }

// optionFlags applies --option NAME=VALUE flags over the other layers.
func optionFlags(flags *pflag.FlagSet, cfg *config.Config) error {
	f := flags.Lookup("option")
	if f == nil || !f.Changed {
		return nil
	}
	values, err := flags.GetStringArray("option")
	if err != nil {
		return err
	}
	for _, kv := range values {
		name, value, ok := strings.Cut(kv, "=")
		if !ok || !config.IsOptionName(name) {
			return bad(fmt.Errorf("flag --option %q: want NAME=VALUE, NAME in lower case letters, digits and _", kv))
		}
		if cfg.Options == nil {
			cfg.Options = map[string]string{}
		}
		cfg.Options[name] = value
	}
	return nil
}
