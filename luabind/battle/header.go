package battle

import (
	"encoding/json"
	"path"
	"runtime/debug"

	"github.com/squarebattle/squarebattle/config"
	"github.com/squarebattle/squarebattle/engine"
	"github.com/squarebattle/squarebattle/engine/replay"
	"github.com/squarebattle/squarebattle/luabind"
)

// RulesConfig is the part of the configuration that decides a battle; a
// replay keeps it so that --verify plays under the same rules.
type RulesConfig struct {
	Arena  config.Arena  `json:"arena"`
	Rules  config.Rules  `json:"rules"`
	Limits config.Limits `json:"limits"`
	// Options are a rule mod's configured options (none in SquareBattle).
	Options map[string]string `json:"options,omitempty"`
}

// Header describes a battle about to be played, for its replay.
func Header(cfg config.Config, cat *luabind.Catalog, b *luabind.Battle) replay.Header {
	o := b.Options()
	h := newHeader(cfg, cat, o.Size, o.Wrap, o.Rounds, o.Seed, func(rc *RulesConfig) { rc.Rules.ReplicateRounds = o.ReplicateRounds })
	h.FromMap = o.Map != nil
	addBotClasses(&h, o.Classes, b.Seats)
	for i, t := range o.Teams {
		h.Players = append(h.Players, replay.Player{Team: i, Class: int(t.Player.Class), Name: t.Player.Name, Victory: t.Player.Victory, Defeat: t.Player.Defeat})
	}
	return h
}

// ModHeader describes a rule mod battle about to be played, for its
// replay: the game's folder name, and its players as fielded (o as given
// to luabind.NewModBattle).
//
// classes are the battle's classes (the catalog's, then the bots' own) and
// seats its teams' seats, which name the bots' files.
func ModHeader(cfg config.Config, name string, g *luabind.Game, players []*luabind.Class, o engine.ModOptions, classes []string, seats []luabind.Seat) replay.Header {
	h := newHeader(cfg, g.Catalog, o.Size, o.Wrap, o.Rounds, o.Seed, func(rc *RulesConfig) { rc.Options = g.OptionsSet() })
	h.Game, h.Columns = name, g.Info.Columns
	addBotClasses(&h, classes, seats)
	for i, p := range players {
		class := int(g.Catalog.ClassID(p))
		if g.Catalog.Class(engine.ClassID(class)) != p { // a bot's own class
			for j, id := range classes {
				if id == p.ID {
					class = j
				}
			}
		}
		h.Players = append(h.Players, replay.Player{Team: i, Class: class, Name: p.DisplayName(), Victory: p.Victory, Defeat: p.Defeat})
	}
	return h
}

// newHeader is the part of a replay header every game shares: the rules
// configuration as played (edit adjusts it further) and the scripts.
func newHeader(cfg config.Config, cat *luabind.Catalog, size int, wrap bool, rounds int, seed uint64, edit func(*RulesConfig)) replay.Header {
	rc := RulesConfig{Arena: cfg.Arena, Rules: cfg.Rules, Limits: cfg.Limits}
	rc.Arena.Size, rc.Arena.Wrap, rc.Rules.Rounds = size, wrap, rounds
	rc.Rules.TimeLimit = 0 // wall-clock; a re-run has none
	if edit != nil {
		edit(&rc)
	}
	raw, _ := json.Marshal(rc)
	h := replay.Header{
		Program: "squarebattle " + ProgramVersion(),
		Seed:    seed,
		Size:    size,
		Wrap:    wrap,
		Rounds:  rounds,
		Config:  raw,
	}
	for i, id := range cat.Classes() {
		cls := cat.Class(engine.ClassID(i))
		h.Classes = append(h.Classes, replay.Class{ID: id, File: cls.File, SHA256: cls.Hash})
	}
	return h
}

// ProgramVersion is the module version the binary was built from, with the
// commit when the build knows it.
func ProgramVersion() string {
	info, ok := debug.ReadBuildInfo()
	if !ok {
		return "unknown"
	}
	v := info.Main.Version
	for _, s := range info.Settings {
		if s.Key == "vcs.revision" && len(s.Value) >= 12 {
			v += " " + s.Value[:12]
		}
	}
	return v
}

// Stepper is a battle as PlayRecorded and verify drive it: SquareBattle's
// or a rule mod's.
type Stepper interface {
	Step() bool
	Over() bool
	Snapshot() *engine.Snapshot
}

// PlayRecorded plays b to its end, writing every round to w, and returns
// the final snapshot.
func PlayRecorded(b *luabind.Battle, w *replay.Writer) (*engine.Snapshot, error) {
	return Record(b, engine.NewRecorder(b.Battle), w, nil)
}

// Record plays b to its end, writing every round that rec records
// to w, and returns the final snapshot. failed, when not nil, reports a
// failure that ended the battle (a rule mod's rules).
func Record(b Stepper, rec *engine.Recorder, w *replay.Writer, failed func() error) (*engine.Snapshot, error) {
	for b.Step() {
		l := rec.Next()
		if err := w.Round(&l); err != nil {
			return nil, err
		}
	}
	final := b.Snapshot()
	reason := replay.EndReason(final)
	if failed != nil && failed() != nil {
		reason = "rules failed"
	}
	return final, w.End(final, reason)
}

// RulesOf names a squarebattle-protocol game's rules.lua for a replay.
func RulesOf(g *luabind.Game) *replay.Rules {
	cls := g.Catalog.Class(g.Rules)
	return &replay.Rules{Game: path.Base(g.Dir), File: cls.File, SHA256: cls.Hash}
}
