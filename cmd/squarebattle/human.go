package main

import (
	"errors"
	"fmt"
	"time"

	"github.com/squarebattle/squarebattle/config"
	"github.com/squarebattle/squarebattle/engine"
	"github.com/squarebattle/squarebattle/luabind"
	"github.com/squarebattle/squarebattle/tui"
	"github.com/squarebattle/squarebattle/tui/human"
)

// A team played at the keys (play --human, the lobby's Human) is a Lua
// seat like the others, of the autopilot's class, wrapped by the human's
// controller: the controller decides, and asks the seat's Lua only for the
// squares the autopilot flies. The seat says it is outside the battle's
// inputs (luabind.OutsideSeat), so the engine records what the human
// decided and a re-run feeds it back.

// humanName is the name a human's team plays under.
const humanName = "Human"

// humanSeat is a SquareBattle team played at the keys.
type humanSeat struct {
	luabind.Seat
	squad *human.Squad
}

func (h humanSeat) Turn(t *engine.Turn)         { h.squad.Turn(t) }
func (h humanSeat) Settle(s *engine.Settlement) { h.squad.Settle(s) }
func (h humanSeat) Outside() string             { return engine.OutsideHuman }

// humanModSeat is a rule mod team steered at the keys.
type humanModSeat struct {
	luabind.Seat
	steer *human.Steer
}

func (h humanModSeat) Call(t *engine.ModTurn) { h.steer.Call(t) }
func (h humanModSeat) Outside() string        { return engine.OutsideHuman }

// humanIndex is the team of players that a human plays, or -1; more than
// one is an error.
func humanIndex(players []string) (int, error) {
	at := -1
	for i, p := range players {
		if p != tui.HumanPlayer {
			continue
		}
		if at >= 0 {
			return -1, errors.New("one human a battle: one keyboard plays one team")
		}
		at = i
	}
	return at, nil
}

// humanClass is the class a human's team fields: a copy of the autopilot
// class (human.autopilot), else of the catalog's first class, named
// Human. pilot is the autopilot's class, engine.NoClass for none.
func humanClass(cat *luabind.Catalog, cfg config.Config) (cls *luabind.Class, pilot engine.ClassID, err error) {
	ids := cat.Classes()
	if len(ids) == 0 {
		return nil, engine.NoClass, errors.New("no usable class in the scripts folder for the human's team")
	}
	base, pilot := cat.Class(0), engine.NoClass
	if a := cfg.Human.Autopilot; a != "" {
		i := -1
		for j, id := range ids {
			if id == a {
				i = j
			}
		}
		if i < 0 {
			return nil, engine.NoClass, fmt.Errorf("human.autopilot: no usable class %q in the scripts folder", a)
		}
		base, pilot = cat.Class(engine.ClassID(i)), engine.ClassID(i)
	}
	c := *base
	c.Name, c.Victory, c.Defeat = humanName, "Well played.", "Out of squares."
	return &c, pilot, nil
}

// humanSeater seats team at as the human's Squad over seat's seat (the
// autopilot), the other teams as seat does; the squad is set once the
// battle is built.
func humanSeater(seat luabind.Seater, at int, cat *luabind.Catalog, cfg config.Config, pilot engine.ClassID, squad **human.Squad) luabind.Seater {
	if seat == nil {
		seat = luabind.InProcess
	}
	return func(o luabind.TeamOptions) (luabind.Seat, error) {
		s, err := seat(o)
		if err != nil || o.Index != at {
			return s, err
		}
		q := human.NewSquad(human.SquadOptions{Autopilot: s, Classes: human.ClassesOf(cat.Classes()), Pilot: pilot, Idle: time.Duration(cfg.Human.Idle) * time.Second})
		*squad = q
		return humanSeat{Seat: s, squad: q}, nil
	}
}

// tuiHumanBattle is a battle with a team played at the keys.
type tuiHumanBattle struct {
	tuiBattle
	team int
	h    tui.Human
}

func (b tuiHumanBattle) Human() (int, tui.Human) { return b.team, b.h }

// HumanGame says which games a human can play: SquareBattle (with its
// own rules or rules in Lua) and the steered mods of human.Shapes.
func (p *playSource) HumanGame(id string) bool {
	if id == "" {
		return true
	}
	_, g, err := p.game(id)
	if err != nil {
		return false
	}
	if g.Info.Protocol == luabind.SquareBattleProtocol {
		return true
	}
	_, ok := human.Shapes[id]
	return ok
}

// humanModSeater seats team at as the human's Steer, steering the rule
// mod game; its seat (the game's player of the human's class) answers
// while the human has not steered, or is idle, when human.autopilot named
// it, and never otherwise.
func humanModSeater(seat luabind.Seater, at int, game string, cfg config.Config, pilot engine.ClassID, steer **human.Steer) luabind.Seater {
	if seat == nil {
		seat = luabind.InProcess
	}
	return func(o luabind.TeamOptions) (luabind.Seat, error) {
		s, err := seat(o)
		if err != nil || o.Index != at {
			return s, err
		}
		so := human.SteerOptions{Game: game, Plain: luabind.PlainJSON, Idle: time.Duration(cfg.Human.Idle) * time.Second}
		if c, ok := s.(engine.Caller); ok && pilot != engine.NoClass {
			so.Autopilot = c
		}
		st, err := human.NewSteer(so)
		if err != nil {
			s.Close()
			return nil, err
		}
		*steer = st
		return humanModSeat{Seat: s, steer: st}, nil
	}
}

// tuiHumanModBattle is a rule mod battle with a team steered at the keys.
type tuiHumanModBattle struct {
	tuiModBattle
	team int
	h    tui.Human
}

func (b tuiHumanModBattle) Human() (int, tui.Human) { return b.team, b.h }

// checkHuman tries the human section on the game: a human.autopilot the
// game's scripts do not have is an error before the screen opens.
func (p *playSource) checkHuman(game string) error {
	cfg, cat := p.cfg, p.catalog()
	if game != "" {
		gcfg, g, err := p.game(game)
		if err != nil {
			return err
		}
		cfg = gcfg
		if g.Info.Protocol != luabind.SquareBattleProtocol {
			cat = g.Catalog
		}
	}
	_, _, err := humanClass(cat, cfg)
	return err
}
