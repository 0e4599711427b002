package worker

import (
	"bytes"
	"io"
	"slices"
	"testing"

	"github.com/squarebattle/squarebattle/luabind"
)

// frameFeed hands Serve one frame per Read, and records, for each, whether
// Serve had said it held no team (setIdle) when it asked for that frame.
type frameFeed struct {
	frames [][]byte
	idle   bool
	seen   []bool // idle at each Read: one per frame, then one for the end
}

func (f *frameFeed) setIdle(idle bool) { f.idle = idle }

func (f *frameFeed) Read(p []byte) (int, error) {
	f.seen = append(f.seen, f.idle)
	if len(f.frames) == 0 {
		return 0, io.EOF
	}
	n := copy(p, f.frames[0])
	if n < len(f.frames[0]) {
		panic("frameFeed: a frame larger than Serve's buffer")
	}
	f.frames = f.frames[1:]
	return n, nil
}

// TestIdleWhileNoTeam: a worker waits for a request through the runtime
// (setIdle(true)) exactly while it holds no team, rules or slot, so an
// idle worker costs no wake-ups, and with raw reads while it plays one,
// so a busy one pays no runtime wake-up per request (see rawFile).
func TestIdleWhileNoTeam(t *testing.T) {
	cat := catalogOf(t, map[string]string{"scripts/a.lua": `
		player = { name = "A" }
		Hero = {}
		function Hero:turn() end
	`})
	p := &Pool{}
	seat := &Seat{pool: p, opts: luabind.TeamOptions{Catalog: cat, Size: 8, Teams: 1}, cat: p.catalog(cat)}
	frame := func(b []byte) []byte { return bytes.Clone(b) }
	var e enc
	end := func() []byte { e.start(kindEnd); return frame(e.finish()) }
	batch := func(slot uint64, body []byte) []byte {
		e.start(kindBatch)
		e.u(1)
		e.u(slot)
		e.bytes(frameBody(body))
		return frame(e.finish())
	}
	catalog, start := frame(seat.cat.frame), frame(seat.startFrame())
	tests := []struct {
		name   string
		frames [][]byte
		want   []bool // at each frame's read, then at the end's
	}{
		{"nothing comes", nil, []bool{true}},
		{"a catalog, then nothing", [][]byte{catalog}, []bool{true, true}},
		{"a team, played and ended", [][]byte{catalog, start, end(), start, end()}, []bool{true, true, false, true, false, true}},
		{"a team never ended", [][]byte{catalog, start}, []bool{true, true, false}},
		{"an end with no team", [][]byte{end(), catalog}, []bool{true, true, true}},
		{"a group's slot, started and ended", [][]byte{catalog, batch(3, start), batch(3, end())}, []bool{true, true, false, true}},
		{"two slots, one ended", [][]byte{catalog, batch(1, start), batch(2, start), batch(1, end())}, []bool{true, true, false, false, false}},
		{"a malformed frame holds nothing", [][]byte{{2, 0xff, 0xff}}, []bool{true, true}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			in := &frameFeed{frames: slices.Clone(tc.frames)}
			var out bytes.Buffer
			if err := Serve(in, &out, ServeOptions{}); err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(in.seen, tc.want) {
				t.Errorf("idle at each read: %v, want %v", in.seen, tc.want)
			}
		})
	}
}
