package main

import (
	"errors"
	"fmt"
	"io/fs"
	"path"

	"github.com/spf13/pflag"

	"github.com/squarebattle/squarebattle/config"
	"github.com/squarebattle/squarebattle/luabind"
	"github.com/squarebattle/squarebattle/luabind/battle"
)

// gameDefaults is the file in a game folder holding the game's defaults.
const gameDefaults = "game.yaml"

// loadConfigOrGame loads the configuration, and the game when one is
// named (its game.yaml then sits under the configuration).
func loadConfigOrGame(flags *pflag.FlagSet, c *commonFlags, name string) (config.Config, *luabind.Game, error) {
	if name == "" {
		cfg, err := loadConfig(flags, c)
		return cfg, nil, err
	}
	return loadGame(flags, c, name)
}

// loadGame finds the rule mod named by --game in the scripts folder, layers
// its game.yaml under the user's configuration and loads its rules and
// players. Flags must be parsed already.
func loadGame(flags *pflag.FlagSet, c *commonFlags, name string) (config.Config, *luabind.Game, error) {
	return loadGameWith(flags, c, name, true)
}

// loadGameWith is loadGame; with strict false, options the game does not
// declare are left out rather than refused (the lobby offers every game,
// and options given for one must not hide the others).
func loadGameWith(flags *pflag.FlagSet, c *commonFlags, name string, strict bool) (config.Config, *luabind.Game, error) {
	cfg, err := loadConfig(flags, c)
	if err != nil {
		return cfg, nil, err
	}
	sub, gameDir, err := gameFS(cfg, name)
	if err != nil {
		return cfg, nil, err
	}
	return loadGameIn(flags, c, cfg, sub, gameDir, strict)
}

// loadGameIn loads the rule mod in folder sub (named gameDir in messages):
// its game.yaml layered under the user's configuration cfg, then its rules
// and players, with the configured options applied (see loadGameWith for
// strict).
func loadGameIn(flags *pflag.FlagSet, c *commonFlags, cfg config.Config, sub fs.FS, gameDir string, strict bool) (config.Config, *luabind.Game, error) {
	data, err := battle.ReadBounded(sub, gameDefaults, maxGameDefaults)
	switch {
	case err == nil:
		opts := configOptions(flags, c)
		opts.Game, opts.GameFile = data, path.Join(gameDir, gameDefaults)
		if cfg, err = loadConfigFrom(opts); err != nil {
			return cfg, nil, err
		}
	case !errors.Is(err, fs.ErrNotExist):
		return cfg, nil, bad(fmt.Errorf("%s: %w", path.Join(gameDir, gameDefaults), err))
	}
	g, err := luabind.LoadGame(sub, gameDir, battle.Limits(cfg))
	if err != nil {
		return cfg, nil, bad(err)
	}
	opts := cfg.Options
	if !strict {
		opts = map[string]string{}
		for k, v := range cfg.Options {
			if _, ok := g.Info.Options[k]; ok {
				opts[k] = v
			}
		}
	}
	if err := g.SetOptions(opts); err != nil {
		return cfg, nil, bad(err)
	}
	return cfg, g, nil
}

// maxGameDefaults bounds a game.yaml: it is read whole before parsing.
const maxGameDefaults = 64 << 10

// modSize is the board side a rule mod battle asks for: --size when given,
// else 0 (the rules choose, from the seed) for a game whose rules have a
// size function, else arena.size (the game's game.yaml, the configuration).
func modSize(flags *pflag.FlagSet, cfg config.Config, g *luabind.Game) int {
	if g.Info.Sizes && !flags.Changed("size") {
		return 0
	}
	return cfg.Arena.Size
}

// gameFS finds the folder of the rule mod name in the scripts folder.
func gameFS(cfg config.Config, name string) (fs.FS, string, error) {
	fsys, dir, err := scriptsFS(cfg)
	if err != nil {
		return nil, "", err
	}
	return battle.GameIn(fsys, dir, name)
}
