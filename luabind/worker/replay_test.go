package worker

import (
	"reflect"
	"syscall"
	"testing"

	"github.com/squarebattle/squarebattle/engine"
	"github.com/squarebattle/squarebattle/luabind"
	"github.com/squarebattle/squarebattle/scripts"
)

// recordAll plays b to its end and returns every round's log, as a
// replay records them.
func recordAll(b *luabind.Battle) []engine.RoundLog {
	rec := engine.NewRecorder(b.Battle)
	var logs []engine.RoundLog
	for b.Step() {
		logs = append(logs, rec.Next())
	}
	return logs
}

// backstopsOf lists the backstop events of a battle's logs, in order.
func backstopsOf(logs []engine.RoundLog) []engine.Backstop {
	var out []engine.Backstop
	for _, l := range logs {
		out = append(out, l.Backstops...)
	}
	return out
}

// sameLogs is the comparison replay --verify makes, round by round.
func sameLogs(t *testing.T, name string, got, want []engine.RoundLog) {
	t.Helper()
	if len(got) != len(want) {
		t.Errorf("%s: the re-run played %d rounds, the recording %d", name, len(got), len(want))
	}
	for r := range min(len(got), len(want)) {
		if !reflect.DeepEqual(got[r], want[r]) {
			t.Errorf("%s: round %d differs:\n got %+v\nwant %+v", name, r+1, got[r], want[r])
			return
		}
	}
}

// TestKilledReplays: kill -9 of a worker playing a team that keeps data
// and draws random numbers changes the rest of its battle (its fresh state
// starts over); the recording holds the crash, and a re-run handed it, in
// this process or behind the wall, plays every round as recorded.
func TestKilledReplays(t *testing.T) {
	explorer, _ := scripts.FS.ReadFile("explorer.lua")
	cat := catalogOf(t, map[string]string{"explorer.lua": string(explorer), "victim.lua": victim})
	o := engine.Options{Size: 10, Wrap: true, Rounds: 60, ReplicateRounds: 3, Seed: 5, Workers: 2}
	players := []string{"victim", "explorer", "victim"}
	p := testPool(t, Options{Size: 3})
	b := battle(t, cat, players, o, p.Seat)
	rec := engine.NewRecorder(b.Battle)
	var logs []engine.RoundLog
	for range 10 {
		b.Step()
		logs = append(logs, rec.Next())
	}
	pid := b.Seats[0].(*Seat).w.cmd.Process.Pid
	if err := syscall.Kill(pid, syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	for b.Step() {
		logs = append(logs, rec.Next())
	}
	events := backstopsOf(logs)
	if len(events) != 1 || events[0].Team != 0 || events[0].Kind != engine.BackstopCrash || events[0].Round != 11 {
		t.Fatalf("recorded events %+v, want team 0's crash in round 11", events)
	}
	t.Logf("recorded: %+v", events[0])
	plain := recordAll(battle(t, cat, players, o, nil))
	if reflect.DeepEqual(plain[11:], logs[11:]) {
		t.Fatalf("the kill changed nothing after it: the test cannot tell a replayed crash from none")
	}
	for _, where := range []struct {
		name string
		seat luabind.Seater
	}{{"in-process", nil}, {"worker", p.Seat}} {
		sameLogs(t, where.name, recordAll(battle(t, cat, players, o, luabind.ReplayedSeater(where.seat, events))), logs)
	}
}
