package main

import (
	"fmt"

	"github.com/spf13/pflag"

	"github.com/squarebattle/squarebattle/config"
	"github.com/squarebattle/squarebattle/engine/bot"
	"github.com/squarebattle/squarebattle/engine/bot/process"
	"github.com/squarebattle/squarebattle/luabind"
	"github.com/squarebattle/squarebattle/luabind/battle"
)

// External bots (docs/bots.md) play beside Lua teams: a .bot file of the
// scripts folder is a player like a .lua file, --bot COMMAND adds a team,
// and each bot's team is a seat that speaks the bot protocol to a process
// (engine/bot/process) instead of running Lua. The engine records what
// the bot decided (the team is outside, luabind.OutsideSeat), so a replay
// verifies without it.

// botFlags are the flags of the commands that field bots.
type botFlags struct {
	commands  []string
	noTimeout bool
}

func addBotFlags(fs *pflag.FlagSet) *botFlags {
	b := &botFlags{}
	fs.StringArrayVar(&b.commands, "bot", nil, `add a team played by an external bot: its command, e.g. "python3 mybot.py" (no shell; repeat for more; see docs/bots.md)`)
	fs.BoolVar(&b.noTimeout, "no-timeout", false, "give bots no deadlines (for debugging a bot; a silent bot then stalls the battle)")
	return b
}

// specs are the bots of the --bot flags, with ids bot1, bot2, ….
func (b *botFlags) specs() ([]*bot.Spec, error) {
	var out []*bot.Spec
	for i, c := range b.commands {
		argv, err := bot.SplitCommand(c)
		if err != nil {
			return nil, bad(fmt.Errorf("--bot %q: %v", c, err))
		}
		out = append(out, &bot.Spec{ID: fmt.Sprintf("bot%d", i+1), File: "--bot", Command: argv, Transport: process.Stdio})
	}
	return out, nil
}

// pickTeams resolves a battle command's players and bots: its PLAYER
// arguments among the Lua players and the .bot files of the scripts folder
// (game "") or of a game's folder, then its --bot flags.
func pickTeams(cfg config.Config, cat *luabind.Catalog, game string, names []string, bf *botFlags) ([]battle.Team, error) {
	extra, err := bf.specs()
	if err != nil {
		return nil, err
	}
	fsys, dir, err := scriptsFS(cfg)
	if err == nil && game != "" {
		fsys, dir, err = battle.GameIn(fsys, dir, game)
	}
	if err != nil {
		return nil, err
	}
	specs, broken := battle.ScriptBots(fsys, dir)
	return battle.PickTeams(cat.Players(), cat.Find, specs, broken, names, extra)
}
