//go:build race

package main

// raceOn: the race detector slows everything several times over; the
// load test then uses fewer viewers.
const raceOn = true
