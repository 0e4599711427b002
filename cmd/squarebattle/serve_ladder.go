package main

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"log/slog"
	"path"
	"path/filepath"
	"runtime"
	"slices"
	"sync"

	"github.com/squarebattle/squarebattle/config"
	"github.com/squarebattle/squarebattle/engine/ladder"
	"github.com/squarebattle/squarebattle/engine/ladder/sqlite"
	"github.com/squarebattle/squarebattle/luabind/battle"
	"github.com/squarebattle/squarebattle/luabind/battle/ranked"
)

// The arena's ladder (docs/serve.md, "Ladder"): every starting player of
// each game on it is entered, again whenever the players change (a
// submit: a new version; a removal: retired), and ranked battles play in
// the background on serve.ladder.workers goroutines whose teams run in
// worker processes at a lower priority than the hall's.

// squareBattleGame is SquareBattle's name in serve.ladder.games.
const squareBattleGame = "squarebattle"

// arenaLadder is the serve arena's ladder.
type arenaLadder struct {
	a       *serveArena
	l       *ladder.Ladder
	store   ladder.Store
	replays *ranked.Replays
	games   []ranked.Game
	log     *slog.Logger

	syncMu sync.Mutex // one sync at a time
	cancel context.CancelFunc
	done   chan struct{}

	finishedMu sync.Mutex
	finished   map[int]func(ladder.Battle) // told of every battle done, by registration
	nextFn     int
}

// openLadderStore opens the ladder's database in the data dir (or
// serve.ladder.db): before the server says or writes anything else, so
// that a file it cannot use (not a database, a newer schema) is one line
// and is left as it was. log gets the warnings of the job queue on
// PostgreSQL (River's), for as long as the store is open.
func openLadderStore(cfg config.Config, dataDir string, log *slog.Logger) (ladder.Store, error) {
	if cfg.Serve.Ladder.IsPostgres() {
		d, err := openPGLadder(context.Background(), cfg, log)
		if err != nil {
			return nil, err
		}
		return pgLadderStore{d.Store, d}, nil
	}
	file := cfg.Serve.Ladder.DB
	if file == "" {
		file = filepath.Join(dataDir, "ladder.db")
	}
	st, err := sqlite.Open(context.Background(), file)
	if err != nil {
		return nil, bad(fmt.Errorf("serve.ladder.db: %w", err))
	}
	return st, nil
}

// openLadder lists the games on the ladder kept in st, enters their
// players and, when serve.ladder.enabled, starts playing.
func openLadder(a *serveArena, st ladder.Store) (*arenaLadder, error) {
	lc := a.cfg.Serve.Ladder
	ctx := context.Background()
	games, err := ladderGames(a)
	if err != nil {
		return nil, err
	}
	var lgs []ladder.Game
	for _, g := range games {
		lg, err := g.Ladder()
		if err != nil {
			return nil, err
		}
		lgs = append(lgs, lg)
	}
	l, err := ladder.New(ladder.Options{Store: st, Games: lgs, Seed: uint64(lc.Seed), Ahead: lc.Ahead})
	if err != nil {
		return nil, err
	}
	reps, err := ranked.OpenReplays(ladderReplayDir(a.store.Dir()), int64(lc.DiskMiB)<<20, lc.BattlesKept)
	if err != nil {
		return nil, fmt.Errorf("serve.data_dir: %w", err)
	}
	al := &arenaLadder{a: a, l: l, store: st, replays: reps, games: games, log: a.log}
	if err := al.sync(ctx); err != nil {
		return nil, err
	}
	if lc.Enabled {
		al.start()
	}
	return al, nil
}

