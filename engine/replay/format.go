// Package replay reads and writes SquareBattle replay files.
//
// A replay is a text file of JSON lines, gzip-compressed (a reader also
// accepts it uncompressed). Line 1 is the header: format version, program
// version, seed, the effective rules configuration, every script class with
// the SHA-256 of its source, the players, and the arena before round 1.
// Then one line per round holds only what changed, plus the round's events
// (births, deaths with their killer, lost turns, script problems). The last
// line is the result. docs/replay-format.md describes every field.
//
// Because each round is a line and gzip is a stream, a file cut short or
// damaged in the middle still plays up to the last whole line before the
// damage; Read reports where the damage is.
package replay

import (
	"encoding/json"
	"errors"
	"fmt"
	"math"

	"github.com/squarebattle/squarebattle/engine"
)

// Version is the format version this package writes. Readers refuse newer
// versions instead of misreading them.
const Version = 1

// Header is the first line of a replay: everything needed to show the
// battle and to play it again.
type Header struct {
	Replay  int    `json:"squarebattle_replay"` // format version
	Program string `json:"program"`             // the program that wrote it, with its version
	// Game is the rule mod played, as a folder of the scripts folder
	// (empty: SquareBattle).
	Game   string `json:"game,omitempty"`
	Seed   uint64 `json:"seed"`
	Size   int    `json:"size"`
	Wrap   bool   `json:"wrap"`
	Rounds int    `json:"rounds"` // round limit
	// Config is the effective rules configuration (arena, rules, limits)
	// as the writing program names it; a re-run starts from it.
	Config  json.RawMessage `json:"config,omitempty"`
	Classes []Class         `json:"classes"`
	Players []Player        `json:"players"`
	// Columns are a rule mod's score columns; the first decides.
	Columns []string `json:"columns,omitempty"`
	// Rules, for a SquareBattle battle played under rules written in Lua
	// (a game of the squarebattle protocol), names that game and its
	// rules.lua; nil under the built-in rules.
	Rules *Rules `json:"rules,omitempty"`
	// FromMap is true when the starting squares came from a map file rather
	// than the seeded placement; a re-run then starts from Start.
	FromMap bool `json:"from_map,omitempty"`
	// Start is the arena before round 1, run-length encoded as pairs of
	// (team, count) in cell order (row 0, the bottom row, first; -1 empty).
	Start []int32 `json:"start"`
	// A rule mod's board before round 1: the marks, run-length encoded as
	// pairs of (mark, count), and every team's score columns.
	StartMarks  []int32 `json:"start_marks,omitempty"`
	StartValues [][]int `json:"start_values,omitempty"`
	// Withheld are the teams whose print log and problem messages this
	// copy leaves out (Withhold), ascending; none in a replay as recorded.
	Withheld []int `json:"withheld,omitempty"`
}

// Class is one script class of the battle; its index is its engine.ClassID.
type Class struct {
	ID     string `json:"id"`
	File   string `json:"file"`
	SHA256 string `json:"sha256"`
}

// Rules names the rules.lua a SquareBattle battle was played under.
type Rules struct {
	Game   string `json:"game"` // the folder of the scripts folder
	File   string `json:"file"`
	SHA256 string `json:"sha256"`
}

// Player is one team's starting player.
type Player struct {
	Team    int    `json:"team"`
	Class   int    `json:"class"` // index into Classes
	Name    string `json:"name"`
	Victory string `json:"victory,omitempty"`
	Defeat  string `json:"defeat,omitempty"`
	// Outside names who decided for a team decided outside the battle
	// (engine.OutsideBot, engine.OutsideHuman); left out for a team of
	// scripts. Its decisions are on the round lines (a).
	Outside string `json:"outside,omitempty"`
}

// round is one round line. Numbers are packed in flat arrays to keep lines
// short: c holds (gap, team) pairs where gap is the distance in cells from
// the previous change (the first from cell 0); b holds (team, cell, class)
// triples; d (team, cell, killer, kind) quadruples; f (team, timeouts,
// errors) triples. A rule mod's rounds add m, (gap, mark) pairs like c,
// and v, rows of (team, value of each column). w, rare, holds the
// round's backstop events; a, the decisions of teams decided outside the
// battle (bots, people), only in battles that have such teams.
type round struct {
	R int        `json:"r"`
	C []int32    `json:"c,omitempty"`
	B []int      `json:"b,omitempty"`
	D []int      `json:"d,omitempty"`
	F []int      `json:"f,omitempty"`
	P []problem  `json:"p,omitempty"`
	M []int32    `json:"m,omitempty"`
	V []int      `json:"v,omitempty"`
	W []backstop `json:"w,omitempty"`
	L []printed  `json:"l,omitempty"`
	A []answered `json:"a,omitempty"`
}

