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
	// given up, from the goroutine that settled it.
	Finished func(ladder.Battle)
	// Recorded, when not nil, runs in the transaction that records a
	// played battle (ladder.Record): a worker host uploads its replay
	// there.
	Recorded func(ladder.Tx, ladder.Battle) error
	Logger   *slog.Logger
}

// Runner plays ladder battles until its context ends.
type Runner struct {
	o     Options
	games map[string]Game

	mu      sync.Mutex
	pending []ladder.Battle // planned battles not yet handed to a worker, oldest first
	wake    chan struct{}   // a battle was queued
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
	r := &Runner{o: o, games: map[string]Game{}, wake: make(chan struct{}, 1)}
	for _, g := range o.Games {
		r.games[g.Name] = g
	}
	return r, nil
}

// Run plays battles on Options.Workers goroutines until ctx is done: first
// the battles left planned or playing by an earlier run (a crash, a
// shutdown), then those the ladder plans as battles are settled
// (ladder.Settle: rated in the order they were planned, so the table is
// the same whatever the number of workers). A battle ctx stops is left to
// be played again.
func (r *Runner) Run(ctx context.Context) error {
	pending, err := r.o.Ladder.Pending(ctx)
	if err != nil {
		return err
	}
	r.queue(pending...)
	r.Settle(ctx)
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

// queue adds battles to be played, oldest first.
func (r *Runner) queue(bs ...ladder.Battle) {
	if len(bs) == 0 {
		return
	}
	r.mu.Lock()
	r.pending = append(r.pending, bs...)
	r.mu.Unlock()
	select {
	case r.wake <- struct{}{}:
	default:
	}
}

// work is one worker's loop.
func (r *Runner) work(ctx context.Context) {
	for ctx.Err() == nil {
		b, ok := r.take()
		if !ok {
			select {
			case <-ctx.Done():
			case <-r.wake:
				r.wakeNext()
			case <-time.After(r.o.Idle):
				// Nothing planned: the ladder paused, too few players,
				// or the window waits for a battle another run holds.
				r.Settle(ctx)
			}
			continue
		}
		done, err := r.Play(ctx, b)
		switch {
		case err == nil && done.State == ladder.Queued:
			r.queue(done) // the server's failure: played again
		case err != nil && ctx.Err() == nil:
			// The ladder could not be told (the database away, a
			// replay upload failing): the battle stays Queued or
			// Playing, and Settle rates in plan order, so left alone it
			// would hold every later battle back until a restart. It
			// is played again after a pause; each try counts, so one
			// that never goes through is given up after MaxTries.
			select {
			case <-ctx.Done():
			case <-time.After(r.o.Idle):
			}
			if again, err := r.o.Ladder.Battle(ctx, b.ID); err == nil && (again.State == ladder.Queued || again.State == ladder.Playing) {
				r.queue(again)
			} else if err != nil && ctx.Err() == nil {
				r.queue(b)
			}
		}
		r.Settle(ctx)
	}
}

// wakeNext passes a wake-up on while battles wait, so that every idle
// worker gets one.
func (r *Runner) wakeNext() {
	r.mu.Lock()
	n := len(r.pending)
	r.mu.Unlock()
	if n > 0 {
		select {
		case r.wake <- struct{}{}:
		default:
		}
	}
}

// take returns the oldest battle waiting to be played.
func (r *Runner) take() (ladder.Battle, bool) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if len(r.pending) == 0 {
		return ladder.Battle{}, false
	}
	b := r.pending[0]
	r.pending = r.pending[1:]
	return b, true
}

// Settle has the ladder rate the battles whose turn it is and plan the
// next ones, which this runner then plays; every battle settled is told
// to Options.Finished, and its replay counted against the disk budget.
func (r *Runner) Settle(ctx context.Context) {
	s, err := r.o.Ladder.Settle(ctx, r.o.Available, nil)
	if err != nil {
		if ctx.Err() == nil {
			r.o.Logger.Error("ladder: settling battles", "event", "error", "reason", err.Error())
		}
		return
	}
	r.queue(s.Planned...)
	r.Settled(ctx, s.Done)
}

// Settled prunes the replays of battles just settled and tells
// Options.Finished of them.
func (r *Runner) Settled(ctx context.Context, done []ladder.Battle) {
	for _, b := range done {
		if b.State == ladder.Done {
			if _, err := r.o.Replays.Added(ctx, r.o.Ladder, b.ID); err != nil {
				r.o.Logger.Error("ladder: pruning replays", "event", "error", "reason", err.Error())
			}
		}
		if r.o.Finished != nil {
			r.o.Finished(b)
		}
	}
}

// Play plays battle b (planned, or left playing by an earlier run) and
// records its outcome (ladder.Record; Settle rates it in its turn); a
// battle that could not be played for the server's reasons goes back to
// the queue (Queued), one its own inputs make impossible is Failed. It
// returns the battle as it left it; an error means the ladder could not
// be told (ctx done, the database away): the battle is played again.
// Options.Recorded, when set, runs in the transaction that records it.
func (r *Runner) Play(ctx context.Context, b ladder.Battle) (ladder.Battle, error) {
	l := r.o.Ladder
	if b.State == ladder.Playing && b.Tries >= l.MaxTries() {
		// Handed out that often and never finished: whatever it does
		// takes its player down with it. Nobody is rated for it.
		return l.Fail(ctx, b.ID, fmt.Sprintf("the server stopped during it %d times", b.Tries), true)
	}
	b, err := l.Start(ctx, b.ID)
	if err != nil {
		if ctx.Err() == nil {
			r.o.Logger.Error("ladder: starting a battle", "event", "error", "battle", int64(b.ID), "reason", err.Error())
		}
		return b, err
	}
	out, err := r.play(ctx, b)
	switch {
	case ctx.Err() != nil:
		// Stopped by a shutdown: it stays Playing and is played again
		// by the next run (Pending).
		return b, ctx.Err()
	case err != nil:
		serverFault := !errors.Is(err, battle.ErrBadInput)
		r.o.Logger.Warn("ladder: a battle failed", "event", "ladder_failed", "battle", int64(b.ID), "server", serverFault, "reason", err.Error())
		var done ladder.Battle
		var ferr error
		if se := (*battle.SeatError)(nil); errors.As(err, &se) {
			// One seat's version cannot be set up: it alone is blamed.
			done, ferr = l.FailSeat(ctx, b.ID, se.Seat, err.Error())
		} else {
			done, ferr = l.Fail(ctx, b.ID, err.Error(), serverFault)
		}
		if ferr != nil {
			r.o.Logger.Error("ladder: failing a battle", "event", "error", "battle", int64(b.ID), "reason", ferr.Error())
		}
		return done, ferr
	}
	done, err := l.Record(ctx, b.ID, out, r.o.Recorded)
	if err != nil {
		r.o.Logger.Error("ladder: recording a battle", "event", "error", "battle", int64(b.ID), "reason", err.Error())
	}
	return done, err
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
			return nil, nil, battle.BadSeat(i, err)
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
			return nil, battle.BadSeat(i, err)
		}
		if cls.Hash != seat.Hash {
			// The folder changed since the battle was planned; the
			// player's new version plays the next ones (and the seat's
			// blame, on a version no longer current, counts for nobody).
			return nil, battle.BadSeat(i, fmt.Errorf("%s: changed since the battle was planned", cls.File))
		}
		teams[i] = battle.Team{Lua: cls}
	}
	return teams, nil
}
