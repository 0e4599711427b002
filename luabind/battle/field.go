package battle

import (
	"github.com/squarebattle/squarebattle/engine"
	"github.com/squarebattle/squarebattle/engine/bot"
	"github.com/squarebattle/squarebattle/luabind"
)

// FieldBots starts and greets the bots among s.Teams, telling each the
// battle s will play (SquareBattle's s.Options, or a rule mod's
// s.ModOptions when s.IsMod()). It returns the battle's players (a bot's
// named as it named itself in ready), the seater that seats the bots'
// teams as bots and the others with s.Seat, and the bots: nil when no
// team is a bot, and then nothing starts. The caller stops the bots
// (StopBots) when the battle does not start, and tells them how it ended
// (FinishBots) when it does. Only options the process package refuses are
// an error; a bot that cannot start or does not say ready plays no round.
func FieldBots(s Setup) ([]*luabind.Class, luabind.Seater, []*Bot, error) {
	if !HasBots(s.Teams) {
		return TeamPlayers(s.Teams), s.Seat, nil, nil
	}
	var hello bot.Hello
	if s.IsMod() {
		g, o := s.Game, s.ModOptions
		hello = bot.Hello{Game: s.GameName, Kind: bot.KindCalls, Seed: o.Seed, Size: o.Size, Wrap: o.Wrap, Rounds: o.Rounds,
			Classes: helloClasses(ClassIDs(g.Catalog, s.Teams)), Constants: g.OptionValues(), Columns: g.Info.Columns}
	} else {
		o, name := s.Options, "squarebattle"
		if s.Game != nil {
			name = s.GameName
		}
		hello = bot.Hello{Game: name, Kind: bot.KindSquares, Seed: o.Seed, Size: o.Size, Wrap: o.Wrap, Rounds: o.Rounds,
			Classes: ClassIDs(s.Catalog, s.Teams), Constants: map[string]any{"replicate_rounds": o.ReplicateRounds}}
	}
	bots, err := StartBots(s.Teams, botsOf{hello: hello, timing: s.Timing, logw: s.Log, limits: BotLimits(s.Config), tap: s.Tap})
	if err != nil {
		return nil, nil, nil, err
	}
	return BotPlayers(s.Teams, bots), WithBots(s.Seat, bots, s.Timing, s.IsMod()), bots, nil
}

// BotModOptions are a rule mod's options o for a battle of teams teams
// some of which are bots: every team is asked at once (a bot's wall-clock
// wait must not hold up the others), and answers are recorded as plain
// JSON.
func BotModOptions(o engine.ModOptions, teams int) engine.ModOptions {
	o.Workers, o.Codec = max(o.Workers, teams), luabind.PlainJSON
	return o
}

// helloClasses are the class ids hello lists: the battle's, less a rule
// mod's rules, which no team plays.
func helloClasses(ids []string) []string {
	out := make([]string, 0, len(ids))
	for _, id := range ids {
		if id != luabind.RulesID {
			out = append(out, id)
		}
	}
	return out
}
