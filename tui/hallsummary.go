package tui

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"encoding/json"
	"errors"
	"io"
	"os"

	"github.com/squarebattle/squarebattle/engine"
)

// A replay's summary: what a list of replays shows of a battle (its game,
// players, winner and rounds) without reading the replay, whose result is
// its last line, at the end of a gzip stream. The hall writes one beside
// each replay it saves (NAME.sbr.json); for a replay without one,
// ReadReplaySummary reads the replay's header line only, which has all of
// it but the result.

// ReplaySummary describes a saved battle.
type ReplaySummary struct {
	Game    string   `json:"game,omitempty"` // the rule mod played; "" SquareBattle
	Players []string `json:"players"`        // the teams' display names, in team order
	// Winner is the winning team's display name; "" a tie, a battle
	// stopped early, or (Known false) not known.
	Winner string `json:"winner,omitempty"`
	Round  int    `json:"round"`  // rounds played
	Rounds int    `json:"rounds"` // the round limit
	Over   bool   `json:"over"`   // it ended (else it was stopped)
	Owner  string `json:"owner,omitempty"`
	// Known: the outcome (Winner, Round, Over) is known; false when only
	// the replay's header was read.
	Known bool `json:"-"`
}

// Result says how the battle ended, in a few words: "won by NAME",
// "tie", "stopped at round N", or "?" when not known.
func (s ReplaySummary) Result() string {
	switch {
	case !s.Known:
		return "?"
	case !s.Over:
		return "stopped"
	case s.Winner != "":
		return "won by " + s.Winner
	}
	return "tie"
}

// Bounds on what listing replays reads of each file.
const (
	maxSummaryBytes = 16 << 10  // a summary file (16 teams of 64-byte names fit many times over)
	maxHeaderBytes  = 256 << 10 // a replay's header line, compressed and not
)

// summaryFile is the summary written beside replay file name.
func summaryFile(name string) string { return name + ".json" }

// summaryOf describes a battle from a snapshot of it.
func summaryOf(b *liveBattle, s *engine.Snapshot) ReplaySummary {
	sum := ReplaySummary{Game: b.setup.Game, Round: s.Round, Rounds: s.Rounds, Over: s.Over, Owner: b.ownerName(), Known: true}
	for _, t := range s.Teams {
		sum.Players = append(sum.Players, t.Player.Name)
	}
	if s.Over && s.Winner >= 0 && s.Winner < len(s.Teams) {
		sum.Winner = s.Teams[s.Winner].Player.Name
	}
	return sum
}

// writeSummary writes sum beside b's replay, once, when it has one.
func (h *Hall) writeSummary(b *liveBattle, sum func() ReplaySummary) {
	if b.record == "" {
		return
	}
	b.summarise.Do(func() {
		if _, err := os.Stat(b.record); err != nil {
			return // the replay was not written
		}
		data, err := json.Marshal(sum())
		if err == nil {
			err = writeFileAtomic(summaryFile(b.record), append(data, '\n'))
		}
		if err != nil {
			h.log.Warn("replay summary", "battle", b.id, "err", err)
		}
	})
}

// saveSummary writes the summary of a battle stopped (its driver has
// returned, so its timeline is the hall's to read); one that ended has
// written its own (battleEnded).
func (h *Hall) saveSummary(b *liveBattle) {
	h.writeSummary(b, func() ReplaySummary {
		if b.d.tl == nil {
			return ReplaySummary{}
		}
		return summaryOf(b, b.d.tl.At(b.d.tl.Last()))
	})
}

// ReadReplaySummary describes the replay in file name, reading at most a
// few kilobytes of it: the summary the hall wrote beside it, else the
// replay's header line (at most maxHeaderBytes, compressed and not: its
// outcome is then not Known). Every text is made safe to show.
func ReadReplaySummary(name string) (ReplaySummary, error) {
	sum, err := readSummaryFile(summaryFile(name))
	if err != nil {
		sum, err = readReplayHeader(name)
	}
	if err != nil {
		return ReplaySummary{}, err
	}
	sum.Game, sum.Winner, sum.Owner = engine.SafeText(sum.Game), engine.SafeText(sum.Winner), engine.SafeText(sum.Owner)
	for i, p := range sum.Players {
		sum.Players[i] = engine.SafeText(p)
	}
	return sum, nil
}

func readSummaryFile(name string) (ReplaySummary, error) {
	var sum ReplaySummary
	f, err := os.Open(name)
	if err != nil {
		return sum, err
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, maxSummaryBytes+1))
	switch {
	case err != nil:
		return sum, err
	case len(data) > maxSummaryBytes:
		return sum, errors.New("replay summary too large")
	}
	if err := json.Unmarshal(data, &sum); err != nil {
		return sum, err
	}
	sum.Known = true
	return sum, nil
}

// readReplayHeader reads what a summary holds from a replay's header line.
func readReplayHeader(name string) (ReplaySummary, error) {
	var sum ReplaySummary
	f, err := os.Open(name)
	if err != nil {
		return sum, err
	}
	defer f.Close()
	br := bufio.NewReader(io.LimitReader(f, maxHeaderBytes))
	src := io.Reader(br)
	if magic, _ := br.Peek(2); len(magic) == 2 && magic[0] == 0x1f && magic[1] == 0x8b {
		gz, err := gzip.NewReader(br)
		if err != nil {
			return sum, err
		}
		src = gz
	}
	line, err := bufio.NewReader(io.LimitReader(src, maxHeaderBytes)).ReadBytes('\n')
	if err != nil && !(errors.Is(err, io.EOF) && len(line) > 0) {
		return sum, errors.New("no replay header within the bound")
	}
	var h struct {
		Replay  int    `json:"squarebattle_replay"`
		Game    string `json:"game"`
		Rounds  int    `json:"rounds"`
		Players []struct {
			Name string `json:"name"`
		} `json:"players"`
	}
	if err := json.Unmarshal(bytes.TrimSpace(line), &h); err != nil || h.Replay == 0 {
		return sum, errors.New("not a replay header")
	}
	sum.Game, sum.Rounds = h.Game, h.Rounds
	for _, p := range h.Players {
		sum.Players = append(sum.Players, p.Name)
	}
	return sum, nil
}
