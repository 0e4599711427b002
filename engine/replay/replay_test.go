package replay

import (
	"bytes"
	"compress/gzip"
	"errors"
	"io"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/squarebattle/squarebattle/engine"
)

// wanderer moves, attacks and replicates at random, and now and then loses
// a turn, so a recording holds every kind of event.
type wanderer struct{ rng *engine.Rand }

func (w *wanderer) Turn(t *engine.Turn) {
	for i := range t.Intents {
		in := engine.Intent{Action: engine.Action(w.rng.IntN(4)), Dir: engine.Direction(w.rng.IntN(8)), Become: engine.NoClass}
		if in.Action == engine.Replicate && w.rng.IntN(3) != 0 {
			in.Action = engine.Move
		}
		switch w.rng.IntN(50) {
		case 0:
			in.Fault = engine.FaultTimeout
		case 1:
			in.Fault = engine.FaultError
			t.Report.Problems = append(t.Report.Problems, engine.Problem{Square: t.Squares[i].ID, Kind: engine.FaultError, Message: "w.lua:3: boom"})
		}
		t.Intents[i] = in
	}
}
func (w *wanderer) Settle(*engine.Settlement) {}

// record plays a battle, writing it to a replay, and returns the file's
// bytes and every live snapshot.
func record(t testing.TB, seed uint64, size, teams, rounds int) ([]byte, []*engine.Snapshot) {
	t.Helper()
	b, h := wanderBattle(t, seed, size, teams, rounds)
	var buf bytes.Buffer
	live := []*engine.Snapshot{b.Snapshot()}
	w, err := NewWriter(&buf, h, live[0])
	if err != nil {
		t.Fatal(err)
	}
	rec := engine.NewRecorder(b)
	for b.Step() {
		l := rec.Next()
		if err := w.Round(&l); err != nil {
			t.Fatal(err)
		}
		live = append(live, b.Snapshot())
	}
	if err := w.End(b.Snapshot(), "test"); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes(), live
}

// wanderBattle is a battle of wanderer teams, closed when the test ends,
// and the header of its replay.
func wanderBattle(t testing.TB, seed uint64, size, teams, rounds int) (*engine.Battle, Header) {
	t.Helper()
	o := engine.Options{Size: size, Wrap: true, Rounds: rounds, ReplicateRounds: 1, Seed: seed, Classes: []string{"w"}}
	h := Header{Program: "test", Classes: []Class{{ID: "w", File: "w.lua", SHA256: "00"}}}
	for i := 0; i < teams; i++ {
		o.Teams = append(o.Teams, engine.TeamSetup{Player: engine.Player{Name: "W"}, Controller: &wanderer{engine.NewRand(seed, engine.TeamStream(i))}})
		h.Players = append(h.Players, Player{Team: i, Name: "W"})
	}
	b, err := engine.NewBattle(o)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(b.Close)
	return b, h
}

