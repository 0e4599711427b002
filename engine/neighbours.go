package engine

import "sync"

// A neighbour table lists, for every cell of an arena, the cell in each of
// the eight directions (cell*8+d), or -1 beyond a wall. It depends only on
// the arena's size and whether it wraps, and it is read-only once built,
// so battles of the same shape share one: a tournament plays hundreds of
// 64×64 battles, and building 128 KiB per battle cost more than a round of
// small players (and kept each battle's working set 128 KiB larger, which
// a worker group's dozens of battles at once paid again in cache misses).

// neighbourCacheCells bounds what the cache keeps: tables of arenas up to
// 256×256 (2 MiB each), at most neighbourCacheEntries of them. A larger or
// rarer arena gets a table of its own, freed with its battle.
const (
	neighbourCacheCells   = 256 * 256
	neighbourCacheEntries = 8
)

type neighbourKey struct {
	size int
	wrap bool
}

var neighbourCache struct {
	sync.Mutex
	tables map[neighbourKey][]int32
}

// neighbours returns the neighbour table of a size×size arena, shared and
// never to be written: concurrency-safe.
func neighbours(size int, wrap bool) []int32 {
	if size*size > neighbourCacheCells {
		return buildNeighbours(size, wrap)
	}
	k := neighbourKey{size, wrap}
	c := &neighbourCache
	c.Lock()
	defer c.Unlock()
	if t, ok := c.tables[k]; ok {
		return t
	}
	t := buildNeighbours(size, wrap)
	if c.tables == nil {
		c.tables = map[neighbourKey][]int32{}
	}
	if len(c.tables) < neighbourCacheEntries {
		c.tables[k] = t
	}
	return t
}

// buildNeighbours makes the neighbour table of a size×size arena.
func buildNeighbours(n int, wrap bool) []int32 {
	nbr := make([]int32, n*n*8)
	for r := 0; r < n; r++ {
		for c := 0; c < n; c++ {
			cell := r*n + c
			for d, off := range directionOffsets {
				nr, nc := r+off[0], c+off[1]
				if wrap {
					nr, nc = (nr+n)%n, (nc+n)%n
				} else if nr < 0 || nr >= n || nc < 0 || nc >= n {
					nbr[cell*8+d] = -1
					continue
				}
				nbr[cell*8+d] = int32(nr*n + nc)
			}
		}
	}
	return nbr
}