// ladderGames lists the games on the ladder: serve.ladder.games, or
// SquareBattle and every rule mod whose game.yaml has a ladder section.
func ladderGames(a *serveArena) ([]ranked.Game, error) {
	lc := a.cfg.Serve.Ladder
	fsys, _, err := scriptsFS(a.cfg)
	if err != nil {
		return nil, err
	}
	mods := battle.Games(fsys)
	named := lc.GameNames()
	for _, n := range named {
		if n != squareBattleGame && !slices.Contains(mods, n) {
			return nil, bad(fmt.Errorf("serve.ladder.games: no game %q (games: %s, %v)", n, squareBattleGame, mods))
		}
	}
	var out []ranked.Game
	if len(named) == 0 || slices.Contains(named, squareBattleGame) {
		cfg := a.cfg
		cfg.Arena.Size, cfg.Rules.Rounds = lc.Size, lc.Rounds
		out = append(out, ranked.Game{Config: cfg, Teams: lc.Teams})
	}
	for _, name := range mods {
		listed := slices.Contains(named, name)
		if len(named) > 0 && !listed {
			continue
		}
		cfg, g, err := a.src.game(name)
		if err != nil {
			if listed {
				return nil, err
			}
			a.log.Warn("ladder: a rule mod left off", "event", "ladder_game", "game", name, "reason", err.Error())
			continue
		}
		if !cfg.Ladder.On() {
			if listed {
				return nil, bad(fmt.Errorf("serve.ladder.games: %s has no ladder section in its game.yaml (ladder: teams, size, rounds)", name))
			}
			continue
		}
		if cfg.Ladder.Size > 0 {
			cfg.Arena.Size = cfg.Ladder.Size
		} else if g.Info.Sizes {
			cfg.Arena.Size = 0 // the rules choose, from the seed
		}
		if cfg.Ladder.Rounds > 0 {
			cfg.Rules.Rounds = cfg.Ladder.Rounds
		}
		out = append(out, ranked.Game{Name: name, Config: cfg, Mod: g, Teams: cfg.Ladder.Teams})
	}
	return out, nil
}

// sync enters every starting player of every game on the ladder as it is
// now (a changed source is a new version) and retires those gone.
func (al *arenaLadder) sync(ctx context.Context) error {
	al.syncMu.Lock()
	defer al.syncMu.Unlock()
	for _, g := range al.games {
		var err error
		if g.Mod == nil {
			err = al.syncSquare(ctx)
		} else {
			err = al.syncMod(ctx, g)
		}
		if err != nil {
			return fmt.Errorf("ladder %s: %w", gameTitle(g.Name), err)
		}
	}
	return nil
}

// syncSquare enters SquareBattle's players: the shipped ones and the
// uploads, as the hall's catalog holds them.
func (al *arenaLadder) syncSquare(ctx context.Context) error {
	files, err := al.a.scriptFiles("")
	if err != nil {
		return err
	}
	owners := map[string]string{}
	for _, p := range al.a.store.Players() {
		owners[p.ID()] = p.User
	}
	present := map[string]bool{}
	for _, cls := range al.a.src.catalog().Players() {
		src, ok := files[path.Base(cls.File)]
		if !ok {
			continue
		}
		if _, err := al.l.Enter(ctx, "", cls.ID, owners[cls.ID], cls.DisplayName(), src); err != nil {
			return err
		}
		present[cls.ID] = true
	}
	if al.a.bots != nil {
		for _, id := range al.a.bots.ids() {
			present[id] = true // away or not, a bot keeps its place
		}
	}
	return al.retireGone(ctx, "", present)
}

// syncMod enters a rule mod's players, from its folder.
func (al *arenaLadder) syncMod(ctx context.Context, g ranked.Game) error {
	fsys, _, err := scriptsFS(al.a.cfg)
	if err != nil {
		return err
	}
	present := map[string]bool{}
	for _, cls := range g.Mod.Catalog.Players() {
		src, err := fs.ReadFile(fsys, path.Join(g.Name, path.Base(cls.File)))
		if err != nil {
			return err
		}
		if _, err := al.l.Enter(ctx, g.Name, cls.ID, "", cls.DisplayName(), src); err != nil {
			return err
		}
		present[cls.ID] = true
	}
	return al.retireGone(ctx, g.Name, present)
}

