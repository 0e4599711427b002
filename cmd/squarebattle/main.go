// Command squarebattle runs SquareBattle: Lua-scripted teams of squares
// fighting on a wrapping arena. Each subcommand lives in its own file.
package main

import "os"

func main() {
	setBattleGC(os.Args[1:], os.Getenv)
	os.Exit(Main(os.Args[1:], os.Stdout, os.Stderr))
}
