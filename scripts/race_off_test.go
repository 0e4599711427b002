//go:build !race

package scripts_test

// raceEnabled: see race_on_test.go.
const raceEnabled = false