// retireGone retires the players of game that are no longer present.
func (al *arenaLadder) retireGone(ctx context.Context, game string, present map[string]bool) error {
	all, err := al.l.Players(ctx, game)
	if err != nil {
		return err
	}
	for _, p := range all {
		if !p.Retired && !present[p.Name] {
			if err := al.l.Retire(ctx, p.ID); err != nil {
				return err
			}
		}
	}
	return nil
}

// start plays ladder battles in the background until close.
func (al *arenaLadder) start() {
	if pg, ok := al.store.(pgLadderStore); ok {
		al.startHosted(pg.db)
		return
	}
	workers := al.a.cfg.Serve.Ladder.Workers
	if workers <= 0 {
		workers = max(runtime.NumCPU()-1, 1)
	}
	o := ranked.Options{Ladder: al.l, Games: al.games, Replays: al.replays, Workers: workers,
		Walls: al.walls, Finished: al.battleDone, Logger: al.log}
	if al.a.bots != nil {
		o.Available, o.Bot = al.a.bots.available, al.a.bots.ladderBot
	}
	r, err := ranked.New(o)
	if err != nil {
		al.log.Error("ladder", "event", "error", "reason", err.Error())
		return
	}
	ctx, cancel := context.WithCancel(context.Background())
	al.cancel, al.done = cancel, make(chan struct{})
	al.log.Info("ladder playing", "event", "ladder_start", "workers", workers, "games", len(al.games))
	go func() {
		defer close(al.done)
		if err := r.Run(ctx); err != nil && !errors.Is(err, context.Canceled) {
			al.log.Error("ladder", "event", "error", "reason", err.Error())
		}
	}()
}

// walls are the ladder's worker processes, at a lower priority than the
// hall's.
func (al *arenaLadder) walls() (ranked.Walls, error) { return ladderWalls(al.a.cfg) }

// ladderWalls are worker processes of cfg at the ladder's priority (a
// worker host's too).
func ladderWalls(cfg config.Config) (ranked.Walls, error) {
	p, err := poolAt(cfg, ladderNice)
	if p == nil || err != nil {
		return ranked.Walls{}, err
	}
	return ranked.Walls{Seat: p.Seat, RulesSeat: p, TopLevels: p.ReadTopLevels}, nil
}

// battleDone tells whoever listens of a battle done.
func (al *arenaLadder) battleDone(b ladder.Battle) {
	al.finishedMu.Lock()
	fns := make([]func(ladder.Battle), 0, len(al.finished))
	for _, f := range al.finished {
		fns = append(fns, f)
	}
	al.finishedMu.Unlock()
	for _, f := range fns {
		f(b)
	}
}

// onFinished registers f to be told of every battle done (from the
// goroutine that played it) until the returned function is called.
func (al *arenaLadder) onFinished(f func(ladder.Battle)) (stop func()) {
	al.finishedMu.Lock()
	defer al.finishedMu.Unlock()
	if al.finished == nil {
		al.finished = map[int]func(ladder.Battle){}
	}
	id := al.nextFn
	al.nextFn++
	al.finished[id] = f
	return func() {
		al.finishedMu.Lock()
		defer al.finishedMu.Unlock()
		delete(al.finished, id)
	}
}

// replayPath says where the replay of a ladder battle ID is kept.
func (al *arenaLadder) replayPath(id string) (string, bool) {
	n, ok := ranked.ParseReplayID(id)
	if !ok {
		return "", false
	}
	return al.replays.Path(n), true
}

// close stops the ladder's battles (those in flight are played again
// next time) and closes its database.
func (al *arenaLadder) close() {
	if al.cancel != nil {
		al.cancel()
		<-al.done
	}
	if err := al.store.Close(); err != nil {
		al.log.Error("closing the ladder", "event", "error", "reason", err.Error())
	}
}

// gameTitle names a game in messages.
func gameTitle(name string) string {
	if name == "" {
		return "SquareBattle"
	}
	return name
}