// printed is what one team printed in a round (engine.TeamLines): its
// lines, and how many more it printed than the bounds let the file keep.
type printed struct {
	Team  int      `json:"t"`
	Lines []string `json:"l,omitempty"`
	Cut   int      `json:"x,omitempty"`
}

// backstop is a backstop event (engine.Backstop): the wall around a
// team's scripts stopped or lost it. Written with words, not numbers: the
// field is rare and read by people.
type backstop struct {
	Team  int    `json:"team"`
	Phase string `json:"phase"` // "turn" or "settle"
	// Batch is a rule mod's batch of the round's calls; left out when 0.
	Batch   int    `json:"batch,omitempty"`
	Class   int    `json:"class"`
	Kind    string `json:"kind"` // "timeout", "crash" or "retired"
	Message string `json:"msg"`
}

type problem struct {
	Team    int    `json:"team"`
	Class   int    `json:"class"`
	Square  int    `json:"square"`
	Kind    int    `json:"kind"` // 1 timeout, 2 error
	Message string `json:"msg"`
}

// Result is the last line: how the battle ended.
type Result struct {
	Round  int    `json:"round"`
	Winner int    `json:"winner"` // team, or -1 for none
	Reason string `json:"reason"` // why it ended, for people
	// Stats are every team's final totals, in team order, as
	// [squares, births, kills, deaths, collisions, timeouts, errors]; a
	// reader checks them against the totals the events add up to.
	Stats [][7]int `json:"stats"`
	// Values are a rule mod's final score columns, in team order.
	Values [][]int `json:"values,omitempty"`
}

type resultLine struct {
	Result *Result `json:"result"`
}

// ErrCorrupt is wrapped by every error about a damaged or unreadable replay.
var ErrCorrupt = errors.New("corrupt replay")

// ErrVersion is wrapped when a replay was written by a newer format.
var ErrVersion = errors.New("unsupported replay version")

// FormatError points at the line of a replay that is wrong. Line 0 means the
// file as a whole.
type FormatError struct {
	File   string
	Line   int
	Reason string
	Err    error // ErrCorrupt or ErrVersion, possibly wrapping the cause
}

func (e *FormatError) Error() string {
	if e.Line > 0 {
		return fmt.Sprintf("%s: line %d: %s", e.File, e.Line, e.Reason)
	}
	return fmt.Sprintf("%s: %s", e.File, e.Reason)
}

func (e *FormatError) Unwrap() error { return e.Err }

// encodeCells run-length encodes a board as (team, count) pairs.
func encodeCells(cells []int32) []int32 {
	var out []int32
	for i := 0; i < len(cells); {
		j := i
		for j < len(cells) && cells[j] == cells[i] {
			j++
		}
		out = append(out, cells[i], int32(j-i))
		i = j
	}
	return out
}

// decodeCells unpacks a run-length encoded board of n cells that
// Header.check accepted.
func decodeCells(rle []int32, n int) []int32 {
	cells := make([]int32, 0, n)
	for i := 0; i < len(rle); i += 2 {
		for k := int32(0); k < rle[i+1]; k++ {
			cells = append(cells, rle[i])
		}
	}
	return cells
}

// encodeRound packs a round log into its line.
func encodeRound(l *engine.RoundLog) round {
	out := round{R: l.Round}
	prev := int32(0)
	for _, c := range l.Changes {
		out.C = append(out.C, c.Cell-prev, c.Team)
		prev = c.Cell
	}
	for _, x := range l.Births {
		out.B = append(out.B, x.Team, x.Cell, int(x.Class))
	}
	for _, x := range l.Deaths {
		out.D = append(out.D, x.Team, x.Cell, x.Killer, int(x.Kind))
	}
	for _, x := range l.Faults {
		out.F = append(out.F, x.Team, x.Timeouts, x.Errors)
	}
	for _, p := range l.Problems {
		out.P = append(out.P, problem{Team: p.Team, Class: int(p.Class), Square: int(p.Square), Kind: int(p.Kind), Message: p.Message})
	}
	prev = 0
	for _, c := range l.Marks {
		out.M = append(out.M, c.Cell-prev, int32(c.Mark))
		prev = c.Cell
	}
	for _, v := range l.Values {
		out.V = append(out.V, v.Team)
		out.V = append(out.V, v.Values...)
	}
	for _, e := range l.Backstops {
		phase := "turn"
		if e.Settle {
			phase = "settle"
		}
		out.W = append(out.W, backstop{Team: e.Team, Phase: phase, Batch: e.Batch, Class: int(e.Class), Kind: e.Kind.String(), Message: e.Message})
	}
	for _, p := range l.Printed {
		out.L = append(out.L, printed{Team: p.Team, Lines: p.Lines, Cut: p.Cut})
	}
	out.A = encodeAnswers(l.Answers)
	return out
}

