package luabind

import (
	"fmt"
	"testing"

	"github.com/squarebattle/squarebattle/engine"
)

// BenchmarkCensus is one census of a team of the bench player on a full
// 64×64 arena of two teams (2,048 squares, each with a self table of one
// field), walking small tables' entries by key and by ranging their maps:
//
//	go test -run '^$' -bench Census -count 6 ./luabind/ | benchstat -
func BenchmarkCensus(b *testing.B) {
	cat := catalogOf(b, map[string]string{"bench.lua": benchPlayer}, DefaultLimits())
	bt, teams := battle(b, cat, []string{"bench", "bench"}, engine.Options{Size: benchSize, Wrap: true, Rounds: 1 << 30, Seed: 1, Workers: 1, Map: fullBoard(b, benchSize, 2)})
	for range 3 {
		bt.Step()
	}
	walkMax := keyWalkMax
	defer func() { keyWalkMax = walkMax }()
	for _, w := range []int{walkMax, -1} {
		b.Run(fmt.Sprintf("keyWalkMax=%d", w), func(b *testing.B) {
			keyWalkMax = w
			for b.Loop() {
				teams[0].census()
			}
		})
	}
}
