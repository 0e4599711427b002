//go:build race

package worker

// raceEnabled: the race detector maps terabytes of shadow memory, so a
// worker built with it cannot live under RLIMIT_AS.
const raceEnabled = true
