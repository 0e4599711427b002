package tui

import (
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/gdamore/tcell/v2"

	"github.com/squarebattle/squarebattle/engine/replay"
)

// recordBattle plays a setup headless into a replay file, as `run --record`
// does, and returns the file's name.
func recordBattle(t *testing.T, src Source, su Setup) string {
	t.Helper()
	b, err := src.NewBattle(su)
	if err != nil {
		t.Fatal(err)
	}
	return writeBattle(t, b)
}

// writeBattle plays b to its end into a replay file, as `run --record`
// does, closes it and returns the file's name.
func writeBattle(t *testing.T, b Battle) string {
	t.Helper()
	defer b.Close()
	name := filepath.Join(t.TempDir(), "battle.sbr")
	f, err := replay.Create(name, b.Header(), b.Snapshot())
	if err != nil {
		t.Fatal(err)
	}
	rec := b.Recorder()
	for b.Step() {
		l := rec.Next()
		if err := f.Round(&l); err != nil {
			t.Fatal(err)
		}
	}
	if err := f.End(b.Snapshot(), replay.EndReason(b.Snapshot())); err != nil {
		t.Fatal(err)
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
	return name
}

func openReplay(t *testing.T, name string) *replay.Replay {
	t.Helper()
	rep, err := replay.Open(name)
	if err != nil {
		t.Fatal(err)
	}
	return rep
}

var replaySetup = Setup{Players: []string{"explorer", "linedancer", "pinwheel"}, Size: 20, Rounds: 150, Seed: 21}

// TestReplayViewer: the replay viewer steps and jumps through a recorded
// battle with the live battle's keys, and every round it shows is the
// recording's round as engine.Timeline rebuilds it.
func TestReplayViewer(t *testing.T) {
	src := newScriptSource(t)
	name := recordBattle(t, src, replaySetup)
	ref := openReplay(t, name).Timeline
	last := ref.Last()
	if last < 60 {
		t.Fatalf("the recorded battle ends in round %d; the test wants a longer one", last)
	}
	s := open(t, 100, 30, "", Options{Replay: openReplay(t, name), ReplayFile: name, Paused: true})
	s.waitText("Round 0/150")
	tests := []struct {
		name  string
		press func()
		round int
	}{
		{"step", func() { s.keys("...") }, 3},
		{"right", func() { s.key(tcell.KeyRight) }, 4},
		{"left", func() { s.key(tcell.KeyLeft); s.key(tcell.KeyLeft) }, 2},
		{"shift-right", func() { s.shiftKey(tcell.KeyRight) }, 12},
		{"page down", func() { s.key(tcell.KeyPgDn) }, min(112, last)},
		{"page up", func() { s.key(tcell.KeyPgUp) }, max(12, min(112, last)-100)},
		{"shift-left", func() { s.shiftKey(tcell.KeyLeft) }, max(2, min(112, last)-110)},
		{"go to", func() { s.keys("g41"); s.key(tcell.KeyEnter) }, 41},
		{"go past the end", func() { s.keys("g9999"); s.key(tcell.KeyEnter) }, last},
		{"home", func() { s.key(tcell.KeyHome) }, 0},
		{"end", func() { s.key(tcell.KeyEnd) }, last},
		{"left from the end", func() { s.key(tcell.KeyLeft) }, last - 1},
	}
	for _, tc := range tests {
		tc.press()
		f := s.waitFrame(fmt.Sprintf("%s: round %d", tc.name, tc.round), func(f *frame) bool { return f.snap.Round == tc.round })
		if want := ref.At(tc.round); !reflect.DeepEqual(f.snap, want) {
			t.Fatalf("%s: round %d differs from the timeline:\n got %+v\nwant %+v", tc.name, tc.round, f.snap.Teams, want.Teams)
		}
		if f.past || !f.paused || f.live != last {
			t.Fatalf("%s: past %v paused %v live %d; a replay is never 'past' and stays paused", tc.name, f.past, f.paused, f.live)
		}
	}
	s.keys("w") // nothing to save: it is a file already
	s.keys("?")
	golden(t, "replay-help-100x30", s.waitText("watch again from the first round"))
}

// TestReplayScreen: the replay viewer's screen, a golden.
func TestReplayScreen(t *testing.T) {
	name := recordBattle(t, newScriptSource(t), replaySetup)
	s := open(t, 100, 30, "", Options{Replay: openReplay(t, name), ReplayFile: name, Paused: true})
	s.waitText("Round 0/150")
	s.keys("g20")
	s.key(tcell.KeyEnter)
	golden(t, "replay-100x30", s.waitText("Round 20/150"))
}

// TestReplayPlays: a replay plays from round 0 at the configured speed,
// ends with the battle's result, and r watches it again.
func TestReplayPlays(t *testing.T) {
	t.Parallel() // a session of its own, mostly waiting on the battle's pace and frames

	name := recordBattle(t, newScriptSource(t), replaySetup)
	rep := openReplay(t, name)
	winner := rep.Timeline.At(rep.Timeline.Last()).Winner
	s := open(t, 100, 30, "", Options{Replay: rep, ReplayFile: name, Settings: Settings{Size: 20, Rounds: 150, Speed: 500, FPS: 60}})
	text := s.waitText("r watch again")
	if winner >= 0 && !strings.Contains(text, " wins!") || strings.Contains(text, "new seed") {
		t.Fatalf("the end of a replay:\n%s", text)
	}
	s.keys("r")
	f := s.waitFrame("playing again", func(f *frame) bool { return !f.paused && !f.end && f.snap.Round < f.live })
	if f.live != rep.Timeline.Last() {
		t.Errorf("live round %d, want %d", f.live, rep.Timeline.Last())
	}
	s.waitText("r watch again")
}

// TestDamagedReplay: a replay cut short in the middle (a copy that did not
// finish) plays up to the damage and says where it is: on the status bar,
// in the problem list and at its end.
func TestDamagedReplay(t *testing.T) {
	name := recordBattle(t, newScriptSource(t), replaySetup)
	data, err := os.ReadFile(name)
	if err != nil {
		t.Fatal(err)
	}
	damaged := filepath.Join(t.TempDir(), "damaged.sbr")
	if err := os.WriteFile(damaged, data[:len(data)*2/3], 0o644); err != nil {
		t.Fatal(err)
	}
	ref := openReplay(t, damaged)
	last := ref.Timeline.Last()
	if ref.Damage == nil || ref.Result != nil || last < 10 {
		t.Fatalf("damage %v, result %v, last round %d", ref.Damage, ref.Result, last)
	}
	msg := ref.Damage.Error() // damaged.sbr: line N: ...
	if !strings.HasPrefix(msg, damaged+": line ") {
		t.Fatalf("damage %q does not name the file and line", msg)
	}
	s := open(t, 200, 40, "", Options{Replay: openReplay(t, damaged), ReplayFile: damaged, Paused: true})
	s.waitText("DAMAGED file: e")
	s.keys("e")
	if text := s.waitText("This replay is damaged"); !strings.Contains(text, msg) {
		t.Errorf("the problem list does not show the damage %q:\n%s", msg, text)
	}
	s.key(tcell.KeyEscape)
	s.key(tcell.KeyEnd)
	text := s.waitText("End of recording")
	if !strings.Contains(text, fmt.Sprintf("Round %d/150", last)) || !strings.Contains(text, "end of recording") {
		t.Errorf("the end of a damaged replay:\n%s", text)
	}
	sameRound(t, s.lastSnap(), ref.Timeline.At(last))
	if f, _ := s.lastFrame(); f.live != last {
		t.Errorf("the replay goes to round %d, the file to %d", f.live, last)
	}
}

// TestSaveKey: w writes the battle watched so far, and after the end the
// whole battle, into the replays folder (made when missing), to a file
// that reads back as the battle played headless, from round 0, although
// the rewind buffer kept only the last few rounds. The status bar says the
// whole path; nothing is written into the current folder.
func TestSaveKey(t *testing.T) {
	cwd := t.TempDir()
	t.Chdir(cwd)
	dir := filepath.Join(t.TempDir(), "my replays", "deep")
	src := newScriptSource(t)
	su := Setup{Players: []string{"explorer", "linedancer"}, Size: 16, Rounds: 120, Seed: 11}
	want := headless(t, src, su)
	s := open(t, 160, 30, "", Options{Source: src, Paused: true, Start: &su, Replays: dir, Settings: Settings{Size: 16, Rounds: 120, Speed: 20, FPS: 60, Rewind: -1}})
	s.waitText("Round 0/120")
	s.keys("g30")
	s.key(tcell.KeyEnter)
	s.waitText("Round 30/120")
	s.keys("w")
	unfinished := filepath.Join(dir, "battle-11-30.sbr")
	s.waitText("saved " + unfinished + " (unfinished, 30 rounds)")
	s.keys("g999")
	s.key(tcell.KeyEnter)
	f := s.waitFrame("the end", func(f *frame) bool { return f.end })
	if f.first == 0 {
		t.Fatalf("the rewind buffer was not trimmed (first round %d); the test wants it trimmed", f.first)
	}
	s.keys("w")
	finished := filepath.Join(dir, fmt.Sprintf("battle-11-%d.sbr", f.live))
	s.waitText("saved " + finished)
	for _, c := range []struct {
		name string
		last int
		done bool
	}{{unfinished, 30, false}, {finished, len(want) - 1, true}} {
		rep := openReplay(t, c.name)
		tl := rep.Timeline
		if rep.Damage != nil || (rep.Result != nil) != c.done || tl.First() != 0 || tl.Last() != c.last {
			t.Fatalf("%s: damage %v, result %v, rounds %d to %d", c.name, rep.Damage, rep.Result, tl.First(), tl.Last())
		}
		for r := 0; r <= tl.Last(); r++ {
			sameRound(t, tl.At(r), want[r])
		}
		if fi, err := os.Stat(c.name); err != nil || fi.Mode().Perm()&0o044 != 0o044 {
			t.Errorf("%s: %v %v; a replay is meant to be shared (world-readable)", c.name, fi.Mode(), err)
		}
	}
	if left, err := os.ReadDir(cwd); err != nil || len(left) > 0 {
		t.Errorf("w wrote into the current folder: %v %v", left, err)
	}
}

// TestRecordOption: Options.Record writes every battle of the session when
// it ends, the next ones to numbered names, and one left before its end
// as an unfinished replay.
func TestRecordOption(t *testing.T) {
	dir := t.TempDir()
	src := newScriptSource(t)
	su := Setup{Players: []string{"linedancer", "explorer"}, Size: 12, Rounds: 60, Seed: 11}
	want := headless(t, src, su)
	record := filepath.Join(dir, "fight.sbr")
	s := open(t, 120, 30, "", Options{Source: src, Start: &su, Record: record, Settings: Settings{Size: 12, Rounds: 60, Speed: 0, FPS: 60}})
	s.waitText("recorded to " + record)
	s.keys("r")
	s.waitText("recorded to " + filepath.Join(dir, "fight-2.sbr"))
	s.keys("r")
	s.waitText("Round")
	s.key(tcell.KeyEscape) // the third battle, left for the lobby: maybe before its end
	s.waitText("Start Battle")
	for _, name := range []string{"fight.sbr", "fight-2.sbr", "fight-3.sbr"} {
		rep := openReplay(t, filepath.Join(dir, name))
		tl := rep.Timeline
		if rep.Damage != nil || (rep.Result != nil) != (tl.Last() == len(want)-1) {
			t.Fatalf("%s: damage %v, result %v at round %d", name, rep.Damage, rep.Result, tl.Last())
		}
		sameRound(t, tl.At(tl.Last()), want[tl.Last()])
	}
}

func TestNumbered(t *testing.T) {
	for _, c := range []struct {
		name string
		n    int
		want string
	}{
		{"fight.sbr", 1, "fight.sbr"},
		{"fight.sbr", 2, "fight-2.sbr"},
		{"dir.v2/fight", 3, "dir.v2/fight-3"},
		{"out/.sbr", 2, "out/.sbr-2"},
		{"a.b.sbr", 10, "a.b-10.sbr"},
	} {
		if got := numbered(c.name, c.n); got != c.want {
			t.Errorf("numbered(%q, %d) = %q, want %q", c.name, c.n, got, c.want)
		}
	}
}
