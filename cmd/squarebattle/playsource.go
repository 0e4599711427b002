package main

import (
	"fmt"
	"slices"
	"sync"

	"github.com/spf13/pflag"

	"github.com/squarebattle/squarebattle/config"
	"github.com/squarebattle/squarebattle/engine"
	"github.com/squarebattle/squarebattle/engine/bot"
	"github.com/squarebattle/squarebattle/engine/replay"
	"github.com/squarebattle/squarebattle/luabind"
	"github.com/squarebattle/squarebattle/luabind/battle"
	"github.com/squarebattle/squarebattle/tui"
	"github.com/squarebattle/squarebattle/tui/human"
)

// playSource lends the terminal UI the catalog, which hot reload replaces,
// and the rule mods of the scripts folder (a tui.GameSource).
type playSource struct {
	mu    sync.Mutex
	cat   *luabind.Catalog
	cfg   config.Config
	flags *pflag.FlagSet
	c     *commonFlags
	games map[string]loadedGame // rule mods loaded so far; reload forgets them
	// flagBots are play's --bot flags (bot1, bot2, …), listed in every
	// game's lobby; noTimeout is --no-timeout.
	flagBots  []*bot.Spec
	noTimeout bool
	// remote, when set, are bots that run on their authors' machines and
	// reached the server (serve's botHub): SquareBattle's lobby lists the
	// connected ones and a battle claims a connection of each it fields.
	remote remoteBots
}

// remoteBots are the bots connected to a server from elsewhere.
type remoteBots interface {
	// entries lists the connected bots for SquareBattle's lobby.
	entries() []tui.Entry
	// team claims a connection of bot id for one battle; ok is false when
	// id is not a remote bot. The team holds the connection until the
	// battle closes its seat (or battle.ReleaseBots gives it back).
	team(id string) (t battle.Team, ok bool, err error)
}

// loadedGame is a rule mod with its configuration (game.yaml layered in).
type loadedGame struct {
	cfg config.Config
	g   *luabind.Game
}

// newPlaySource serves cat and the rule mods of cfg's scripts folder;
// flags and c are the command's, parsed, from which a game's configuration
// is layered again with its game.yaml. Without flags, only the scripts
// folder of cfg is carried over.
func newPlaySource(cfg config.Config, cat *luabind.Catalog, flags *pflag.FlagSet, c *commonFlags) *playSource {
	if flags == nil {
		c = &commonFlags{}
		flags = newFlagSet("play", c)
		if cfg.Scripts != "" {
			_ = flags.Parse([]string{"--scripts", cfg.Scripts})
		}
	}
	return &playSource{cfg: cfg, cat: cat, flags: flags, c: c, games: map[string]loadedGame{}}
}

func (p *playSource) catalog() *luabind.Catalog {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.cat
}

// game loads the rule mod name, or returns it as loaded before.
func (p *playSource) game(name string) (config.Config, *luabind.Game, error) {
	p.mu.Lock()
	lg, ok := p.games[name]
	p.mu.Unlock()
	if ok {
		return lg.cfg, lg.g, nil
	}
	cfg, g, err := loadGameWith(p.flags, p.c, name, false)
	if err != nil {
		return cfg, nil, err
	}
	p.mu.Lock()
	p.games[name] = loadedGame{cfg, g}
	p.mu.Unlock()
	return cfg, g, nil
}

// reload reads the scripts folder again; on failure the old catalog stays.
func (p *playSource) reload() error {
	cat, err := loadCatalog(p.cfg)
	if err != nil {
		return err
	}
	p.mu.Lock()
	p.cat = cat
	p.games = map[string]loadedGame{}
	p.mu.Unlock()
	return nil
}

func (p *playSource) Dir() string {
	if d := diskScripts(p.cfg); d != "" {
		return d
	}
	return "shipped players"
}

// Games lists SquareBattle and every rule mod of the scripts folder that
// loads, with its game.yaml's board size and round limit.
func (p *playSource) Games() []tui.Game {
	out := []tui.Game{{Name: "SquareBattle"}}
	fsys, _, err := scriptsFS(p.cfg)
	if err != nil {
		return out
	}
	for _, name := range battle.Games(fsys) {
		cfg, g, err := p.game(name)
		if err != nil {
			continue
		}
		title := g.Info.Name
		if title == "" {
			title = name
		}
		tg := tui.Game{ID: name, Name: title, Size: cfg.Arena.Size, Rounds: cfg.Rules.Rounds}
		if g.Info.Protocol != luabind.SquareBattleProtocol && modSize(p.flags, cfg, g) == 0 {
			// the rules choose the size from the seed, as for run
			tg.SeedSize = func(seed uint64, teams int) (int, error) {
				return g.BoardSize(seed, teams, cfg.Rules.Rounds, cfg.Arena.Wrap, cfg.Limits.RulesInstructions)
			}
		}
		out = append(out, tg)
	}
	return out
}

