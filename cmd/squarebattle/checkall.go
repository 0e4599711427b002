package main

import (
	"errors"
	"fmt"
	"io"
	"sync"

	"github.com/squarebattle/squarebattle/luabind"
	"github.com/squarebattle/squarebattle/luabind/battle"
)

// allBattles is how many battles check --all plays against each player.
const allBattles = 4

// playAll plays mine against every other starting player of its game, one
// on one, allBattles times each with seeds following seed, as many at once
// as the configuration's workers, and prints a line per opponent (won,
// lost, tied, stopped, win rate, turns lost), then every kind of problem
// with its first occurrence and counts per opponent. It returns the
// battles played.
func (ck *checker) playAll(w io.Writer, mine *luabind.Class, seed uint64) ([]allBattle, error) {
	var others []*luabind.Class
	for _, other := range ck.cat.Players() {
		if other != mine {
			others = append(others, other)
		}
	}
	battles := make([]allBattle, len(others)*allBattles)
	errs := make([]error, len(battles))
	next := make(chan int)
	var wg sync.WaitGroup
	for range min(battle.Workers(ck.cfg), len(battles)) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range next {
				other, s := others[i/allBattles], seed+uint64(i%allBattles)
				t, err := ck.start([]*luabind.Class{mine, other}, s)
				if err != nil {
					errs[i] = err
					continue
				}
				r := playTrial(t, 0, checkBounds)
				t.close()
				if err := t.err(); err != nil {
					errs[i] = fmt.Errorf("the battle against %s, seed %d, stopped: %w", safe(other.DisplayName()), s, err)
				}
				battles[i] = allBattle{opponent: other.DisplayName(), seed: s, r: r}
			}
		}()
	}
	for i := range battles {
		next <- i
	}
	close(next)
	wg.Wait()
	if err := errors.Join(errs...); err != nil {
		return nil, err
	}
	fmt.Fprintf(w, "\nAgainst every player (%d battles each, seeds %d to %d, each as the trial):\n", allBattles, seed, seed+allBattles-1)
	fmt.Fprintf(w, "  %-20s %4s %5s %5s %8s %9s %9s %7s\n", "opponent", "won", "lost", "tied", "stopped", "win rate", "timeouts", "errors")
	for i, other := range others {
		n := map[string]int{}
		var timeouts, errors int
		for _, b := range battles[i*allBattles : (i+1)*allBattles] {
			n[b.r.outcome()]++
			st := b.r.final.Teams[0].Stats
			timeouts, errors = timeouts+st.Timeouts, errors+st.Errors
		}
		fmt.Fprintf(w, "  %-20s %4d %5d %5d %8d %8d%% %9d %7d\n", safe(other.DisplayName()), n["won"], n["lost"], n["tied"], n["stopped"], 100*n["won"]/allBattles, timeouts, errors)
	}
	if kinds := allKinds(battles); len(kinds) > 0 {
		fmt.Fprintf(w, "\nProblems against every player: %s.\n", plural(len(kinds), "kind"))
		writeAllKinds(w, kinds, allBattles)
	}
	return battles, nil
}
