package ranked

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"sync"
	"testing/fstest"
	"time"

	"github.com/squarebattle/squarebattle/config"
	"github.com/squarebattle/squarebattle/engine/ladder"
	"github.com/squarebattle/squarebattle/luabind"
	"github.com/squarebattle/squarebattle/luabind/battle"
)

// Walls are where a ladder battle's scripts run: its teams, a rule mod's
// rules, and the top levels of the scripts its catalog loads. All nil:
// this process.
type Walls struct {
	Seat      luabind.Seater
	RulesSeat luabind.RulesSeater
	TopLevels luabind.TopLevelReader
}

// Options configure a Runner.
type Options struct {
	Ladder  *ladder.Ladder
	Games   []Game
	Replays *Replays
	// Workers is how many battles play at once (at least one).
	Workers int
	// Walls returns where the battles' scripts run; nil: this process.
	Walls func() (Walls, error)
	// Idle is how long a worker waits before asking again when nothing
	// can be played (the ladder paused, fewer than two players); 0: 2 s.
	Idle time.Duration
	// Available, when not nil, says which players can play now (a remote
	// bot only while connected; nil: everybody).
	Available func(ladder.Player) bool
	// Bot, when not nil, says whether a player is a bot that plays from
	// elsewhere, and claims it for one battle: the team it returns holds
	// the bot's connection, released when the battle ends. A bot that
	// cannot be claimed (gone, busy) makes the battle the server's
	// failure, played again later: it is never held against anyone.
	Bot func(ladder.Player) (battle.Team, bool, error)
	// Finished, when not nil, is told of every battle as it is rated or
	// given up, from the goroutine that played it.
	Finished func(ladder.Battle)
	Logger   *slog.Logger
}

// Runner plays ladder battles until its context ends.
type Runner struct {
	o     Options
	games map[string]Game

	mu      sync.Mutex
	pending []ladder.Battle // battles of before a restart, to play first
	next    int             // the game planned from next, round robin
	order   []string
}

// New checks o and returns a Runner.
func New(o Options) (*Runner, error) {
	if o.Ladder == nil || o.Replays == nil {
		return nil, errors.New("ranked: no ladder or no replays")
	}
	if o.Workers < 1 {
		o.Workers = 1
	}
	if o.Idle <= 0 {
		o.Idle = 2 * time.Second
	}
	if o.Logger == nil {
		o.Logger = slog.New(slog.DiscardHandler)
	}
	r := &Runner{o: o, games: map[string]Game{}}
	for _, g := range o.Games {
		r.games[g.Name] = g
		r.order = append(r.order, g.Name)
	}
	return r, nil
}

// Run plays battles on Options.Workers goroutines until ctx is done: first
// the battles left planned or playing by an earlier run (a crash, a
// shutdown), then new ones. A battle ctx stops is left to be played again.
func (r *Runner) Run(ctx context.Context) error {
	pending, err := r.o.Ladder.Pending(ctx)
	if err != nil {
		return err
	}
	r.mu.Lock()
	r.pending = pending
	r.mu.Unlock()
	var wg sync.WaitGroup
	for range r.o.Workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			r.work(ctx)
		}()
	}
	wg.Wait()
	return nil
}

// work is one worker's loop.
func (r *Runner) work(ctx context.Context) {
	for ctx.Err() == nil {
		b, ok := r.take(ctx)
		if !ok {
			select {
			case <-ctx.Done():
			case <-time.After(r.o.Idle):
			}
			continue
		}
		r.Play(ctx, b)
	}
}

