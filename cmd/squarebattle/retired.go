package main

import (
	"fmt"
	"io"

	"github.com/squarebattle/squarebattle/engine"
)

// What a bot's author (or a Lua player's) reads when the engine stopped
// asking a team: when and why it was retired, and for a bot, whose log is
// what it wrote to standard error, the last lines it wrote there (a crash
// usually says why on its way out).

// retiredJSON is a retired team in --json output: the round and the
// retirement's message.
type retiredJSON struct {
	Round  int    `json:"round"`
	Reason string `json:"reason"`
}

// retiredOf is t's retirement for --json, nil while it plays.
func retiredOf(t engine.TeamView) *retiredJSON {
	if t.Retired.Round == 0 {
		return nil
	}
	return &retiredJSON{Round: t.Retired.Round, Reason: safe(t.Retired.Reason)}
}

// stderrLines is how many of a retired bot's last lines on standard error
// the text output shows (--json's log has more).
const stderrLines = 8

// writeRetired prints a line for each retired team of s, when and why,
// and under a bot's the last lines it wrote to standard error (logs[t],
// its log). Nothing when no team was retired.
func writeRetired(w io.Writer, s *engine.Snapshot, logs [][]string) {
	for _, t := range s.Teams {
		if t.Retired.Round == 0 {
			continue
		}
		fmt.Fprintf(w, "team %d %s%s, round %d: %s\n", t.Team, safe(t.Player.Name), outsideMark(t.Player), t.Retired.Round, safe(t.Retired.Reason))
		if t.Player.Outside != engine.OutsideBot || t.Team >= len(logs) {
			continue
		}
		log := logs[t.Team]
		if len(log) == 0 {
			fmt.Fprintln(w, "  (it wrote nothing to standard error)")
			continue
		}
		fmt.Fprintf(w, "  the last lines it wrote to standard error:\n")
		for _, l := range log[max(0, len(log)-stderrLines):] {
			fmt.Fprintf(w, "    %s\n", engine.SafeLine(l))
		}
	}
}

// outsideMark is " (bot)" for a bot's team, as the standings mark it.
func outsideMark(p engine.Player) string {
	if p.Outside == engine.OutsideBot {
		return " (bot)"
	}
	return ""
}
