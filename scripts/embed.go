// Package scripts holds the players shipped with SquareBattle. They are
// embedded into the binary so that a bare `go install` can play; a folder on
// disk (--scripts DIR, or ./scripts when present) replaces them.
package scripts

import "embed"

// FS holds every shipped SquareBattle script at its root and each rule
// mod in its own folder (paint/, orbs/, snake/, squarebattle-lua/).
//
//go:embed *.lua paint/*.lua paint/*.yaml orbs/*.lua orbs/*.yaml snake/*.lua snake/*.yaml squarebattle-lua/*.lua
var FS embed.FS