// decodePrinted checks and unpacks a round's printed lines: teams in range
// and ascending, at most engine.MaxRoundLines lines a team, each at most
// engine.MaxPrintedBytes once escaped for a terminal.
func decodePrinted(ps []printed, teams int) ([]engine.TeamLines, error) {
	var out []engine.TeamLines
	for i, p := range ps {
		if p.Team < 0 || p.Team >= teams || (i > 0 && p.Team <= ps[i-1].Team) {
			return nil, fmt.Errorf("printed lines of team %d: no such team, or out of order", p.Team)
		}
		if len(p.Lines) > engine.MaxRoundLines || p.Cut < 0 || p.Cut > 1<<40 {
			return nil, fmt.Errorf("team %d printed %d lines (%d cut) in a round; a replay keeps at most %d", p.Team, len(p.Lines), p.Cut, engine.MaxRoundLines)
		}
		tl := engine.TeamLines{Team: p.Team, Cut: p.Cut}
		for _, line := range p.Lines {
			line = engine.SafeLine(line)
			if len(line) > engine.MaxPrintedBytes {
				return nil, fmt.Errorf("team %d printed a line of %d bytes; a replay keeps at most %d", p.Team, len(line), engine.MaxPrintedBytes)
			}
			tl.Lines = append(tl.Lines, line)
		}
		out = append(out, tl)
	}
	return out, nil
}

// gaps unpacks (gap, value) pairs into ascending cells.
func gaps(packed []int32, each func(cell, v int32)) error {
	if len(packed)%2 != 0 {
		return errors.New("a packed array has the wrong length")
	}
	cell := int32(0)
	for i := 0; i < len(packed); i += 2 {
		if i > 0 && packed[i] <= 0 {
			return errors.New("cell changes out of order")
		}
		cell += packed[i]
		each(cell, packed[i+1])
	}
	return nil
}

// decodeRound unpacks a round line of a game with cols score columns and
// the given number of teams (mod: a rule mod's). Values are range-checked
// later by engine.Timeline.Add; here only the shape is.
func decodeRound(r *round, cols, teams int, mod bool) (engine.RoundLog, error) {
	l := engine.RoundLog{Round: r.R}
	if len(r.B)%3 != 0 || len(r.D)%4 != 0 || len(r.F)%3 != 0 || len(r.V)%(cols+1) != 0 {
		return l, errors.New("a packed array has the wrong length")
	}
	var err error
	if l.Backstops, err = decodeBackstops(r.R, r.W, teams, mod); err != nil {
		return l, err
	}
	if l.Printed, err = decodePrinted(r.L, teams); err != nil {
		return l, err
	}
	if l.Answers, err = decodeAnswers(r.R, r.A, teams); err != nil {
		return l, err
	}
	// Each list is made once, at the size the line's own numbers give.
	l.Changes, l.Marks, l.Values = sized[engine.CellChange](len(r.C)/2), sized[engine.MarkChange](len(r.M)/2), sized[engine.TeamValues](len(r.V)/(cols+1))
	l.Births, l.Deaths, l.Faults = sized[engine.BirthEvent](len(r.B)/3), sized[engine.DeathEvent](len(r.D)/4), sized[engine.FaultEvent](len(r.F)/3)
	l.Problems = sized[engine.Problem](len(r.P))
	if err := gaps(r.C, func(cell, team int32) {
		l.Changes = append(l.Changes, engine.CellChange{Cell: cell, Team: team})
	}); err != nil {
		return l, err
	}
	var bad error
	if err := gaps(r.M, func(cell, m int32) {
		if m < 0 || m > 0xffff {
			bad = fmt.Errorf("mark %d is out of range", m)
		}
		l.Marks = append(l.Marks, engine.MarkChange{Cell: cell, Mark: engine.Mark(m)})
	}); err != nil || bad != nil {
		return l, errors.Join(err, bad)
	}
	for i := 0; i < len(r.V); i += cols + 1 {
		l.Values = append(l.Values, engine.TeamValues{Team: r.V[i], Values: append([]int(nil), r.V[i+1:i+1+cols]...)})
	}
	for i := 0; i < len(r.B); i += 3 {
		l.Births = append(l.Births, engine.BirthEvent{Team: r.B[i], Cell: r.B[i+1], Class: engine.ClassID(r.B[i+2])})
	}
	for i := 0; i < len(r.D); i += 4 {
		kind := r.D[i+3]
		if kind < 0 || kind > int(engine.DiedOwnCollision) {
			return l, fmt.Errorf("unknown death kind %d", kind)
		}
		l.Deaths = append(l.Deaths, engine.DeathEvent{Team: r.D[i], Cell: r.D[i+1], Killer: r.D[i+2], Kind: engine.DeathKind(kind)})
	}
	for i := 0; i < len(r.F); i += 3 {
		l.Faults = append(l.Faults, engine.FaultEvent{Team: r.F[i], Timeouts: r.F[i+1], Errors: r.F[i+2]})
	}
	for _, p := range r.P {
		l.Problems = append(l.Problems, engine.Problem{Round: r.R, Team: p.Team, Class: engine.ClassID(p.Class),
			Square: engine.SquareID(p.Square), Kind: engine.Fault(p.Kind), Message: p.Message})
	}
	return l, nil
}

