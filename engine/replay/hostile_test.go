package replay

import (
	"bytes"
	"compress/gzip"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"testing"
)

// Hostile replays, made in code: each names more than a battle can hold,
// or more than its bytes honestly can. They use nothing but Read, so the
// figures of docs/replay-format.md ("What a reader allocates") can be
// measured on any version of the reader.

// hostileDir, when set, makes TestWhatAReaderAllocates write its files
// there too, to be opened by the command (squarebattle replay --verify).
var hostileDir = flag.String("hostile.dir", "", "write the hostile replays of TestWhatAReaderAllocates to this folder")

// gzipped compresses text as the writer does.
func gzipped(text []byte) []byte {
	var buf bytes.Buffer
	w, _ := gzip.NewWriterLevel(&buf, gzip.DefaultCompression)
	w.Write(text)
	w.Close()
	return buf.Bytes()
}

// quietRounds are rounds 1 to n in which nothing happens.
func quietRounds(n int) []byte {
	var b bytes.Buffer
	for r := 1; r <= n; r++ {
		fmt.Fprintf(&b, "{\"r\":%d}\n", r)
	}
	return b.Bytes()
}

// hugeArena is a header naming a size×size arena, empty but for team 0's
// square, and rounds quiet rounds.
func hugeArena(size, rounds int) []byte {
	h := fmt.Sprintf(`{"squarebattle_replay":1,"program":"squarebattle v1.0.0","seed":7,"size":%d,"wrap":true,"rounds":%d,`+
		`"classes":[{"id":"borg","file":"scripts/borg.lua","sha256":"3f1c8a0e4b6f2d9a7c5e1b3d8f0a2c4e6b8d0f1a3c5e7b9d1f3a5c7e9b1d3f50"}],`+
		`"players":[{"team":0,"class":0,"name":"Borg","victory":"Resistance was futile.","defeat":"We will adapt."}],`+
		`"start":[0,1,-1,%d]}`+"\n", size, max(rounds, 1), size*size-1)
	return append([]byte(h), quietRounds(rounds)...)
}

// manyPlayers is a header naming n players on a 2000×2000 arena (only
// team 0 with a square).
func manyPlayers(n int) []byte {
	var b bytes.Buffer
	b.WriteString(`{"squarebattle_replay":1,"size":2000,"rounds":100,"classes":[{"id":"w","file":"w.lua","sha256":"00"}],"players":[`)
	for i := range n {
		if i > 0 {
			b.WriteByte(',')
		}
		fmt.Fprintf(&b, `{"team":%d}`, i)
	}
	fmt.Fprintf(&b, "],\"start\":[0,1,-1,%d]}\n", 2000*2000-1)
	return b.Bytes()
}

// header is a small valid header (2 teams on a size×size arena, rounds
// rounds) with extra fields added before "start".
func header(size, rounds int, extra string) string {
	return fmt.Sprintf(`{"squarebattle_replay":1,"program":"test","size":%d,"rounds":%d,"classes":[{"id":"w","file":"w.lua","sha256":"00"}],`+
		`"players":[{"team":0,"class":0,"name":"W"},{"team":1,"class":0,"name":"W"}],%s"start":[0,1,1,1,-1,%d]}`+"\n",
		size, rounds, extra, size*size-2)
}

// allocated measures the bytes f allocates (runtime.MemStats.TotalAlloc).
func allocated(f func()) uint64 {
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	f()
	runtime.ReadMemStats(&after)
	return after.TotalAlloc - before.TotalAlloc
}

// TestWhatAReaderAllocates reads the hostile replays of the figures and
// says what each cost; run with -v to see them (and -hostile.dir DIR to
// keep the files). It asserts nothing: TestHostileSizes and its
// neighbours do.
func TestWhatAReaderAllocates(t *testing.T) {
	if testing.Short() {
		t.Skip("reads replays of millions of players")
	}
	cases := []struct {
		name string
		data []byte
	}{
		{"tiny-14142.sbr", gzipped(hugeArena(14142, 0))},
		{"tiny-16384.sbr", gzipped(hugeArena(16384, 128))},
		{"players-2M.sbr", gzipped(manyPlayers(2_000_000))},
		{"quiet-2000.sbr", gzipped(hugeArena(2000, 20_000))},
	}
	for _, c := range cases {
		var err error
		var damage error
		n := allocated(func() {
			var rep *Replay
			rep, err = Read(bytes.NewReader(c.data), c.name)
			if rep != nil {
				damage = rep.Damage
			}
		})
		t.Logf("%-16s %9d bytes: allocated %12d bytes (%.0f× the file): %v %v", c.name, len(c.data), n, float64(n)/float64(len(c.data)), err, damage)
		if *hostileDir != "" {
			if err := os.WriteFile(filepath.Join(*hostileDir, c.name), c.data, 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}
}
