package replay

import (
	"bytes"
	"compress/gzip"
	"io"
	"runtime"
	"strings"
	"testing"
)

// FuzzRead: any bytes either fail with a one-line error or read into a
// replay whose every round can be shown; damage is reported, never a
// panic.
func FuzzRead(f *testing.F) {
	data, _ := record(f, 3, 6, 2, 40)
	f.Add(data)
	f.Add(plain(f, data))
	f.Add(data[:len(data)/2])
	f.Add([]byte("{\"squarebattle_replay\":1,\"size\":2,\"players\":[{\"team\":0}],\"start\":[-1,4]}\n{\"r\":1,\"c\":[0,0]}\n"))
	f.Add([]byte("{\"squarebattle_replay\":1,\"size\":2,\"classes\":[{\"id\":\"w\"}],\"players\":[{\"team\":0}],\"start\":[0,1,-1,3]}\n" +
		"{\"r\":1,\"f\":[0,0,1],\"w\":[{\"team\":0,\"phase\":\"turn\",\"class\":0,\"kind\":\"crash\",\"msg\":\"w.lua: died\"},{\"team\":0,\"phase\":\"turn\",\"class\":0,\"kind\":\"retired\",\"msg\":\"r\"}]}\n"))
	walled, _ := recordWalledMod(f)
	f.Add(plain(f, walled))
	f.Add([]byte("{\"squarebattle_replay\":1,\"game\":\"g\",\"size\":2,\"classes\":[{\"id\":\"w\"}],\"players\":[{\"team\":0},{\"team\":1}],\"start\":[-1,4]}\n" +
		"{\"r\":1,\"f\":[1,1,0],\"w\":[{\"team\":1,\"phase\":\"turn\",\"batch\":3,\"class\":0,\"kind\":\"timeout\",\"msg\":\"w.lua: hung\"}]}\n"))
	outside, _ := recordOutside(f)
	f.Add(plain(f, outside))
	outsideMod, _ := recordOutsideMod(f)
	f.Add(plain(f, outsideMod))
	f.Fuzz(func(t *testing.T, data []byte) {
		var rep *Replay
		var err error
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		rep, err = Read(bytes.NewReader(data), "fuzz.sbr")
		runtime.ReadMemStats(&after)
		if n, bound := after.TotalAlloc-before.TotalAlloc, fuzzBound(data, rep); n > bound {
			t.Errorf("reading %d bytes allocated %d, over %d", len(data), n, bound)
		}
		if err != nil {
			if strings.Contains(err.Error(), "\n") {
				t.Errorf("error is not one line: %q", err)
			}
			return
		}
		if rep.Damage != nil && strings.Contains(rep.Damage.Error(), "\n") {
			t.Errorf("damage is not one line: %q", rep.Damage)
		}
		tl := rep.Timeline
		for _, r := range []int{tl.First(), (tl.First() + tl.Last()) / 2, tl.Last()} {
			s := tl.At(r)
			if len(s.Cells) != s.Size*s.Size {
				t.Fatalf("round %d: %d cells on a %d×%d arena", r, len(s.Cells), s.Size, s.Size)
			}
		}
	})
}

// fuzzBound is what reading data may allocate: 64 times its text (once
// decompressed: lines of honest shape are kept whatever their compression)
// and 4 MiB, and for a replay read its arena and rounds (limits_test.go).
func fuzzBound(data []byte, rep *Replay) uint64 {
	text := uint64(len(data))
	if zr, err := gzip.NewReader(bytes.NewReader(data)); err == nil {
		n, _ := io.Copy(io.Discard, zr)
		text = max(text, uint64(n))
	}
	bound := 64*text + 4<<20
	if rep != nil {
		bound += readBound(nil, rep.Header.Size*rep.Header.Size, rep.Timeline.Last()) + keyframeBudget
	}
	return bound
}
