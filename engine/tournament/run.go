package tournament

import (
	"fmt"
	"sync"
)

// TeamResult is how one team ended a battle.
type TeamResult struct {
	Squares int `json:"squares"` // alive at the end
	// Survived is the round the team lost its last square, or the number
	// of rounds played when it never did.
	Survived   int `json:"survived"`
	Births     int `json:"births"`
	Kills      int `json:"kills"`
	Deaths     int `json:"deaths"`
	Collisions int `json:"collisions"`
	Timeouts   int `json:"timeouts"`
	Errors     int `json:"errors"`
	// Problem is the team's first script problem, "file:line: message".
	Problem string `json:"problem,omitempty"`
	// Values are a rule mod team's score columns (Params.Columns) at the
	// end; Won is set on the team the battle's rules declared the winner.
	// SquareBattle results have neither.
	Values []int `json:"values,omitempty"`
	Won    bool  `json:"won,omitempty"`
}

// Result is how one battle ended: Teams[t] is team t, played by the
// game's Seats[t]. A battle that could not be played has Error set and no
// teams; it counts for nobody.
type Result struct {
	Game   int          `json:"game"`
	Seed   uint64       `json:"seed"`
	Rounds int          `json:"rounds"` // rounds played
	Teams  []TeamResult `json:"teams,omitempty"`
	Error  string       `json:"error,omitempty"`
}

// Play plays one battle. It is called from several goroutines at once,
// each time with a different game, and must not share mutable state
// between calls. It need not fill in Result.Game and Seed.
type Play func(Game) (Result, error)

// RunOptions tune Run.
type RunOptions struct {
	// Workers is how many battles run at once; below 1 means 1.
	Workers int
	// Progress, when set, is called after every battle with the number
	// done so far, on Run's own goroutine (so it needs no locking).
	Progress func(done, total int)
}

// Run plays the games and returns their results in the order of games,
// whatever order they finish in. A battle that returns an error or panics
// becomes a Result with Error set; the others go on.
func Run(games []Game, play Play, o RunOptions) []Result {
	results := make([]Result, len(games))
	workers := min(max(o.Workers, 1), max(len(games), 1))
	jobs := make(chan int)
	done := make(chan int)
	var wg sync.WaitGroup
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range jobs {
				results[i] = playOne(games[i], play)
				done <- i
			}
		}()
	}
	go func() {
		for i := range games {
			jobs <- i
		}
		close(jobs)
		wg.Wait()
		close(done)
	}()
	n := 0
	for range done {
		n++
		if o.Progress != nil {
			o.Progress(n, len(games))
		}
	}
	return results
}

// playOne plays a game and turns errors and panics into a failed Result.
func playOne(g Game, play Play) (r Result) {
	defer func() {
		if v := recover(); v != nil {
			r = Result{Error: fmt.Sprintf("panic: %v", v)}
		}
		r.Game, r.Seed = g.Index, g.Seed
	}()
	res, err := play(g)
	if err != nil {
		return Result{Error: err.Error()}
	}
	return res
}
