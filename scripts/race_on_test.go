//go:build race

package scripts_test

// raceEnabled: under the race detector every Lua instruction costs several
// times more, so the longest suites play a sample of their cases there
// (the plain pass plays them all).
const raceEnabled = true
