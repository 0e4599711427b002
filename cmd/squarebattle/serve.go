package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"os/signal"
	"path/filepath"
	"syscall"
	"time"

	"github.com/squarebattle/squarebattle/config"
	"github.com/squarebattle/squarebattle/engine/flock"
	"github.com/squarebattle/squarebattle/engine/replay"
	"github.com/squarebattle/squarebattle/tui"
	tuissh "github.com/squarebattle/squarebattle/tui/ssh"
)

// serveCommand runs the SSH arena in the foreground until SIGINT or
// SIGTERM (see docs/serve.md). The server itself lives in tui/ssh; this
// wires the configuration, the scripts and the hall to it.
func serveCommand(args []string, stdout, stderr io.Writer) error {
	var c commonFlags
	fs := newFlagSet("serve", &c)
	fs.String("listen", "", "address to listen on (default serve.listen, 127.0.0.1:2222; :2222 for every interface)")
	fs.String("db", "", "the ladder's database: a SQLite file, or postgres://… shared with ladder worker hosts (default serve.ladder.db, ladder.db in the data dir)")
	helpOn(fs, stdout, "usage: squarebattle serve [flags]\n\nRuns the SSH arena: ssh -p 2222 HOST opens its menu. See docs/serve.md.")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if err := noArgs(fs); err != nil {
		return err
	}
	cfg, err := loadConfig(fs, &c)
	if err != nil {
		return err
	}
	if cfg.Isolation.Mode != config.IsolationProcess {
		return bad(errors.New("isolation.mode: serve runs players from strangers and needs process (got none)"))
	}
	// Everything the user can get wrong is tried before the server
	// writes its data folder (its lock aside) or logs a line: bad input
	// is one line.
	if _, _, err := scriptsFS(cfg); err != nil {
		return err
	}
	// A second serve on the dir stops here, whatever it listens on.
	dir, lock, err := lockDataDir(cfg)
	if err != nil {
		return err
	}
	defer lock.Release() // a.close releases it; this, when something fails before
	l, err := net.Listen("tcp", cfg.Serve.Listen)
	if err != nil {
		return bad(fmt.Errorf("serve.listen: %w", err))
	}
	defer l.Close()
	log := slog.New(slog.NewTextHandler(stderr, nil))
	a, err := openArena(cfg, dir, lock, log, nil)
	if err != nil {
		return err
	}
	defer a.close()
	ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGINT, syscall.SIGTERM)
	defer stop()
	served := make(chan error, 1)
	go func() { served <- a.srv.Serve(l) }()
	select {
	case err := <-served:
		return err
	case <-ctx.Done():
	}
	log.Info("signal received, stopping", "event", "signal")
	sctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	return a.srv.Shutdown(sctx)
}

// serveArena is the server with everything it runs on.
type serveArena struct {
	ladder *arenaLadder
	bots   *botHub
	cfg    config.Config
	store  *tuissh.Store
	src    *playSource
	hall   *tui.Hall
	srv    *tuissh.Server
	log    *slog.Logger
	lock   *flock.Lock // the data dir's, released by close
}

// newArena locks the data dir of cfg (lockDataDir) and opens the arena on
// it (openArena); close gives the dir up.
func newArena(cfg config.Config, log *slog.Logger, wrap func(*playSource) tui.Source) (*serveArena, error) {
	dir, lock, err := lockDataDir(cfg)
	if err != nil {
		return nil, err
	}
	a, err := openArena(cfg, dir, lock, log, wrap)
	if err != nil {
		lock.Release()
	}
	return a, err
}

