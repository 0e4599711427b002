package battle

import (
	"context"
	"fmt"
	"io"

	"github.com/squarebattle/squarebattle/config"
	"github.com/squarebattle/squarebattle/engine"
	"github.com/squarebattle/squarebattle/engine/bot"
	"github.com/squarebattle/squarebattle/engine/replay"
	"github.com/squarebattle/squarebattle/luabind"
)

// Setup is one battle to play: who, under which rules, behind which walls,
// recorded where.
type Setup struct {
	// Context, when not nil, stops the battle between two rounds once it
	// is done: Play then returns its error and writes no replay.
	Context context.Context
	Config  config.Config
	Catalog *luabind.Catalog // the players' catalog (a rule mod's: Game.Catalog)
	Teams   []Team           // team t is Teams[t]
	// Game is a rule mod; nil for SquareBattle. GameName is its folder
	// name, as bots and replays are told it.
	Game     *luabind.Game
	GameName string
	// Options are SquareBattle's engine options, seed and workers set
	// (with Game: a rules.lua of the SquareBattle protocol, when its
	// Info.Protocol says so).
	Options engine.Options
	// ModOptions are a rule mod's (a Game of its own protocol).
	ModOptions engine.ModOptions
	// Seat and RulesSeat are where teams sit and a game's rules run: nil
	// for this process, else the seats of a worker pool.
	Seat      luabind.Seater
	RulesSeat luabind.RulesSeater
	Timing    bot.Timing // the clock bots play under
	// Record, when not empty, is the file the battle's replay is written
	// to (under a temporary name, renamed at the end).
	Record string
	// Log, when not nil, gets what the teams print as they print it.
	Log io.Writer
	// Tap, when not nil, stands between each bot and the engine: the
	// connection to team team's bot, started, is Tap(team, c) from its
	// hello on (check --bot keeps the lines a bot wrote).
	Tap func(team int, c bot.Conn) bot.Conn
}

// Result is how a battle ended.
type Result struct {
	Final *engine.Snapshot
	// Logs are the teams' printed lines (a bot's: its standard error's).
	Logs [][]string
	// RulesErr is why a rule mod's rules stopped the battle, nil when they
	// did not: the battle then ended early and its replay says so.
	RulesErr error
}

// IsMod reports whether s plays a rule mod of its own protocol (PlayMod's
// kind of battle) rather than SquareBattle's.
func (s *Setup) IsMod() bool {
	return s.Game != nil && s.Game.Info.Protocol != luabind.SquareBattleProtocol
}

// Play plays the battle of s to its end: the bots among its teams started
// and greeted, every team seated, the replay written when s.Record names a
// file, the bots told how it ended. A rule mod of its own protocol is
// played by PlayMod.
func Play(s Setup) (Result, error) {
	if s.IsMod() {
		return PlayMod(s)
	}
	o := s.Options
	players, seat, bots, err := FieldBots(s)
	if err != nil {
		return Result{}, err
	}
	b, err := luabind.NewWalledBattle(s.Catalog, players, o, s.Game, s.Config.Limits.RulesInstructions, seat, s.RulesSeat)
	if err != nil {
		StopBots(bots)
		return Result{}, Bad(err)
	}
	defer b.Close()
	st := stoppable(s.Context, Logged(b, b.Round, b.Seats, s.Log))
	if s.Record == "" {
		for st.Step() {
		}
		if err := stopped(s.Context); err != nil {
			StopBots(bots)
			return Result{}, err
		}
		final := b.Snapshot()
		FinishBots(b.Seats, final, replay.EndReason(final))
		return Result{Final: final, Logs: b.Logs()}, nil
	}
	h := Header(s.Config, s.Catalog, b)
	if s.Game != nil {
		h.Rules = RulesOf(s.Game)
	}
	f, err := replay.Create(s.Record, h, b.Snapshot())
	if err != nil {
		return Result{}, err
	}
	final, err := Record(st, engine.NewRecorder(b.Battle), f.Writer, nil)
	if err == nil {
		err = stopped(s.Context)
	}
	if err != nil {
		StopBots(bots)
		f.Abort()
		return Result{}, fmt.Errorf("replay %s: %w", s.Record, err)
	}
	FinishBots(b.Seats, final, replay.EndReason(final))
	return Result{Final: final, Logs: b.Logs()}, f.Close()
}

// PlayMod plays a battle of a rule mod of its own protocol (s.Game, its
// options s.ModOptions, seed and workers set) to its end, as Play does.
func PlayMod(s Setup) (Result, error) {
	g, o := s.Game, s.ModOptions
	if HasBots(s.Teams) {
		o = BotModOptions(o, len(s.Teams))
	}
	players, seat, bots, err := FieldBots(s)
	if err != nil {
		return Result{}, err
	}
	b, err := luabind.NewWalledModBattle(g, players, o, s.Config.Limits.RulesInstructions, seat, s.RulesSeat)
	if err != nil {
		StopBots(bots)
		return Result{}, Bad(err)
	}
	defer b.Close()
	var final *engine.Snapshot
	st := stoppable(s.Context, Logged(b, b.Round, b.Seats, s.Log))
	if s.Record == "" {
		for st.Step() {
		}
		if err := stopped(s.Context); err != nil {
			StopBots(bots)
			return Result{}, err
		}
		final = b.Snapshot()
	} else {
		f, err := replay.Create(s.Record, ModHeader(s.Config, s.GameName, g, players, o, ClassIDs(g.Catalog, s.Teams), b.Seats), b.Snapshot())
		if err != nil {
			return Result{}, err
		}
		final, err = Record(st, engine.NewModRecorder(b.ModBattle), f.Writer, b.Err)
		if err == nil {
			err = stopped(s.Context)
		}
		if err != nil {
			StopBots(bots)
			f.Abort()
			return Result{}, fmt.Errorf("replay %s: %w", s.Record, err)
		}
		if err := f.Close(); err != nil {
			return Result{}, err
		}
	}
	reason := replay.EndReason(final)
	if b.Err() != nil {
		reason = "rules failed"
	}
	FinishBots(b.Seats, final, reason)
	logs := make([][]string, len(b.Seats))
	for i, seat := range b.Seats {
		logs[i] = seat.Log()
	}
	return Result{Final: final, Logs: logs, RulesErr: b.Err()}, nil
}

// stoppable is st, stepping no more once ctx is done.
func stoppable(ctx context.Context, st Stepper) Stepper {
	if ctx == nil {
		return st
	}
	return ctxStepper{st, ctx}
}

type ctxStepper struct {
	Stepper
	ctx context.Context
}

func (c ctxStepper) Step() bool { return c.ctx.Err() == nil && c.Stepper.Step() }

// stopped is ctx's error, nil for no ctx.
func stopped(ctx context.Context) error {
	if ctx == nil {
		return nil
	}
	return ctx.Err()
}
