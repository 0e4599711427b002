package battle

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"path"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/squarebattle/squarebattle/config"
	"github.com/squarebattle/squarebattle/engine"
	"github.com/squarebattle/squarebattle/engine/bot"
	"github.com/squarebattle/squarebattle/engine/bot/process"
	"github.com/squarebattle/squarebattle/engine/replay"
	"github.com/squarebattle/squarebattle/engine/tournament"
	"github.com/squarebattle/squarebattle/luabind"
)

// External bots (docs/bots.md) play beside Lua teams: a .bot file of the
// scripts folder is a player like a .lua file, --bot COMMAND adds a team,
// and each bot's team is a seat that speaks the bot protocol to a process
// (engine/bot/process) instead of running Lua. The engine records what
// the bot decided (the team is outside, luabind.OutsideSeat), so a replay
// verifies without it.

// ScriptBots reads the .bot files at the top of fsys (dir names it in
// messages): the bots that parse, and the errors of those that do not,
// each naming its file and line. A file name that needs escaping is
// refused, as for a Lua script.
func ScriptBots(fsys fs.FS, dir string) ([]*bot.Spec, []error) {
	entries, err := fs.ReadDir(fsys, ".")
	if err != nil {
		return nil, nil
	}
	var specs []*bot.Spec
	var errs []error
	for _, e := range entries {
		name := e.Name()
		if e.IsDir() || !strings.HasSuffix(name, ".bot") || strings.HasPrefix(name, ".") {
			continue
		}
		file := path.Join(dir, engine.SafeText(name))
		if !engine.IsSafeText(name) {
			errs = append(errs, fmt.Errorf("%s: the file name holds control characters; rename the file", file))
			continue
		}
		data, err := ReadBounded(fsys, name, bot.MaxSpecBytes)
		if err != nil {
			errs = append(errs, fmt.Errorf("%s: %w", file, err))
			continue
		}
		s, err := bot.ParseSpec(file, data)
		if err != nil {
			errs = append(errs, err)
			continue
		}
		specs = append(specs, &s)
	}
	sort.Slice(specs, func(i, j int) bool { return specs[i].ID < specs[j].ID })
	return specs, errs
}

// Team is one team as picked: a Lua player or a bot.
type Team struct {
	Lua *luabind.Class // a Lua player, or
	Bot *bot.Spec      // an external bot
}

// PickTeams resolves PLAYER arguments against the Lua players and the
// .bot files (a bot by its id or listed name, any case; a name both could
// mean is an error), then adds the --bot teams. No PLAYER means every Lua
// starting player: a bot plays only when named, since it runs a program.
func PickTeams(all []*luabind.Class, find func(string) (*luabind.Class, error), bots []*bot.Spec, broken []error, names []string, extra []*bot.Spec) ([]Team, error) {
	var out []Team
	if len(names) == 0 {
		players := all
		if len(players) == 0 && len(extra) == 0 {
			return nil, Bad(errors.New("no starting players found"))
		}
		for _, p := range players {
			out = append(out, Team{Lua: p})
		}
	}
	for _, n := range names {
		var match *bot.Spec
		for _, s := range bots {
			if strings.EqualFold(s.ID, n) || strings.EqualFold(s.DisplayName(), n) {
				match = s
				break
			}
		}
		p, err := find(n)
		if match == nil && err != nil {
			for _, b := range broken { // a .bot file of that name that does not parse says why
				var se *bot.SpecError
				if errors.As(b, &se) && strings.EqualFold(strings.TrimSuffix(path.Base(se.File), ".bot"), n) {
					return nil, Bad(b)
				}
			}
		}
		switch {
		case match != nil && err == nil:
			return nil, Bad(fmt.Errorf("player %q is both %s and %s; name it by its file name", n, p.File, match.File))
		case match != nil:
			out = append(out, Team{Bot: match})
		case err != nil:
			return nil, Bad(err)
		default:
			out = append(out, Team{Lua: p})
		}
	}
	for _, s := range extra {
		out = append(out, Team{Bot: s})
	}
	return out, nil
}

// Bot is one bot of a battle, started and greeted.
type Bot struct {
	spec  *bot.Spec
	conn  bot.Conn
	name  string // the name it gave in ready, or its listed name
	proto int    // the protocol it chose in ready
	greet error  // why it is not ready; its team is then retired in round 1
	log   *botLog
}

