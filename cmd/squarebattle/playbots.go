package main

import (
	"errors"
	"strings"

	"github.com/squarebattle/squarebattle/config"
	"github.com/squarebattle/squarebattle/engine/bot"
	"github.com/squarebattle/squarebattle/engine/replay"
	"github.com/squarebattle/squarebattle/luabind"
	"github.com/squarebattle/squarebattle/luabind/battle"
	"github.com/squarebattle/squarebattle/tui"
)

// Bots in the terminal UI: the lobby lists the .bot files of the scripts
// folder (a game's folder, for that game) and the --bot flags of play
// beside the Lua players, and a battle fields a bot as run does
// (battle.FieldBots): started and greeted when the battle starts, told
// how it ended and stopped when the battle is closed. A bot's log tab
// holds what it writes to standard error.

// botSpecs are the bots a battle of game ("" SquareBattle, or a rule mod
// of SquareBattle's protocol, whose players are SquareBattle's) may field:
// the .bot files of its folder, read again each time (a .bot file added
// while the lobby is open is listed), then play's --bot flags.
func (p *playSource) botSpecs(game string) []*bot.Spec {
	specs, _ := p.scriptBots(game)
	return append(specs, p.flagBots...)
}

// scriptBots reads the .bot files of game's folder: those that parse and
// why the others do not.
func (p *playSource) scriptBots(game string) ([]*bot.Spec, []error) {
	fsys, dir, err := scriptsFS(p.cfg)
	if err == nil && game != "" && !p.squareBattleRules(game) {
		fsys, dir, err = battle.GameIn(fsys, dir, game)
	}
	if err != nil {
		return nil, nil
	}
	return battle.ScriptBots(fsys, dir)
}

// squareBattleRules reports whether game is a rule mod of SquareBattle's
// protocol, whose players are SquareBattle's.
func (p *playSource) squareBattleRules(game string) bool {
	_, g, err := p.game(game)
	return err == nil && g.Info.Protocol == luabind.SquareBattleProtocol
}

// botEntries lists game's bots for the lobby: each by its id, its listed
// name and its file (a --bot flag's command), then the .bot files that do
// not parse, with why.
func (p *playSource) botEntries(game string) []tui.Entry {
	specs, broken := p.scriptBots(game)
	var out []tui.Entry
	for _, s := range append(specs, p.flagBots...) {
		file := s.File
		if file == "--bot" {
			file = "--bot " + strings.Join(s.Command, " ")
		}
		out = append(out, tui.Entry{ID: s.ID, Name: s.DisplayName(), File: file})
	}
	for _, err := range broken {
		file := err.Error()
		var se *bot.SpecError
		if errors.As(err, &se) {
			file = se.File
		}
		id := strings.TrimSuffix(file[strings.LastIndex(file, "/")+1:], ".bot")
		out = append(out, tui.Entry{ID: id, File: file, Problem: err.Error()})
	}
	return out
}

// findSpec is the bot of specs with id, or nil.
func findSpec(specs []*bot.Spec, id string) *bot.Spec {
	for _, s := range specs {
		if s.ID == id {
			return s
		}
	}
	return nil
}

// timing is the clock the bots of a battle under cfg play by.
func (p *playSource) timing(cfg config.Config) bot.Timing {
	return battle.Timing(cfg, p.noTimeout)
}

// Close tells the bots how the battle ended when it did (a battle left
// before its end closes their input only) and closes every seat.
func (b tuiBattle) Close() {
	if b.bots && b.Battle.Over() {
		s := b.Battle.Snapshot()
		battle.FinishBots(b.Seats, s, replay.EndReason(s))
	}
	b.Battle.Close()
}

// Close is tuiBattle's for a rule mod.
func (b tuiModBattle) Close() {
	if b.bots && b.ModBattle.Over() {
		s := b.ModBattle.Snapshot()
		battle.FinishBots(b.Seats, s, replay.EndReason(s))
	}
	b.ModBattle.Close()
}

// Logs are what each team printed (a bot: wrote to standard error), for
// the errors pane's log tabs.
func (b tuiModBattle) Logs() [][]string {
	out := make([][]string, len(b.Seats))
	for i, s := range b.Seats {
		out[i] = s.Log()
	}
	return out
}

// teamIDs are the ids of teams' players, as a tui.Setup names them.
func teamIDs(teams []battle.Team) []string {
	var out []string
	for _, t := range teams {
		if t.Bot != nil {
			out = append(out, t.Bot.ID)
		} else {
			out = append(out, t.Lua.ID)
		}
	}
	return out
}

// roundTripper is a bot's seat: what its last exchange took.
type roundTripper interface{ RoundTrip() bot.RoundTrip }

// roundTrips are the bots' last round trips, nil for the other teams
// (tui.Timed).
func roundTrips(seats []luabind.Seat) []*bot.RoundTrip {
	var out []*bot.RoundTrip
	for i, s := range seats {
		if r, ok := s.(roundTripper); ok {
			if out == nil {
				out = make([]*bot.RoundTrip, len(seats))
			}
			t := r.RoundTrip()
			out[i] = &t
		}
	}
	return out
}

func (b tuiBattle) RoundTrips() []*bot.RoundTrip    { return roundTrips(b.Seats) }
func (b tuiModBattle) RoundTrips() []*bot.RoundTrip { return roundTrips(b.Seats) }
