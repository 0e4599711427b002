package main

import (
	"fmt"
	"io"
	"strings"
	"text/tabwriter"

	"github.com/squarebattle/squarebattle/luabind"
	"github.com/squarebattle/squarebattle/luabind/battle"
)

const playersHelp = `usage: squarebattle players [flags]

Lists the player scripts of the scripts folder (with --game G, of the
rule mod G): each one's id, name, file, and whether it can start a team,
is only replicated into, or what is wrong with it. A game's rules.lua is
not a player and is not listed. The .bot files there (external bots, see
docs/bots.md) follow, with the command each one runs.`

// playersCommand lists every script found and what is wrong with the broken ones.
func playersCommand(args []string, stdout, stderr io.Writer) error {
	var c commonFlags
	fs := newFlagSet("players", &c)
	game := fs.String("game", "", "list the players of this rule mod (a folder of the scripts folder with a rules.lua)")
	helpOn(fs, stdout, playersHelp)
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if err := noArgs(fs); err != nil {
		return err
	}
	cfg, g, err := loadConfigOrGame(fs, &c, *game)
	if err != nil {
		return err
	}
	var cat *luabind.Catalog
	if g != nil && g.Info.Protocol != luabind.SquareBattleProtocol {
		cat = g.Catalog
	} else if cat, err = loadCatalog(cfg); err != nil {
		return err
	}
	tw := tabwriter.NewWriter(stdout, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "ID\tNAME\tFILE\tSTATUS")
	for _, cls := range cat.All {
		status := "replicated into only"
		switch {
		case cls.Err != nil:
			status = "error: " + cls.Err.Error()
		case cls.Name != "":
			status = "starting player"
		}
		name := cls.Name
		if name == "" {
			name = "-"
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\n", safe(cls.ID), safe(name), safe(cls.File), safe(status))
	}
	fsys, dir, err := scriptsFS(cfg)
	if err == nil && g != nil && g.Info.Protocol != luabind.SquareBattleProtocol {
		fsys, dir, err = battle.GameIn(fsys, dir, *game)
	}
	if err != nil {
		return err
	}
	bots, broken := battle.ScriptBots(fsys, dir)
	for _, b := range bots {
		status := "bot: " + strings.Join(b.Command, " ")
		if b.Connect != "" {
			status = "bot at " + b.Connect
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\n", safe(b.ID), safe(b.DisplayName()), safe(b.File), safe(status))
	}
	for _, e := range broken {
		fmt.Fprintf(tw, "-\t-\t-\t%s\n", safe("error: "+e.Error()))
	}
	return tw.Flush()
}
