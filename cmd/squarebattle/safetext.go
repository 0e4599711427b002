package main

import (
	"github.com/squarebattle/squarebattle/engine"
	"github.com/squarebattle/squarebattle/engine/tournament"
)

// Script-supplied text (names, speeches, problems, printed lines, a rule
// mod's titles) is made safe to print where it is read: luabind escapes it
// when a script hands it over, the replay reader when a file is opened.
// The commands escape it once more where they print it, as a last line of
// defence: results files can be merged from anywhere, and whatever reaches
// a terminal through a path nobody thought of should still only show
// itself. engine.SafeText leaves safe text unchanged, so honest output is
// never altered.
//
// JSON output carries the same escaped text: encoding/json would escape C0
// controls itself but passes C1 controls, DEL and bidi overrides through,
// and a consumer printing a decoded field (jq -r) would hand raw ESC to its
// terminal. So a name is the same string in every output format.

var safe = engine.SafeText

// safeStandings returns a copy of s whose text is safe to print.
func safeStandings(s *tournament.Standings) *tournament.Standings {
	out := *s
	out.Params.Game = safe(s.Params.Game)
	out.Params.Columns = safeAll(s.Params.Columns)
	out.Params.Players = make([]tournament.Player, len(s.Params.Players))
	for i, p := range s.Params.Players {
		out.Params.Players[i] = tournament.Player{ID: safe(p.ID), Name: safe(p.Name)}
	}
	out.Players = make([]tournament.Standing, len(s.Players))
	for i, p := range s.Players {
		p.Player = tournament.Player{ID: safe(p.Player.ID), Name: safe(p.Player.Name)}
		p.Label, p.Problem = safe(p.Label), safe(p.Problem)
		out.Players[i] = p
	}
	out.Failures = make([]tournament.Result, len(s.Failures))
	for i, f := range s.Failures {
		f.Error = safe(f.Error)
		out.Failures[i] = f
	}
	if s.Failures == nil {
		out.Failures = nil
	}
	return &out
}

func safeAll(list []string) []string {
	if list == nil {
		return nil
	}
	out := make([]string, len(list))
	for i, s := range list {
		out[i] = safe(s)
	}
	return out
}