// sized is an empty list with room for n, or nil for none (a round
// without events has nil lists, as the engine's).
func sized[T any](n int) []T {
	if n == 0 {
		return nil
	}
	return make([]T, 0, n)
}

// backstopKinds are the kinds of backstop event by their names in a file.
var backstopKinds = map[string]engine.BackstopKind{}

func init() {
	for k := engine.BackstopTimeout; k.Valid(); k++ {
		backstopKinds[k.String()] = k
	}
}

// decodeBackstops unpacks a round's backstop events. The timeline checks
// them against the battle; here they are bounded first, so that a line
// full of them is refused before it is kept: a SquareBattle battle has at
// most MaxBackstopsPerReport per team in each of a round's two phases, a
// rule mod at most MaxModBackstopsPerRound per team in a round.
func decodeBackstops(round int, w []backstop, teams int, mod bool) ([]engine.Backstop, error) {
	if len(w) == 0 {
		return nil, nil
	}
	most := 2 * engine.MaxBackstopsPerReport * teams
	if mod {
		most = engine.MaxModBackstopsPerRound * teams
	}
	if len(w) > most {
		return nil, fmt.Errorf("%d backstop events for %d teams", len(w), teams)
	}
	out := make([]engine.Backstop, 0, len(w))
	for _, x := range w {
		kind, ok := backstopKinds[x.Kind]
		if !ok {
			return nil, fmt.Errorf("unknown backstop event %q", engine.SafeText(clip(x.Kind)))
		}
		if x.Phase != "turn" && x.Phase != "settle" {
			return nil, fmt.Errorf("unknown backstop phase %q", engine.SafeText(clip(x.Phase)))
		}
		if x.Class < int(engine.NoClass) || x.Class > math.MaxInt32 {
			return nil, fmt.Errorf("backstop class %d is out of range", x.Class)
		}
		if x.Batch < 0 || x.Batch > math.MaxInt32 {
			return nil, fmt.Errorf("backstop batch %d is out of range", x.Batch)
		}
		if len(x.Message) > engine.MaxBackstopText {
			return nil, fmt.Errorf("a backstop message of %d bytes (at most %d)", len(x.Message), engine.MaxBackstopText)
		}
		out = append(out, engine.Backstop{Round: round, Team: x.Team, Settle: x.Phase == "settle", Batch: x.Batch, Kind: kind,
			Class: engine.ClassID(x.Class), Message: engine.SafeText(x.Message)})
	}
	return out, nil
}

// clip shortens a word quoted in an error.
func clip(s string) string {
	if len(s) > 16 {
		return s[:16] + "…"
	}
	return s
}

func statsRow(s engine.Stats) [7]int {
	return [7]int{s.Squares, s.Births, s.Kills, s.Deaths, s.Collisions, s.Timeouts, s.Errors}
}

// EndReason says why a finished battle ended, for the result line. A
// battle ended by the interactive time limit gives its own reason, and a
// rule mod whose rules failed "rules failed".
func EndReason(s *engine.Snapshot) string {
	if s.Marks != nil { // a rule mod: its rules end it, or the round limit
		if s.Round >= s.Rounds {
			return "round limit"
		}
		return "game over"
	}
	alive := 0
	for _, t := range s.Teams {
		if t.Stats.Squares > 0 {
			alive++
		}
	}
	switch {
	case alive == 0:
		return "no team left"
	case alive == 1 && len(s.Teams) > 1:
		return "one team left"
	case s.Round >= s.Rounds:
		return "round limit"
	}
	return "stopped early"
}
