package worker

import (
	"fmt"
	"reflect"
	"syscall"
	"testing"
	"time"

	"github.com/squarebattle/squarebattle/engine"
	"github.com/squarebattle/squarebattle/luabind"
	"github.com/squarebattle/squarebattle/luabind/worker/testhooks"
)

// modVictim answers from what it keeps and from its random stream, so
// after its state is lost (a worker that died) its answers, and so its
// team's score, differ from a team that kept it. hook, when not empty, is
// called in rounds 3 and 7.
func modVictim(hook string) string {
	call := ""
	if hook != "" {
		call = fmt.Sprintf("if view.round == 3 or view.round == 7 then %s() end", hook)
	}
	return fmt.Sprintf(`return { name = "H", run = function(view, memory)
  memory.n = (memory.n or 0) + 1
  %s
  return memory.n * 10 + math.random(9)
end }`, call)
}

// modBattleLogs plays a scoring battle of a against h, seated by seat
// (nil: this process) with the rules seated by rs, and returns every
// round's log; kill, when not nil, runs after each round.
func modBattleLogs(t *testing.T, g *luabind.Game, seat luabind.Seater, rs luabind.RulesSeater, kill func(round int, b *luabind.ModBattle)) []engine.RoundLog {
	t.Helper()
	a, _ := g.Find("a")
	h, _ := g.Find("h")
	b, err := luabind.NewWalledModBattle(g, []*luabind.Class{a, h}, engine.ModOptions{Size: 4, Rounds: 16, Seed: 3, Workers: 2}, rulesBudget, seat, rs)
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	rec := engine.NewModRecorder(b.ModBattle)
	var logs []engine.RoundLog
	for b.Step() {
		logs = append(logs, rec.Next())
		if kill != nil {
			kill(len(logs), b)
		}
	}
	if b.Err() != nil {
		t.Fatalf("the battle stopped: %v", b.Err())
	}
	return logs
}

// replaysBothWays plays g's battle again with events handed back, in this
// process and behind the wall (long), and compares every round with the
// recording, as replay --verify does. Without the events the battle must
// differ, or the test could not tell.
func replaysBothWays(t *testing.T, g *luabind.Game, long *Pool, events []engine.Backstop, recorded []engine.RoundLog) {
	t.Helper()
	if plain := modBattleLogs(t, g, nil, nil, nil); reflect.DeepEqual(plain, recorded) {
		t.Fatal("the events changed nothing: the test cannot tell a replayed event from none")
	}
	for _, where := range []struct {
		name string
		seat luabind.Seater
		rs   luabind.RulesSeater
	}{{"in-process", nil, nil}, {"worker", long.Seat, long}} {
		sameLogs(t, where.name, modBattleLogs(t, g, luabind.ReplayedSeater(where.seat, events), where.rs, nil), recorded)
	}
}

// TestModBackstopReplays: a rule mod player that takes its worker down
// through each test hook has every fault recorded as a backstop event of
// its team, with its round and batch; a re-run handed the events, in this
// process or behind the wall, plays every round as recorded.
func TestModBackstopReplays(t *testing.T) {
	short := testPool(t, Options{Size: 2, MemoryMiB: 256, CallTimeout: 700 * time.Millisecond, PerInstruction: time.Nanosecond})
	long := testPool(t, Options{Size: 3, MemoryMiB: 256, CallTimeout: time.Minute})
	for _, c := range testhooks.Cases {
		t.Run(c.Hook, func(t *testing.T) {
			if why := c.SkipReason(AddressSpaceLimited()); why != "" {
				t.Skip(why)
			}
			g := scoringGame(t, modVictim(c.Hook))
			seat := func(to luabind.TeamOptions) (luabind.Seat, error) {
				if to.Index == 1 && c.Kind == engine.BackstopTimeout {
					return short.Seat(to)
				}
				return long.Seat(to)
			}
			recorded := modBattleLogs(t, g, seat, long, nil)
			events := backstopsOf(recorded)
			var got []string
			for _, e := range events {
				got = append(got, fmt.Sprintf("%d:%d:%s", e.Round, e.Team, e.Kind))
				if e.Batch != 0 || e.Settle {
					t.Errorf("event %+v: the scoring game asks every team in one batch", e)
				}
			}
			if want := []string{"3:1:" + c.Kind.String(), "7:1:" + c.Kind.String()}; !reflect.DeepEqual(got, want) {
				t.Fatalf("recorded events %v, want %v", got, want)
			}
			replaysBothWays(t, g, long, events, recorded)
		})
	}
}

// TestKilledModWorkerReplays: kill -9 of the worker playing a rule mod's
// team in the middle of a battle is survived and recorded as a crash of
// that team; a re-run handed it plays every round as recorded.
func TestKilledModWorkerReplays(t *testing.T) {
	long := testPool(t, Options{Size: 3, MemoryMiB: 256, CallTimeout: time.Minute})
	g := scoringGame(t, modVictim(""))
	recorded := modBattleLogs(t, g, long.Seat, long, func(round int, b *luabind.ModBattle) {
		if round != 5 {
			return
		}
		if err := syscall.Kill(b.Seats[1].(*Seat).w.cmd.Process.Pid, syscall.SIGKILL); err != nil {
			t.Fatal(err)
		}
	})
	events := backstopsOf(recorded)
	if len(events) != 1 || events[0].Team != 1 || events[0].Kind != engine.BackstopCrash || events[0].Round != 6 {
		t.Fatalf("recorded events %+v, want team 1's crash in round 6", events)
	}
	t.Logf("recorded: %s", events[0].Message)
	replaysBothWays(t, g, long, events, recorded)
}