// botLog keeps the last lines a bot wrote to standard error (the team's
// log, run --json) and copies each to run --log's writer.
type botLog struct {
	mu     sync.Mutex
	tail   []string
	prefix string
	out    io.Writer // nil: no --log
}

// botLogLines is how many of its last lines a bot's log keeps.
const botLogLines = 200

func (l *botLog) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	for _, line := range strings.Split(strings.TrimRight(string(p), "\n"), "\n") {
		l.tail = append(l.tail, line)
		if len(l.tail) > botLogLines {
			l.tail = l.tail[len(l.tail)-botLogLines:]
		}
		if l.out != nil {
			fmt.Fprintf(l.out, "%s%s\n", l.prefix, line)
		}
	}
	return len(p), nil
}

func (l *botLog) lines() []string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return append([]string(nil), l.tail...)
}

// botsOf describes a battle's teams for the bots' hello: everything
// but the team, which StartBots fills.
type botsOf struct {
	hello  bot.Hello
	timing bot.Timing
	logw   io.Writer // run --log, or nil
	limits process.Limits
	tap    func(team int, c bot.Conn) bot.Conn // Setup.Tap
}

// ClassIDs are the battle's classes as luabind.NewSeatedBattle
// numbers them: the catalog's, then each bot's own once, in team order.
func ClassIDs(cat *luabind.Catalog, teams []Team) []string {
	ids := cat.Classes()
	for _, t := range teams {
		if t.Bot != nil && !contains(ids, t.Bot.ID) {
			ids = append(ids, t.Bot.ID)
		}
	}
	return ids
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// StartBots starts every bot of teams at once and says hello to each; the
// result is indexed by team (nil for Lua teams). A bot that cannot start
// or does not say ready plays no round (its team retires in round 1); only
// options the process package refuses are an error. Every bot started is
// stopped by StopBots.
func StartBots(teams []Team, bb botsOf) ([]*Bot, error) {
	out := make([]*Bot, len(teams))
	players := make([]string, len(teams))
	for i, t := range teams {
		if t.Lua != nil {
			players[i] = t.Lua.DisplayName()
		} else {
			players[i] = t.Bot.DisplayName()
		}
	}
	bb.hello.Players, bb.hello.Teams = players, len(teams)
	var wg sync.WaitGroup
	var mu sync.Mutex
	var failed error
	for i, t := range teams {
		if t.Bot == nil {
			continue
		}
		bt := &Bot{spec: t.Bot, name: t.Bot.DisplayName(), log: &botLog{out: bb.logw, prefix: fmt.Sprintf("team %d %s (bot): ", i, engine.SafeText(t.Bot.DisplayName()))}}
		out[i] = bt
		wg.Add(1)
		go func(i int, bt *Bot) {
			defer wg.Done()
			timing := bt.spec.TimingIn(bb.timing)
			send := time.Duration(0)
			if timing.NoTimeout {
				send = -1
			}
			var conn bot.Conn
			var err error
			if bt.spec.Dial != nil {
				conn, err = bt.spec.Dial()
			} else {
				conn, err = process.Start(process.Options{Command: bt.spec.Command, Dir: bt.spec.Dir, Transport: bt.spec.Transport,
					Connect: bt.spec.Connect, Team: i, Limits: bb.limits, Log: bt.log, InitTimeout: timing.Init, SendTimeout: send})
			}
			if err != nil {
				if errors.Is(err, process.ErrOptions) {
					mu.Lock()
					failed = Bad(fmt.Errorf("%s: %w", bt.spec.File, err))
					mu.Unlock()
				}
				bt.conn, bt.greet = closedConn{}, fmt.Errorf("%w: cannot start: %v", bot.ErrNotReady, err)
				return
			}
			bt.conn = conn
			if bb.tap != nil {
				bt.conn = bb.tap(i, conn)
			}
			h := bb.hello
			h.Team, h.Class = i, bt.spec.ID
			g, err := bot.Handshake(bt.conn, h, timing)
			if g.Name != "" {
				bt.name = g.Name
			}
			bt.proto, bt.greet = g.Protocol, err
		}(i, bt)
	}
	wg.Wait()
	if failed != nil {
		StopBots(out)
		return nil, failed
	}
	return out, nil
}

// StopBots stops every bot without telling it anything more.
func StopBots(bots []*Bot) {
	for _, b := range bots {
		if b != nil && b.conn != nil {
			b.conn.Close()
		}
	}
}

// ReleaseBots gives back the connections of bots that run elsewhere
// (bot.Spec.Dial) claimed for a battle that will not be played: dialling
// one hands over the claimed connection, which closing gives back. Bots
// of processes are not started yet and need nothing.
func ReleaseBots(teams []Team) {
	for _, t := range teams {
		if t.Bot != nil && t.Bot.Dial != nil {
			if c, err := t.Bot.Dial(); err == nil {
				c.Close()
			}
		}
	}
}

// closedConn is the connection of a bot that never started.
type closedConn struct{}

func (closedConn) Send([]byte) error                 { return bot.ErrClosed }
func (closedConn) Receive(time.Time) ([]byte, error) { return nil, bot.ErrClosed }
func (closedConn) Close() error                      { return nil }

// BotPlayers are the players of a battle's teams as luabind fields them:
// a bot's is a class of its own, named as it named itself.
func BotPlayers(teams []Team, bots []*Bot) []*luabind.Class {
	out := make([]*luabind.Class, len(teams))
	for i, t := range teams {
		if t.Lua != nil {
			out[i] = t.Lua
			continue
		}
		name := t.Bot.DisplayName()
		if bots != nil && bots[i] != nil {
			name = bots[i].name
		}
		out[i] = &luabind.Class{ID: t.Bot.ID, File: t.Bot.File, Name: name}
	}
	return out
}

// botSeat is a SquareBattle team played by a bot.
type botSeat struct {
	*bot.Controller
	t *Bot
}

func (s botSeat) Log() []string                         { return s.t.log.lines() }
func (s botSeat) Printed(since int64) ([]string, int64) { return nil, since }
func (s botSeat) Close()                                { s.t.conn.Close() }
func (s botSeat) Outside() string                       { return engine.OutsideBot }
func (s botSeat) OwnClass() string                      { return s.t.spec.ID }

// botModSeat is a rule mod team played by a bot.
type botModSeat struct {
	*bot.Caller
	t *Bot
}

// Turn and Settle are never called: a rule mod asks its Caller.
func (s botModSeat) Turn(*engine.Turn)                     {}
func (s botModSeat) Settle(*engine.Settlement)             {}
func (s botModSeat) Log() []string                         { return s.t.log.lines() }
func (s botModSeat) Printed(since int64) ([]string, int64) { return nil, since }
func (s botModSeat) Close()                                { s.t.conn.Close() }
func (s botModSeat) Outside() string                       { return engine.OutsideBot }
func (s botModSeat) OwnClass() string                      { return s.t.spec.ID }

// plainCodec carries a rule mod's views and answers as JSON.
var plainCodec = bot.Codec{ToJSON: luabind.PlainToJSON, FromJSON: luabind.PlainFromJSON}

// WithBots seats the bots' teams as bots (of a rule mod when mod) and the
// others with seat (this process when nil).
func WithBots(seat luabind.Seater, bots []*Bot, timing bot.Timing, mod bool) luabind.Seater {
	if seat == nil {
		seat = luabind.InProcess
	}
	return func(o luabind.TeamOptions) (luabind.Seat, error) {
		if o.Index >= len(bots) || bots[o.Index] == nil {
			return seat(o)
		}
		t := bots[o.Index]
		own := t.spec.TimingIn(timing)
		if mod {
			return botModSeat{Caller: bot.NewCaller(t.conn, t.spec.ID, plainCodec, own, t.greet), t: t}, nil
		}
		return botSeat{Controller: bot.NewControllerProtocol(t.conn, t.spec.ID, own, t.proto, t.greet), t: t}, nil
	}
}

// FinishBots tells every bot of a battle how it ended and stops it.
func FinishBots(seats []luabind.Seat, s *engine.Snapshot, reason string) {
	e := bot.End{Round: s.Round, Winner: s.Winner, Reason: reason}
	if s.Columns == nil {
		var stats []engine.Stats
		var names []string
		for _, t := range s.Teams {
			stats, names = append(stats, t.Stats), append(names, t.Player.Name)
		}
		e.Stats = bot.StatsOf(stats, names)
	} else {
		for _, t := range s.Teams {
			e.Values = append(e.Values, t.Values)
		}
	}
	var wg sync.WaitGroup
	for _, seat := range seats {
		if f, ok := seat.(interface{ Finish(bot.End) }); ok {
			wg.Add(1)
			go func() { defer wg.Done(); f.Finish(e) }()
		}
	}
	wg.Wait()
}

// TeamPlayers are the players of teams, a bot's named as it is listed.
func TeamPlayers(teams []Team) []*luabind.Class {
	return BotPlayers(teams, nil)
}

func HasBots(teams []Team) bool {
	for _, t := range teams {
		if t.Bot != nil {
			return true
		}
	}
	return false
}

// addBotClasses adds to h the battle's classes past the catalog's: the
// bots' own, each named by its file.
func addBotClasses(h *replay.Header, classes []string, seats []luabind.Seat) {
	for _, id := range classes[min(len(h.Classes), len(classes)):] {
		h.Classes = append(h.Classes, replay.Class{ID: id, File: botFile(seats, id)})
	}
}

// botFile is where the bot whose class is id was named: its .bot file, or
// --bot.
func botFile(seats []luabind.Seat, id string) string {
	for _, s := range seats {
		if b, ok := s.(botSeat); ok && b.t.spec.ID == id {
			return b.t.spec.File
		}
		if b, ok := s.(botModSeat); ok && b.t.spec.ID == id {
			return b.t.spec.File
		}
	}
	return id
}

// TournamentBots starts the bots of each battle of a tournament: every
// battle its own processes, greeted before it starts.
type TournamentBots struct {
	specs  map[string]*bot.Spec // the tournament's bot players, by id
	cfg    config.Config
	cat    *luabind.Catalog
	g      *luabind.Game // nil: SquareBattle
	game   string
	timing bot.Timing
	ready  readyNames // the names the bots gave in ready
}

// NewTournamentBots is nil when no bot plays.
func NewTournamentBots(cfg config.Config, cat *luabind.Catalog, g *luabind.Game, game string, teams []Team, timing bot.Timing) *TournamentBots {
	if !HasBots(teams) {
		return nil
	}
	tb := &TournamentBots{specs: map[string]*bot.Spec{}, cfg: cfg, cat: cat, g: g, game: game, timing: timing}
	for _, t := range teams {
		if t.Bot != nil {
			tb.specs[t.Bot.ID] = t.Bot
		}
	}
	return tb
}

// battle fields a battle's players (game.Seats[t] plays team t): with
// start, its bots are started and greeted; without, they are stand-ins
// that never start (a check that the battle can be set up). It returns
// the players, the seater that seats the bots, and the bots to stop.
func (tb *TournamentBots) Battle(classes []*luabind.Class, game tournament.Game, seat luabind.Seater, seed uint64, size int, wrap bool, rounds int, start bool) ([]*luabind.Class, luabind.Seater, []*Bot) {
	players := Seated(classes, game)
	if tb == nil {
		return players, seat, nil
	}
	teams := make([]Team, len(players))
	for t, p := range players {
		teams[t] = Team{Lua: p}
		if s := tb.specs[p.ID]; s != nil {
			teams[t] = Team{Bot: s}
		}
	}
	var bots []*Bot
	if start {
		hello := bot.Hello{Game: "squarebattle", Kind: bot.KindSquares, Seed: seed, Size: size, Wrap: wrap, Rounds: rounds,
			Classes: helloClasses(ClassIDs(tb.cat, teams)), Constants: map[string]any{"replicate_rounds": tb.cfg.Rules.ReplicateRounds}}
		if tb.g != nil {
			hello.Game, hello.Kind, hello.Constants, hello.Columns = tb.game, bot.KindCalls, tb.g.OptionValues(), tb.g.Info.Columns
		}
		// Only options the process package refuses fail here, and the
		// first battle was set up with the same ones.
		bots, _ = StartBots(teams, botsOf{hello: hello, timing: tb.timing, limits: BotLimits(tb.cfg)})
	}
	if bots == nil {
		bots = make([]*Bot, len(teams))
		for t, f := range teams {
			if f.Bot != nil {
				bots[t] = &Bot{spec: f.Bot, conn: closedConn{}, name: f.Bot.DisplayName(), greet: bot.ErrNotReady, log: &botLog{}}
			}
		}
	}
	tb.ready.note(bots)
	return BotPlayers(teams, bots), WithBots(seat, bots, tb.timing, tb.g != nil), bots
}

// classes are the classes of a battle of players: the catalog's, then the
// bots' own.
func (tb *TournamentBots) Classes(players []*luabind.Class) []string {
	if tb == nil {
		return nil
	}
	teams := make([]Team, len(players))
	for t, p := range players {
		teams[t] = Team{Lua: p}
		if s := tb.specs[p.ID]; s != nil {
			teams[t] = Team{Bot: s}
		}
	}
	return ClassIDs(tb.cat, teams)
}
