package main

import (
	"encoding/json"
	"runtime/debug"

	"github.com/squarebattle/squarebattle/config"
	"github.com/squarebattle/squarebattle/engine"
	"github.com/squarebattle/squarebattle/engine/replay"
	"github.com/squarebattle/squarebattle/luabind"
)

// rulesConfig is the part of the configuration that decides a battle; a
// replay keeps it so that --verify plays under the same rules.
type rulesConfig struct {
	Arena  config.Arena  `json:"arena"`
	Rules  config.Rules  `json:"rules"`
	Limits config.Limits `json:"limits"`
}

// replayHeader describes a battle about to be played, for its replay.
func replayHeader(cfg config.Config, cat *luabind.Catalog, b *luabind.Battle) replay.Header {
	o := b.Options()
	rc := rulesConfig{Arena: cfg.Arena, Rules: cfg.Rules, Limits: cfg.Limits}
	rc.Arena.Size, rc.Arena.Wrap = o.Size, o.Wrap
	rc.Rules.Rounds, rc.Rules.ReplicateRounds = o.Rounds, o.ReplicateRounds
	rc.Rules.TimeLimit = 0 // wall-clock; a re-run has none
	raw, _ := json.Marshal(rc)
	h := replay.Header{
		Program: "squarebattle " + programVersion(),
		Seed:    o.Seed,
		Size:    o.Size,
		Wrap:    o.Wrap,
		Rounds:  o.Rounds,
		Config:  raw,
		FromMap: o.Map != nil,
	}
	for i, id := range cat.Classes() {
		cls := cat.Class(engine.ClassID(i))
		h.Classes = append(h.Classes, replay.Class{ID: id, File: cls.File, SHA256: cls.Hash})
	}
	for i, t := range o.Teams {
		h.Players = append(h.Players, replay.Player{Team: i, Class: int(t.Player.Class), Name: t.Player.Name, Victory: t.Player.Victory, Defeat: t.Player.Defeat})
	}
	return h
}

// programVersion is the module version the binary was built from, with the
// commit when the build knows it.
func programVersion() string {
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

// playRecorded plays b to its end, writing every round to w, and returns
// the final snapshot.
func playRecorded(b *luabind.Battle, w *replay.Writer) (*engine.Snapshot, error) {
	rec := engine.NewRecorder(b.Battle)
	for b.Step() {
		l := rec.Next()
		if err := w.Round(&l); err != nil {
			return nil, err
		}
	}
	final := b.Snapshot()
	return final, w.End(final, replay.EndReason(final))
}
