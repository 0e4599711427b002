// Package scripts holds the players shipped with SquareBattle. They are
// embedded into the binary so that a bare `go install` can play; a folder on
// disk (--scripts DIR, or ./scripts when present) replaces them.
package scripts

import "embed"

// FS holds every shipped SquareBattle script at its root and each rule
// mod in its own folder (paint/, orbs/, snake/, squarebattle-lua/).
//
// The files are named one by one, never by a pattern: a coder saves their
// own players into this very folder (the README tells them to), and a
// pattern would embed those into the binary and into every test that plays
// the shipped players, so a test's result would depend on what the user
// keeps in the working tree. Their players still play: the program reads
// ./scripts from disk when it is there. TestStrayPlayersNotEmbedded pins it.
//
//go:embed borg.lua expand.lua explorer.lua hesitantwolf.lua linedancer.lua pinwheel.lua starter.lua tweedledee.lua tweedledum.lua wanderer.lua
//go:embed orbs/game.yaml orbs/rules.lua orbs/explorer.lua orbs/spreader.lua
//go:embed paint/game.yaml paint/rules.lua paint/greedy.lua paint/random.lua
//go:embed snake/game.yaml snake/rules.lua snake/cautious.lua snake/hungry.lua
//go:embed squarebattle-lua/rules.lua
var FS embed.FS
