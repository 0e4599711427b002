package main

import (
	"errors"
	"fmt"
	"io"
	"slices"
	"sync"
	"time"

	"github.com/gdamore/tcell/v2"
	"github.com/gdamore/tcell/v2/terminfo"

	"github.com/squarebattle/squarebattle/config"
	"github.com/squarebattle/squarebattle/engine"
	"github.com/squarebattle/squarebattle/engine/replay"
	"github.com/squarebattle/squarebattle/luabind"
	"github.com/squarebattle/squarebattle/tui"
)

// playCommand opens the terminal UI: the lobby, or straight into a battle
// when players are named.
func playCommand(args []string, stdout, stderr io.Writer) error {
	var c commonFlags
	fs := newFlagSet("play", &c)
	paused := fs.Bool("paused", false, "start battles paused")
	record := fs.String("record", "", "write each battle's replay when it ends or is left: FILE, then FILE-2, ... (see 'squarebattle replay')")
	fs.Usage = func() {
		fmt.Fprintln(stderr, "usage: squarebattle play [flags] [PLAYER...]\n\nOpens the terminal UI. With PLAYERs the battle starts at once; without, the lobby opens.\n\nflags:")
		fs.PrintDefaults()
	}
	cfg, cat, err := parseAndLoad(fs, &c, args)
	if err != nil {
		return err
	}
	var start *tui.Setup
	if fs.NArg() > 0 {
		players, err := pickPlayers(cat, fs.Args())
		if err != nil {
			return err
		}
		su := tui.Setup{Size: cfg.Arena.Size, Rounds: cfg.Rules.Rounds, Seed: battleSeed(cfg)}
		for _, p := range players {
			su.Players = append(su.Players, p.ID)
		}
		start = &su
	}
	src := newPlaySource(cfg, cat)
	screen, err := newScreen()
	if err != nil {
		return fmt.Errorf("%w (squarebattle run plays without a terminal)", err)
	}
	app := tui.New(tui.Options{Screen: screen, Source: src, Settings: settingsOf(cfg), Start: start, Paused: *paused, Record: *record})
	if dir := diskScripts(cfg); dir != "" {
		stop, err := watchScripts(dir, func() {
			if err := src.reload(); err == nil {
				app.Reload()
			}
		})
		if err == nil {
			defer stop()
		}
	}
	return app.Run()
}

func settingsOf(cfg config.Config) tui.Settings {
	return tui.Settings{
		Size:      cfg.Arena.Size,
		Rounds:    cfg.Rules.Rounds,
		TimeLimit: time.Duration(cfg.Rules.TimeLimit) * time.Second,
		Seed:      uint64(cfg.Seed),
		Speed:     cfg.TUI.Speed,
		FPS:       cfg.TUI.FPS,
		Rewind:    rewindOf(cfg),
	}
}

// rewindOf maps tui.rewind (0 = none) onto tui.Settings (0 = the default).
func rewindOf(cfg config.Config) int {
	if cfg.TUI.Rewind == 0 {
		return -1
	}
	return cfg.TUI.Rewind
}

// newScreen opens the terminal. tcell knows the common terminals without
// asking infocmp; for a $TERM it does not know (and no infocmp to ask), it
// falls back to xterm-256color, which nearly every terminal emulates.
func newScreen() (tcell.Screen, error) {
	s, err := tcell.NewScreen()
	if err == nil {
		return s, nil
	}
	if !errors.Is(err, terminfo.ErrTermNotFound) {
		return nil, fmt.Errorf("terminal: %w", err)
	}
	ti, lerr := terminfo.LookupTerminfo("xterm-256color")
	if lerr != nil {
		return nil, fmt.Errorf("terminal: %w", err)
	}
	return tcell.NewTerminfoScreenFromTtyTerminfo(nil, ti)
}

// playSource lends the terminal UI the catalog, which hot reload replaces.
type playSource struct {
	mu  sync.Mutex
	cat *luabind.Catalog
	cfg config.Config
}

func newPlaySource(cfg config.Config, cat *luabind.Catalog) *playSource {
	return &playSource{cfg: cfg, cat: cat}
}

func (p *playSource) catalog() *luabind.Catalog {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.cat
}

// reload reads the scripts folder again; on failure the old catalog stays.
func (p *playSource) reload() error {
	cat, err := loadCatalog(p.cfg)
	if err != nil {
		return err
	}
	p.mu.Lock()
	p.cat = cat
	p.mu.Unlock()
	return nil
}

func (p *playSource) Dir() string {
	if d := diskScripts(p.cfg); d != "" {
		return d
	}
	return "shipped players"
}

// Entries lists starting players first, then classes that are only
// replicated into, then broken scripts; each group by id.
func (p *playSource) Entries() []tui.Entry {
	var out []tui.Entry
	for _, c := range p.catalog().All {
		e := tui.Entry{ID: c.ID, Name: c.Name, File: c.File}
		if c.Err != nil {
			e.Name, e.Problem = "", c.Err.Error()
		}
		out = append(out, e)
	}
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

func (p *playSource) NewBattle(su tui.Setup) (tui.Battle, error) {
	cat := p.catalog()
	var players []*luabind.Class
	for _, id := range su.Players {
		cls, err := cat.Find(id)
		if err != nil {
			return nil, err
		}
		if !cls.Starting() {
			return nil, fmt.Errorf("%s cannot start a team", cls.File)
		}
		players = append(players, cls)
	}
	b, err := luabind.NewBattle(cat, players, engine.Options{
		Size:            su.Size,
		Wrap:            p.cfg.Arena.Wrap,
		Rounds:          su.Rounds,
		ReplicateRounds: p.cfg.Rules.ReplicateRounds,
		Seed:            su.Seed,
		Workers:         workers(p.cfg),
	})
	if err != nil {
		return nil, err
	}
	return tuiBattle{Battle: b, header: replayHeader(p.cfg, cat, b)}, nil
}

// tuiBattle is a Lua battle as the terminal UI drives it: it records its
// rounds for rewinding and describes itself for its replay file.
type tuiBattle struct {
	*luabind.Battle
	header replay.Header
}

func (b tuiBattle) Recorder() *engine.Recorder { return engine.NewRecorder(b.Battle.Battle) }
func (b tuiBattle) Header() replay.Header      { return b.header }