// Entries lists starting players first, then classes that are only
// replicated into, then broken scripts; each group by id.
func (p *playSource) Entries() []tui.Entry {
	out := append(entriesOf(p.catalog()), p.botEntries("")...)
	if p.remote != nil {
		out = append(out, p.remote.entries()...)
	}
	return rankEntries(out)
}

// GameEntries lists a game's players as Entries does SquareBattle's; its
// rules are not a player.
func (p *playSource) GameEntries(id string) []tui.Entry {
	if id == "" {
		return p.Entries()
	}
	_, g, err := p.game(id)
	if err != nil {
		return []tui.Entry{{ID: id, File: id, Problem: oneLine(err)}}
	}
	if g.Info.Protocol == luabind.SquareBattleProtocol {
		return p.Entries() // rules in Lua for SquareBattle's own players
	}
	return rankEntries(append(entriesOf(g.Catalog), p.botEntries(id)...))
}

// entriesOf lists a catalog's classes for the lobby (a game's rules are
// not among them: see luabind.Catalog.All).
func entriesOf(cat *luabind.Catalog) []tui.Entry {
	var out []tui.Entry
	for _, c := range cat.All {
		e := tui.Entry{ID: c.ID, Name: c.Name, File: c.File}
		if c.Err != nil {
			e.Name, e.Problem = "", c.Err.Error()
		}
		out = append(out, e)
	}
	return rankEntries(out)
}

// rankEntries orders entries as the lobby lists them: starting players
// first, then classes only replicated into, then broken ones, each group
// in the order given.
func rankEntries(out []tui.Entry) []tui.Entry {
	rank := func(e tui.Entry) int {
		switch {
		case e.Problem != "":
			return 2
		case e.Name == "":
			return 1
		}
		return 0
	}
	slices.SortStableFunc(out, func(a, b tui.Entry) int { return rank(a) - rank(b) })
	return out
}

// NewBattle starts a battle of su's players (a .bot file's or a --bot
// flag's id fields that bot: it is started and greeted here, in at most
// bots.init_ms), SquareBattle's or a rule mod's of SquareBattle's
// protocol (newModBattle plays the others).
func (p *playSource) NewBattle(su tui.Setup) (tui.Battle, error) {
	var rules *luabind.Game // rules in Lua for SquareBattle's players
	cfg := p.cfg
	if su.Game != "" {
		gcfg, g, err := p.game(su.Game)
		if err != nil {
			return nil, err
		}
		if g.Info.Protocol != luabind.SquareBattleProtocol {
			return p.newModBattle(su)
		}
		rules, cfg = g, gcfg
	}
	cat := p.catalog()
	at, err := humanIndex(su.Players)
	if err != nil {
		return nil, err
	}
	pilot := engine.NoClass
	teams, err := p.squareTeams(cat, cfg, su.Players, at, &pilot)
	if err != nil {
		return nil, err
	}
	o := engine.Options{
		Size:            su.Size,
		Wrap:            cfg.Arena.Wrap,
		Rounds:          su.Rounds,
		ReplicateRounds: cfg.Rules.ReplicateRounds,
		Seed:            su.Seed,
		Workers:         battle.Workers(cfg),
		Map:             su.Map,
		MapFile:         su.MapFile,
	}
	seat, rs, err := wallsOf(cfg)
	if err != nil {
		battle.ReleaseBots(teams)
		return nil, err
	}
	var squad *human.Squad
	if at >= 0 {
		seat = humanSeater(seat, at, cat, cfg, pilot, &squad)
	}
	players, seat, bots, err := battle.FieldBots(battle.Setup{Config: cfg, Catalog: cat, Teams: teams, Game: rules, GameName: su.Game,
		Options: o, Seat: seat, Timing: p.timing(cfg)})
	if err != nil {
		battle.ReleaseBots(teams)
		return nil, err
	}
	b, err := luabind.NewWalledBattle(cat, players, o, rules, cfg.Limits.RulesInstructions, seat, rs)
	if err != nil {
		battle.StopBots(bots)
		return nil, err
	}
	h := battle.Header(cfg, cat, b)
	if rules != nil {
		h.Rules = battle.RulesOf(rules)
	}
	tb := tuiBattle{Battle: b, header: h, bots: bots != nil}
	if at >= 0 {
		return tuiHumanBattle{tuiBattle: tb, team: at, h: squad}, nil
	}
	return tb, nil
}