// take returns the next battle to play: one left from before, or a new
// plan of the next game that can play one.
func (r *Runner) take(ctx context.Context) (ladder.Battle, bool) {
	r.mu.Lock()
	if len(r.pending) > 0 {
		b := r.pending[0]
		r.pending = r.pending[1:]
		r.mu.Unlock()
		return b, true
	}
	start := r.next
	r.next = (r.next + 1) % max(len(r.order), 1)
	r.mu.Unlock()
	for i := range r.order {
		game := r.order[(start+i)%len(r.order)]
		b, err := r.o.Ladder.Plan(ctx, game, r.o.Available)
		switch {
		case err == nil:
			return b, true
		case errors.Is(err, ladder.ErrTooFew), errors.Is(err, ladder.ErrPaused), ctx.Err() != nil:
		default:
			r.o.Logger.Error("ladder: planning a battle", "event", "error", "game", game, "reason", err.Error())
		}
	}
	return ladder.Battle{}, false
}

// Play plays battle b (planned, or left playing by an earlier run), keeps
// its replay and has it rated; a battle that could not be played for the
// server's reasons goes back to the queue.
func (r *Runner) Play(ctx context.Context, b ladder.Battle) {
	l := r.o.Ladder
	if b.State == ladder.Playing && b.Tries >= l.MaxTries() {
		// Handed out that often and never finished: whatever it does
		// takes the server down with it. Nobody is rated for it.
		done, err := l.Fail(ctx, b.ID, fmt.Sprintf("the server stopped during it %d times", b.Tries), true)
		if err == nil && r.o.Finished != nil {
			r.o.Finished(done)
		}
		return
	}
	b, err := l.Start(ctx, b.ID)
	if err != nil {
		if ctx.Err() == nil {
			r.o.Logger.Error("ladder: starting a battle", "event", "error", "battle", int64(b.ID), "reason", err.Error())
		}
		return
	}
	out, err := r.play(ctx, b)
	var done ladder.Battle
	switch {
	case ctx.Err() != nil:
		// Stopped by a shutdown: it stays Playing and is played again
		// by the next run (Pending).
		return
	case err != nil:
		serverFault := !errors.Is(err, battle.ErrBadInput)
		r.o.Logger.Warn("ladder: a battle failed", "event", "ladder_failed", "battle", int64(b.ID), "server", serverFault, "reason", err.Error())
		if done, err = l.Fail(ctx, b.ID, err.Error(), serverFault); err != nil {
			r.o.Logger.Error("ladder: failing a battle", "event", "error", "battle", int64(b.ID), "reason", err.Error())
			return
		}
		if done.State == ladder.Queued {
			r.mu.Lock()
			r.pending = append(r.pending, done)
			r.mu.Unlock()
		}
	default:
		if done, err = l.Finish(ctx, b.ID, out); err != nil {
			r.o.Logger.Error("ladder: rating a battle", "event", "error", "battle", int64(b.ID), "reason", err.Error())
			return
		}
		if _, err := r.o.Replays.Added(ctx, l, b.ID); err != nil {
			r.o.Logger.Error("ladder: pruning replays", "event", "error", "reason", err.Error())
		}
	}
	if r.o.Finished != nil && done.State != ladder.Queued {
		r.o.Finished(done)
	}
}