func plain(t testing.TB, data []byte) []byte {
	zr, err := gzip.NewReader(bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	out, err := io.ReadAll(zr)
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// TestReplayPlaysBack writes battles and reads them back, compressed and
// plain: every round equals the live battle, forwards and backwards.
func TestReplayPlaysBack(t *testing.T) {
	for _, c := range []struct {
		seed                uint64
		size, teams, rounds int
	}{{1, 10, 3, 200}, {2, 24, 6, 300}, {3, 5, 2, 50}} {
		data, live := record(t, c.seed, c.size, c.teams, c.rounds)
		for _, form := range []struct {
			name string
			data []byte
		}{{"gzip", data}, {"plain", plain(t, data)}} {
			rep, err := Read(bytes.NewReader(form.data), "x.sbr")
			if err != nil {
				t.Fatal(err)
			}
			if rep.Damage != nil || rep.Result == nil {
				t.Fatalf("%s: damage %v, result %v", form.name, rep.Damage, rep.Result)
			}
			tl := rep.Timeline
			if tl.Last() != len(live)-1 {
				t.Fatalf("%s: %d rounds, want %d", form.name, tl.Last(), len(live)-1)
			}
			for _, r := range []int{0, 1, tl.Last() / 2, tl.Last(), tl.Last() - 1, 3, 0} {
				got, want := tl.At(r), live[r]
				want.Classes = []string{"w"}
				if !reflect.DeepEqual(got, want) {
					t.Fatalf("%s seed %d: round %d differs:\n got %+v\nwant %+v", form.name, c.seed, r, got.Teams, want.Teams)
				}
			}
		}
	}
}

// TestDamagedReplays cuts and corrupts a replay: the reader names the line
// where the damage is and keeps every round before it.
func TestDamagedReplays(t *testing.T) {
	data, live := record(t, 7, 12, 4, 300)
	rounds := len(live) - 1
	text := plain(t, data)
	lines := bytes.SplitAfter(text, []byte("\n"))
	gz := func(b []byte) []byte {
		var buf bytes.Buffer
		w := gzip.NewWriter(&buf)
		w.Write(b)
		w.Close()
		return buf.Bytes()
	}
	flipped := append([]byte(nil), data...)
	for i := len(flipped) / 2; i < len(flipped)/2+16; i++ {
		flipped[i] ^= 0x5a
	}
	cases := []struct {
		name      string
		data      []byte
		wantLine  int
		wantLast  int // last round that plays
		wantInMsg string
		// wantResult: the damage comes after the result line, so the
		// battle is complete.
		wantResult bool
	}{
		{"gzip bytes flipped in the middle", flipped, -1, -1, "", false},
		{"gzip cut in half", data[:len(data)/2], -1, -1, "ends early", false},
		{"gzip cut before the trailer", data[:len(data)-4], rounds + 3, rounds, "ends early", true},
		{"plain cut mid-line", text[:len(text)-len(lines[len(lines)-2])-5], rounds + 1, rounds - 1, "middle of a line", false},
		{"garbage line", bytes.Join([][]byte{lines[0], lines[1], []byte("{{{\n"), lines[3]}, nil), 3, 1, "unreadable round", false},
		{"round skipped", gz(bytes.Join([][]byte{lines[0], lines[1], lines[3]}, nil)), 3, 1, "round 3 where round 2", false},
		{"result altered", gz(bytes.Join(append(lines[:len(lines)-2:len(lines)-2], bytes.Replace(lines[len(lines)-2], []byte(`"stats":[[`), []byte(`"stats":[[9`), 1)), nil)), rounds + 2, rounds, "totals", false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			rep, err := Read(bytes.NewReader(c.data), "cut.sbr")
			if err != nil {
				t.Fatal(err)
			}
			var fe *FormatError
			if !errors.As(rep.Damage, &fe) || !errors.Is(rep.Damage, ErrCorrupt) {
				t.Fatalf("damage = %v, want a FormatError", rep.Damage)
			}
			if !strings.Contains(fe.Error(), c.wantInMsg) || !strings.HasPrefix(fe.Error(), "cut.sbr: line ") {
				t.Errorf("message %q, want it to name the file and line and say %q", fe.Error(), c.wantInMsg)
			}
			if c.wantLine > 0 && fe.Line != c.wantLine {
				t.Errorf("line %d, want %d", fe.Line, c.wantLine)
			}
			last := rep.Timeline.Last()
			if c.wantLast >= 0 && last != c.wantLast {
				t.Errorf("plays up to round %d, want %d", last, c.wantLast)
			}
			if fe.Line != last+2 && c.name != "result altered" && !c.wantResult {
				t.Errorf("damage on line %d but rounds up to %d play", fe.Line, last)
			}
			if (rep.Result != nil) != c.wantResult {
				t.Errorf("result %v, want one: %v", rep.Result, c.wantResult)
			}
			for _, r := range []int{0, last / 2, last} {
				got, want := rep.Timeline.At(r), live[r]
				if !reflect.DeepEqual(got.Cells, want.Cells) || !reflect.DeepEqual(got.Teams, want.Teams) {
					t.Fatalf("round %d before the damage differs", r)
				}
			}
		})
	}
}

func TestUnreadableReplays(t *testing.T) {
	data, _ := record(t, 8, 6, 2, 20)
	text := plain(t, data)
	cases := []struct {
		name string
		data []byte
		want string
		err  error
	}{
		{"empty", nil, "x.sbr: empty file", ErrCorrupt},
		{"not json", []byte("hello\n"), "x.sbr: line 1: not a SquareBattle replay header", ErrCorrupt},
		{"other json", []byte(`{"a":1}` + "\n"), "line 1: not a SquareBattle replay", ErrCorrupt},
		{"newer", bytes.Replace(text, []byte(`"squarebattle_replay":1`), []byte(`"squarebattle_replay":9`), 1), "format 9 is newer", ErrVersion},
		{"bad start", bytes.Replace(text, []byte(`"start":[`), []byte(`"start":[5,`), 1), "line 1: start", ErrCorrupt},
		{"gzip header only", data[:5], "x.sbr", ErrCorrupt},
	}
	for _, c := range cases {
		_, err := Read(bytes.NewReader(c.data), "x.sbr")
		if err == nil || !strings.Contains(err.Error(), c.want) || !errors.Is(err, c.err) {
			t.Errorf("%s: error %v, want %q", c.name, err, c.want)
		}
		if err != nil && strings.Contains(err.Error(), "\n") {
			t.Errorf("%s: error is not one line: %q", c.name, err)
		}
	}
}

// TestFileIsAtomic: the final name appears only on Close; a killed writer
// leaves a temporary file that plays up to its last flush.
func TestFileIsAtomic(t *testing.T) {
	dir := t.TempDir()
	name := filepath.Join(dir, "battle.sbr")
	o := engine.Options{Size: 8, Wrap: true, Rounds: 100, ReplicateRounds: 4, Seed: 3, Classes: []string{"w"},
		Teams: []engine.TeamSetup{{Player: engine.Player{Name: "W"}, Controller: &wanderer{engine.NewRand(3, 9)}}}}
	b, err := engine.NewBattle(o)
	if err != nil {
		t.Fatal(err)
	}
	f, err := Create(name, Header{Program: "test", Players: []Player{{Name: "W"}}}, b.Snapshot())
	if err != nil {
		t.Fatal(err)
	}
	rec := engine.NewRecorder(b)
	for i := 0; i < FlushEvery+5 && b.Step(); i++ {
		l := rec.Next()
		f.Round(&l)
	}
	if _, err := os.Stat(name); !os.IsNotExist(err) {
		t.Fatalf("final name exists before Close: %v", err)
	}
	partial, _ := filepath.Glob(filepath.Join(dir, ".battle.sbr.*.partial"))
	if len(partial) != 1 {
		t.Fatalf("partial files: %v", partial)
	}
	rep, err := Open(partial[0])
	if err != nil {
		t.Fatal(err)
	}
	if rep.Timeline.Last() < FlushEvery || rep.Damage == nil {
		t.Errorf("a killed recording plays %d rounds (damage %v), want at least %d and damage", rep.Timeline.Last(), rep.Damage, FlushEvery)
	}
	f.End(b.Snapshot(), "stopped")
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
	rep, err = Open(name)
	if err != nil || rep.Damage != nil || rep.Result == nil {
		t.Fatalf("closed file: %v %v %v", err, rep.Damage, rep.Result)
	}
	if left, _ := filepath.Glob(filepath.Join(dir, ".*")); len(left) != 0 {
		t.Errorf("left behind: %v", left)
	}
}

// TestReplaySize records a 64×64, 1000-round battle between four teams of
// random movers that fill the arena and change hundreds of cells every
// round, a far busier battle than the shipped players fight, and holds it
// to the 2 MB target. Run with -v to see the figure.
func TestReplaySize(t *testing.T) {
	if testing.Short() {
		t.Skip("records a 1000-round battle")
	}
	data, live := record(t, 11, 64, 4, 1000)
	last := live[len(live)-1]
	squares := 0
	for _, tv := range last.Teams {
		squares += tv.Stats.Squares
	}
	t.Logf("64×64, %d rounds, 4 teams, %d squares at the end: %d bytes (%.2f MB), %d uncompressed", last.Round, squares, len(data), float64(len(data))/1e6, len(plain(t, data)))
	if last.Round != 1000 {
		t.Fatalf("the battle ended after %d rounds; the figure needs 1000", last.Round)
	}
	if len(data) > 2<<20 {
		t.Errorf("replay is %d bytes, over the 2 MB target", len(data))
	}
}

// TestCheckpoint: the bytes at a checkpoint are a complete replay of the
// rounds so far (no result, no damage), and the stream written on after
// it, checkpoints and all, reads back as the whole battle.
func TestCheckpoint(t *testing.T) {
	const seed, size, rounds = 5, 12, 120
	_, live := record(t, seed, size, 3, rounds)
	b, h := wanderBattle(t, seed, size, 3, rounds)
	var buf bytes.Buffer
	w, err := NewWriter(&buf, h, b.Snapshot())
	if err != nil {
		t.Fatal(err)
	}
	rec := engine.NewRecorder(b)
	check := func(data []byte, last int, done bool) {
		t.Helper()
		rep, err := Read(bytes.NewReader(data), "x.sbr")
		if err != nil {
			t.Fatal(err)
		}
		if rep.Damage != nil || (rep.Result != nil) != done || rep.Timeline.Last() != last {
			t.Fatalf("at round %d: damage %v, result %v, last round %d", last, rep.Damage, rep.Result, rep.Timeline.Last())
		}
		want := live[last]
		want.Classes = []string{"w"}
		if got := rep.Timeline.At(last); !reflect.DeepEqual(got.Cells, want.Cells) || !reflect.DeepEqual(got.Teams, want.Teams) {
			t.Fatalf("round %d differs from the battle", last)
		}
	}
	for _, at := range []int{0, 1, 33, 33, 64, len(live) - 1} { // 33 twice: an empty member
		for b.Round() < at && b.Step() {
			l := rec.Next()
			if err := w.Round(&l); err != nil {
				t.Fatal(err)
			}
		}
		if err := w.Checkpoint(); err != nil {
			t.Fatal(err)
		}
		check(bytes.Clone(buf.Bytes()), b.Round(), false)
	}
	if err := w.End(b.Snapshot(), EndReason(b.Snapshot())); err != nil {
		t.Fatal(err)
	}
	if err := w.Checkpoint(); err != nil { // after End: the complete replay
		t.Fatal(err)
	}
	check(bytes.Clone(buf.Bytes()), b.Round(), true)
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	check(buf.Bytes(), b.Round(), true)
}
