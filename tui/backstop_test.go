package tui

import (
	"strings"
	"testing"

	"github.com/gdamore/tcell/v2"

	"github.com/squarebattle/squarebattle/engine"
	"github.com/squarebattle/squarebattle/engine/replay"
)

// killedInRound2 waits; in round 2 its worker process dies (a backstop
// event, as luabind/worker reports one).
type killedInRound2 struct{}

func (killedInRound2) Turn(t *engine.Turn) {
	if t.Facts.Round == 2 {
		t.Report.Backstops = append(t.Report.Backstops, engine.Backstop{Kind: engine.BackstopCrash, Class: 0,
			Message: "scripts/w.lua: the team's worker process died: signal: killed"})
	}
}
func (killedInRound2) Settle(*engine.Settlement) {}

// TestReplayShowsBackstops: a backstop event in a replay reaches the
// viewer's problem list like any script problem.
func TestReplayShowsBackstops(t *testing.T) {
	o := engine.Options{Size: 6, Wrap: true, Rounds: 5, ReplicateRounds: 3, Seed: 1, Classes: []string{"w"},
		Teams: []engine.TeamSetup{{Player: engine.Player{Name: "A"}, Controller: killedInRound2{}}, {Player: engine.Player{Name: "B"}, Controller: killedInRound2{}}}}
	b, err := engine.NewBattle(o)
	if err != nil {
		t.Fatal(err)
	}
	h := replay.Header{Program: "test", Classes: []replay.Class{{ID: "w", File: "scripts/w.lua", SHA256: "00"}},
		Players: []replay.Player{{Team: 0, Name: "A"}, {Team: 1, Name: "B"}}}
	name := writeBattle(t, engineBattle{b, h})
	s := open(t, 160, 30, "", Options{Replay: openReplay(t, name), ReplayFile: name, Paused: true})
	s.waitText("Round 0/5")
	s.key(tcell.KeyEnd)
	s.waitText("script problems (2 errors): e")
	s.keys("e")
	text := s.waitText("First problem")
	if strings.Count(text, "worker process died: signal: killed") < 2 || !strings.Contains(text, "round 2") {
		t.Errorf("the problem list does not show both teams' backstop events:\n%s", text)
	}
}

// engineBattle is an engine battle as the TUI drives one.
type engineBattle struct {
	*engine.Battle
	h replay.Header
}

func (b engineBattle) Recorder() *engine.Recorder { return engine.NewRecorder(b.Battle) }
func (b engineBattle) Header() replay.Header      { return b.h }