// squareTeams are the teams of a SquareBattle battle of players: team at
// (-1: none) a person plays, with the pilot class *pilot; a remote bot's
// id claims a connection of it (given back if the battle is not made),
// a .bot file's or --bot flag's id fields that bot, any other id a
// starting Lua player of cat.
func (p *playSource) squareTeams(cat *luabind.Catalog, cfg config.Config, players []string, at int, pilot *engine.ClassID) (teams []battle.Team, err error) {
	defer func() {
		if err != nil {
			battle.ReleaseBots(teams)
		}
	}()
	specs := p.botSpecs("")
	for i, id := range players {
		if i == at {
			var cls *luabind.Class
			if cls, *pilot, err = humanClass(cat, cfg); err != nil {
				return teams, err
			}
			teams = append(teams, battle.Team{Lua: cls})
			continue
		}
		if p.remote != nil {
			t, ok, err := p.remote.team(id)
			if err != nil {
				return teams, err
			}
			if ok {
				teams = append(teams, t)
				continue
			}
		}
		if s := findSpec(specs, id); s != nil {
			teams = append(teams, battle.Team{Bot: s})
			continue
		}
		cls, err := cat.Find(id)
		if err != nil {
			return teams, err
		}
		if !cls.Starting() {
			return teams, fmt.Errorf("%s cannot start a team", cls.File)
		}
		teams = append(teams, battle.Team{Lua: cls})
	}
	return teams, nil
}

// newModBattle starts a rule mod battle under the game's configuration.
func (p *playSource) newModBattle(su tui.Setup) (tui.Battle, error) {
	cfg, g, err := p.game(su.Game)
	if err != nil {
		return nil, err
	}
	at, err := humanIndex(su.Players)
	if err != nil {
		return nil, err
	}
	pilot := engine.NoClass
	specs := p.botSpecs(su.Game)
	var teams []battle.Team
	for i, id := range su.Players {
		if i == at {
			var cls *luabind.Class
			if cls, pilot, err = humanClass(g.Catalog, cfg); err != nil {
				return nil, err
			}
			teams = append(teams, battle.Team{Lua: cls})
			continue
		}
		if s := findSpec(specs, id); s != nil {
			teams = append(teams, battle.Team{Bot: s})
			continue
		}
		cls, err := g.Find(id)
		if err != nil {
			return nil, err
		}
		teams = append(teams, battle.Team{Lua: cls})
	}
	o := engine.ModOptions{Size: su.Size, Wrap: cfg.Arena.Wrap, Rounds: su.Rounds, Seed: su.Seed, Workers: battle.Workers(cfg)}
	seat, rs, err := wallsOf(cfg)
	if err != nil {
		return nil, err
	}
	var steer *human.Steer
	if at >= 0 {
		seat = humanModSeater(seat, at, su.Game, cfg, pilot, &steer)
		o.Codec = luabind.PlainJSON
	}
	if battle.HasBots(teams) {
		o = battle.BotModOptions(o, len(teams))
	}
	players, seat, bots, err := battle.FieldBots(battle.Setup{Config: cfg, Catalog: g.Catalog, Teams: teams, Game: g, GameName: su.Game,
		ModOptions: o, Seat: seat, Timing: p.timing(cfg)})
	if err != nil {
		return nil, err
	}
	b, err := luabind.NewWalledModBattle(g, players, o, cfg.Limits.RulesInstructions, seat, rs)
	if err != nil {
		battle.StopBots(bots)
		return nil, err
	}
	h := battle.ModHeader(cfg, su.Game, g, players, o, battle.ClassIDs(g.Catalog, teams), b.Seats)
	tb := tuiModBattle{ModBattle: b, header: h, bots: bots != nil}
	if at >= 0 {
		return tuiHumanModBattle{tuiModBattle: tb, team: at, h: steer}, nil
	}
	return tb, nil
}

// tuiBattle is a Lua battle as the terminal UI drives it: it records its
// rounds for rewinding and describes itself for its replay file.
type tuiBattle struct {
	*luabind.Battle
	header replay.Header
	bots   bool // some team is a bot: Close tells the bots how it ended
}

func (b tuiBattle) Recorder() *engine.Recorder { return engine.NewRecorder(b.Battle.Battle) }
func (b tuiBattle) Header() replay.Header      { return b.header }

// tuiModBattle is tuiBattle for a rule mod.
type tuiModBattle struct {
	*luabind.ModBattle
	header replay.Header
	bots   bool
}

func (b tuiModBattle) Recorder() *engine.Recorder {
	return engine.NewModRecorder(b.ModBattle.ModBattle)
}
func (b tuiModBattle) Header() replay.Header { return b.header }