// play sets up and plays b, recording its replay.
func (r *Runner) play(ctx context.Context, b ladder.Battle) (ladder.Outcome, error) {
	g, ok := r.games[b.Game]
	if !ok {
		return ladder.Outcome{}, battle.Bad(fmt.Errorf("battle %d: game %q is not on this arena's ladder", b.ID, b.Game))
	}
	cfg, err := g.configOf(b)
	if err != nil {
		return ladder.Outcome{}, battle.Bad(err)
	}
	var walls Walls
	if r.o.Walls != nil {
		if walls, err = r.o.Walls(); err != nil {
			return ladder.Outcome{}, err
		}
	}
	s := battle.Setup{Context: ctx, Config: cfg, Game: g.Mod, GameName: g.Name, Seat: walls.Seat, RulesSeat: walls.RulesSeat,
		Timing: battle.Timing(cfg, false), Record: r.o.Replays.Path(b.ID)}
	if g.Mod == nil {
		if s.Catalog, s.Teams, err = r.squareTeams(ctx, b, cfg, walls); err != nil {
			return ladder.Outcome{}, err
		}
		s.Options = battle.Options(cfg)
		s.Options.Seed, s.Options.Workers = b.Seed, 1
	} else {
		if s.Teams, err = r.modTeams(ctx, b, g.Mod); err != nil {
			return ladder.Outcome{}, err
		}
		s.Catalog = g.Mod.Catalog
		s.ModOptions.Size, s.ModOptions.Wrap, s.ModOptions.Rounds = cfg.Arena.Size, cfg.Arena.Wrap, cfg.Rules.Rounds
		if g.Mod.Info.Sizes && cfg.Arena.Size == 0 {
			s.ModOptions.Size = 0
		}
		s.ModOptions.Seed, s.ModOptions.Workers = b.Seed, 1
	}
	res, err := battle.Play(s)
	if err != nil {
		return ladder.Outcome{}, err
	}
	if res.RulesErr != nil {
		// The rules broke, not a player: nobody is rated for it.
		return ladder.Outcome{}, battle.Bad(fmt.Errorf("the rules stopped the battle: %w", res.RulesErr))
	}
	return ladder.Outcome{Rounds: res.Final.Round, Results: battle.ResultOf(res.Final).Teams, Replay: ReplayID(b.ID)}, nil
}

// squareTeams builds the catalog of a SquareBattle ladder battle from its
// seats' stored sources, each under its player's name, and its teams.
func (r *Runner) squareTeams(ctx context.Context, b ladder.Battle, cfg config.Config, walls Walls) (*luabind.Catalog, []battle.Team, error) {
	files := fstest.MapFS{}
	names := make([]string, len(b.Seats))
	teams := make([]battle.Team, len(b.Seats))
	for i, seat := range b.Seats {
		p, err := r.o.Ladder.Player(ctx, seat.Player)
		if err != nil {
			return nil, nil, err
		}
		if r.o.Bot != nil {
			t, isBot, err := r.o.Bot(p)
			if err != nil {
				battle.ReleaseBots(teams)
				return nil, nil, fmt.Errorf("%s: %w", p.Name, err) // the server's: played again
			}
			if isBot {
				teams[i] = t
				continue
			}
		}
		src, err := r.o.Ladder.Source(ctx, seat.Hash)
		if err != nil {
			return nil, nil, err
		}
		names[i] = p.Name
		files[p.Name+".lua"] = &fstest.MapFile{Data: src, Mode: 0o444}
	}
	cat, err := luabind.LoadCatalog(luabind.CatalogOptions{FS: files, Dir: "ladder", Limits: battle.Limits(cfg), TopLevels: walls.TopLevels})
	if err != nil {
		battle.ReleaseBots(teams)
		return nil, nil, battle.Bad(err)
	}
	for i, n := range names {
		if teams[i].Bot != nil {
			continue
		}
		cls, err := cat.Find(n)
		if err != nil {
			battle.ReleaseBots(teams)
			return nil, nil, battle.Bad(err)
		}
		teams[i] = battle.Team{Lua: cls}
	}
	return cat, teams, nil
}

// modTeams finds a rule mod battle's players in the game's folder, each
// the version the battle was planned with.
func (r *Runner) modTeams(ctx context.Context, b ladder.Battle, g *luabind.Game) ([]battle.Team, error) {
	teams := make([]battle.Team, len(b.Seats))
	for i, seat := range b.Seats {
		p, err := r.o.Ladder.Player(ctx, seat.Player)
		if err != nil {
			return nil, err
		}
		cls, err := g.Catalog.Find(p.Name)
		if err != nil {
			return nil, battle.Bad(err)
		}
		if cls.Hash != seat.Hash {
			// The folder changed since the battle was planned; the
			// player's new version plays the next ones.
			return nil, battle.Bad(fmt.Errorf("%s: changed since the battle was planned", cls.File))
		}
		teams[i] = battle.Team{Lua: cls}
	}
	return teams, nil
}