// openArena opens the data dir dir, which lock holds, and the host key,
// builds the catalog of the shipped and uploaded players, starts the hall
// and makes the server. wrap, when not nil, stands between the hall and
// the players (tests play their battles on a map).
func openArena(cfg config.Config, dir string, lock *flock.Lock, log *slog.Logger, wrap func(*playSource) tui.Source) (*serveArena, error) {
	sc := cfg.Serve
	store, err := tuissh.OpenStore(dir)
	if err != nil {
		return nil, bad(fmt.Errorf("serve.data_dir: %w", err))
	}
	ladderStore, err := openLadderStore(cfg, store.Dir(), log)
	if err != nil {
		return nil, err
	}
	ladderOpen := false // from openLadder on, the ladder closes it
	defer func() {
		if !ladderOpen {
			ladderStore.Close()
		}
	}()
	if flock.Supported {
		removeLeftovers(log, store.Dir(),
			leftovers{"partial replays", "partials_removed", replay.PartialGlob, []string{store.ReplayDir(), ladderReplayDir(store.Dir())}},
			leftovers{"half-written bot records", "bot_leftovers_removed", atomicTempGlob, []string{botDir(store.Dir())}})
	} else {
		log.Warn("the data dir is not locked on this system: run one serve on it at a time", "event", "data_dir_unlocked", "dir", dir)
	}
	keyFile := sc.HostKey
	if keyFile == "" {
		keyFile = filepath.Join(store.Dir(), "host_ed25519")
	}
	host, created, err := tuissh.LoadHostKey(keyFile)
	if err != nil {
		return nil, bad(err)
	}
	log.Info("host key", "event", "host_key", "file", keyFile, "created", created, "fingerprint", tuissh.Fingerprint(host.PublicKey()))
	a := &serveArena{cfg: cfg, store: store, log: log, lock: lock}
	if a.bots, err = openBotHub(a); err != nil {
		return nil, fmt.Errorf("serve.data_dir: %w", err)
	}
	cat, err := a.catalog()
	if err != nil {
		return nil, err
	}
	a.src = newPlaySource(cfg, cat, nil, nil)
	a.src.remote = hubLobby{a.bots}
	var allow, admins map[string]bool
	if sc.Allowlist != "" {
		if allow, err = tuissh.ReadAuthorizedKeys(sc.Allowlist); err != nil {
			return nil, bad(fmt.Errorf("serve.allowlist: %w", err))
		}
	}
	if sc.Admins != "" {
		if admins, err = tuissh.ReadAuthorizedKeys(sc.Admins); err != nil {
			return nil, bad(fmt.Errorf("serve.admins: %w", err))
		}
	}
	var src tui.Source = a.src
	if wrap != nil {
		src = wrap(a.src)
	}
	set := settingsOf(cfg)
	set.FPS = sc.FPS
	a.hall, err = tui.NewHall(tui.HallOptions{
		Source:   src,
		Settings: set,
		Featured: tui.FeaturedOptions{Players: sc.FeaturedIDs(), Size: sc.FeaturedSize, Rounds: sc.FeaturedRounds,
			Seed: uint64(sc.FeaturedSeed)},
		MaxPrivate: max(sc.PrivateBattles, 1),
		MaxPerUser: sc.PrivateBattlesPerUser,
		MaxSize:    sc.MaxSize,
		MaxRounds:  sc.MaxRounds,
		ReplayDir:  store.ReplayDir(),
		// Who may have each replay (tui/ssh/replays.go).
		Recording: func(file string, featured bool, owner, key string) {
			if err := store.NoteReplay(file, featured, owner, key); err != nil {
				log.Error("replay owner", "event", "error", "reason", err.Error())
			}
		},
		Logger: log,
	})
	if err != nil {
		return nil, err
	}
	if a.ladder, err = openLadder(a, ladderStore); err != nil {
		a.hall.Close()
		return nil, err
	}
	ladderOpen = true
	a.srv, err = tuissh.New(tuissh.Options{
		Ladder:         tui.NewLadderView(a.ladder.l, tui.LadderViewOptions{}),
		LadderReplay:   a.ladder.replayPath,
		WaitRated:      a.ladder.waitRated,
		LadderAdmin:    a.ladder.admin,
		BotLink:        a.bots.link,
		BotNames:       a.bots.namesOf,
		BotClock:       *a.bots.timing(),
		HostKey:        host,
		Store:          store,
		Limits:         limitsOfServe(cfg),
		Anonymous:      sc.Anonymous,
		Allowlist:      allow,
		Admins:         admins,
		PrivateBattles: sc.PrivateBattles,
		Hall:           a.hall,
		Check:          a.check,
		Admit:          a.admit,
		Changed:        a.reload,
		Players:        a.players,
		Logger:         log,
	})
	if err != nil {
		a.ladder.close()
		a.hall.Close()
		return nil, err
	}
	return a, nil
}

// close stops what writes in the data dir, then gives the dir up.
func (a *serveArena) close() {
	a.ladder.close()
	if err := a.hall.Close(); err != nil {
		a.log.Error("closing the hall", "event", "error", "reason", err.Error())
	}
	a.lock.Release()
}

// limitsOfServe turns the serve section into the server's limits.
func limitsOfServe(cfg config.Config) tuissh.Limits {
	sc := cfg.Serve
	sec := func(n int) time.Duration { return time.Duration(n) * time.Second }
	return tuissh.Limits{
		Sessions: sc.Sessions, SessionsPerIP: sc.SessionsPerIP, ConnectionsPerMinute: sc.ConnectionsPerMinute,
		Handshake: sec(sc.HandshakeTimeout), Idle: sec(sc.IdleTimeout), MaxSession: sec(sc.MaxSession),
		Write: sec(sc.WriteTimeout), UploadsPerHour: sc.UploadsPerHour, PlayersPerUser: sc.PlayersPerUser,
		NewUsersPerIPHour: sc.NewUsersPerIPHour, Users: sc.Users,
		ScriptBytes: cfg.Limits.ScriptBytes, FPS: sc.FPS,
		ChannelsPerConn: sc.ChannelsPerConnection, EnvRequests: sc.EnvRequests, EnvBytes: sc.EnvBytes,
		Command: sec(sc.CommandTimeout), Checks: sc.Checks, ChecksPerIP: sc.ChecksPerIP, ChecksPerKey: sc.ChecksPerKey,
	}
}

// userDataDir is $XDG_DATA_HOME/squarebattle/serve, or
// ~/.local/share/squarebattle/serve.
func userDataDir() (string, error) {
	d, err := config.DataDir("serve")
	if err != nil {
		return "", errors.New("serve.data_dir is empty and there is no data folder ($XDG_DATA_HOME or a home folder)")
	}
	return d, nil
}
