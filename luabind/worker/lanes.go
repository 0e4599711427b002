package worker

import (
	"sync"

	"github.com/squarebattle/squarebattle/luabind"
)

// Lanes plays a tournament's battles in several Groups (lanes) side by
// side, each with workers of its own. In one Group the program and its
// workers take turns: while a wave is out, every battle of the group waits
// and the program has nothing to do; while the battles work out their
// rounds, the workers wait. With two lanes one's battles step while the
// other's workers decide, so both kinds of work go on at once on the
// machine's cores; in BenchmarkKOTH64Paired that was worth about a fifth
// more battles a minute (docs/performance.md). A battle joins the lane
// with the fewest battles, so that the lanes' waves stay of a size.
//
// A battle plays in one lane only: it is the battle alone, byte for byte,
// whichever lane it joins, and the wall stands between players in each.
//
// Concurrency: Join, the returned Lane's methods, Stats and Close may be
// called from many goroutines.
type Lanes struct {
	mu      sync.Mutex
	groups  []*Group
	battles []int // battles playing in each lane
}

// Lanes returns n lanes (at least 1) of this pool's workers, each a Group
// of the given width and team memory (Pool.Group). Close them when their
// battles are over.
func (p *Pool) Lanes(n, width, teamMiB int) *Lanes {
	l := &Lanes{battles: make([]int, max(n, 1))}
	for range l.battles {
		l.groups = append(l.groups, p.Group(width, teamMiB))
	}
	return l
}

// Lane is one battle's place in Lanes, from Join to Leave.
type Lane struct {
	lanes *Lanes
	i     int
}

// Join places a battle that starts playing in the lane with the fewest
// battles (the first such) and joins it to that lane's Group.
func (l *Lanes) Join() Lane {
	l.mu.Lock()
	best := 0
	for i, n := range l.battles {
		if n < l.battles[best] {
			best = i
		}
	}
	l.battles[best]++
	l.mu.Unlock()
	l.groups[best].Join()
	return Lane{lanes: l, i: best}
}

// Seater seats the battle's teams in its lane (Group.Seater).
func (x Lane) Seater(keys []string) luabind.Seater { return x.lanes.groups[x.i].Seater(keys) }

// Leave ends the battle's place in its lane.
func (x Lane) Leave() {
	x.lanes.groups[x.i].Leave()
	x.lanes.mu.Lock()
	x.lanes.battles[x.i]--
	x.lanes.mu.Unlock()
}

// Stats adds up what the lanes' groups have sent so far.
func (l *Lanes) Stats() GroupStats {
	var s GroupStats
	for _, g := range l.groups {
		gs := g.Stats()
		s.Waves += gs.Waves
		s.Frames += gs.Frames
		s.Requests += gs.Requests
	}
	return s
}

// Close closes every lane's group.
func (l *Lanes) Close() {
	for _, g := range l.groups {
		g.Close()
	}
}
